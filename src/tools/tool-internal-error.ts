import { hasMarker } from '../internal/brand.js';
import { standardOptions, ToolFailure, type ToolFailureOptions } from './tool-failure.js';

const symbol = Symbol.for('faultline.tool.ToolInternalError');

/**
 * The tool crashed. The model only sees this sanitized message (no stack, no internals, no secrets); the developer log gets the
 * real error. `runTool` produces it when `execute` throws something that is not a `ToolFailure`.
 * Default message: "An unexpected error occurred inside the tool."
 *
 * @example
 * ```ts
 * throw new ToolInternalError('An unexpected error occurred while fetching the user profile.', { cause: error });
 * ```
 */
export class ToolInternalError extends ToolFailure {
  declare private readonly [symbol]: true;
  /** The message used when none is given. */
  static readonly defaultMessage = 'An unexpected error occurred inside the tool.';
  /** The suggestion used when none is given. */
  static readonly defaultSuggestion = 'Do not retry with the same arguments; try a different approach, or tell the user the tool failed.';

  constructor(message?: string, options?: ToolFailureOptions) {
    super('ToolInternalError', message ?? ToolInternalError.defaultMessage, standardOptions(options, { suggestion: ToolInternalError.defaultSuggestion, retryable: false }));
    this[symbol] = true;
  }

  /** @example `ToolInternalError.isInstance(error)` */
  static override isInstance(value: unknown): value is ToolInternalError {
    return hasMarker(value, symbol);
  }
}
