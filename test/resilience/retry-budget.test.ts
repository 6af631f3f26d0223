// The retry budget (issue 16): retries ≤ ratio × calls over a sliding window, never below minRetries; spent → refused
// and observable; refilled as calls come in or the window slides; no timer.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { createRetryBudget, type RetryBudgetChange } from '../../src/resilience/index.js';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-12-01T00:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createRetryBudget', () => {
  it('grants max(minRetries, ratio × calls) retries per window, then refuses and says so once', () => {
    const budget = createRetryBudget({ ratio: 0.1, minRetries: 2, windowMs: 10_000 });
    const changes: RetryBudgetChange[] = [];
    budget.on('state', (change) => changes.push(change));
    for (let index = 0; index < 50; index++) budget.recordCall();
    const granted = Array.from({ length: 10 }, () => budget.tryRetry()).filter(Boolean).length;
    expect(granted).toBe(5); // 10% of 50
    expect(budget.stats()).toEqual({ calls: 50, retries: 5, allowed: 5, denied: 5 });
    expect(changes).toMatchObject([{ state: 'exhausted', calls: 50, retries: 5, allowed: 5 }]);
    for (let index = 0; index < 10; index++) budget.recordCall();
    expect(budget.tryRetry()).toBe(true); // 60 calls: 6 allowed
    expect(changes.at(-1)).toMatchObject({ state: 'available' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a quiet client still gets minRetries; the window slides', () => {
    const budget = createRetryBudget({ ratio: 0.1, minRetries: 3, windowMs: 1_000 });
    budget.recordCall();
    expect([budget.tryRetry(), budget.tryRetry(), budget.tryRetry(), budget.tryRetry()]).toEqual([true, true, true, false]);
    vi.advanceTimersByTime(1_100);
    expect(budget.tryRetry()).toBe(true);
    expect(budget.stats()).toMatchObject({ calls: 0, retries: 1, allowed: 3 });
  });

  it('every problem in one ConfigError', () => {
    let thrown: unknown;
    try {
      createRetryBudget({ ratio: -1, minRetries: 0.5, windowMs: 0, extra: true } as never);
    } catch (error) {
      thrown = error;
    }
    expect((thrown as ConfigError).problems).toEqual([
      'ratio must be a finite number ≥ 0 (got -1)',
      'minRetries must be an integer ≥ 0 (got 0.5)',
      'windowMs must be a finite number of ms > 0 (got 0)',
      'unknown option "extra"',
    ]);
  });
});
