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
import * as names from './attribute-names.js';

/**
 * GenAI attributes (`gen_ai.*`). Content attributes — `InputMessages`, `OutputMessages`, `SystemInstructions`,
 * `ToolCallArguments`, `ToolCallResult` — are opt-in: record them only when `telemetry.recordContent` is true.
 * @example `span.setAttributes({ [GenAIAttribute.OperationName]: GenAIOperation.Chat, [GenAIAttribute.RequestModel]: 'gpt-4o' })`
 */
export const GenAIAttribute = /* @__PURE__ */ Object.freeze({
  OperationName: names.GEN_AI_OPERATION_NAME,
  ProviderName: names.GEN_AI_PROVIDER_NAME,
  RequestModel: names.GEN_AI_REQUEST_MODEL,
  RequestMaxTokens: names.GEN_AI_REQUEST_MAX_TOKENS,
  RequestTemperature: names.GEN_AI_REQUEST_TEMPERATURE,
  RequestStream: names.GEN_AI_REQUEST_STREAM,
  ResponseModel: names.GEN_AI_RESPONSE_MODEL,
  ResponseId: names.GEN_AI_RESPONSE_ID,
  ResponseFinishReasons: names.GEN_AI_RESPONSE_FINISH_REASONS,
  UsageInputTokens: names.GEN_AI_USAGE_INPUT_TOKENS,
  UsageOutputTokens: names.GEN_AI_USAGE_OUTPUT_TOKENS,
  UsageCacheReadInputTokens: names.GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  AgentName: names.GEN_AI_AGENT_NAME,
  AgentId: names.GEN_AI_AGENT_ID,
  AgentDescription: names.GEN_AI_AGENT_DESCRIPTION,
  AgentVersion: names.GEN_AI_AGENT_VERSION,
  ConversationId: names.GEN_AI_CONVERSATION_ID,
  WorkflowName: names.GEN_AI_WORKFLOW_NAME,
  ToolName: names.GEN_AI_TOOL_NAME,
  ToolCallId: names.GEN_AI_TOOL_CALL_ID,
  ToolType: names.GEN_AI_TOOL_TYPE,
  ToolDescription: names.GEN_AI_TOOL_DESCRIPTION,
  PromptName: names.GEN_AI_PROMPT_NAME,
  /** Opt-in content. */
  ToolCallArguments: names.GEN_AI_TOOL_CALL_ARGUMENTS,
  /** Opt-in content. */
  ToolCallResult: names.GEN_AI_TOOL_CALL_RESULT,
  /** Opt-in content. */
  InputMessages: names.GEN_AI_INPUT_MESSAGES,
  /** Opt-in content. */
  OutputMessages: names.GEN_AI_OUTPUT_MESSAGES,
  /** Opt-in content. */
  SystemInstructions: names.GEN_AI_SYSTEM_INSTRUCTIONS,
} as const);

/**
 * Values of `gen_ai.operation.name` the SDK records.
 * @example `{ [GenAIAttribute.OperationName]: GenAIOperation.ExecuteTool }`
 */
export const GenAIOperation = /* @__PURE__ */ Object.freeze({
  Chat: names.GEN_AI_OPERATION_CHAT,
  InvokeAgent: names.GEN_AI_OPERATION_INVOKE_AGENT,
  InvokeWorkflow: names.GEN_AI_OPERATION_INVOKE_WORKFLOW,
  ExecuteTool: names.GEN_AI_OPERATION_EXECUTE_TOOL,
} as const);

/**
 * Values of `gen_ai.tool.type`: `function` (run by the client — our tools), `extension` (run agent-side, e.g. an
 * MCP tool), `datastore`.
 * @example `{ [GenAIAttribute.ToolType]: GenAIToolType.Function }`
 */
export const GenAIToolType = /* @__PURE__ */ Object.freeze({
  Function: names.GEN_AI_TOOL_TYPE_FUNCTION,
  Extension: names.GEN_AI_TOOL_TYPE_EXTENSION,
  Datastore: names.GEN_AI_TOOL_TYPE_DATASTORE,
} as const);

/**
 * MCP attributes (`mcp.*`). MCP spans also carry `gen_ai.tool.name` / `gen_ai.prompt.name`, `jsonrpc.request.id`,
 * `rpc.response.status_code` (a JSON-RPC error code), `network.transport` and `error.type` — see
 * {@link CommonAttribute}.
 * @example `{ [MCPAttribute.MethodName]: 'tools/call', [MCPAttribute.SessionId]: sessionId }`
 */
export const MCPAttribute = /* @__PURE__ */ Object.freeze({
  MethodName: names.MCP_METHOD_NAME,
  SessionId: names.MCP_SESSION_ID,
  ProtocolVersion: names.MCP_PROTOCOL_VERSION,
  ResourceURI: names.MCP_RESOURCE_URI,
} as const);

/**
 * A2A attributes (`a2a.*`). `a2a.method.name` is the logical A2A 1.0 operation name (`SendMessage`,
 * `SendStreamingMessage`, `GetTask`, `CancelTask`, `SubscribeToTask`, `GetExtendedAgentCard`), also for A2A 0.3's
 * JSON-RPC methods (`message/send` is `SendMessage`); the JSON-RPC method itself goes in `rpc.method`, with
 * `rpc.system.name: 'jsonrpc'`. The A2A `contextId` is recorded as `gen_ai.conversation.id`.
 * @example `{ [A2AAttribute.MethodName]: 'SendMessage', [A2AAttribute.TaskId]: task.id }`
 */
