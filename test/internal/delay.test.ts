import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { abortPromise, clampDelay, delay, linkedController, MAX_TIMER_MS } from '../../src/internal/delay.js';

/** Settles a promise into an observable state without awaiting it. */
function track<T>(promise: Promise<T>): { state: 'pending' | 'resolved' | 'rejected'; value?: T; reason?: unknown } {
  const tracker: { state: 'pending' | 'resolved' | 'rejected'; value?: T; reason?: unknown } = { state: 'pending' };
  promise.then(
    (value) => {
      tracker.state = 'resolved';
      tracker.value = value;
    },
    (reason: unknown) => {
      tracker.state = 'rejected';
      tracker.reason = reason;
    },
  );
  return tracker;
}

function abortListenerCount(signal: AbortSignal): number {
  return getEventListeners(signal, 'abort').length;
}

describe('clampDelay', () => {
  it('keeps an ordinary delay unchanged', () => {
    expect(clampDelay(1500)).toBe(1500);
  });

  it('clamps a delay above 2^31 − 1 ms to MAX_TIMER_MS', () => {
    expect(MAX_TIMER_MS).toBe(2 ** 31 - 1);
    expect(clampDelay(2 ** 31)).toBe(MAX_TIMER_MS);
    expect(clampDelay(Number.MAX_SAFE_INTEGER)).toBe(MAX_TIMER_MS);
    expect(clampDelay(Infinity)).toBe(MAX_TIMER_MS);
  });

  it('turns negative delays into 0', () => {
    expect(clampDelay(-1)).toBe(0);
    expect(clampDelay(-Infinity)).toBe(0);
  });

  it('turns NaN into 0', () => {
    expect(clampDelay(Number.NaN)).toBe(0);
  });
});

