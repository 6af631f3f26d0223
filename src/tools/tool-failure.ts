import { hasMarker } from '../internal/brand.js';
import { cloneJSONLike, isPlainObject, messageText, optionsOf } from '../internal/json.js';

const symbol = Symbol.for('faultline.tool.ToolFailure');

/**
 * The `type` the model sees for an error given as a bare message (`ToolResult.error('File not found')`): no
 * framework class shares the name, so a model-facing type never reads as one of the caller's errors.
 * @example `ToolResult.error('File not found').error?.type === GENERIC_TOOL_ERROR_TYPE // 'ToolExecutionFailed'`
 */
export const GENERIC_TOOL_ERROR_TYPE = 'ToolExecutionFailed';

/**
 * The structured error a model receives in a tool result (the course's shape): a simple category, a descriptive
 * message, optionally the input that caused it and a suggestion for how to recover.
 *
 * @example
 * ```json
 * { "type": "DataNotFoundError", "message": "No profile found for user_id 42.", "suggestion": "Check the user id." }
 * ```
 */
export interface ToolErrorInfo {
  /** A category such as `InputValidationError`, `APIFailure`, `NetworkError` or your own. */
  type: string;
  /** What went wrong, in words a model can act on. */
  message: string;
  /** The input or operation concerned. Must be JSON-serializable and free of secrets. */
  context?: Record<string, unknown>;
  /** How the model might recover. */
  suggestion?: string;
}

/** Options of {@link ToolFailure} and the standard failures. */
export interface ToolFailureOptions {
  /** The input or operation concerned (shown to the model). */
  context?: Record<string, unknown> | undefined;
  /** How the model might recover (shown to the model). */
  suggestion?: string | undefined;
  /** Whether `runTool` may retry the call. */
  retryable?: boolean | undefined;
  /** A server back-off hint honoured by `runTool`'s retries. */
  retryAfterMs?: number | undefined;
  /** The underlying error, for the developer log only (never shown to the model). */
  cause?: unknown;
}

/**
 * An expected tool failure, meant for the model: throw it (or a subclass) from `execute`, or pass it to
 * `ToolResult.error`, and the model receives `{ok: false, error: {type, message, context?, suggestion?}}`.
 * Subclasses cover the standard categories; construct this class directly for a category of your own.
 *
 * @example
 * ```ts
 * throw new ToolFailure('QuotaExceeded', 'The monthly translation quota is used up.', {
 *   suggestion: 'Answer without translating, and tell the user the quota resets on the 1st.',
 * });
 * ```
 */
export class ToolFailure extends Error {
  declare private readonly [symbol]: true;
  override readonly name: string;
  /** The category the model sees as `error.type`. */
  readonly type: string;
  readonly context?: Record<string, unknown>;
  readonly suggestion?: string;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;

  /**
   * @param type - The category the model sees. Called with one argument (from plain JS), that argument is the
   *   message and the type is `ToolExecutionFailed` (`GENERIC_TOOL_ERROR_TYPE`).
   */
  constructor(type: string, message: string, options?: ToolFailureOptions) {
    const alone = message === undefined && options === undefined;
    const settings = optionsOf<ToolFailureOptions>(options);
    super(messageText(alone ? type : message), settings.cause === undefined ? undefined : { cause: settings.cause });
    this[symbol] = true;
    const category = alone || typeof type !== 'string' || type === '' ? GENERIC_TOOL_ERROR_TYPE : type;
    this.name = category;
    this.type = category;
    if (isPlainObject(settings.context)) this.context = cloneJSONLike(settings.context);
    if (typeof settings.suggestion === 'string') this.suggestion = settings.suggestion;
    this.retryable = settings.retryable === true;
    if (typeof settings.retryAfterMs === 'number' && settings.retryAfterMs >= 0) this.retryAfterMs = settings.retryAfterMs;
  }

  /** True for any tool failure, from this copy of the package or another. */
  static isInstance(value: unknown): value is ToolFailure {
    return hasMarker(value, symbol);
  }

  /** The model-facing part: `{type, message, context?, suggestion?}`. */
  toErrorInfo(): ToolErrorInfo {
    const info: ToolErrorInfo = { type: this.type, message: this.message };
    if (this.context !== undefined) info.context = cloneJSONLike(this.context);
    if (this.suggestion !== undefined) info.suggestion = this.suggestion;
    return info;
  }

  /** Same as {@link ToolFailure.toErrorInfo}, so `JSON.stringify(failure)` gives the model-facing shape. */
  toJSON(): ToolErrorInfo {
    return this.toErrorInfo();
  }
}

/** Shared constructor plumbing of the standard failures: their defaults, overridable per instance. */
export function standardOptions(
  options: ToolFailureOptions | undefined,
  defaults: { suggestion: string; retryable: boolean },
): ToolFailureOptions {
  const given = optionsOf<ToolFailureOptions>(options);
  return { ...given, suggestion: given.suggestion ?? defaults.suggestion, retryable: given.retryable ?? defaults.retryable };
}
