import { hasMarker } from '../internal/brand.js';
import { standardOptions, ToolFailure, type ToolFailureOptions } from './tool-failure.js';

const symbol = Symbol.for('faultline.tool.NetworkError');

/**
 * The service could not be reached: DNS failure, connection refused or reset, offline. Retryable by default.
 * Default message: "The service could not be reached because of a network problem."
 *
 * @example
 * ```ts
 * throw new NetworkError('Could not connect to api.weather.example.', { cause: error });
 * ```
 */
export class NetworkError extends ToolFailure {
  declare private readonly [symbol]: true;
  /** The message used when none is given. */
  static readonly defaultMessage = 'The service could not be reached because of a network problem.';
  /** The suggestion used when none is given. */
  static readonly defaultSuggestion = 'Try again in a moment; if it keeps failing, continue without this tool.';

  constructor(message?: string, options?: ToolFailureOptions) {
    super('NetworkError', message ?? NetworkError.defaultMessage, standardOptions(options, { suggestion: NetworkError.defaultSuggestion, retryable: true }));
    this[symbol] = true;
  }

  /** @example `NetworkError.isInstance(error)` */
  static override isInstance(value: unknown): value is NetworkError {
    return hasMarker(value, symbol);
  }
}
