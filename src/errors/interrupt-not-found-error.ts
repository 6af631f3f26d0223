import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';
import { boundedIds, ResumeError, type ResumeErrorOptions } from './resume-error.js';

const symbol = Symbol.for('faultline.error.InterruptNotFoundError');

/** Options of {@link InterruptNotFoundError}. */
export interface InterruptNotFoundErrorOptions extends ResumeErrorOptions {
  /** The ids the resume named that the run is not waiting on (at most 50). */
  ids?: readonly string[] | undefined;
}

/**
 * A resume named an interrupt the run is not waiting on: a typo, a stale page, or an interrupt another resume
 * already answered. `ids` are the unknown ones; `pendingIds` what the run does wait on. Nothing changed.
 *
 * @example
 * ```ts
 * catch (error) { if (InterruptNotFoundError.isInstance(error)) console.log(error.ids, 'not pending; pending:', error.pendingIds); }
 * ```
 */
export class InterruptNotFoundError extends ResumeError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'InterruptNotFoundError';
  declare readonly ids: readonly string[]; // set by the constructor: no field definition to bundle

  constructor(message: string, options: InterruptNotFoundErrorOptions = {}) {
    super(message, { ...optionsOf<InterruptNotFoundErrorOptions>(options), code: 'INTERRUPT_NOT_FOUND' });
    this[symbol] = true;
    const settings = optionsOf<InterruptNotFoundErrorOptions>(options);
    this.ids = boundedIds(settings.ids);
  }

  /** @example `InterruptNotFoundError.isInstance(error)` */
  static override isInstance(value: unknown): value is InterruptNotFoundError {
    return hasMarker(value, symbol);
  }

  protected override details(): Record<string, unknown> {
    return { ...super.details(), ids: [...this.ids] };
  }
}
