import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';
import { AgentError, type AgentErrorOptions } from './agent-error.js';

const symbol = Symbol.for('faultline.error.ConfigError');

/** Options of {@link ConfigError}. */
export interface ConfigErrorOptions extends AgentErrorOptions {
  /** Every problem found; all of them are reported together. */
  problems?: readonly string[] | undefined;
}

/**
 * Something was configured wrongly (the seed's `ConfigError`): a missing chat client, duplicate tool names, invalid
 * options. Every problem found is listed in `problems`, so one fix-and-retry cycle is enough.
 *
 * @example
 * ```ts
 * try { new AgentBuilder('helper').build(); } catch (error) {
 *   if (ConfigError.isInstance(error)) console.log(error.problems); // ['chat client is required: call .chatClient(client)']
 * }
 * ```
 */
export class ConfigError extends AgentError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'ConfigError';
  override readonly kind = 'config' as const;
  declare readonly problems: readonly string[];

  constructor(message: string, options: ConfigErrorOptions = {}) {
    super(message, options);
    this[symbol] = true;
    const settings = optionsOf<ConfigErrorOptions>(options);
    this.problems = Object.freeze(Array.isArray(settings.problems) ? [...settings.problems] : [this.message]);
  }

  /**
   * One error listing every problem: `Invalid <subject>: 2 problems: (1) …; (2) …`.
   * @example `throw ConfigError.fromProblems('tool "search"', ['name is empty', 'execute is not a function'])`
   */
  static fromProblems(subject: string, problems: readonly string[], options: AgentErrorOptions = {}): ConfigError {
    const listed =
      problems.length === 1 ? `${problems[0]}` : `${problems.length} problems: ${problems.map((problem, index) => `(${index + 1}) ${problem}`).join('; ')}`;
    return new ConfigError(`Invalid ${subject}: ${listed}`, { ...options, problems });
  }

  /** @example `ConfigError.isInstance(error)` */
  static override isInstance(value: unknown): value is ConfigError {
    return hasMarker(value, symbol);
  }

  protected override details(): Record<string, unknown> {
    return { problems: [...this.problems] };
  }
}
