/**
 * Wire strings shared with tRPC-Agent-Go peers (decisions.md point 1): `ResponseError.type` values.
 * Never retype these literals elsewhere; import them.
 * @example `if (event.response?.error?.type === ErrorType.StopAgentError) showCanceled();`
 */
export const ErrorType = Object.freeze({
  /** A node or flow failed (the default type of `toResponseError`). */
  FlowError: 'flow_error',
  /** A stream broke or carried an error. */
  StreamError: 'stream_error',
  /** A model provider's API failed. */
  APIError: 'api_error',
  /** The run itself failed (transport, conversion). */
  RunError: 'run_error',
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
  | 'other';
