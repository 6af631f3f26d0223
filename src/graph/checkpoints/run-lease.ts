/**
 * @internal Who holds a checkpointed run (the claims of the `Checkpointer` contract): a run reads its checkpoint and,
 * unless a live run holds it, claims it with a conditional write before it runs a node; every later write is
 * conditional on the revision it wrote last and renews its lease, a timer renews it during a long step, and the run's
 * end releases it. The runs live in this process are known here: a claim one of them holds is never taken over.
 */
import { WorkflowError } from '../../errors/workflow-error.js';
import { isoTimestamp } from '../../internal/clock.js';
import { Deadlines, type Deadline } from '../../internal/deadlines.js';
import { randomUUID } from '../../internal/ids.js';
import { isPlainObject, preview } from '../../internal/json.js';
import type { Checkpointer, GraphCheckpoint } from '../core/checkpointer.js';
import { RESUME_IN_PROGRESS, RUN_TAKEN_OVER } from '../core/constants.js';
import { LIVENESS_SCOPE, storedRevision } from './checkpoint.js';

/**
 * The runs live in this process: each one's owner id, with the liveness scope of the store it holds (made on first
 * use: nothing at module scope).
 */
let liveOwners: Map<string, object> | undefined;
const liveHere = (): Map<string, object> => (liveOwners ??= new Map());

/** @internal How a run claims its checkpoint. */
export interface LeaseSettings {
  /** How long a claim holds without a renewal (ms). */
  leaseMs: number;
  /** Take over at once a claim whose owner is not live in this process (the caller knows it is gone). */
  takeOver: boolean;
  /** A subgraph's run: its parent's claim is the authority, so it takes its checkpoint over whoever holds it. */
  child: boolean;
}

/** @internal What is being started, as a refusal names it. */
export type Attempt = 'run' | 'resume';

/** @internal One run's claim on its checkpoint. */
export class RunLease {
  readonly owner = randomUUID();
  /** The revision of the checkpoint as this run last read or wrote it: what its next write expects. */
  private revision = 0;
  /** The last checkpoint written holding the claim (a renewal writes it again); none once released or lost. */
  private held: GraphCheckpoint | undefined;
  private claimed = false;
  private lost = false;
  private ended = false;
  /** Writes, one at a time: a renewal and a step's write never expect the same revision. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The last write given to the store, settled (however it went): the next write waits for it. */
  private landing: Promise<void> = Promise.resolve();
  private deadlines: Deadlines | undefined;
  private renewal: Deadline | undefined;

  constructor(
    private readonly checkpointer: Checkpointer,
    private readonly runId: string,
    private readonly settings: LeaseSettings,
    /** A store call that gives way to the run's signal. */
    private readonly call: <T>(work: () => T | Promise<T>) => Promise<T>,
  ) {}

  /**
   * Takes note of the stored checkpoint (its revision is what the next write expects) and says whether this run may
   * claim it: `undefined`, or the `RESUME_IN_PROGRESS` refusal when a live run holds it.
   */
  admit(stored: unknown, attempt: Attempt): WorkflowError | undefined {
    this.revision = storedRevision(stored);
    if (this.settings.child || !isPlainObject(stored) || typeof stored.owner !== 'string') return undefined;
    const live = this.isLive(stored.owner);
    if (!live && (this.settings.takeOver || this.checkpointer.exclusive === true)) return undefined;
    const until = typeof stored.leaseUntil === 'string' ? Date.parse(stored.leaseUntil) : Number.NaN;
    const remaining = until - Date.now();
    if (!live && !(remaining > 0)) return undefined; // lapsed (a lease that cannot be read counts as lapsed)
    const holder = live ? 'another run in this process' : 'another process';
    const hint = live ? 'try again once it ends' : `try again after that, or resume with takeOver: true if you know that process is gone`;
    const lease = remaining > 0 ? ` (its claim holds until ${preview(stored.leaseUntil, 40)} unless renewed)` : '';
    return this.refusal(`run ${preview(this.runId, 200)} is being run by ${holder}${lease}: this ${attempt} ran nothing; ${hint}`, remaining > 0 ? remaining : undefined);
  }

  /** The refusal of a run that lost the race to claim its checkpoint. */
  conflict(attempt: Attempt): WorkflowError {
    return this.refusal(`run ${preview(this.runId, 200)} was claimed by another run just before this ${attempt}: this ${attempt} ran nothing; try again once that run ends`, undefined);
  }

