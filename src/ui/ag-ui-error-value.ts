/**
 * @internal The `faultline.error` value of each kind of failure: a tool's (its model-facing envelope, its outcome,
 * whether a retry may help), a thrown error's (a framework error's kind and code), a runner failure's `ResponseError`.
 * Messages are bounded here; redaction happens where every event is written.
 */
import type { AgentToolOutcome } from '../agent/types.js';
import { AgentError } from '../errors/agent-error.js';
import type { ResponseError } from '../errors/response-error.js';
import { read } from '../internal/error-chain.js';
import { truncate } from '../internal/json.js';
import { ToolFailure, type ToolErrorInfo } from '../tools/tool-failure.js';
import type { AGUIErrorValue } from './ag-ui-events.js';

/** Longest message a UI gets (the model-facing envelope is already capped where tools seal it). */
const MAX_MESSAGE = 2_000;

/** Tool failure types whose failures are retryable unless the tool says otherwise (the standard failures' defaults). */
const RETRYABLE_TYPES = new Set(['RateLimitError', 'TimeoutError', 'NetworkError', 'APIFailure']);

/**
 * @internal What a failed tool result tells a UI. Whether a retry may help, and when: what the result says
 * (`retryable`, `retryAfterMs`, read by shape), else the tool's own `ToolFailure` (`cause`), else the category's default.
 */
export function toolErrorValue(result: { callId: string; toolName: string; outcome?: AgentToolOutcome | undefined; error: ToolErrorInfo; retryable?: unknown; retryAfterMs?: unknown; cause?: unknown }): AGUIErrorValue {
  const failure = ToolFailure.isInstance(result.cause) ? result.cause : undefined;
  const { type, message, context, suggestion } = result.error;
  const retryable = typeof result.retryable === 'boolean' ? result.retryable : failure ? failure.retryable : RETRYABLE_TYPES.has(type);
  const value: AGUIErrorValue = { type, message, kind: 'tool', retryable, scope: 'tool', toolCallId: result.callId, toolName: result.toolName };
  if (result.outcome !== undefined) value.code = result.outcome;
  if (context !== undefined) value.context = context;
  if (suggestion !== undefined) value.suggestion = suggestion;
  const retryAfterMs = typeof result.retryAfterMs === 'number' ? result.retryAfterMs : failure?.retryAfterMs;
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) value.retryAfterMs = retryAfterMs;
  return value;
}

/** @internal What a thrown error tells a UI: its class name, message, kind and code, and whether it says it is retryable. */
export function thrownErrorValue(error: unknown, scope: AGUIErrorValue['scope']): AGUIErrorValue {
  const failure = AgentError.from(error);
  const value: AGUIErrorValue = { type: failure.name, message: truncate(failure.message, MAX_MESSAGE), kind: failure.kind, retryable: read(error, 'retryable') === true, scope };
  if (failure.code !== undefined) value.code = truncate(failure.code, 200);
  const retryAfterMs = read(error, 'retryAfterMs');
  if (typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) value.retryAfterMs = retryAfterMs;
  return value;
}

/** @internal What a runner failure (`ResponseError`) tells a UI: its type stands for the kind. */
export function responseErrorValue(error: ResponseError, scope: AGUIErrorValue['scope']): AGUIErrorValue {
  const value: AGUIErrorValue = { type: String(error.type), message: truncate(String(error.message), MAX_MESSAGE), kind: String(error.type), retryable: false, scope };
  if (typeof error.code === 'string' && error.code !== '') value.code = truncate(error.code, 200);
  return value;
}