export const A2AAttribute = /* @__PURE__ */ Object.freeze({
  MethodName: names.A2A_METHOD_NAME,
  ProtocolVersion: names.A2A_PROTOCOL_VERSION,
  TaskId: names.A2A_TASK_ID,
  TaskState: names.A2A_TASK_STATE,
  MessageId: names.A2A_MESSAGE_ID,
  ReferenceTaskIds: names.A2A_MESSAGE_REFERENCE_TASK_IDS,
  Tenant: names.A2A_TENANT,
} as const);

/**
 * Attributes shared by several span families (errors, peers, RPC, exceptions).
 * @example `{ [CommonAttribute.ServerAddress]: url.hostname, [CommonAttribute.ServerPort]: 443 }`
 */
export const CommonAttribute = /* @__PURE__ */ Object.freeze({
  ErrorType: names.ERROR_TYPE,
  ServerAddress: names.SERVER_ADDRESS,
  ServerPort: names.SERVER_PORT,
  NetworkTransport: names.NETWORK_TRANSPORT,
  NetworkProtocolName: names.NETWORK_PROTOCOL_NAME,
  RPCSystemName: names.RPC_SYSTEM_NAME,
  RPCMethod: names.RPC_METHOD,
  RPCResponseStatusCode: names.RPC_RESPONSE_STATUS_CODE,
  JSONRPCRequestId: names.JSONRPC_REQUEST_ID,
  JSONRPCProtocolVersion: names.JSONRPC_PROTOCOL_VERSION,
  ExceptionType: names.EXCEPTION_TYPE,
  ExceptionMessage: names.EXCEPTION_MESSAGE,
} as const);

/**
 * Attributes of our own, where no convention applies: graph nodes, retries, fallbacks.
 * @example `{ [FaultlineAttribute.GraphNodeId]: 'plan', [FaultlineAttribute.GraphStep]: 3 }`
 */
export const FaultlineAttribute = /* @__PURE__ */ Object.freeze({
  /** The id of a graph node. */
  GraphNodeId: names.FAULTLINE_GRAPH_NODE_ID,
  /** What a graph node runs (`function`, `agent`, `subgraph`…). */
  GraphNodeType: names.FAULTLINE_GRAPH_NODE_TYPE,
  /** The superstep number of a graph run. */
  GraphStep: names.FAULTLINE_GRAPH_STEP,
  /** On a `faultline.retry` event: the attempt about to be made (2 = first retry). */
  RetryAttempt: names.FAULTLINE_RETRY_ATTEMPT,
  /** On a `faultline.retry` event: the wait before it, in ms. */
  RetryDelayMs: names.FAULTLINE_RETRY_DELAY_MS,
  /** On a `faultline.fallback` event: what failed (a model, a client). */
  FallbackFrom: names.FAULTLINE_FALLBACK_FROM,
  /** On a `faultline.fallback` event: what is tried next. */
  FallbackTo: names.FAULTLINE_FALLBACK_TO,
  /** On a `faultline.retry` event: a shared retry budget refused the retry (the failure was reported). */
  RetryBudgetExhausted: names.FAULTLINE_RETRY_BUDGET_EXHAUSTED,
  /** How a tool call ended (`success`, `error_result`, `failure`, `timeout`, `crash`, `invalid_arguments`…). */
  ToolOutcome: names.FAULTLINE_TOOL_OUTCOME,
  /** Attempts a tool call made. */
  ToolAttempts: names.FAULTLINE_TOOL_ATTEMPTS,
  /** The severity of a failed graph node's execution-error record: `recoverable` or `fatal`. */
  ExecutionErrorSeverity: names.FAULTLINE_EXECUTION_ERROR_SEVERITY,
  /** On a run span: how the run finished (`stop`, `length`, `max_iterations`…). */
  FinishReason: names.FAULTLINE_FINISH_REASON,
  /** On a `faultline.interrupt` or `faultline.resume` event: how many interrupts it names. */
  InterruptCount: names.FAULTLINE_INTERRUPT_COUNT,
  /** On a `faultline.interrupt` or `faultline.resume` event: the interrupt ids, comma-separated. */
  InterruptIds: names.FAULTLINE_INTERRUPT_IDS,
  /** On a refused `faultline.resume` event: the refusal's `ResumeCode`. */
  ResumeRefused: names.FAULTLINE_RESUME_REFUSED,
} as const);

/**
 * Span event names: retries and fallbacks, and the redacted `exception` event `fail()` records.
 * @example `span.addEvent(TelemetryEvent.Retry, { [FaultlineAttribute.RetryAttempt]: 2, [CommonAttribute.ErrorType]: 'chat_client' })`
 */
export const TelemetryEvent = /* @__PURE__ */ Object.freeze({
  Exception: names.EVENT_EXCEPTION,
  Retry: names.EVENT_RETRY,
  Fallback: names.EVENT_FALLBACK,
  /** A failure the run recovered from (a tool crash, a fallback, a recoverable node): `error.type` on the event. */
  RecoverableError: names.EVENT_RECOVERABLE_ERROR,
  /** A run (or a graph node) stopped to ask a person: ids and counts only, never what was asked. */
  Interrupt: names.EVENT_INTERRUPT,
  /** A resume of an interrupted run, accepted or refused: ids, counts, the refusal's code. */
  Resume: names.EVENT_RESUME,
} as const);
