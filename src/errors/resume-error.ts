import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';
import { AgentError, type AgentErrorOptions } from './agent-error.js';

const symbol = Symbol.for('faultline.error.ResumeError');

/**
 * The stable codes of a refused resume. Each has its section on `docs/errors/resume-error.md` (`error.docs`).
 * @example `if (error.code === ResumeCode.Conflict) showAlreadyDecided();`
 */
export const ResumeCode = /* @__PURE__ */ Object.freeze({
  /** A decision names an interrupt the run is not waiting on ({@link InterruptNotFoundError}). */
  NotFound: 'INTERRUPT_NOT_FOUND',
  /** A decision came after its interrupt's `expiresAt` ({@link InterruptExpiredError}). */
  Expired: 'INTERRUPT_EXPIRED',
  /** The resume leaves a pending interrupt undecided ({@link ResumeIncompleteError}). */
  Incomplete: 'RESUME_INCOMPLETE',
  /** A decision's value fails its interrupt's `responseSchema`, or has the wrong form ({@link ResumePayloadError}). */
  PayloadInvalid: 'RESUME_PAYLOAD_INVALID',
  /** Another, different resume of the same interrupt won. */
  Conflict: 'RESUME_CONFLICT',
  /** The run is not waiting on anything: it never stopped, or it already went on. */
  NotInterrupted: 'RUN_NOT_INTERRUPTED',
  /** The tool call's arguments differ from those the approval was asked for. */
  ArgumentsChanged: 'APPROVAL_ARGUMENTS_CHANGED',
} as const);

/** One of the {@link ResumeCode} strings. */
export type ResumeCodeName = (typeof ResumeCode)[keyof typeof ResumeCode];

/** Options of {@link ResumeError} and its subclasses. */
export interface ResumeErrorOptions extends AgentErrorOptions {
  /** The run the resume was for. */
  runId?: string | undefined;
  /** The ids of the interrupts the run is waiting on (at most 50 are kept). */
  pendingIds?: readonly string[] | undefined;
}

/** How many pending ids an error keeps: a run asking a thousand questions gives a bounded error. */
const MAX_IDS = 50;

/** @internal The first {@link MAX_IDS} of `ids`, as strings. */
export function boundedIds(ids: readonly unknown[] | undefined): readonly string[] {
  return Object.freeze((Array.isArray(ids) ? ids : []).slice(0, MAX_IDS).map((id) => String(id).slice(0, 200)));
}

/**
 * A resume was refused, and nothing changed: the run still waits on the same interrupts, and a corrected resume can
 * be sent. The code says why ({@link ResumeCode}); the subclasses carry what each case needs. `retryable` is false:
 * the same resume would be refused again.
 *
 * @example
 * ```ts
 * const outcome = await agent.resume('run-7', [{ id: 'int_1', approved: true }]).catch((error) => {
 *   if (ResumeError.isInstance(error)) return { refused: error.code, waitingOn: error.pendingIds };
 *   throw error;
 * });
 * ```
 */
export class ResumeError extends AgentError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'ResumeError';
  override readonly kind = 'resume' as const;
  declare readonly code: ResumeCodeName;
  // The fields the constructor assigns are `declare`d: no class-field definition is emitted for them (smaller
  // bundles), and every instance still gets each as an own property (undefined when not given), in this order.
  declare readonly runId?: string;
  declare readonly pendingIds: readonly string[];
  declare readonly retryable: false;

  constructor(message: string, options: ResumeErrorOptions & { code: ResumeCodeName }) {
    super(message, options);
    this[symbol] = true;
    const settings = optionsOf<ResumeErrorOptions>(options);
    const runId = settings.runId;
    this.runId = typeof runId === 'string' ? runId.slice(0, 200) : undefined;
    this.pendingIds = boundedIds(settings.pendingIds);
    this.retryable = false;
  }

  /** @example `ResumeError.isInstance(error)` */
  static override isInstance(value: unknown): value is ResumeError {
    return hasMarker(value, symbol);
  }

  /** The HTTP status a handler answers this refusal with. */
  get httpStatus(): number {
    switch (this.code) {
      case 'INTERRUPT_NOT_FOUND':
      case 'RUN_NOT_INTERRUPTED':
        return 404;
      case 'INTERRUPT_EXPIRED':
        return 410;
      case 'RESUME_CONFLICT':
      case 'APPROVAL_ARGUMENTS_CHANGED':
        return 409;
      default:
        return 422;
    }
  }

  protected override details(): Record<string, unknown> {
    return { runId: this.runId, pendingIds: [...this.pendingIds], retryable: false };
  }
}
