/**
 * Execution-error records: the plain, serializable business error records a graph keeps in its state
 * (tRPC-Agent-Go's `graph.ExecutionError`, keys per decisions.md points 2 and 7).
 */
import { ErrorType } from '../../errors/constants.js';
import { normalizeResponseError, toResponseError, type ResponseError } from '../../errors/response-error.js';
import { cloneResponseError } from '../../errors/response-error.js';
import { SerializeError } from '../../errors/serialize-error.js';
import { isoTimestamp } from '../../internal/clock.js';
import { messageOf } from '../../internal/error-chain.js';
import { isPlainObject } from '../../internal/json.js';
import { redactText } from '../../internal/redact.js';
import type { StateDelta } from '../../runner/state-delta.js';
import { Severity, type SeverityName } from '../core/constants.js';

/**
 * One recorded node failure. JSON keys: `severity`, `nodeId`, `nodeName`, `nodeType`, `stepNumber` (always written,
 * 0 included), `timestamp` (ISO-8601), `error`, and `path` for records that came from a subgraph (the agent-node ids
 * from the outermost graph down).
 */
export interface ExecutionError {
  severity: SeverityName;
  nodeId?: string;
  nodeName?: string;
  nodeType?: string;
  stepNumber: number;
  timestamp: string;
  /** Always there: the failure as a wire-safe `ResponseError` (a record decoded without one says so in its message). */
  error: ResponseError;
  path?: string[];
}

/** What a record says about where it happened. */
export interface ExecutionErrorOrigin {
  nodeId?: string | undefined;
  nodeName?: string | undefined;
  nodeType?: string | undefined;
  stepNumber?: number | undefined;
}

/**
 * A record for `error` at `origin` (tRPC's `NewExecutionError`): the error converted with
 * `toResponseError(error, 'flow_error')` with credential-shaped values masked, the time now. A missing origin leaves
 * the node fields empty.
 * @example `createExecutionError({ nodeId: 'write' }, new Error('db down'), 'fatal')`
 */
export function createExecutionError(origin: ExecutionErrorOrigin | undefined, error: unknown, severity: SeverityName): ExecutionError {
  const record = { severity } as ExecutionError; // built in the wire order
  if (origin?.nodeId) record.nodeId = origin.nodeId;
  if (origin?.nodeName) record.nodeName = origin.nodeName;
  if (origin?.nodeType) record.nodeType = origin.nodeType;
  record.stepNumber = origin?.stepNumber ?? 0;
  record.timestamp = isoTimestamp();
  const responseError = toResponseError(error, ErrorType.FlowError) ?? { type: ErrorType.FlowError, message: `the node failed with ${error === undefined ? 'no error value' : String(error)}` };
  record.error = maskCredentials(responseError);
  return record;
}

/**
 * Records travel: in state deltas, in `runner.completion`, in A2A `state_delta` metadata to remote clients. A
 * credential-shaped value in an error (an upstream's "refused Bearer abc…123") is masked where the record is made.
 */
function maskCredentials(error: ResponseError): ResponseError {
  const masked: ResponseError = { type: redactText(error.type), message: redactText(error.message) };
  if (error.code !== undefined) masked.code = redactText(error.code);
  if (error.param !== undefined) masked.param = redactText(error.param);
  return masked;
}

/**
 * A deep copy with keys in the wire order.
 * @example `const copy = cloneExecutionError(record)`
 */
export function cloneExecutionError(record: ExecutionError): ExecutionError {
  const copy = { severity: record.severity, stepNumber: record.stepNumber ?? 0, timestamp: record.timestamp } as ExecutionError;
  if (record.nodeId !== undefined) copy.nodeId = record.nodeId;
  if (record.nodeName !== undefined) copy.nodeName = record.nodeName;
  if (record.nodeType !== undefined) copy.nodeType = record.nodeType;
  if (record.error !== undefined) copy.error = cloneResponseError(record.error);
  if (record.path !== undefined) copy.path = [...record.path];
  return orderKeys(copy);
}