  /**
   * Writes `checkpoint` as the run's next revision, holding the claim (`hold`) or letting it go. Resolves `false`,
   * writing nothing, when the run had not claimed its checkpoint yet and another write came first; throws
   * `RUN_TAKEN_OVER` once it had, and with what the store threw when it threw.
   */
  write(checkpoint: GraphCheckpoint, hold: boolean): Promise<boolean> {
    return this.enqueue(() => this.put(checkpoint, hold, true));
  }

  /** The run ended: no more renewals, and its claim released (not waited for when `background`: an abort). */
  end(background: boolean): Promise<void> {
    if (this.ended) return Promise.resolve();
    this.ended = true;
    this.deadlines?.close();
    liveHere().delete(this.owner);
    // Not bound to the signal (an aborted run releases too); a store that does not answer is not waited for then.
    // What it releases is read when its turn comes: a write the run's abort gave up on may land before it.
    const release = this.enqueue(() => {
      const held = this.held;
      return held === undefined || this.lost ? Promise.resolve(true) : this.put(held, false, !background);
    }).then(
      () => {},
      () => {},
    );
    return background ? Promise.resolve() : release;
  }

  private async put(checkpoint: GraphCheckpoint, hold: boolean, bound: boolean): Promise<boolean> {
    await this.landing; // a write the run gave up waiting for (its abort) may still land: the next one expects its revision
    if (this.lost) throw this.takenOver();
    const next: GraphCheckpoint = { ...checkpoint, updatedAt: isoTimestamp(), revision: this.revision + 1 };
    delete next.owner;
    delete next.leaseUntil;
    if (hold) {
      next.owner = this.owner;
      next.leaseUntil = isoTimestamp(Date.now() + this.settings.leaseMs);
    }
    if (!this.claimed && !this.ended) liveHere().set(this.owner, this.scope()); // before the claim can be read back: live once stored
    const storing = Promise.resolve().then(() => this.checkpointer.put(next));
    this.landing = storing.then(
      (written) => void (written !== false && this.landed(next, hold)),
      () => {},
    );
    const written = bound ? await this.call(() => storing) : await storing;
    if (written === false) {
      if (!this.claimed) return false;
      this.lost = true;
      this.held = undefined;
      throw this.takenOver();
    }
    this.landed(next, hold);
    this.schedule();
    return true;
  }

  /** `next` is the stored checkpoint now (whether this run still waited for it or not). */
  private landed(next: GraphCheckpoint, hold: boolean): void {
    if ((next.revision as number) < this.revision) return;
    this.revision = next.revision as number;
    this.claimed = true;
    this.held = hold ? next : undefined;
  }

  /** Whether `owner` is a run live in this process (for an exclusive store: one of this store's writers). */
  private isLive(owner: string): boolean {
    const scope = liveHere().get(owner);
    return scope !== undefined && (this.checkpointer.exclusive !== true || scope === this.scope());
  }

  private scope(): object {
    const declared: unknown = (this.checkpointer as { [LIVENESS_SCOPE]?: unknown })[LIVENESS_SCOPE];
    return typeof declared === 'object' && declared !== null ? declared : this.checkpointer;
  }

  /** Renews the claim a third of a lease after the last write (moving the entry later arms no timer). */
  private schedule(): void {
    if (this.held === undefined || this.ended || this.checkpointer.exclusive === true) return; // exclusive: liveness is known here
    const every = this.settings.leaseMs / 3;
    this.deadlines ??= new Deadlines();
    if (this.renewal === undefined) this.renewal = this.deadlines.add(every, () => this.renew());
    else this.deadlines.move(this.renewal, every);
  }

  private renew(): void {
    if (this.held === undefined || this.ended || this.lost) return;
    // A renewal the store refuses marks the run lost (its next write stops it); one that fails is tried again later.
    // What it writes is read when its turn comes, not when the timer fired: a write queued before it (the run's
    // completion) would otherwise be followed by the checkpoint it replaced — a finished run made pending again.
    this.enqueue(() => {
      const held = this.held;
      return held === undefined || this.ended || this.lost ? Promise.resolve(true) : this.put(held, true, true);
    }).catch(() => this.schedule());
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => {});
    return next;
  }

  private refusal(message: string, retryAfterMs: number | undefined): WorkflowError {
    return new WorkflowError(message, { code: RESUME_IN_PROGRESS, retryable: true, retryAfterMs, stepNumber: 0 });
  }

  private takenOver(): WorkflowError {
    return new WorkflowError(
      `run ${preview(this.runId, 200)} stopped: its checkpoint changed since this run wrote revision ${this.revision} (another run took it over, or it was deleted or forgotten by a bounded store); this run wrote nothing more, and whoever holds the checkpoint now carries on`,
      { code: RUN_TAKEN_OVER },
    );
  }
}
