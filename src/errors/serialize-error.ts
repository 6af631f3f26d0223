import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';
import { AgentError, type AgentErrorOptions } from './agent-error.js';

const symbol = Symbol.for('faultline.error.SerializeError');

/** Options of {@link SerializeError}. */
export interface SerializeErrorOptions extends AgentErrorOptions {
  /** What was being (de)serialized, e.g. `tool result of "search"` or `state key "orders"`. */
  subject?: string | undefined;
  /** Validation issues as data (zod's `{code, path, message}`), when a payload failed a schema. */
  issues?: ReadonlyArray<SerializeIssue> | undefined;
}

/** One validation issue of a payload: where (`result.status.state`) and what. */
export interface SerializeIssue {
  code: string;
  path: string;
  message: string;
}

/**
 * A value could not be turned into JSON or read back from it (the seed's `Serialize`): a cycle, a `BigInt`, invalid
 * JSON in a state delta.
 *
 * @example
 * ```ts
 * try { serializeToolResult(ToolResult.success({ big: 1n << 70n })); } catch (error) {
 *   if (SerializeError.isInstance(error)) console.log(error.subject);
 * }
 * ```
 */
export class SerializeError extends AgentError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'SerializeError';
  override readonly kind = 'serialize' as const;
  declare readonly subject?: string;
  declare readonly issues: readonly SerializeIssue[];

  constructor(message: string, options: SerializeErrorOptions = {}) {
    super(message, options);
    this[symbol] = true;
    const settings = optionsOf<SerializeErrorOptions>(options);
    this.subject = settings.subject;
    this.issues = Object.freeze(Array.isArray(settings.issues) ? [...settings.issues] : []);
  }

  /** @example `SerializeError.isInstance(error)` */
  static override isInstance(value: unknown): value is SerializeError {
    return hasMarker(value, symbol);
  }

  protected override details(): Record<string, unknown> {
    return { subject: this.subject, issues: this.issues.length > 0 ? [...this.issues] : undefined };
  }
}
