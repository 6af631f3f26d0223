export { A2ATransportError, type A2ATimeoutLimit, type A2ATransportErrorOptions } from './a2a-transport-error.js';
export { AgentError, type AgentErrorJSON, type AgentErrorOptions } from './agent-error.js';
export { AgentNotFoundError } from './agent-not-found-error.js';
export {
  ChatClientError,
  type ChatClientErrorOptions,
  type ChatClientErrorReason,
  type ChatTimeoutLimit,
} from './chat-client-error.js';
export { CircuitOpenError, type CircuitOpenErrorOptions } from './circuit-open-error.js';
export { ConfigError, type ConfigErrorOptions } from './config-error.js';
export { ErrorType, type AgentErrorKind, type ErrorTypeName } from './constants.js';
export { isRecoverable, markRecoverable, recoverableError, type RecoverableError } from './recoverable.js';
export {
  cloneResponseError,
  isResponseError,
  normalizeResponseError,
  toResponseError,
  type ResponseError,
} from './response-error.js';
export { InterruptExpiredError, type InterruptExpiredErrorOptions } from './interrupt-expired-error.js';
export { InterruptNotFoundError, type InterruptNotFoundErrorOptions } from './interrupt-not-found-error.js';
export { ResumeCode, ResumeError, type ResumeCodeName, type ResumeErrorOptions } from './resume-error.js';
export { ResumeIncompleteError, type ResumeIncompleteErrorOptions } from './resume-incomplete-error.js';
export { ResumePayloadError, type ResumePayloadErrorOptions } from './resume-payload-error.js';
export { SerializeError, type SerializeErrorOptions, type SerializeIssue } from './serialize-error.js';
export { SessionError, type SessionErrorOptions } from './session-error.js';
export { JSONRPCError, type JSONRPCErrorOptions } from './jsonrpc-error.js';
export { MCPError, type MCPErrorOptions, type MCPErrorReason } from './mcp-error.js';
export { OutputValidationError, type OutputIssue, type OutputValidationErrorOptions } from './output-validation-error.js';
export { StreamError, type StreamErrorOptions, type StreamErrorReason } from './stream-error.js';
export { ToolError, type ToolErrorOptions } from './tool-error.js';
export { WorkflowError, type WorkflowErrorOptions } from './workflow-error.js';
