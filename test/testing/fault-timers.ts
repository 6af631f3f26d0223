// The timer-leak check of the faultline/testing suites: the timers the fault handlers and stream builders
// (src/testing) arm and leave pending. A fault's timer that outlives the client keeps a node --test or mocha process
// alive for the rest of the delay after the test ended.
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';

const SOURCE = fileURLToPath(new URL('../../src/testing/', import.meta.url));

/**
 * Counts the timers armed from src/testing (a one-shot that neither fired nor was cleared, an interval not cleared),
 * from `watchFaultTimers()` until `stop()`. Tracked by where they were armed, any frame of the stack in src/testing
 * (their waits go through src/internal/delay.ts): msw and undici move Node's process-wide timer ref-count on their own.
 * @example `const timers = watchFaultTimers(); try { …; expect(timers.pending()).toBe(0); } finally { timers.stop(); }`
 */
export function watchFaultTimers(): { pending: () => number; stop: () => void } {
  const pending = new Set<unknown>();
  const real = { setTimeout: globalThis.setTimeout, setInterval: globalThis.setInterval, clearTimeout: globalThis.clearTimeout, clearInterval: globalThis.clearInterval };
  const track = <T>(timer: T): T => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 100; // the frame in src/testing is below the spy's and delay.ts' own
    const stack = new Error().stack ?? '';
    Error.stackTraceLimit = limit;
    if (stack.includes(SOURCE)) pending.add(timer);
    return timer;
  };
  const spies = [
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: (...values: unknown[]) => void, ms?: number, ...values: unknown[]) => {
      const timer = real.setTimeout(() => {
        pending.delete(timer);
        callback(...values);
      }, ms);
      return track(timer);
    }) as typeof setTimeout),
    vi.spyOn(globalThis, 'setInterval').mockImplementation(((callback: (...values: unknown[]) => void, ms?: number, ...values: unknown[]) => track(real.setInterval(callback, ms, ...values))) as typeof setInterval),
    vi.spyOn(globalThis, 'clearTimeout').mockImplementation((timer) => {
      pending.delete(timer);
      real.clearTimeout(timer);
    }),
    vi.spyOn(globalThis, 'clearInterval').mockImplementation((timer) => {
      pending.delete(timer);
      real.clearInterval(timer);
    }),
  ];
  return { pending: () => pending.size, stop: () => spies.forEach((spy) => spy.mockRestore()) };
}

/**
 * Runs `scenario` under {@link watchFaultTimers} and returns what it returned with the fault timers still pending
 * right after it ended: none may be left once the client gave up, not even the next 20 ms tick of a keep-alive.
 * @example `const { pending } = await withFaultTimers(() => drain(client.stream(ask))); expect(pending).toBe(0);`
 */
export async function withFaultTimers<T>(scenario: () => Promise<T>): Promise<{ value: T; pending: number }> {
  const timers = watchFaultTimers();
  try {
    const value = await scenario();
    return { value, pending: timers.pending() };
  } finally {
    timers.stop();
  }
}
