import { hasMarker } from '../internal/brand.js';
import { standardOptions, ToolFailure, type ToolFailureOptions } from './tool-failure.js';

const symbol = Symbol.for('faultline.tool.InputValidationError');

/**
 * The model sent arguments that do not fit the tool: not JSON, missing or mistyped fields, values out of range. `runTool` produces it
 * automatically (naming each bad field, what was expected and what was sent); throw it yourself for checks a schema cannot express.
 * Default message: "The arguments for this tool were invalid."
 *
 * @example
 * ```ts
 * throw new InputValidationError(`Invalid user_id: '${id}'. ID must be a positive integer.`, { context: { user_id: id } });
 * ```
 */
export class InputValidationError extends ToolFailure {
  declare private readonly [symbol]: true;
  /** The message used when none is given. */
  static readonly defaultMessage = 'The arguments for this tool were invalid.';
  /**
   * The suggestion used when none is given: true of every invalid-argument failure, a hand-thrown one that names no
   * field included (`runTool`'s own, which lists the bad fields, says so in its own suggestion).
   */
  static readonly defaultSuggestion = "The same arguments will be refused again: change them as the message says (the tool's parameter schema lists what it accepts) before calling the tool again.";

  constructor(message?: string, options?: ToolFailureOptions) {
    super('InputValidationError', message ?? InputValidationError.defaultMessage, standardOptions(options, { suggestion: InputValidationError.defaultSuggestion, retryable: false }));
    this[symbol] = true;
  }

  /** @example `InputValidationError.isInstance(error)` */
  static override isInstance(value: unknown): value is InputValidationError {
    return hasMarker(value, symbol);
  }
}
