/** Timers clamp to this (2^31 − 1 ms, about 24.8 days); larger values would fire immediately. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Clamps a delay to `[0, MAX_TIMER_MS]`; `NaN` becomes 0. */
export function clampDelay(ms: number): number {
  if (!(ms > 0)) return 0;
  return Math.min(ms, MAX_TIMER_MS);
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
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, duration);
    signal?.addEventListener('abort', onAbort, { once: true });
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
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    dispose = () => signal.removeEventListener('abort', onAbort);
  });
  promise.catch(() => {});
  return { promise, dispose };
}

/**
 * A controller whose signal aborts when `parent` aborts (same reason) or when `abort()` is called.
 * `dispose()` detaches it from the parent so nothing leaks after the operation.
 */
export function linkedController(parent?: AbortSignal): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  if (!parent) return { controller, dispose: () => {} };
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { controller, dispose: () => {} };
  }
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return { controller, dispose: () => parent.removeEventListener('abort', onAbort) };
}
