/**
 * A remote task's error as a `ResponseError`, read from tRPC-Agent-Go's structured task-error metadata (decisions.md
 * points 3 and 8). Here, below every user of it, so the A2A event converter and the A2A client's tracing (reached
 * through the telemetry object, telemetry/a2a-client-tracing.ts) share one implementation. The shapes are
 * structural: an A2A `TaskStatus`, `Part` and metadata record fit them.
 */
import { FLOW_ERROR } from './constants.js';
import type { ResponseError } from './response-error.js';

/** Metadata of an A2A object: a record of JSON values. */
type Metadata = Readonly<Record<string, unknown>>;

/** A part, as far as its text is concerned. */
interface TextLike {
  readonly kind: string;
  readonly text?: string;
}

/** A task status, as far as its error is concerned. */
interface StatusLike {
  readonly state: string;
  readonly message?: { readonly metadata?: Metadata | undefined; readonly parts: readonly TextLike[] } | undefined;
}

// The keys an error is read from, each a constant of its own that ErrorMetadataKey reuses: a bundle that only reads
// errors (the A2A client's tracing) holds these strings, not the whole table.
const OBJECT_TYPE = 'object_type';
const ERROR_TYPE = 'error_type';
const ERROR_CODE = 'error_code';
const ERROR_MESSAGE = 'error_message';
const ERROR_PARAM = 'error_param';

/**
 * Structured task-error metadata keys (tRPC-Agent-Go's; decisions.md point 3).
 * @example `task.metadata?.[ErrorMetadataKey.ErrorCode]`
 */
export const ErrorMetadataKey = /* @__PURE__ */ Object.freeze({
  ObjectType: OBJECT_TYPE,
  ErrorType: ERROR_TYPE,
  ErrorCode: ERROR_CODE,
  ErrorMessage: ERROR_MESSAGE,
  ErrorParam: ERROR_PARAM,
  TaskState: 'task_state',
  ResponseId: 'llm_response_id',
  StateDelta: 'state_delta',
} as const);

/**
 * States that are failures: a task in one of them yields a `ResponseError`.
 * @example `FAILURE_STATES.has('rejected') // true`
 */
export const FAILURE_STATES: ReadonlySet<string> = new Set(['failed', 'rejected', 'canceled']);

/**
 * The text of the text parts, joined.
 * @example `partsText(task.status.message?.parts)`
 */
export function partsText(parts: readonly TextLike[] | undefined): string {
  return (parts ?? [])
    .filter((part) => part.kind === 'text')
    .map((part) => part.text)
    .join('');
}

/**
 * Per-key metadata precedence: the first source that has a usable value (a non-empty string; a finite number where
 * `allowNumber`, stringified) wins.
 */
export function pickMetadata(sources: ReadonlyArray<Metadata | undefined>, key: string, allowNumber = false): string | undefined {
  for (const source of sources) {
    const value = source?.[key];
    if (typeof value === 'string' && value !== '') return value;
    if (allowNumber && typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

/**
 * A `ResponseError` from structured metadata (tRPC's `ResponseErrorFromMetadata`, with decisions.md point 8): the
 * sources are read key by key in order; structured iff `object_type` is `error` or any error field is set; a numeric
 * `error_code` counts (stringified). Plain text alone never makes an error.
 * @example `responseErrorFromMetadata([event.metadata, event.status.message?.metadata], 'text of the parts')`
 */
export function responseErrorFromMetadata(
  sources: ReadonlyArray<Metadata | undefined>,
  fallbackMessage = '',
  fallbackType: string = FLOW_ERROR,
): ResponseError | undefined {
  const type = pickMetadata(sources, ERROR_TYPE);
  const message = pickMetadata(sources, ERROR_MESSAGE);
  const code = pickMetadata(sources, ERROR_CODE, true);
  const param = pickMetadata(sources, ERROR_PARAM);
  const structured = sources.some((source) => source?.[OBJECT_TYPE] === 'error') || [type, message, code, param].some((value) => value !== undefined);
  if (!structured) return undefined;
  const error: ResponseError = { type: type ?? fallbackType, message: message ?? fallbackMessage };
  if (code !== undefined) error.code = code;
  if (param !== undefined) error.param = param;
  return error;
}

/**
 * The error of a task status: structured metadata first; a failure state always yields one (see {@link taskFailure}).
 * @example `statusResponseError(task.status, task.metadata)?.code`
 */
export function statusResponseError(status: StatusLike, outer: Metadata | undefined): ResponseError | undefined {
  if (FAILURE_STATES.has(status.state)) return taskFailure(status, outer);
  return responseErrorFromMetadata([outer, status.message?.metadata], partsText(status.message?.parts));
}

/**
 * The error of a task that ended in a failure state, read key by key from the task's metadata, then its status
 * message's: `type` (else `flow_error`), `message` (else the text of the status message, else `remote task <state>`),
 * `code` and `param` when given. The A2A client's tracing reads only this (telemetry/a2a-client-tracing.ts).
 * @example `taskFailure({ state: 'failed' }, { error_code: 'CARD_DECLINED' }) // { type: 'flow_error', message: 'remote task failed', code: 'CARD_DECLINED' }`
 */
export function taskFailure(status: StatusLike, outer: Metadata | undefined): ResponseError {
  const sources = [outer, status.message?.metadata];
  const error: ResponseError = {
    type: pickMetadata(sources, ERROR_TYPE) ?? FLOW_ERROR,
    message: pickMetadata(sources, ERROR_MESSAGE) || partsText(status.message?.parts) || `remote task ${status.state}`,
  };
  const code = pickMetadata(sources, ERROR_CODE, true);
  if (code !== undefined) error.code = code;
  const param = pickMetadata(sources, ERROR_PARAM);
  if (param !== undefined) error.param = param;
  return error;
}