function orderKeys(record: ExecutionError): ExecutionError {
  const ordered = { severity: record.severity } as ExecutionError;
  if (record.nodeId !== undefined) ordered.nodeId = record.nodeId;
  if (record.nodeName !== undefined) ordered.nodeName = record.nodeName;
  if (record.nodeType !== undefined) ordered.nodeType = record.nodeType;
  ordered.stepNumber = record.stepNumber;
  ordered.timestamp = record.timestamp;
  if (record.error !== undefined) ordered.error = record.error;
  if (record.path !== undefined) ordered.path = record.path;
  return ordered;
}

/**
 * Reads one record from decoded JSON (a missing `stepNumber` is 0, a numeric code is stringified); `undefined` when
 * the value is not a record.
 * @example `normalizeExecutionError(JSON.parse(text))`
 */
export function normalizeExecutionError(value: unknown): ExecutionError | undefined {
  if (!isPlainObject(value)) return undefined;
  const severity = value.severity === Severity.Recoverable ? Severity.Recoverable : value.severity === Severity.Fatal ? Severity.Fatal : undefined;
  if (!severity) return undefined;
  const record = {
    severity,
    stepNumber: typeof value.stepNumber === 'number' && Number.isFinite(value.stepNumber) ? value.stepNumber : 0,
    timestamp: typeof value.timestamp === 'string' ? value.timestamp : '0001-01-01T00:00:00Z',
  } as ExecutionError;
  if (typeof value.nodeId === 'string') record.nodeId = value.nodeId;
  if (typeof value.nodeName === 'string') record.nodeName = value.nodeName;
  if (typeof value.nodeType === 'string') record.nodeType = value.nodeType;
  record.error = normalizeResponseError(value.error) ?? { type: ErrorType.FlowError, message: 'the record carries no error details' };
  if (Array.isArray(value.path) && value.path.every((part) => typeof part === 'string')) record.path = [...value.path];
  return orderKeys(record);
}

/**
 * The collector field's reducer (tRPC's `ExecutionErrorSliceReducer`): two record lists give a NEW list of deep
 * copies, existing then update — append, order kept, no dedup, never aliased. JSON-decoded lists are normalised
 * first. Any other combination returns `update` (replace).
 * @example `executionErrorReducer([first], [second]) // [copy of first, copy of second]`
 */
export function executionErrorReducer(existing: unknown, update: unknown): unknown {
  const base = existing === undefined || existing === null ? [] : existing;
  if (!Array.isArray(base) || !Array.isArray(update)) return update;
  const records: ExecutionError[] = [];
  for (const item of [...base, ...update]) {
    const record = normalizeExecutionError(item); // one pass: validates and copies
    if (record === undefined) return update;
    records.push(record);
  }
  return records;
}

/**
 * Decodes records from their JSON text: empty → `undefined`; invalid JSON or not a record list → `SerializeError`;
 * otherwise fresh copies on every call.
 * @example `decodeExecutionErrors('[{"severity":"fatal","timestamp":"…"}]')`
 */
export function decodeExecutionErrors(raw: string | null | undefined): ExecutionError[] | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new SerializeError(`Execution errors are not valid JSON: ${messageOf(error)}`, { subject: 'execution errors', cause: error });
  }
  if (value === null) return undefined;
  if (!Array.isArray(value)) throw new SerializeError('Execution errors must be a JSON array of records', { subject: 'execution errors' });
  return value.map((item, index) => {
    const record = normalizeExecutionError(item);
    if (!record) throw new SerializeError(`Execution error record ${index} is not a record (it needs a "severity" of recoverable or fatal)`, { subject: 'execution errors' });
    return record;
  });
}

/**
 * The records under `key` of an event's state delta (the collector key by default): `undefined` when the delta or
 * the key is absent; throws `SerializeError` for undecodable data.
 *
 * @example
 * ```ts
 * if (isRunnerCompletion(event)) for (const record of executionErrorsFromStateDelta(event.stateDelta) ?? []) {
 *   console.log(record.severity, record.nodeName, record.error?.code, record.error?.message);
 * }
 * ```
 */
export function executionErrorsFromStateDelta(delta: StateDelta | undefined | null, key = 'execution_errors'): ExecutionError[] | undefined {
  if (!delta || !Object.prototype.hasOwnProperty.call(delta, key)) return undefined;
  return decodeExecutionErrors(delta[key]);
}
