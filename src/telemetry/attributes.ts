/**
 * Attribute, event and span names the SDK records, in one place (never retyped at call sites). The `gen_ai.*`,
 * `mcp.*`, `a2a.*`, `jsonrpc.*`, `rpc.*`, `error.type`, `server.*`, `network.*` and `exception.*` names follow the
 * OpenTelemetry semantic conventions (GenAI, MCP and A2A ones are at "Development" stability and may still change):
 *
 * - GenAI spans (chat): https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/
 * - GenAI agent spans (invoke_agent, invoke_workflow, execute_tool): https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-agent-spans/
 * - GenAI attribute registry: https://opentelemetry.io/docs/specs/semconv/registry/attributes/gen-ai/
 * - MCP spans: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 * - A2A spans: https://github.com/open-telemetry/semantic-conventions-genai/blob/main/docs/gen-ai/a2a.md
 * - JSON-RPC attributes: https://opentelemetry.io/docs/specs/semconv/registry/attributes/jsonrpc/
 * - RPC attributes (`rpc.system.name` replaced the deprecated `rpc.system`): https://opentelemetry.io/docs/specs/semconv/registry/attributes/rpc/
 * - `error.type`: https://opentelemetry.io/docs/specs/semconv/registry/attributes/error/
 * - Exceptions: https://opentelemetry.io/docs/specs/semconv/exceptions/exceptions-spans/
 *
 * Names of our own (no convention covers them) live under `faultline.*`: graph nodes (span `graph.node <id>`,
 * attributes `faultline.graph.node.id`, `faultline.graph.node.type`, `faultline.graph.step`), and the retry and
 * fallback events (`faultline.retry`, `faultline.fallback`).
 */

/**
 * GenAI attributes (`gen_ai.*`). Content attributes — `InputMessages`, `OutputMessages`, `SystemInstructions`,
 * `ToolCallArguments`, `ToolCallResult` — are opt-in: record them only when `telemetry.recordContent` is true.
 * @example `span.setAttributes({ [GenAIAttribute.OperationName]: GenAIOperation.Chat, [GenAIAttribute.RequestModel]: 'gpt-4o' })`
 */
export const GenAIAttribute = /* @__PURE__ */ Object.freeze({
  OperationName: 'gen_ai.operation.name',
  ProviderName: 'gen_ai.provider.name',
  RequestModel: 'gen_ai.request.model',
  RequestMaxTokens: 'gen_ai.request.max_tokens',
  RequestTemperature: 'gen_ai.request.temperature',
  RequestStream: 'gen_ai.request.stream',
  ResponseModel: 'gen_ai.response.model',
  ResponseId: 'gen_ai.response.id',
  ResponseFinishReasons: 'gen_ai.response.finish_reasons',
  UsageInputTokens: 'gen_ai.usage.input_tokens',
  UsageOutputTokens: 'gen_ai.usage.output_tokens',
  UsageCacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  AgentName: 'gen_ai.agent.name',
  AgentId: 'gen_ai.agent.id',
  AgentDescription: 'gen_ai.agent.description',
  AgentVersion: 'gen_ai.agent.version',
  ConversationId: 'gen_ai.conversation.id',
  WorkflowName: 'gen_ai.workflow.name',
  ToolName: 'gen_ai.tool.name',
  ToolCallId: 'gen_ai.tool.call.id',
  ToolType: 'gen_ai.tool.type',
  ToolDescription: 'gen_ai.tool.description',
  PromptName: 'gen_ai.prompt.name',
  /** Opt-in content. */
  ToolCallArguments: 'gen_ai.tool.call.arguments',
  /** Opt-in content. */
  ToolCallResult: 'gen_ai.tool.call.result',
  /** Opt-in content. */
  InputMessages: 'gen_ai.input.messages',
  /** Opt-in content. */
  OutputMessages: 'gen_ai.output.messages',
  /** Opt-in content. */
  SystemInstructions: 'gen_ai.system_instructions',
} as const);

/**
 * Values of `gen_ai.operation.name` the SDK records.
 * @example `{ [GenAIAttribute.OperationName]: GenAIOperation.ExecuteTool }`
 */
export const GenAIOperation = /* @__PURE__ */ Object.freeze({
  Chat: 'chat',
  InvokeAgent: 'invoke_agent',
  InvokeWorkflow: 'invoke_workflow',
  ExecuteTool: 'execute_tool',
} as const);

/**
 * Values of `gen_ai.tool.type`: `function` (run by the client — our tools), `extension` (run agent-side, e.g. an
 * MCP tool), `datastore`.
 * @example `{ [GenAIAttribute.ToolType]: GenAIToolType.Function }`
 */
