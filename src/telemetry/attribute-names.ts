/**
 * The names the SDK records, one plain string constant each: the code that builds spans imports the few it sets, so a
 * bundle keeps those strings and not the public tables of attributes.ts (which are built from these; see there for
 * the conventions they follow). The constants are internal (apps use the tables), but for the two values at the end.
 *
 * @example
 * ```ts
 * span.setAttributes({ [GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_EXECUTE_TOOL, [GEN_AI_TOOL_NAME]: 'get_weather' });
 * ```
 */

// GenAI attributes (`GenAIAttribute`).
/** @internal `gen_ai.operation.name` (GenAIAttribute.OperationName). */
export const GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
/** @internal `gen_ai.provider.name` (GenAIAttribute.ProviderName). */
export const GEN_AI_PROVIDER_NAME = 'gen_ai.provider.name';
/** @internal `gen_ai.request.model` (GenAIAttribute.RequestModel). */
export const GEN_AI_REQUEST_MODEL = 'gen_ai.request.model';
/** @internal `gen_ai.request.max_tokens` (GenAIAttribute.RequestMaxTokens). */
export const GEN_AI_REQUEST_MAX_TOKENS = 'gen_ai.request.max_tokens';
/** @internal `gen_ai.request.temperature` (GenAIAttribute.RequestTemperature). */
export const GEN_AI_REQUEST_TEMPERATURE = 'gen_ai.request.temperature';
/** @internal `gen_ai.request.stream` (GenAIAttribute.RequestStream). */
export const GEN_AI_REQUEST_STREAM = 'gen_ai.request.stream';
/** @internal `gen_ai.response.model` (GenAIAttribute.ResponseModel). */
export const GEN_AI_RESPONSE_MODEL = 'gen_ai.response.model';
/** @internal `gen_ai.response.id` (GenAIAttribute.ResponseId). */
export const GEN_AI_RESPONSE_ID = 'gen_ai.response.id';
/** @internal `gen_ai.response.finish_reasons` (GenAIAttribute.ResponseFinishReasons). */
export const GEN_AI_RESPONSE_FINISH_REASONS = 'gen_ai.response.finish_reasons';
/** @internal `gen_ai.usage.input_tokens` (GenAIAttribute.UsageInputTokens). */
export const GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens';
/** @internal `gen_ai.usage.output_tokens` (GenAIAttribute.UsageOutputTokens). */
export const GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
/** @internal `gen_ai.usage.cache_read.input_tokens` (GenAIAttribute.UsageCacheReadInputTokens). */
export const GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS = 'gen_ai.usage.cache_read.input_tokens';
/** @internal `gen_ai.agent.name` (GenAIAttribute.AgentName). */
export const GEN_AI_AGENT_NAME = 'gen_ai.agent.name';
/** @internal `gen_ai.agent.id` (GenAIAttribute.AgentId). */
export const GEN_AI_AGENT_ID = 'gen_ai.agent.id';
/** @internal `gen_ai.agent.description` (GenAIAttribute.AgentDescription). */
export const GEN_AI_AGENT_DESCRIPTION = 'gen_ai.agent.description';
/** @internal `gen_ai.agent.version` (GenAIAttribute.AgentVersion). */
export const GEN_AI_AGENT_VERSION = 'gen_ai.agent.version';
/** @internal `gen_ai.conversation.id` (GenAIAttribute.ConversationId). */
export const GEN_AI_CONVERSATION_ID = 'gen_ai.conversation.id';
/** @internal `gen_ai.workflow.name` (GenAIAttribute.WorkflowName). */
export const GEN_AI_WORKFLOW_NAME = 'gen_ai.workflow.name';
/** @internal `gen_ai.tool.name` (GenAIAttribute.ToolName). */
export const GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
/** @internal `gen_ai.tool.call.id` (GenAIAttribute.ToolCallId). */
export const GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id';
/** @internal `gen_ai.tool.type` (GenAIAttribute.ToolType). */
export const GEN_AI_TOOL_TYPE = 'gen_ai.tool.type';
/** @internal `gen_ai.tool.description` (GenAIAttribute.ToolDescription). */
export const GEN_AI_TOOL_DESCRIPTION = 'gen_ai.tool.description';
/** @internal `gen_ai.prompt.name` (GenAIAttribute.PromptName). */
export const GEN_AI_PROMPT_NAME = 'gen_ai.prompt.name';
/** @internal `gen_ai.tool.call.arguments` (GenAIAttribute.ToolCallArguments). */
export const GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments';
/** @internal `gen_ai.tool.call.result` (GenAIAttribute.ToolCallResult). */
export const GEN_AI_TOOL_CALL_RESULT = 'gen_ai.tool.call.result';
/** @internal `gen_ai.input.messages` (GenAIAttribute.InputMessages). */
export const GEN_AI_INPUT_MESSAGES = 'gen_ai.input.messages';
/** @internal `gen_ai.output.messages` (GenAIAttribute.OutputMessages). */
export const GEN_AI_OUTPUT_MESSAGES = 'gen_ai.output.messages';
/** @internal `gen_ai.system_instructions` (GenAIAttribute.SystemInstructions). */
export const GEN_AI_SYSTEM_INSTRUCTIONS = 'gen_ai.system_instructions';

