/**
 * The `error.type` attribute of a failed span: the SDK's error taxonomy, low-cardinality by construction.
 * @see https://opentelemetry.io/docs/specs/semconv/registry/attributes/error/
 */
import { ErrorType } from '../errors/constants.js';
import { hasMarker } from '../internal/brand.js';
import { isAbortError, read } from '../internal/error-chain.js';
import { isPlainObject } from '../internal/json.js';
import { ERROR_TYPE_OTHER } from './attribute-names.js';

/**
 * The brand of `ToolFailure` (src/tools/tool-failure.ts): `ToolFailure.isInstance` is exactly this check. Read here
 * through the brand instead of importing the class, so telemetry/ does not depend on tools/ (tools/ depends on
 * telemetry/; the folders must not form a cycle). test/telemetry/error-type.test.ts keeps the two in step.
 */
const TOOL_FAILURE_MARKER = Symbol.for('faultline.tool.ToolFailure');
/** The brand of `AgentError` (what `AgentError.isInstance` checks), read without pulling the class in. */
const AGENT_ERROR_MARKER = Symbol.for('faultline.error');

/** A kind or a category: a short identifier (word characters, `.` and `-`). */
const CATEGORY = /^\w[\w.-]{0,127}$/;
/** An error class name: word characters only. */
const NAME = /^\w{1,128}$/;

function category(value: unknown): string | undefined {
  return typeof value === 'string' && CATEGORY.test(value) ? value : undefined;
}

/**
 * The `error.type` of any thrown value, never throwing:
 * - a framework error (`AgentError` and its subclasses): its `kind` (`chat_client`, `circuit_open`, `workflow`…);
 * - an abort (`AbortError`): `cancelled`;
 * - a tool's model-facing failure (`ToolFailure`, or a plain `{type, message}` tool error): its `type`
 *   (`NetworkError`, `RateLimitError`…);
 * - another error: its `name` (`TypeError`, `TimeoutError`) when that is a plain identifier;
 * - anything else (a thrown string, `null`): `_OTHER`, the convention's fallback.
 *
 * @param error - What was thrown or reported.
 * @returns A low-cardinality identifier for the attribute `error.type`.
 * @example
 * ```ts
 * errorTypeOf(new CircuitOpenError('open'));               // 'circuit_open'
 * errorTypeOf(new NetworkError());                         // 'NetworkError'
 * errorTypeOf(new DOMException('stop', 'AbortError'));     // 'cancelled'
 * errorTypeOf('boom');                                     // '_OTHER'
 * ```
 */
export function errorTypeOf(error: unknown): string {
  if (hasMarker(error, AGENT_ERROR_MARKER)) {
    const kind = category(read(error, 'kind'));
    if (kind !== undefined) return kind;
  }
  if (isAbortError(error)) return ErrorType.Cancelled;
  if (hasMarker(error, TOOL_FAILURE_MARKER) || (isPlainObject(error) && typeof read(error, 'message') === 'string')) {
    const type = category(read(error, 'type'));
    if (type !== undefined) return type;
  }
  if (error !== null && typeof error === 'object') {
    const name = read(error, 'name');
    if (typeof name === 'string' && NAME.test(name)) return name;
  }
  return ERROR_TYPE_OTHER;
}