describe('delay', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    // Spies on setTimeout wrap the fake; restore them first so the real setTimeout comes back afterwards.
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('resolves a zero delay without arming a timer or advancing time', async () => {
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    const result = track(delay(0));
    await Promise.resolve();
    expect(result.state).toBe('resolved');
    expect(setTimeoutSpy).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resolves negative and NaN delays immediately without a timer', async () => {
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    await expect(delay(-10)).resolves.toBeUndefined();
    await expect(delay(Number.NaN)).resolves.toBeUndefined();
    expect(setTimeoutSpy).not.toHaveBeenCalled();
  });

  it('resolves after exactly the given number of milliseconds', async () => {
    const result = track(delay(1000));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(result.state).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(result.state).toBe('resolved');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('arms the timer with a clamped duration for huge delays', () => {
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    void delay(Number.MAX_SAFE_INTEGER);
    expect(setTimeoutSpy).toHaveBeenCalledTimes(1);
    expect(setTimeoutSpy.mock.calls[0]?.[1]).toBe(MAX_TIMER_MS);
    vi.clearAllTimers();
  });

  it('does not fire a clamped huge delay early', async () => {
    const result = track(delay(Number.MAX_SAFE_INTEGER));
    await vi.advanceTimersByTimeAsync(1000);
    expect(result.state).toBe('pending');
    vi.clearAllTimers();
  });

  it('rejects with the exact signal.reason when the signal is already aborted, without a timer', async () => {
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    const controller = new AbortController();
    const reason = new Error('stopped by the caller');
    controller.abort(reason);
    await expect(delay(1000, controller.signal)).rejects.toBe(reason);
    expect(setTimeoutSpy).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects a zero delay when the signal is already aborted', async () => {
    const controller = new AbortController();
    const reason = { custom: 'reason' };
    controller.abort(reason);
    await expect(delay(0, controller.signal)).rejects.toBe(reason);
  });

  it('rejects with the exact signal.reason when aborted while waiting and clears the timer', async () => {
    const controller = new AbortController();
    const reason = new Error('user cancelled');
    const result = track(delay(5000, controller.signal));
    await vi.advanceTimersByTimeAsync(1000);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort(reason);
    await Promise.resolve();
    expect(result.state).toBe('rejected');
    expect(result.reason).toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with the default AbortError DOMException when aborted without a reason', async () => {
    const controller = new AbortController();
    const promise = delay(5000, controller.signal);
    controller.abort();
    await expect(promise).rejects.toBe(controller.signal.reason);
    await expect(promise).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('removes its abort listener once the timer fires', async () => {
    const controller = new AbortController();
    const promise = delay(100, controller.signal);
    expect(abortListenerCount(controller.signal)).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    await promise;
    expect(abortListenerCount(controller.signal)).toBe(0);
  });

  it('stays resolved when the signal aborts after the timer fired', async () => {
    const controller = new AbortController();
    const result = track(delay(100, controller.signal));
    await vi.advanceTimersByTimeAsync(100);
    controller.abort(new Error('late'));
    await Promise.resolve();
    expect(result.state).toBe('resolved');
  });
});

describe('abortPromise', () => {
  it('rejects with the exact signal.reason when the signal aborts later', async () => {
    const controller = new AbortController();
    const reason = new Error('gone');
    const { promise } = abortPromise(controller.signal);
    const result = track(promise);
    await Promise.resolve();
    expect(result.state).toBe('pending');
    controller.abort(reason);
    await expect(promise).rejects.toBe(reason);
  });

  it('rejects immediately when the signal is already aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('already');
    controller.abort(reason);
    const { promise, dispose } = abortPromise(controller.signal);
    await expect(promise).rejects.toBe(reason);
    expect(abortListenerCount(controller.signal)).toBe(0);
    expect(() => dispose()).not.toThrow();
  });

  it('detaches its listener on dispose so the promise never settles', async () => {
    const controller = new AbortController();
    const { promise, dispose } = abortPromise(controller.signal);
    expect(abortListenerCount(controller.signal)).toBe(1);
    dispose();
    expect(abortListenerCount(controller.signal)).toBe(0);
    const result = track(promise);
    controller.abort(new Error('after dispose'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(result.state).toBe('pending');
  });

  it('does not raise an unhandled rejection when nobody awaits the promise', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const controller = new AbortController();
      abortPromise(controller.signal);
      controller.abort(new Error('ignored'));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});

describe('linkedController', () => {
  it('returns an independent controller when there is no parent', () => {
    const { controller, dispose } = linkedController();
    expect(controller.signal.aborted).toBe(false);
    expect(() => dispose()).not.toThrow();
    controller.abort('own');
    expect(controller.signal.reason).toBe('own');
  });

  it('propagates the parent abort with the same reason', () => {
    const parent = new AbortController();
    const reason = new Error('parent stopped');
    const { controller } = linkedController(parent.signal);
    expect(controller.signal.aborted).toBe(false);
    parent.abort(reason);
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe(reason);
  });

  it('starts aborted with the parent reason when the parent is already aborted', () => {
    const parent = new AbortController();
    const reason = new Error('too late');
    parent.abort(reason);
    const { controller } = linkedController(parent.signal);
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe(reason);
    expect(abortListenerCount(parent.signal)).toBe(0);
  });

  it('lets the child abort without aborting the parent', () => {
    const parent = new AbortController();
    const { controller } = linkedController(parent.signal);
    controller.abort(new Error('child only'));
    expect(controller.signal.aborted).toBe(true);
    expect(parent.signal.aborted).toBe(false);
  });

  it('detaches from the parent on dispose, leaving no listener behind', () => {
    const parent = new AbortController();
    const { controller, dispose } = linkedController(parent.signal);
    expect(abortListenerCount(parent.signal)).toBe(1);
    dispose();
    expect(abortListenerCount(parent.signal)).toBe(0);
    parent.abort(new Error('after dispose'));
    expect(controller.signal.aborted).toBe(false);
  });

  it('does not accumulate listeners across many disposed operations', () => {
    const parent = new AbortController();
    for (let index = 0; index < 100; index++) linkedController(parent.signal).dispose();
    expect(abortListenerCount(parent.signal)).toBe(0);
  });
});