export const GenAIToolType = /* @__PURE__ */ Object.freeze({
  Function: 'function',
  Extension: 'extension',
  Datastore: 'datastore',
} as const);

/**
 * MCP attributes (`mcp.*`). MCP spans also carry `gen_ai.tool.name` / `gen_ai.prompt.name`, `jsonrpc.request.id`,
 * `rpc.response.status_code` (a JSON-RPC error code), `network.transport` and `error.type` — see
 * {@link CommonAttribute}.
 * @example `{ [MCPAttribute.MethodName]: 'tools/call', [MCPAttribute.SessionId]: sessionId }`
 */
export const MCPAttribute = /* @__PURE__ */ Object.freeze({
  MethodName: 'mcp.method.name',
  SessionId: 'mcp.session.id',
  ProtocolVersion: 'mcp.protocol.version',
  ResourceURI: 'mcp.resource.uri',
} as const);

// The attributes every A2A client span carries, each a constant of its own that the tables below reuse: a bundle of
// the A2A client holds these few strings, not the whole tables.
/** @internal `a2a.method.name` ({@link A2AAttribute}.MethodName). */
export const A2A_METHOD_NAME = 'a2a.method.name';
/** @internal `a2a.task.id` ({@link A2AAttribute}.TaskId). */
export const A2A_TASK_ID = 'a2a.task.id';
/** @internal `a2a.task.state` ({@link A2AAttribute}.TaskState). */
export const A2A_TASK_STATE = 'a2a.task.state';
/** @internal `rpc.system.name` ({@link CommonAttribute}.RPCSystemName). */
export const RPC_SYSTEM_NAME = 'rpc.system.name';
/** @internal `rpc.method` ({@link CommonAttribute}.RPCMethod). */
export const RPC_METHOD = 'rpc.method';
/** @internal `server.address` ({@link CommonAttribute}.ServerAddress). */
export const SERVER_ADDRESS = 'server.address';

/**
 * A2A attributes (`a2a.*`). `a2a.method.name` is the logical A2A 1.0 operation name (`SendMessage`,
 * `SendStreamingMessage`, `GetTask`, `CancelTask`, `SubscribeToTask`, `GetExtendedAgentCard`), also for A2A 0.3's
 * JSON-RPC methods (`message/send` is `SendMessage`); the JSON-RPC method itself goes in `rpc.method`, with
 * `rpc.system.name: 'jsonrpc'`. The A2A `contextId` is recorded as `gen_ai.conversation.id`.
 * @example `{ [A2AAttribute.MethodName]: 'SendMessage', [A2AAttribute.TaskId]: task.id }`
 */
export const A2AAttribute = /* @__PURE__ */ Object.freeze({
  MethodName: A2A_METHOD_NAME,
  ProtocolVersion: 'a2a.protocol.version',
  TaskId: A2A_TASK_ID,
  TaskState: A2A_TASK_STATE,
  MessageId: 'a2a.message.id',
  ReferenceTaskIds: 'a2a.message.reference_task_ids',
  Tenant: 'a2a.tenant',
} as const);

/**
 * Attributes shared by several span families (errors, peers, RPC, exceptions).
 * @example `{ [CommonAttribute.ServerAddress]: url.hostname, [CommonAttribute.ServerPort]: 443 }`
 */
export const CommonAttribute = /* @__PURE__ */ Object.freeze({
  ErrorType: 'error.type',
  ServerAddress: SERVER_ADDRESS,
  ServerPort: 'server.port',
  NetworkTransport: 'network.transport',
  NetworkProtocolName: 'network.protocol.name',
  RPCSystemName: RPC_SYSTEM_NAME,
  RPCMethod: RPC_METHOD,
  RPCResponseStatusCode: 'rpc.response.status_code',
  JSONRPCRequestId: 'jsonrpc.request.id',
  JSONRPCProtocolVersion: 'jsonrpc.protocol.version',
  ExceptionType: 'exception.type',
  ExceptionMessage: 'exception.message',
} as const);

/**
 * Attributes of our own, where no convention applies: graph nodes, retries, fallbacks.
 * @example `{ [FaultlineAttribute.GraphNodeId]: 'plan', [FaultlineAttribute.GraphStep]: 3 }`
 */
