import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';
import { AgentError, type AgentErrorOptions } from './agent-error.js';

const symbol = Symbol.for('faultline.error.OutputValidationError');

/** One problem of a final answer, as `{path, message}` (the path in the answer, `''` for its root). */
export interface OutputIssue {
  path: string;
  message: string;
}

/** Options of {@link OutputValidationError}. */
export interface OutputValidationErrorOptions extends AgentErrorOptions {
  /** Every problem the schema reported (or why the text is not JSON). */
  issues?: readonly OutputIssue[] | undefined;
  /** The model's final answer as it came (for the developer; redacted). */
  text?: string | undefined;
}

/**
 * The model's final answer did not match the run's `output` schema — not JSON, or failing it — even after it was shown
 * the problems once. Carries every issue and the raw text: never a silent `undefined`. Its `ResponseError` type is
 * `flow_error`.
 *
 * @example
 * ```ts
 * catch (error) { if (OutputValidationError.isInstance(error)) console.log(error.issues, error.text); }
 * ```
 */
export class OutputValidationError extends AgentError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'OutputValidationError';
  override readonly kind = 'output_validation' as const;
  readonly issues: readonly OutputIssue[];
  readonly text?: string;

  constructor(message: string, options: OutputValidationErrorOptions = {}) {
    super(message, options);
    this[symbol] = true;
    const settings = optionsOf<OutputValidationErrorOptions>(options);
    this.issues = Object.freeze(Array.isArray(settings.issues) ? settings.issues.map((issue) => ({ path: String(issue?.path ?? ''), message: String(issue?.message ?? '') })) : []);
    if (typeof settings.text === 'string') this.text = settings.text;
  }

  /** @example `OutputValidationError.isInstance(error)` */
  static override isInstance(value: unknown): value is OutputValidationError {
    return hasMarker(value, symbol);
  }

  protected override details(): Record<string, unknown> {
    return { issues: this.issues.map((issue) => ({ ...issue })), text: this.text };
  }
}
