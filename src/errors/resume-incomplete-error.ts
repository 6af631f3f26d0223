import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';
import { boundedIds, ResumeError, type ResumeErrorOptions } from './resume-error.js';

const symbol = Symbol.for('faultline.error.ResumeIncompleteError');

/** Options of {@link ResumeIncompleteError}. */
export interface ResumeIncompleteErrorOptions extends ResumeErrorOptions {
  /** The pending interrupts the resume left undecided (at most 50). */
  undecidedIds?: readonly string[] | undefined;
}

/**
 * A resume left pending interrupts undecided: a run goes on only when every question it asked has an answer.
 * `undecidedIds` lists them; send one resume with a decision for each.
 *
 * @example
 * ```ts
 * catch (error) { if (ResumeIncompleteError.isInstance(error)) askAgain(error.undecidedIds); }
 * ```
 */
export class ResumeIncompleteError extends ResumeError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'ResumeIncompleteError';
  declare readonly undecidedIds: readonly string[]; // set by the constructor: no field definition to bundle

  constructor(message: string, options: ResumeIncompleteErrorOptions = {}) {
    super(message, { ...optionsOf<ResumeIncompleteErrorOptions>(options), code: 'RESUME_INCOMPLETE' });
    this[symbol] = true;
    const settings = optionsOf<ResumeIncompleteErrorOptions>(options);
    this.undecidedIds = boundedIds(settings.undecidedIds);
  }

  /** @example `ResumeIncompleteError.isInstance(error)` */
  static override isInstance(value: unknown): value is ResumeIncompleteError {
    return hasMarker(value, symbol);
  }

  protected override details(): Record<string, unknown> {
    return { ...super.details(), undecidedIds: [...this.undecidedIds] };
  }
}
