/**
 * Span names (OpenTelemetry GenAI, MCP and A2A conventions; `graph.node {id}` is ours): `{operation} {subject}`, the
 * operation alone when there is no subject. Apart from the public attribute tables, so code that names a span keeps
 * none of them.
 */
import { GEN_AI_OPERATION_CHAT, GEN_AI_OPERATION_EXECUTE_TOOL, GEN_AI_OPERATION_INVOKE_AGENT, GEN_AI_OPERATION_INVOKE_WORKFLOW } from './attribute-names.js';

function named(operation: string, subject: string | undefined): string {
  return typeof subject === 'string' && subject !== '' ? `${operation} ${subject}` : operation;
}

/**
 * The name of a model call span: `chat {gen_ai.request.model}` (`chat` when the model is unknown).
 * @example `chatSpanName('gpt-4o') // 'chat gpt-4o'`
 */
export function chatSpanName(model: string | undefined): string {
  return named(GEN_AI_OPERATION_CHAT, model);
}

/**
 * The name of an agent run span: `invoke_agent {gen_ai.agent.name}` (`invoke_agent` when it has no name).
 * @example `agentSpanName('planner') // 'invoke_agent planner'`
 */
export function agentSpanName(name: string | undefined): string {
  return named(GEN_AI_OPERATION_INVOKE_AGENT, name);
}

/**
 * The name of a workflow (graph run) span: `invoke_workflow {gen_ai.workflow.name}`.
 * @example `workflowSpanName('support_pipeline') // 'invoke_workflow support_pipeline'`
 */
export function workflowSpanName(name: string | undefined): string {
  return named(GEN_AI_OPERATION_INVOKE_WORKFLOW, name);
}

/**
 * The name of a tool call span: `execute_tool {gen_ai.tool.name}`.
 * @example `toolSpanName('get_weather') // 'execute_tool get_weather'`
 */
export function toolSpanName(name: string | undefined): string {
  return named(GEN_AI_OPERATION_EXECUTE_TOOL, name);
}

/**
 * The name of a graph node span (our convention): `graph.node {id}`.
 * @example `graphNodeSpanName('plan') // 'graph.node plan'`
 */
export function graphNodeSpanName(id: string): string {
  return named('graph.node', id);
}

/**
 * The name of an MCP span: `{mcp.method.name} {target}`, the target being the tool or prompt name when there is one.
 * @example `mcpSpanName('tools/call', 'get_weather') // 'tools/call get_weather'`
 */
export function mcpSpanName(method: string, target?: string | undefined): string {
  return named(method, target);
}

/**
 * The name of an A2A span: `{a2a.method.name}`, the logical A2A 1.0 operation name.
 * @example `a2aSpanName('SendMessage') // 'SendMessage'`
 */
export function a2aSpanName(method: string): string {
  return method;
}
