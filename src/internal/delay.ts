import { RaceSet } from './race-set.js';

/** Timers clamp to this (2^31 − 1 ms, about 24.8 days); larger values would fire immediately. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Clamps a delay to `[0, MAX_TIMER_MS]`; `NaN` becomes 0. */
export function clampDelay(ms: number): number {
  if (!(ms > 0)) return 0;
  return Math.min(ms, MAX_TIMER_MS);
}

/**
 * The one way `src/` arms a timer: `setTimeout` with the delay clamped, so a limit of 2^31 ms or more (or `Infinity`)
 * waits about 24.8 days instead of firing at once as the runtimes do (`test/internal/timers.test.ts` holds every
 * timer in `src/` to it).
 */
export function startTimer(callback: () => void, ms: number): ReturnType<typeof setTimeout> {
  return setTimeout(callback, clampDelay(ms));
}

interface Watchers {
  readonly callbacks: Set<() => void>;
  readonly listener: () => void;
}

const watched = new WeakMap<AbortSignal, Watchers>();

/**
 * @internal Runs `callback` on the microtask queue unless the returned function is called first: how a watch of
 * something that already aborted fires (a signal, an `AbortSource`).
 */
export function callSoon(callback: () => void): () => void {
  let stopped = false;
  queueMicrotask(() => {
    if (!stopped) callback();
  });
  return () => {
    stopped = true;
  };
}

/**
 * @internal Calls the abort watchers in `callbacks`, in the order they started watching; one stopped by an earlier
 * watcher of the same abort is skipped, and none may stop the others (they abort controllers and settle promises).
 */
export function callEach(callbacks: ReadonlySet<() => void>): void {
  for (const each of [...callbacks]) {
    if (!callbacks.has(each)) continue;
    try {
      each();
    } catch {
      // a watcher that throws stops only itself
    }
  }
}

/**
 * Runs `callback` once when `signal` aborts, and returns the function that stops watching. However many operations
 * watch one signal (11 parallel tool calls, a 10,000-node fan-out, retry waits), the signal carries ONE listener of
 * ours, which fans out: no listener growth per call, no `MaxListenersExceededWarning`. The listener is removed when
 * the last watcher stops. Our callbacks run in the order they started watching, at the place of the first (before
 * listeners of your own added later). On a signal that already aborted, the callback runs on the microtask queue.
 */
export function watchAbort(signal: AbortSignal, callback: () => void): () => void {
  // Too late for a listener: the callback runs on the microtask queue, as an abort event would have come.
  if (signal.aborted) return callSoon(callback);
  let watchers = watched.get(signal);
  if (!watchers) {
    const callbacks = new Set<() => void>();
    const listener = () => {
      watched.delete(signal);
      callEach(callbacks);
      callbacks.clear();
    };
    watchers = { callbacks, listener };
    watched.set(signal, watchers);
    signal.addEventListener('abort', listener, { once: true });
  }
  const entry = () => callback(); // a function of its own: the same callback may watch twice
  const current = watchers;
  current.callbacks.add(entry);
  return () => {
    if (!current.callbacks.delete(entry) || current.callbacks.size > 0 || watched.get(signal) !== current) return;
    signal.removeEventListener('abort', current.listener);
    watched.delete(signal);
  };
}

/**
 * Resolves after `ms` milliseconds, or rejects with `signal.reason` as soon as `signal` aborts.
 * A zero delay resolves on the microtask queue without arming a timer (no 1 ms floor).
 */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  const duration = clampDelay(ms);
  if (duration === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    let stop = () => {};
    const timer = startTimer(() => {
      stop();
      resolve();
    }, duration);
    if (signal) {
      stop = watchAbort(signal, () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    }
  });
}

/** A promise that rejects with `signal.reason` when `signal` aborts, plus a function that detaches the listener. */
export function abortPromise(signal: AbortSignal): { promise: Promise<never>; dispose: () => void } {
  let dispose = () => {};
  const promise = new Promise<never>((_resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    dispose = watchAbort(signal, () => reject(signal.reason));
  });
  promise.catch(() => {});
  return { promise, dispose };
}

/**
 * Races promises against one signal, leaving nothing behind. `Promise.race([read, abortPromise])` in a read loop adds
 * a reaction to the abort promise per call, and that promise never settles while all goes well — so it keeps every
 * race's result, each chunk read, alive until the attempt ends: a whole stream body in memory. Here a settled race is
 * forgotten at once; on abort every pending race rejects with the signal's reason.
 * @example `const racer = new AbortRace(signal); const chunk = await racer.race(reader.read()); racer.dispose();`
 */
export class AbortRace {
  private readonly races = new RaceSet();
  declare private readonly stop: () => void; // set in the constructor: declared only, no field definition to bundle

  constructor(signal: AbortSignal) {
    this.stop = watchAbort(signal, () => this.races.abort(signal.reason));
    if (signal.aborted) this.races.abort(signal.reason);
  }

  /** `promise`, or the signal's reason when it aborts first (a promise already settled wins, as with `Promise.race`). */
  race<T>(promise: Promise<T>): Promise<T> {
    return this.races.race(promise);
  }

  dispose(): void {
    this.stop();
    this.races.clear();
  }
}

/**
 * `promise`, or the rejection of `signal` when it aborts first: how each caller waits on work shared by several (a
 * client's handshake, its discovery), which goes on for the others — one caller's abort fails that caller only.
 * @example `const card = await untilAborted(discovery, callOptions.signal);`
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  const racer = new AbortRace(signal);
  return racer.race(promise).finally(() => racer.dispose());
}

/**
 * A controller whose signal aborts when `parent` aborts (same reason) or when `abort()` is called.
 * `dispose()` detaches it from the parent so nothing leaks after the operation.
 */
export function linkedController(parent?: AbortSignal): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  let dispose = () => {};
  if (parent?.aborted) controller.abort(parent.reason);
  else if (parent) dispose = watchAbort(parent, () => controller.abort(parent.reason));
  return { controller, dispose };
}