// MCP attributes (`MCPAttribute`).
/** @internal `mcp.method.name` (MCPAttribute.MethodName). */
export const MCP_METHOD_NAME = 'mcp.method.name';
/** @internal `mcp.session.id` (MCPAttribute.SessionId). */
export const MCP_SESSION_ID = 'mcp.session.id';
/** @internal `mcp.protocol.version` (MCPAttribute.ProtocolVersion). */
export const MCP_PROTOCOL_VERSION = 'mcp.protocol.version';
/** @internal `mcp.resource.uri` (MCPAttribute.ResourceURI). */
export const MCP_RESOURCE_URI = 'mcp.resource.uri';

// A2A attributes (`A2AAttribute`).
/** @internal `a2a.method.name` (A2AAttribute.MethodName). */
export const A2A_METHOD_NAME = 'a2a.method.name';
/** @internal `a2a.protocol.version` (A2AAttribute.ProtocolVersion). */
export const A2A_PROTOCOL_VERSION = 'a2a.protocol.version';
/** @internal `a2a.task.id` (A2AAttribute.TaskId). */
export const A2A_TASK_ID = 'a2a.task.id';
/** @internal `a2a.task.state` (A2AAttribute.TaskState). */
export const A2A_TASK_STATE = 'a2a.task.state';
/** @internal `a2a.message.id` (A2AAttribute.MessageId). */
export const A2A_MESSAGE_ID = 'a2a.message.id';
/** @internal `a2a.message.reference_task_ids` (A2AAttribute.ReferenceTaskIds). */
export const A2A_MESSAGE_REFERENCE_TASK_IDS = 'a2a.message.reference_task_ids';
/** @internal `a2a.tenant` (A2AAttribute.Tenant). */
export const A2A_TENANT = 'a2a.tenant';

// Attributes shared by several span families (`CommonAttribute`).
/** @internal `error.type` (CommonAttribute.ErrorType). */
export const ERROR_TYPE = 'error.type';
/** @internal `server.address` (CommonAttribute.ServerAddress). */
export const SERVER_ADDRESS = 'server.address';
/** @internal `server.port` (CommonAttribute.ServerPort). */
export const SERVER_PORT = 'server.port';
/** @internal `network.transport` (CommonAttribute.NetworkTransport). */
export const NETWORK_TRANSPORT = 'network.transport';
/** @internal `network.protocol.name` (CommonAttribute.NetworkProtocolName). */
export const NETWORK_PROTOCOL_NAME = 'network.protocol.name';
/** @internal `rpc.system.name` (CommonAttribute.RPCSystemName). */
export const RPC_SYSTEM_NAME = 'rpc.system.name';
/** @internal `rpc.method` (CommonAttribute.RPCMethod). */
export const RPC_METHOD = 'rpc.method';
/** @internal `rpc.response.status_code` (CommonAttribute.RPCResponseStatusCode). */
export const RPC_RESPONSE_STATUS_CODE = 'rpc.response.status_code';
/** @internal `jsonrpc.request.id` (CommonAttribute.JSONRPCRequestId). */
export const JSONRPC_REQUEST_ID = 'jsonrpc.request.id';
/** @internal `jsonrpc.protocol.version` (CommonAttribute.JSONRPCProtocolVersion). */
export const JSONRPC_PROTOCOL_VERSION = 'jsonrpc.protocol.version';
/** @internal `exception.type` (CommonAttribute.ExceptionType). */
export const EXCEPTION_TYPE = 'exception.type';
/** @internal `exception.message` (CommonAttribute.ExceptionMessage). */
export const EXCEPTION_MESSAGE = 'exception.message';

