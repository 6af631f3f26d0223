import { hasMarker } from '../internal/brand.js';
import { standardOptions, ToolFailure, type ToolFailureOptions } from './tool-failure.js';

const symbol = Symbol.for('faultline.tool.RateLimitError');

/**
 * The service asked to slow down (HTTP 429). Retryable; `retryAfterMs` is honoured by `runTool`'s retries and stated in the
 * suggestion the model sees.
 * Default message: "The service is rate limiting requests."
 *
 * @example
 * ```ts
 * throw new RateLimitError('The search API rate limit was reached.', { retryAfterMs: 30_000 });
 * ```
 */
export class RateLimitError extends ToolFailure {
  declare private readonly [symbol]: true;
  /** The message used when none is given. */
  static readonly defaultMessage = 'The service is rate limiting requests.';
  /** The suggestion used when none is given. */
  static readonly defaultSuggestion = 'Wait before calling this tool again, and make fewer calls.';

  constructor(message?: string, options?: ToolFailureOptions) {
    const hint = options?.retryAfterMs;
    const waitSeconds = typeof hint === 'number' && hint >= 0 && Number.isFinite(hint) ? Math.max(1, Math.ceil(hint / 1000)) : undefined;
    const suggestion =
      waitSeconds === undefined ? RateLimitError.defaultSuggestion : `Wait at least ${waitSeconds} second${waitSeconds === 1 ? '' : 's'} before calling this tool again, and make fewer calls.`;
    super('RateLimitError', message ?? RateLimitError.defaultMessage, standardOptions(options, { suggestion, retryable: true }));
    this[symbol] = true;
  }

  /** @example `RateLimitError.isInstance(error)` */
  static override isInstance(value: unknown): value is RateLimitError {
    return hasMarker(value, symbol);
  }
}
