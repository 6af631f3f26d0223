/**
 * The W3C Trace Context `traceparent` header: `<version>-<trace-id>-<parent-id>-<trace-flags>`, e.g.
 * `00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01`. Parsing is strict (lowercase hex, no all-zero ids,
 * version `ff` refused, nothing after a version-00 header) and forward-compatible (a higher version is read by the
 * version-00 layout when what follows is a `-`), as the specification's "Versioning of traceparent" asks.
 *
 * @see https://www.w3.org/TR/trace-context/#traceparent-header
 */
import { ConfigError } from '../errors/config-error.js';
import { read } from '../internal/error-chain.js';
import { refusedValue } from '../internal/json.js';

/** A parsed `traceparent`: the trace, the parent span in it, and the trace flags (bit 0: sampled). */
export interface TraceParent {
  /** 32 lowercase hex characters, not all zero. */
  traceId: string;
  /** 16 lowercase hex characters, not all zero (the span the header was sent from). */
  spanId: string;
  /** The trace-flags byte, 0–255. */
  traceFlags: number;
}

const HEADER_LENGTH = 55;
const FIELDS = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
// Literals, not `'0'.repeat(n)`: a bundler keeps a method call at module scope even when nothing reads the result.
const ZERO_TRACE_ID = '00000000000000000000000000000000';
const ZERO_SPAN_ID = '0000000000000000';

/** True for 32 lowercase hex characters, not all zero. @internal */
export function isValidTraceId(value: unknown): value is string {
  return typeof value === 'string' && TRACE_ID.test(value) && value !== ZERO_TRACE_ID;
}

/** True for 16 lowercase hex characters, not all zero. @internal */
export function isValidSpanId(value: unknown): value is string {
  return typeof value === 'string' && SPAN_ID.test(value) && value !== ZERO_SPAN_ID;
}

function isValidFlags(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 255;
}

/** `value` as a {@link TraceParent} when it is a valid one (any object with valid fields), else undefined. @internal */
export function asTraceParent(value: unknown): TraceParent | undefined {
  const traceId = read(value, 'traceId');
  const spanId = read(value, 'spanId');
  const traceFlags = read(value, 'traceFlags');
  if (!isValidTraceId(traceId) || !isValidSpanId(spanId) || !isValidFlags(traceFlags)) return undefined;
  return { traceId, spanId, traceFlags };
}

/** Index of the first and one past the last character that is not optional whitespace (space or tab). */
function trimBounds(text: string): [number, number] {
  let start = 0;
  let end = text.length;
  while (start < end && (text[start] === ' ' || text[start] === '\t')) start++;
  while (end > start && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  return [start, end];
}

/**
 * Reads a `traceparent` header value. Returns `undefined` for anything that is not a valid header — never throws,
 * whatever it is given (a missing header, a number, an uppercase or truncated value, all-zero ids, version `ff`).
 *
 * @param header - The header value, e.g. `request.headers.get('traceparent')`.
 * @returns The trace id, parent span id and trace flags.
 * @example
 * ```ts
 * const parent = parseTraceparent(request.headers.get('traceparent'));
 * const span = telemetry.startSpan('SendMessage', { kind: 'server', parent });
 * ```
 */
export function parseTraceparent(header: string | null | undefined): TraceParent | undefined {
  if (typeof header !== 'string') return undefined;
  const [start, end] = trimBounds(header);
  const length = end - start;
  if (length < HEADER_LENGTH) return undefined;
  const match = FIELDS.exec(header.slice(start, start + HEADER_LENGTH));
  if (!match) return undefined;
  const [, version, traceId, spanId, flags] = match as unknown as [string, string, string, string, string];
  if (version === 'ff') return undefined;
  if (length > HEADER_LENGTH && (version === '00' || header[start + HEADER_LENGTH] !== '-')) return undefined;
  if (traceId === ZERO_TRACE_ID || spanId === ZERO_SPAN_ID) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) };
}

/**
 * Writes a version-00 `traceparent` header value.
 *
 * @param parent - Valid ids (lowercase hex, not all zero) and flags 0–255.
 * @returns `00-<trace-id>-<parent-id>-<flags>`.
 * @throws ConfigError listing every invalid field.
 * @example
 * ```ts
 * formatTraceparent({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 });
 * // '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'
 * ```
 */
export function formatTraceparent(parent: TraceParent): string {
  const traceId = read(parent, 'traceId');
  const spanId = read(parent, 'spanId');
  const traceFlags = read(parent, 'traceFlags');
  const problems: string[] = [];
  if (!isValidTraceId(traceId)) problems.push(`traceId must be 32 lowercase hex characters, not all zero (got ${refusedValue(traceId)})`);
  if (!isValidSpanId(spanId)) problems.push(`spanId must be 16 lowercase hex characters, not all zero (got ${refusedValue(spanId)})`);
  if (!isValidFlags(traceFlags)) problems.push(`traceFlags must be an integer from 0 to 255 (got ${refusedValue(traceFlags)})`);
  if (problems.length > 0) throw ConfigError.fromProblems('traceparent', problems);
  return `00-${traceId as string}-${spanId as string}-${(traceFlags as number).toString(16).padStart(2, '0')}`;
}
