/**
 * Time limits that share one timer (one timer per limit would arm seven per run). Each limit is
 * an entry with a deadline; the set keeps a single `setTimeout` for the earliest one. A limit that only moves later —
 * the idle limit at every SSE event, a new model call or tool of the same run — costs no timer at all: the timer
 * fires, finds the entry not due, and is set again for the rest.
 *
 * When the timer fires it trusts itself for the entries it was set for: those fire even if the clock says a little
 * early (timers and `performance.now()` drift apart by a millisecond). Every other entry is judged by the clock and
 * waited for again if it is not due. With mocked timers and a real clock (tests) a limit therefore fires on time when
 * nothing moved it, and at most one period late when something did — never early, and never in a loop.
 */
import { monotonic } from './clock.js';
import { clampDelay, startTimer } from './delay.js';

/** One limit of a {@link Deadlines}. Made by `add`; move it with `move`, end it with `cancel`. */
export interface Deadline {
  /** @internal When it is due (monotonic ms). */
  at: number;
  /** @internal The arming of the timer that covers it (-1: none; judged by the clock). */
  covered: number;
  /** @internal What runs when it is due. */
  readonly fire: () => void;
}

/** A set of limits served by one timer. */
export class Deadlines {
  private readonly entries = new Set<Deadline>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires (monotonic ms); `Infinity` when none is armed. */
  private target = Number.POSITIVE_INFINITY;
  /** Counts armings: an entry is trusted when the timer that fires was armed for it. */
  private generation = 0;
  private armQueued = false;
  private closed = false;

  /** Runs `fire` in `ms` (clamped to the timer range), unless cancelled or moved. */
  add(ms: number, fire: () => void): Deadline {
    const entry: Deadline = { at: monotonic() + clampDelay(ms), covered: -1, fire };
    this.entries.add(entry);
    if (entry.at < this.target) this.queueArm();
    return entry;
  }

  /** Moves `entry` to `ms` from now: later costs nothing (no timer), earlier sets the timer again. */
  move(entry: Deadline, ms: number): void {
    const at = monotonic() + clampDelay(ms);
    entry.covered = -1; // moved: the timer armed for its old deadline says nothing about the new one
    entry.at = at;
    if (!this.entries.has(entry)) this.entries.add(entry);
    if (at < this.target) this.queueArm();
  }

  /** Forgets `entry`; the timer is left as it is (it finds nothing due and is not set again). */
  cancel(entry: Deadline | undefined): void {
    if (entry !== undefined) this.entries.delete(entry);
  }

  /** Clears the timer once no entry is left (the owner is done); pending entries keep it running until they end. */
  release(): void {
    if (this.entries.size > 0) return;
    this.stop();
  }

  /** Clears the timer and forgets every entry: nothing fires any more. */
  close(): void {
    this.closed = true;
    this.entries.clear();
    this.stop();
  }

  private stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.target = Number.POSITIVE_INFINITY;
  }

  /** Arms after the current synchronous work: limits added together (a call's total and its attempt's) share one arming. */
  private queueArm(): void {
    if (this.armQueued || this.closed) return;
    this.armQueued = true;
    queueMicrotask(() => {
      this.armQueued = false;
      this.arm();
    });
  }

  private arm(): void {
    if (this.closed) return;
    let earliest = Number.POSITIVE_INFINITY;
    for (const entry of this.entries) if (entry.at < earliest) earliest = entry.at;
    if (earliest === Number.POSITIVE_INFINITY) return; // the armed timer, if any, fires and finds nothing
    if (this.timer !== undefined && this.target <= earliest) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    const generation = ++this.generation;
    for (const entry of this.entries) if (entry.at <= earliest + 1) entry.covered = generation;
    const now = monotonic();
    this.target = Math.max(earliest, now);
    this.timer = startTimer(() => this.expire(generation), earliest - now);
  }

  private expire(generation: number): void {
    this.timer = undefined;
    this.target = Number.POSITIVE_INFINITY;
    const now = monotonic();
    const due: Deadline[] = [];
    for (const entry of this.entries) {
      // Trusted: the timer was set for it and nothing moved it. Otherwise the clock decides.
      if (entry.covered === generation || entry.at - now <= 1) due.push(entry);
      else entry.covered = -1;
    }
    for (const entry of due) {
      if (!this.entries.delete(entry)) continue; // cancelled by an earlier limit of the same firing
      try {
        entry.fire();
      } catch {
        // our limits abort scopes and settle promises; none may stop the others
      }
    }
    this.arm();
  }
}
