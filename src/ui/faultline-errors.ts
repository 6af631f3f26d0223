import { isPlainObject, truncate, tryStringify } from '../internal/json.js';
import type { FaultlineErrorData, FaultlineErrorScope, FaultlineRecordData } from './data-parts.js';

/** The most parts read from one message (a message is data from the network). */
const MAX_PARTS = 10_000;
const SCOPES: Readonly<Record<string, true>> = { tool: true, run: true, model: true, record: true };

/**
 * The faultline failures a UI message holds, in order, as typed objects: each `data-faultline-error` part (a tool
 * call's, a recovered model failure's, the run's) and each `data-faultline-record` part (a graph's record, with its
 * `severity`, node and step). The shape is never trusted: each field is checked and copied (unknown fields dropped,
 * texts bounded), and a part that does not hold a failure is skipped — a message from any server, or none, gives a
 * list, never an exception.
 *
 * @param message - A `UIMessage` (from `useChat`'s `messages`, `readUIMessageStream`…), or anything.
 * @returns The failures, as `FaultlineErrorData` (records as `FaultlineRecordData`).
 * @example
 * ```ts
 * for (const error of faultlineErrors(message)) {
 *   if (error.retryable) showRetryIn(error.retryAfterMs);
 *   else show(`${error.type}: ${error.message}`, error.suggestion);
 * }
 * ```
 */
export function faultlineErrors(message: { readonly parts?: readonly unknown[] } | null | undefined): Array<FaultlineErrorData | FaultlineRecordData> {
  let parts: unknown[];
  try {
    const given = (message as { parts?: unknown } | null | undefined)?.parts;
    if (!Array.isArray(given)) return [];
    parts = given.slice(0, MAX_PARTS);
  } catch {
    return []; // a message whose parts cannot be read (a throwing getter, a hostile proxy) holds no failure we can read
  }
  const errors: Array<FaultlineErrorData | FaultlineRecordData> = [];
  for (const part of parts) {
    try {
      if (!isPlainObject(part) || (part.type !== 'data-faultline-error' && part.type !== 'data-faultline-record')) continue;
      const error = errorData(part.data);
      if (error !== undefined) errors.push(part.type === 'data-faultline-record' ? (recordData(part.data, error) ?? error) : error);
    } catch {
      // a part with throwing getters (not JSON) holds no failure we can read
    }
  }
  return errors;
}

/** A checked copy of an error, or undefined when `value` is not one. */
function errorData(value: unknown): FaultlineErrorData | undefined {
  if (!isPlainObject(value)) return undefined;
  const { type, message, kind, retryable, scope } = value;
  if (typeof type !== 'string' || typeof message !== 'string' || typeof kind !== 'string' || typeof retryable !== 'boolean' || typeof scope !== 'string' || SCOPES[scope] !== true) return undefined;
  const error: FaultlineErrorData = { type: text(type, 200), message: text(message, 4_096), kind: text(kind, 200), retryable, scope: scope as FaultlineErrorScope };
  const context = isPlainObject(value.context) ? copyJSON(value.context) : undefined;
  if (isPlainObject(context)) error.context = context;
  if (typeof value.suggestion === 'string') error.suggestion = text(value.suggestion, 1_024);
  if (typeof value.code === 'string') error.code = text(value.code, 200);
  if (typeof value.retryAfterMs === 'number' && Number.isFinite(value.retryAfterMs) && value.retryAfterMs >= 0) error.retryAfterMs = value.retryAfterMs;
  if (typeof value.toolCallId === 'string') error.toolCallId = text(value.toolCallId, 200);
  if (typeof value.toolName === 'string') error.toolName = text(value.toolName, 200);
  const cause = copyJSON(value.cause);
  if (cause !== undefined) error.cause = cause;
  return error;
}

/** The record's own fields on top of its error, when they are well formed. */
function recordData(value: unknown, error: FaultlineErrorData): FaultlineRecordData | undefined {
  const record = value as Record<string, unknown>;
  const { severity, stepNumber, timestamp } = record;
  if ((severity !== 'recoverable' && severity !== 'fatal') || typeof stepNumber !== 'number' || !Number.isFinite(stepNumber) || typeof timestamp !== 'string') return undefined;
  const copy: FaultlineRecordData = { ...error, severity, stepNumber, timestamp: text(timestamp, 64) };
  for (const key of ['nodeId', 'nodeName', 'nodeType'] as const) if (typeof record[key] === 'string') copy[key] = text(record[key] as string, 200);
  if (Array.isArray(record.path) && record.path.every((step) => typeof step === 'string')) copy.path = (record.path as string[]).slice(0, 64).map((step) => text(step, 200));
  return copy;
}

function text(value: string, limit: number): string {
  return truncate(value, limit);
}

/** A plain-JSON copy of at most 16,384 characters (a cycle, a BigInt or a larger value gives undefined). */
function copyJSON(value: unknown): unknown {
  const json = value === undefined ? undefined : tryStringify(value);
  return json === undefined || json.length > 16_384 ? undefined : (JSON.parse(json) as unknown);
}
