// The types the error classes return, each a constant of its own that ErrorType reuses: a bundle of a few error
// classes holds these strings, not the whole table.
/** @internal `flow_error` ({@link ErrorType}.FlowError). */
export const FLOW_ERROR = 'flow_error';
/** @internal `stream_error` ({@link ErrorType}.StreamError). */
export const STREAM_ERROR = 'stream_error';
/** @internal `run_error` ({@link ErrorType}.RunError). */
export const RUN_ERROR = 'run_error';

/**
 * Wire strings shared with tRPC-Agent-Go peers (decisions.md point 1): `ResponseError.type` values.
 * Never retype these literals elsewhere; import them.
 * @example `if (event.response?.error?.type === ErrorType.StopAgentError) showCanceled();`
 */
export const ErrorType = /* @__PURE__ */ Object.freeze({
  /** A node or flow failed (the default type of `toResponseError`). */
  FlowError: FLOW_ERROR,
  /** A stream broke or carried an error. */
  StreamError: STREAM_ERROR,
  /** A model provider's API failed. */
  APIError: 'api_error',
  /** The run itself failed (transport, conversion). */
  RunError: RUN_ERROR,
  /** The run was cancelled. */
  Cancelled: 'cancelled',
  /** An agent asked to stop; A2A reports it as a `canceled` task. */
  StopAgentError: 'stop_agent_error',
} as const);

/** One of the {@link ErrorType} strings (other strings are allowed on the wire). */
export type ErrorTypeName = (typeof ErrorType)[keyof typeof ErrorType];

/** The `kind` of every framework error class, stable across versions. */
export type AgentErrorKind =
  | 'chat_client'
  | 'tool'
  | 'workflow'
  | 'config'
  | 'agent_not_found'
  | 'stream'
  | 'serialize'
  | 'session'
  | 'a2a_transport'
  | 'jsonrpc'
  | 'mcp'
  | 'output_validation'
  | 'circuit_open'
  | 'resume'
  | 'ui_messages'
  | 'other';