// Attributes of our own (`FaultlineAttribute`).
/** @internal `faultline.graph.node.id` (FaultlineAttribute.GraphNodeId). */
export const FAULTLINE_GRAPH_NODE_ID = 'faultline.graph.node.id';
/** @internal `faultline.graph.node.type` (FaultlineAttribute.GraphNodeType). */
export const FAULTLINE_GRAPH_NODE_TYPE = 'faultline.graph.node.type';
/** @internal `faultline.graph.step` (FaultlineAttribute.GraphStep). */
export const FAULTLINE_GRAPH_STEP = 'faultline.graph.step';
/** @internal `faultline.retry.attempt` (FaultlineAttribute.RetryAttempt). */
export const FAULTLINE_RETRY_ATTEMPT = 'faultline.retry.attempt';
/** @internal `faultline.retry.delay_ms` (FaultlineAttribute.RetryDelayMs). */
export const FAULTLINE_RETRY_DELAY_MS = 'faultline.retry.delay_ms';
/** @internal `faultline.fallback.from` (FaultlineAttribute.FallbackFrom). */
export const FAULTLINE_FALLBACK_FROM = 'faultline.fallback.from';
/** @internal `faultline.fallback.to` (FaultlineAttribute.FallbackTo). */
export const FAULTLINE_FALLBACK_TO = 'faultline.fallback.to';
/** @internal `faultline.retry.budget_exhausted` (FaultlineAttribute.RetryBudgetExhausted). */
export const FAULTLINE_RETRY_BUDGET_EXHAUSTED = 'faultline.retry.budget_exhausted';
/** @internal `faultline.tool.outcome` (FaultlineAttribute.ToolOutcome). */
export const FAULTLINE_TOOL_OUTCOME = 'faultline.tool.outcome';
/** @internal `faultline.tool.attempts` (FaultlineAttribute.ToolAttempts). */
export const FAULTLINE_TOOL_ATTEMPTS = 'faultline.tool.attempts';
/** @internal `faultline.execution_error.severity` (FaultlineAttribute.ExecutionErrorSeverity). */
export const FAULTLINE_EXECUTION_ERROR_SEVERITY = 'faultline.execution_error.severity';
/** @internal `faultline.finish_reason` (FaultlineAttribute.FinishReason). */
export const FAULTLINE_FINISH_REASON = 'faultline.finish_reason';
/** @internal `faultline.interrupt.count` (FaultlineAttribute.InterruptCount). */
export const FAULTLINE_INTERRUPT_COUNT = 'faultline.interrupt.count';
/** @internal `faultline.interrupt.ids` (FaultlineAttribute.InterruptIds). */
export const FAULTLINE_INTERRUPT_IDS = 'faultline.interrupt.ids';
/** @internal `faultline.resume.refused` (FaultlineAttribute.ResumeRefused). */
export const FAULTLINE_RESUME_REFUSED = 'faultline.resume.refused';

// Values of `gen_ai.operation.name` (`GenAIOperation`).
/** @internal `chat` (GenAIOperation.Chat). */
export const GEN_AI_OPERATION_CHAT = 'chat';
/** @internal `invoke_agent` (GenAIOperation.InvokeAgent). */
export const GEN_AI_OPERATION_INVOKE_AGENT = 'invoke_agent';
/** @internal `invoke_workflow` (GenAIOperation.InvokeWorkflow). */
export const GEN_AI_OPERATION_INVOKE_WORKFLOW = 'invoke_workflow';
/** @internal `execute_tool` (GenAIOperation.ExecuteTool). */
export const GEN_AI_OPERATION_EXECUTE_TOOL = 'execute_tool';

// Values of `gen_ai.tool.type` (`GenAIToolType`).
/** @internal `function` (GenAIToolType.Function). */
export const GEN_AI_TOOL_TYPE_FUNCTION = 'function';
/** @internal `extension` (GenAIToolType.Extension). */
export const GEN_AI_TOOL_TYPE_EXTENSION = 'extension';
/** @internal `datastore` (GenAIToolType.Datastore). */
export const GEN_AI_TOOL_TYPE_DATASTORE = 'datastore';

// Span event names (`TelemetryEvent`).
/** @internal `exception` (TelemetryEvent.Exception). */
export const EVENT_EXCEPTION = 'exception';
/** @internal `faultline.retry` (TelemetryEvent.Retry). */
export const EVENT_RETRY = 'faultline.retry';
/** @internal `faultline.fallback` (TelemetryEvent.Fallback). */
export const EVENT_FALLBACK = 'faultline.fallback';
/** @internal `faultline.recoverable_error` (TelemetryEvent.RecoverableError). */
export const EVENT_RECOVERABLE_ERROR = 'faultline.recoverable_error';
/** @internal `faultline.interrupt` (TelemetryEvent.Interrupt). */
export const EVENT_INTERRUPT = 'faultline.interrupt';
/** @internal `faultline.resume` (TelemetryEvent.Resume). */
export const EVENT_RESUME = 'faultline.resume';

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
