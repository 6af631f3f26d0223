import { hasMarker } from '../internal/brand.js';
import { standardOptions, ToolFailure, type ToolFailureOptions } from './tool-failure.js';

const symbol = Symbol.for('faultline.tool.TimeoutError');

/**
 * The operation did not finish in time: a tool's own deadline, an upstream 408. `runTool` produces it when a tool exceeds
 * `timeoutMs`. Retryable by default.
 * Default message: "The operation timed out."
 *
 * @example
 * ```ts
 * throw new TimeoutError('The request to the user profile service timed out. Please try again later.');
 * ```
 */
export class TimeoutError extends ToolFailure {
  declare private readonly [symbol]: true;
  /** The message used when none is given. */
  static readonly defaultMessage = 'The operation timed out.';
  /** The suggestion used when none is given. */
  static readonly defaultSuggestion = 'Try again later, or narrow the request so it can finish faster.';

  constructor(message?: string, options?: ToolFailureOptions) {
    super('TimeoutError', message ?? TimeoutError.defaultMessage, standardOptions(options, { suggestion: TimeoutError.defaultSuggestion, retryable: true }));
    this[symbol] = true;
  }

  /** @example `TimeoutError.isInstance(error)` */
  static override isInstance(value: unknown): value is TimeoutError {
    return hasMarker(value, symbol);
  }
}
