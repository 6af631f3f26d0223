/**
 * The abort of a run, owned by the run, so that model calls and tool attempts need no
 * `AbortController` of their own and add no `abort` listener to its signal (a controller and a listener each would
 * cost three controllers, three listeners and seven timers per 2-step run). An `AbortSource` is observed by callbacks, not DOM listeners; it makes a real `AbortSignal`
 * only when someone asks for one (a chat client of another package, a back-off wait); it lends the run's fetches one
 * `AbortController` in turn; and it keeps the run's time limits on one timer ({@link Deadlines}).
 */
import { Deadlines } from './deadlines.js';
import { callEach, callSoon, watchAbort } from './delay.js';

/** What an operation is cancelled by: a caller's `AbortSignal`, or the `AbortSource` of the run it belongs to. */
export type AbortParent = AbortSignal | AbortSource;

const noop = (): void => {};

/** The abort of one run. */
export class AbortSource {
  /** True once aborted (the caller's signal, a cancel, `abort`). */
  aborted = false;
  /** The abort's reason, once aborted. */
  reason: unknown = undefined;
  private controller: AbortController | undefined;
  private watchers: Set<() => void> | undefined;
  private spare: AbortController | undefined;
  private lazyDeadlines: Deadlines | undefined;
  private readonly stopParent: () => void;

  /** Follows `parent` (same reason) until {@link dispose}. */
  constructor(parent?: AbortSignal) {
    if (parent?.aborted) {
      this.aborted = true;
      this.reason = parent.reason;
      this.stopParent = noop;
    } else {
      this.stopParent = parent ? watchAbort(parent, () => this.abort(parent.reason)) : noop;
    }
  }

  /** A real signal that aborts with this source (made on first use; already aborted if the source is). */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** The run's time limits, on one timer (made on first use). */
  get deadlines(): Deadlines {
    this.lazyDeadlines ??= new Deadlines();
    return this.lazyDeadlines;
  }

  /** Aborts: the signal (if made) first, then every watcher in the order they started watching. A second call is ignored. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    const watchers = this.watchers;
    if (watchers === undefined) return;
    this.watchers = undefined;
    callEach(watchers);
  }

  /**
   * Runs `callback` once when this aborts; returns the function that stops watching. Like `watchAbort`: on a source
   * that already aborted the callback runs on the microtask queue.
   */
  watch(callback: () => void): () => void {
    if (this.aborted) return callSoon(callback);
    const watchers = (this.watchers ??= new Set());
    const entry = (): void => callback(); // a function of its own: the same callback may watch twice
    watchers.add(entry);
    return () => {
      watchers.delete(entry);
    };
  }

  /**
   * A controller for one fetch: the one a finished fetch of this run gave back, or a new one. Fetches of a run follow
   * one another, so a 2-step run makes one controller for its two model calls; a fetch that had to be aborted (a time
   * limit) keeps its controller, and the next one gets a fresh one.
   */
  lend(): AbortController {
    const spare = this.spare;
    if (spare !== undefined) {
      this.spare = undefined;
      return spare;
    }
    return new AbortController();
  }

  /** Takes back a lent controller whose fetch is over; an aborted one is dropped. */
  giveBack(controller: AbortController): void {
    if (!controller.signal.aborted && !this.aborted) this.spare = controller;
  }

  /** The run is over: stops following the caller's signal, and clears the timer once no limit is pending. */
  dispose(): void {
    this.stopParent();
    this.spare = undefined;
    this.lazyDeadlines?.release();
  }
}

/** Runs `callback` once when `parent` aborts; returns the function that stops watching. */
export function watchParent(parent: AbortParent, callback: () => void): () => void {
  return parent instanceof AbortSource ? parent.watch(callback) : watchAbort(parent, callback);
}
