import { hasMarker } from '../internal/brand.js';
import { messageOf, read } from '../internal/error-chain.js';
import { cloneJSONLike, isPlainObject } from '../internal/json.js';
import { GENERIC_TOOL_ERROR_TYPE, ToolFailure, type ToolErrorInfo } from './tool-failure.js';

const symbol = Symbol.for('faultline.tool.ToolResult');

export { GENERIC_TOOL_ERROR_TYPE } from './tool-failure.js';
/**
 * The `type` of the error part of a partial (degraded) result.
 * @example `if (result.ok && result.error?.type === PARTIAL_FAILURE_TYPE) showWarning(result.error.message);`
 */
export const PARTIAL_FAILURE_TYPE = 'PartialFailure';

const MISSING_MESSAGE = 'The tool reported an error without a message.';

/** What `ToolResult.error` and friends accept as the error. */
export type ToolErrorInput = string | ToolErrorInfo | ToolFailure | Error;

/** The JSON a model receives, keys in this order. */
export interface ToolResultJSON<T = unknown> {
  ok: boolean;
  data?: T;
  error?: ToolErrorInfo;
}

/**
 * What a tool returns to the model (RAF's `ToolResult`, with the course's structured error): `ok`, optional `data`,
 * optional `error {type, message, context?, suggestion?}`, serialized with keys in the order `ok`, `data`, `error`.
 * Expected failures are results, not exceptions, so the model can see them and adjust.
 *
 * @example
 * ```ts
 * ToolResult.success({ path: 'src/main.rs', bytes_read: 1024 }); // {"ok":true,"data":{…}}
 * ToolResult.error('File not found: src/missing.rs');           // {"ok":false,"error":{"type":"ToolExecutionFailed","message":"File not found: src/missing.rs"}}
 * ToolResult.errorWithData('Validation failed', { invalid_fields: ['path'] });
 * ToolResult.partial({ temperature: 21 }, { forecast: new NetworkError('Forecast service unreachable.') });
 * ```
 */
export class ToolResult<T = unknown> {
  declare private readonly [symbol]: true;
  declare readonly ok: boolean;
  declare readonly data?: T;
  declare readonly error?: ToolErrorInfo;

  private constructor(ok: boolean, data: T | undefined, error: ToolErrorInfo | undefined) {
    this[symbol] = true;
    (this as { ok: boolean }).ok = ok;
    if (data !== undefined) (this as { data?: T }).data = data;
    if (error !== undefined) (this as { error?: ToolErrorInfo }).error = error;
    Object.freeze(this); // immutable: 6× cheaper than a non-writable property each
  }

  /**
   * A successful result. `undefined` data is sent as `null` so the model always sees a `data` key.
   * @example `ToolResult.success({ temperature: 21 })`
   */
  static success<T>(data: T): ToolResult<T> {
    return new ToolResult<T>(true, (data === undefined ? null : data) as T, undefined);
  }

  /**
   * A failed result the model sees. Accepts a message, a `{type, message, context?, suggestion?}` object, or a
   * `ToolFailure`.
   * @example `ToolResult.error(new DataNotFoundError('No order 1234.'))`
   */
  static error(error: ToolErrorInput): ToolResult<never> {
    return new ToolResult<never>(false, undefined, toErrorInfo(error));
  }

  /**
   * A failed result that also carries data, e.g. which fields failed validation.
   * @example `ToolResult.errorWithData('Validation failed', { invalid_fields: ['path'] })`
   */
  static errorWithData<T>(error: ToolErrorInput, data: T): ToolResult<T> {
    return new ToolResult<T>(false, data, toErrorInfo(error));
  }

  /**
   * Graceful degradation: the parts that worked as `data`, and what failed as an error of type `PartialFailure`
   * (with each failed part under `context.failed`), so the model sees both. `ok` is `true` because the data is
   * usable. With no failures it is a plain success.
   * @example
   * ```ts
   * ToolResult.partial({ current: { temperature: 21 } }, { forecast: new NetworkError('Forecast service unreachable.') });
   * ```
   */
  static partial<T>(data: T, failures: Readonly<Record<string, ToolErrorInput>>): ToolResult<T> {
    const entries = Object.entries(failures ?? {});
    if (entries.length === 0) return ToolResult.success(data);
    const failed: Record<string, ToolErrorInfo> = {};
    for (const [part, failure] of entries) {
      const info = toErrorInfo(failure);
      Object.defineProperty(failed, part, { value: info, enumerable: true, configurable: true, writable: true });
    }
    const summary = entries.map(([part]) => `${part} (${failed[part]?.type}: ${failed[part]?.message.replace(/[.。]$/, '')})`).join('; ');
    return new ToolResult<T>(true, data, {
      type: PARTIAL_FAILURE_TYPE,
      message: `Partial result: ${entries.length === 1 ? 'one part' : `${entries.length} parts`} failed: ${summary}. The data holds the parts that succeeded.`,
      context: { failed },
      suggestion: 'Use the data that was returned and mention what is missing; retry later only if the missing part is essential.',
    });
  }

  /**
   * A result from its JSON shape (`{ok, data?, error?}`), e.g. a tool message read back from a session. The error is
   * normalised like `ToolResult.error`'s; a value that is not such a shape is an error result saying so.
   * @example `ToolResult.fromJSON(JSON.parse(message.content))`
   */
  static fromJSON<T = unknown>(json: ToolResultJSON<T>): ToolResult<T> {
    if (!isPlainObject(json) || typeof read(json, 'ok') !== 'boolean') {
      return new ToolResult<T>(false, undefined, { type: GENERIC_TOOL_ERROR_TYPE, message: 'The tool result is not of the shape {ok, data?, error?}.' });
    }
    const error = read(json, 'error');
    return new ToolResult<T>(json.ok, read(json, 'data') as T | undefined, error === undefined ? undefined : toErrorInfo(error as ToolErrorInput));
  }

  /** True for results made by `ToolResult.*` (from any copy of the package). */
  static isInstance(value: unknown): value is ToolResult {
    return hasMarker(value, symbol);
  }

  /** The model-facing JSON shape, keys in the order `ok`, `data`, `error`. */
  toJSON(): ToolResultJSON<T> {
    const json: ToolResultJSON<T> = { ok: this.ok };
    if (this.data !== undefined) json.data = this.data;
    if (this.error !== undefined) json.error = this.error;
    return json;
  }
}

/** Normalises every accepted error form to `{type, message, context?, suggestion?}`. */
export function toErrorInfo(error: ToolErrorInput): ToolErrorInfo {
  if (ToolFailure.isInstance(error)) return error.toErrorInfo();
  if (typeof error === 'string') return { type: GENERIC_TOOL_ERROR_TYPE, message: error };
  if (isPlainObject(error)) {
    const type = read(error, 'type');
    const message = read(error, 'message');
    const context = read(error, 'context');
    const suggestion = read(error, 'suggestion');
    const info: ToolErrorInfo = {
      type: typeof type === 'string' && type !== '' ? type : GENERIC_TOOL_ERROR_TYPE,
      message: typeof message === 'string' ? message : message === undefined ? MISSING_MESSAGE : messageOf(message),
    };
    if (isPlainObject(context)) info.context = cloneJSONLike(context);
    if (typeof suggestion === 'string') info.suggestion = suggestion;
    return info;
  }
  return { type: GENERIC_TOOL_ERROR_TYPE, message: messageOf(error) };
}