export const FaultlineAttribute = /* @__PURE__ */ Object.freeze({
  /** The id of a graph node. */
  GraphNodeId: 'faultline.graph.node.id',
  /** What a graph node runs (`function`, `agent`, `subgraph`…). */
  GraphNodeType: 'faultline.graph.node.type',
  /** The superstep number of a graph run. */
  GraphStep: 'faultline.graph.step',
  /** On a `faultline.retry` event: the attempt about to be made (2 = first retry). */
  RetryAttempt: 'faultline.retry.attempt',
  /** On a `faultline.retry` event: the wait before it, in ms. */
  RetryDelayMs: 'faultline.retry.delay_ms',
  /** On a `faultline.fallback` event: what failed (a model, a client). */
  FallbackFrom: 'faultline.fallback.from',
  /** On a `faultline.fallback` event: what is tried next. */
  FallbackTo: 'faultline.fallback.to',
  /** On a `faultline.retry` event: a shared retry budget refused the retry (the failure was reported). */
  RetryBudgetExhausted: 'faultline.retry.budget_exhausted',
  /** How a tool call ended (`success`, `error_result`, `failure`, `timeout`, `crash`, `invalid_arguments`…). */
  ToolOutcome: 'faultline.tool.outcome',
  /** Attempts a tool call made. */
  ToolAttempts: 'faultline.tool.attempts',
  /** The severity of a failed graph node's execution-error record: `recoverable` or `fatal`. */
  ExecutionErrorSeverity: 'faultline.execution_error.severity',
  /** On a run span: how the run finished (`stop`, `length`, `max_iterations`…). */
  FinishReason: 'faultline.finish_reason',
  /** On a `faultline.interrupt` or `faultline.resume` event: how many interrupts it names. */
  InterruptCount: 'faultline.interrupt.count',
  /** On a `faultline.interrupt` or `faultline.resume` event: the interrupt ids, comma-separated. */
  InterruptIds: 'faultline.interrupt.ids',
  /** On a refused `faultline.resume` event: the refusal's `ResumeCode`. */
  ResumeRefused: 'faultline.resume.refused',
} as const);

/**
 * Span event names: retries and fallbacks, and the redacted `exception` event `fail()` records.
 * @example `span.addEvent(TelemetryEvent.Retry, { [FaultlineAttribute.RetryAttempt]: 2, [CommonAttribute.ErrorType]: 'chat_client' })`
 */
export const TelemetryEvent = /* @__PURE__ */ Object.freeze({
  Exception: 'exception',
  Retry: 'faultline.retry',
  Fallback: 'faultline.fallback',
  /** A failure the run recovered from (a tool crash, a fallback, a recoverable node): `error.type` on the event. */
  RecoverableError: 'faultline.recoverable_error',
  /** A run (or a graph node) stopped to ask a person: ids and counts only, never what was asked. */
  Interrupt: 'faultline.interrupt',
  /** A resume of an interrupted run, accepted or refused: ids, counts, the refusal's code. */
  Resume: 'faultline.resume',
} as const);

/**
 * The `error.type` of a failure with no better identifier (the convention's fallback value).
 * @example `errorTypeOf('boom') === ERROR_TYPE_OTHER`
 */
export const ERROR_TYPE_OTHER = '_OTHER';

/**
 * The `rpc.system.name` of A2A and MCP calls.
 * @example `{ [CommonAttribute.RPCSystemName]: RPC_SYSTEM_JSONRPC, [CommonAttribute.RPCMethod]: 'message/send' }`
 */
export const RPC_SYSTEM_JSONRPC = 'jsonrpc';

function named(operation: string, subject: string | undefined): string {
  return typeof subject === 'string' && subject !== '' ? `${operation} ${subject}` : operation;
}

/**
 * The name of a model call span: `chat {gen_ai.request.model}` (`chat` when the model is unknown).
 * @example `chatSpanName('gpt-4o') // 'chat gpt-4o'`
 */
export function chatSpanName(model: string | undefined): string {
  return named(GenAIOperation.Chat, model);
}

/**
 * The name of an agent run span: `invoke_agent {gen_ai.agent.name}` (`invoke_agent` when it has no name).
 * @example `agentSpanName('planner') // 'invoke_agent planner'`
 */
export function agentSpanName(name: string | undefined): string {
  return named(GenAIOperation.InvokeAgent, name);
}

/**
 * The name of a workflow (graph run) span: `invoke_workflow {gen_ai.workflow.name}`.
 * @example `workflowSpanName('support_pipeline') // 'invoke_workflow support_pipeline'`
 */
export function workflowSpanName(name: string | undefined): string {
  return named(GenAIOperation.InvokeWorkflow, name);
}

/**
 * The name of a tool call span: `execute_tool {gen_ai.tool.name}`.
 * @example `toolSpanName('get_weather') // 'execute_tool get_weather'`
 */
export function toolSpanName(name: string | undefined): string {
  return named(GenAIOperation.ExecuteTool, name);
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
