import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';
import { boundedIds, ResumeError, type ResumeErrorOptions } from './resume-error.js';

const symbol = Symbol.for('faultline.error.InterruptExpiredError');

/** Options of {@link InterruptExpiredError}. */
export interface InterruptExpiredErrorOptions extends ResumeErrorOptions {
  /** The ids of the expired interrupts the resume named. */
  ids?: readonly string[] | undefined;
  /** When the first of them expired (ISO-8601). */
  expiredAt?: string | undefined;
}

/**
 * A resume answered an interrupt after its `expiresAt`. The run is not changed by the refusal; the next resume of
 * the run answers the expired calls for the model as expired (a structured tool error), as if nobody decided.
 *
 * @example
 * ```ts
 * catch (error) { if (InterruptExpiredError.isInstance(error)) console.log('too late: expired at', error.expiredAt); }
 * ```
 */
export class InterruptExpiredError extends ResumeError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'InterruptExpiredError';
  // The fields the constructor assigns are `declare`d: no class-field definition is emitted for them (smaller
  // bundles), and every instance still gets each as an own property (undefined when not given), in this order.
  declare readonly ids: readonly string[];
  declare readonly expiredAt?: string;

  constructor(message: string, options: InterruptExpiredErrorOptions = {}) {
    super(message, { ...optionsOf<InterruptExpiredErrorOptions>(options), code: 'INTERRUPT_EXPIRED' });
    this[symbol] = true;
    const settings = optionsOf<InterruptExpiredErrorOptions>(options);
    this.ids = boundedIds(settings.ids);
    const expiredAt = settings.expiredAt;
    this.expiredAt = typeof expiredAt === 'string' ? expiredAt.slice(0, 40) : undefined;
  }

  /** @example `InterruptExpiredError.isInstance(error)` */
  static override isInstance(value: unknown): value is InterruptExpiredError {
    return hasMarker(value, symbol);
  }

  protected override details(): Record<string, unknown> {
    return { ...super.details(), ids: [...this.ids], expiredAt: this.expiredAt };
  }
}
