import { hasMarker } from '../internal/brand.js';
import { standardOptions, ToolFailure, type ToolFailureOptions } from './tool-failure.js';

const symbol = Symbol.for('faultline.tool.DataNotFoundError');

/**
 * The thing asked for does not exist (HTTP 404, an empty lookup, a missing file).
 * Default message: "The requested data was not found."
 *
 * @example
 * ```ts
 * throw new DataNotFoundError(`No profile found for user_id: ${id}.`, { context: { user_id: id } });
 * ```
 */
export class DataNotFoundError extends ToolFailure {
  declare private readonly [symbol]: true;
  /** The message used when none is given. */
  static readonly defaultMessage = 'The requested data was not found.';
  /** The suggestion used when none is given. */
  static readonly defaultSuggestion = 'Check the identifier or search terms; calling again with the same input will not find it.';

  constructor(message?: string, options?: ToolFailureOptions) {
    super('DataNotFoundError', message ?? DataNotFoundError.defaultMessage, standardOptions(options, { suggestion: DataNotFoundError.defaultSuggestion, retryable: false }));
    this[symbol] = true;
  }

  /** @example `DataNotFoundError.isInstance(error)` */
  static override isInstance(value: unknown): value is DataNotFoundError {
    return hasMarker(value, symbol);
  }
}
