import { hasMarker } from '../internal/brand.js';
import { standardOptions, ToolFailure, type ToolFailureOptions } from './tool-failure.js';

const symbol = Symbol.for('faultline.tool.ToolNotFound');

/**
 * The model called a tool that is not registered. `runToolCall` produces it with the available tool names and the closest match.
 * Default message: "The requested tool does not exist."
 *
 * @example
 * ```ts
 * const failure = new ToolNotFound("No tool named 'get_wether' is available.", { context: { available: ['get_weather'] } });
 * ```
 */
export class ToolNotFound extends ToolFailure {
  declare private readonly [symbol]: true;
  /** The message used when none is given. */
  static readonly defaultMessage = 'The requested tool does not exist.';
  /** The suggestion used when none is given. */
  static readonly defaultSuggestion = 'Call one of the available tools instead.';

  constructor(message?: string, options?: ToolFailureOptions) {
    super('ToolNotFound', message ?? ToolNotFound.defaultMessage, standardOptions(options, { suggestion: ToolNotFound.defaultSuggestion, retryable: false }));
    this[symbol] = true;
  }

  /** @example `ToolNotFound.isInstance(error)` */
  static override isInstance(value: unknown): value is ToolNotFound {
    return hasMarker(value, symbol);
  }
}
