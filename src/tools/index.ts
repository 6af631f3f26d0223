export { APIFailure } from './api-failure.js';
export { AuthenticationError } from './authentication-error.js';
export { DataNotFoundError } from './data-not-found-error.js';
export {
  defineTool,
  isTool,
  TOOL_NAME_PATTERN,
  type AnyTool,
  type Tool,
  type ToolContext,
  type ToolCrashContext,
  type ApprovalContext,
  type ToolDefinition,
} from './define-tool.js';
export { InputValidationError } from './input-validation-error.js';
export { MODEL_FACING_LIMITS } from './model-facing-limits.js';
export { NetworkError } from './network-error.js';
export { ServiceUnavailableError } from './service-unavailable-error.js';
export { PermissionError } from './permission-error.js';
export { RateLimitError } from './rate-limit-error.js';
export { runToolCall, type ToolCallRequest, type ToolSet } from './run-tool-call.js';
export {
  DEFAULT_TOOL_TIMEOUT_MS,
  runTool,
  type RunToolOptions,
  type ToolRetryNotice,
  type ToolRun,
  type ToolRunOutcome,
} from './run-tool.js';
export { serializeToolResult, toolRunContent, type SerializeToolResultOptions, type ToolErrorFormat } from './serialize-tool-result.js';
export { jsonSchema, JSON_SCHEMA_LIMITS, type JSONSchemaOptions } from './json-schema.js';
export type { JSONSchema, StandardSchemaV1 } from './standard-schema.js';
export { TimeoutError } from './timeout-error.js';
export { formatPath, type ArgumentIssue, type ArgumentRepair, type ArgumentRepairRequest } from './tool-arguments.js';
export { toolErrorFromFetchError, toolErrorFromResponse, type HTTPToolErrorOptions } from './tool-error-from-response.js';
export { ToolFailure, type ToolErrorInfo, type ToolFailureOptions } from './tool-failure.js';
export { ToolInternalError } from './tool-internal-error.js';
export {
  consoleToolLogSink,
  type ToolLogErrorDetails,
  type ToolLogEvent,
  type ToolLogger,
  type ToolLogLevel,
  type ToolLogRecord,
  type ToolLogSink,
} from './tool-log.js';
export type { ToolLogConsole, ToolLogOption } from './tool-log-option.js';
export { ToolNotFound } from './tool-not-found.js';
export { GENERIC_TOOL_ERROR_TYPE, PARTIAL_FAILURE_TYPE, ToolResult, type ToolErrorInput, type ToolResultJSON } from './tool-result.js';
export type { RetryOptions } from '../internal/retry.js';
