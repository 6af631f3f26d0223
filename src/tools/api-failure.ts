import { hasMarker } from '../internal/brand.js';
import { standardOptions, ToolFailure, type ToolFailureOptions } from './tool-failure.js';

const symbol = Symbol.for('faultline.tool.APIFailure');

/**
 * The external service failed on its side (HTTP 5xx, an unexpected answer). Retryable by default; pass `retryable: false` for
 * failures that will not go away.
 * Default message: "The external service returned an error."
 *
 * @example
 * ```ts
 * throw new APIFailure('The payment service answered 503 Service Unavailable.', { retryable: true });
 * ```
 */
export class APIFailure extends ToolFailure {
  declare private readonly [symbol]: true;
  /** The message used when none is given. */
  static readonly defaultMessage = 'The external service returned an error.';
  /** The suggestion used when none is given. */
  static readonly defaultSuggestion = 'Try again later; if it keeps failing, continue without this tool or tell the user the service is unavailable.';

  constructor(message?: string, options?: ToolFailureOptions) {
    super('APIFailure', message ?? APIFailure.defaultMessage, standardOptions(options, { suggestion: APIFailure.defaultSuggestion, retryable: true }));
    this[symbol] = true;
  }

  /** @example `APIFailure.isInstance(error)` */
  static override isInstance(value: unknown): value is APIFailure {
    return hasMarker(value, symbol);
  }
}
