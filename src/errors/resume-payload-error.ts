import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';
import { boundedIds, ResumeError, type ResumeErrorOptions } from './resume-error.js';

const symbol = Symbol.for('faultline.error.ResumePayloadError');

/** Options of {@link ResumePayloadError}. */
export interface ResumePayloadErrorOptions extends ResumeErrorOptions {
  /** The interrupt whose decision is invalid. */
  id?: string | undefined;
  /** What is wrong, one sentence per issue (at most 20). */
  issues?: readonly string[] | undefined;
}

/**
 * A decision has the wrong form (not `{ id, approved }` or `{ id, value }`, or the kind the interrupt does not ask
 * for), or its value fails the interrupt's `responseSchema`. `issues` names each problem with the path.
 *
 * @example
 * ```ts
 * catch (error) { if (ResumePayloadError.isInstance(error)) console.log(error.id, error.issues); }
 * ```
 */
export class ResumePayloadError extends ResumeError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'ResumePayloadError';
  // The fields the constructor assigns are `declare`d: no class-field definition is emitted for them (smaller
  // bundles), and every instance still gets each as an own property (undefined when not given), in this order.
  declare readonly id?: string;
  declare readonly issues: readonly string[];

  constructor(message: string, options: ResumePayloadErrorOptions = {}) {
    super(message, { ...optionsOf<ResumePayloadErrorOptions>(options), code: 'RESUME_PAYLOAD_INVALID' });
    this[symbol] = true;
    const settings = optionsOf<ResumePayloadErrorOptions>(options);
    const id = settings.id;
    this.id = typeof id === 'string' ? id.slice(0, 200) : undefined;
    this.issues = Object.freeze((Array.isArray(settings.issues) ? settings.issues : []).slice(0, 20).map((issue) => String(issue).slice(0, 500)));
  }

  /** @example `ResumePayloadError.isInstance(error)` */
  static override isInstance(value: unknown): value is ResumePayloadError {
    return hasMarker(value, symbol);
  }

  protected override details(): Record<string, unknown> {
    return { ...super.details(), id: this.id, issues: [...this.issues] };
  }
}
