import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  backoffDelay,
  DEFAULT_RETRY,
  resolveRetryOptions,
  retry,
  retryOptionProblems,
  type ResolvedRetryOptions,
  type RetryDecision,
  type RetryNotice,
} from '../../src/internal/retry.js';

const NO_JITTER: ResolvedRetryOptions = { ...DEFAULT_RETRY, jitter: 'none', initialDelayMs: 100, maxDelayMs: 1000, multiplier: 2 };

class TransientError extends Error {
  override name = 'TransientError';
}
class FatalError extends Error {
  override name = 'FatalError';
}

const retryTransient = (error: unknown): RetryDecision => ({ retry: error instanceof TransientError });

describe('backoffDelay', () => {
  it('grows exponentially without jitter', () => {
    expect([1, 2, 3, 4].map((retryNumber) => backoffDelay(retryNumber, NO_JITTER))).toEqual([100, 200, 400, 800]);
  });

  it('caps every delay at maxDelayMs without jitter', () => {
    expect(backoffDelay(5, NO_JITTER)).toBe(1000);
    expect(backoffDelay(50, NO_JITTER)).toBe(1000);
  });

  it('honours a custom multiplier', () => {
    const options = { ...NO_JITTER, multiplier: 3, maxDelayMs: 100_000 };
    expect([1, 2, 3].map((retryNumber) => backoffDelay(retryNumber, options))).toEqual([100, 300, 900]);
  });

  it('treats retry numbers below 1 as the first retry', () => {
    expect(backoffDelay(0, NO_JITTER)).toBe(100);
    expect(backoffDelay(-3, NO_JITTER)).toBe(100);
  });

  it('gives 0 with full jitter when random returns 0', () => {
    const options: ResolvedRetryOptions = { ...NO_JITTER, jitter: 'full' };
    expect(backoffDelay(3, options, () => 0)).toBe(0);
  });

  it('stays just below the bound with full jitter when random returns 0.999', () => {
    const options: ResolvedRetryOptions = { ...NO_JITTER, jitter: 'full' };
    expect(backoffDelay(1, options, () => 0.999)).toBe(99);
    expect(backoffDelay(3, options, () => 0.999)).toBe(399);
    expect(backoffDelay(10, options, () => 0.999)).toBe(999);
  });

  it('returns whole milliseconds with full jitter', () => {
    const options: ResolvedRetryOptions = { ...NO_JITTER, jitter: 'full' };
    expect(backoffDelay(2, options, () => 0.123456)).toBe(24);
  });

  it('uses Math.random when no random source is given', () => {
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    expect(backoffDelay(2, { ...NO_JITTER, jitter: 'full' })).toBe(100);
    expect(random).toHaveBeenCalledTimes(1);
  });
});

describe('resolveRetryOptions', () => {
  it('returns the defaults when options are undefined', () => {
    expect(resolveRetryOptions(undefined)).toEqual(DEFAULT_RETRY);
  });

  it('documents the default values', () => {
    expect(DEFAULT_RETRY).toEqual({
      maxAttempts: 3,
      initialDelayMs: 500,
      maxDelayMs: 30_000,
      multiplier: 2,
      jitter: 'full',
      maxRetryAfterMs: 60_000,
    });
    expect(Object.isFrozen(DEFAULT_RETRY)).toBe(true);
  });

  it('turns false into a single attempt with the other defaults kept', () => {
    expect(resolveRetryOptions(false)).toEqual({ ...DEFAULT_RETRY, maxAttempts: 1 });
  });

  it('fills the fields that are not given', () => {
    expect(resolveRetryOptions({ maxAttempts: 5, jitter: 'none' })).toEqual({ ...DEFAULT_RETRY, maxAttempts: 5, jitter: 'none' });
  });

  it('ignores fields that are explicitly undefined', () => {
    expect(resolveRetryOptions({ maxAttempts: undefined, initialDelayMs: 10 })).toEqual({ ...DEFAULT_RETRY, initialDelayMs: 10 });
  });

  it('fills from custom defaults when given', () => {
    const defaults: ResolvedRetryOptions = { ...DEFAULT_RETRY, maxAttempts: 7 };
    expect(resolveRetryOptions({ multiplier: 3 }, defaults)).toEqual({ ...defaults, multiplier: 3 });
    expect(resolveRetryOptions(false, defaults).maxAttempts).toBe(1);
  });

  it('returns a fresh object, never the frozen defaults themselves', () => {
    const resolved = resolveRetryOptions(undefined);
    expect(resolved).not.toBe(DEFAULT_RETRY);
    expect(Object.isFrozen(resolved)).toBe(false);
  });
});

describe('retryOptionProblems', () => {
  it('accepts undefined, false and valid objects', () => {
    expect(retryOptionProblems(undefined, 'retry')).toEqual([]);
    expect(retryOptionProblems(false, 'retry')).toEqual([]);
    expect(retryOptionProblems({}, 'retry')).toEqual([]);
    expect(
      retryOptionProblems(
        { maxAttempts: 1, initialDelayMs: 0, maxDelayMs: 0, multiplier: 1, jitter: 'none', maxRetryAfterMs: Infinity },
        'retry',
      ),
    ).toEqual([]);
  });

  it.each([null, true, 3, 'often'])('rejects the non-object %s', (value) => {
    expect(retryOptionProblems(value, 'tool.retry')).toEqual(['tool.retry must be an object or false']);
  });

  it.each([
    ['maxAttempts', 0, 'tool.retry.maxAttempts must be an integer ≥ 1 (got 0)'],
    ['maxAttempts', 1.5, 'tool.retry.maxAttempts must be an integer ≥ 1 (got 1.5)'],
    ['maxAttempts', '3', 'tool.retry.maxAttempts must be an integer ≥ 1 (got "3")'],
    ['initialDelayMs', -1, 'tool.retry.initialDelayMs must be a finite number ≥ 0 (got -1)'],
    ['initialDelayMs', Infinity, 'tool.retry.initialDelayMs must be a finite number ≥ 0 (got Infinity)'],
    ['maxDelayMs', Number.NaN, 'tool.retry.maxDelayMs must be a finite number ≥ 0 (got NaN)'],
    ['multiplier', 0.5, 'tool.retry.multiplier must be a finite number ≥ 1 (got 0.5)'],
    ['maxRetryAfterMs', -1, 'tool.retry.maxRetryAfterMs must be a number ≥ 0 (got -1)'],
    ['maxRetryAfterMs', Number.NaN, 'tool.retry.maxRetryAfterMs must be a number ≥ 0 (got NaN)'],
    ['jitter', 'half', "tool.retry.jitter must be 'full' or 'none' (got \"half\")"],
  ])('names %s when it is %s', (key, value, problem) => {
    expect(retryOptionProblems({ [key]: value }, 'tool.retry')).toEqual([problem]);
  });

  it('lists every invalid field at once', () => {
    const problems = retryOptionProblems({ maxAttempts: 0, initialDelayMs: -1, maxDelayMs: -1, multiplier: 0, jitter: 1, maxRetryAfterMs: -1 }, 'r');
    expect(problems).toHaveLength(6);
    for (const key of ['maxAttempts', 'initialDelayMs', 'maxDelayMs', 'multiplier', 'maxRetryAfterMs', 'jitter']) {
      expect(problems.some((problem) => problem.startsWith(`r.${key} `))).toBe(true);
    }
  });

  it('ignores fields that are undefined', () => {
    expect(retryOptionProblems({ maxAttempts: undefined, jitter: undefined }, 'retry')).toEqual([]);
  });
});

describe('retry', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('returns the first successful result without waiting', async () => {
    const operation = vi.fn(async () => 'ok');
    await expect(retry(operation, { options: NO_JITTER, classify: retryTransient })).resolves.toBe('ok');
    expect(operation).toHaveBeenCalledTimes(1);
    expect(operation).toHaveBeenCalledWith(1);
  });

  it('succeeds after retryable failures, passing the attempt number each time', async () => {
    const operation = vi.fn(async (attempt: number) => {
      if (attempt < 3) throw new TransientError(`attempt ${attempt}`);
      return `done on ${attempt}`;
    });
    const promise = retry(operation, { options: NO_JITTER, classify: retryTransient });
    await vi.runAllTimersAsync();
    await expect(promise).resolves.toBe('done on 3');
    expect(operation.mock.calls.map(([attempt]) => attempt)).toEqual([1, 2, 3]);
  });

  it('waits the backoff delay between attempts', async () => {
    let calls = 0;
    const operation = async () => {
      calls++;
      if (calls < 3) throw new TransientError('again');
      return calls;
    };
    const promise = retry(operation, { options: NO_JITTER, classify: retryTransient });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(199);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(promise).resolves.toBe(3);
  });

  it('rethrows the first non-retryable error unchanged', async () => {
    const fatal = new FatalError('bad input');
    const operation = vi.fn(async (attempt: number) => {
      if (attempt === 1) throw new TransientError('flaky');
      throw fatal;
    });
    const promise = retry(operation, { options: NO_JITTER, classify: retryTransient });
    const assertion = expect(promise).rejects.toBe(fatal);
    await vi.runAllTimersAsync();
    await assertion;
    expect(operation).toHaveBeenCalledTimes(2);
  });

  it('does not wait or notify before rethrowing a non-retryable error', async () => {
    const fatal = new FatalError('nope');
    const onRetry = vi.fn();
    await expect(
      retry(
        async () => {
          throw fatal;
        },
        { options: NO_JITTER, classify: retryTransient, onRetry },
      ),
    ).rejects.toBe(fatal);
    expect(onRetry).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rethrows a thrown non-Error value unchanged', async () => {
    const thrown = { code: 'E_PLAIN' };
    await expect(
      retry(
        async () => {
          throw thrown;
        },
        { options: NO_JITTER, classify: () => ({ retry: false }) },
      ),
    ).rejects.toBe(thrown);
  });

  it('stops after maxAttempts and rethrows the last error', async () => {
    const errors: TransientError[] = [];
    const classify = vi.fn(retryTransient);
    const operation = vi.fn(async (attempt: number) => {
      const error = new TransientError(`attempt ${attempt}`);
      errors.push(error);
      throw error;
    });
    const promise = retry(operation, { options: { ...NO_JITTER, maxAttempts: 4 }, classify });
    const settled = promise.then(
      () => ({ rejected: false as const }),
      (reason: unknown) => ({ rejected: true as const, reason }),
    );
    await vi.runAllTimersAsync();
    const outcome = await settled;
    expect(outcome.rejected).toBe(true);
    expect(outcome.rejected && outcome.reason).toBe(errors[3]);
    expect(operation).toHaveBeenCalledTimes(4);
    expect(errors).toHaveLength(4);
    // Every failure is classified, the last one too: a shared circuit breaker counts it even with no attempt left.
    expect(classify).toHaveBeenCalledTimes(4);
  });

  it('makes a single attempt when maxAttempts is 1', async () => {
    const error = new TransientError('once');
    const operation = vi.fn(async () => {
      throw error;
    });
    await expect(retry(operation, { options: resolveRetryOptions(false), classify: retryTransient })).rejects.toBe(error);
    expect(operation).toHaveBeenCalledTimes(1);
  });

  it('passes the error and attempt number to classify', async () => {
    const error = new TransientError('x');
    const classify = vi.fn((): RetryDecision => ({ retry: false }));
    await expect(
      retry(
        async () => {
          throw error;
        },
        { options: NO_JITTER, classify },
      ),
    ).rejects.toBe(error);
    expect(classify).toHaveBeenCalledWith(error, 1);
  });

  it('waits the retryAfterMs hint from classify instead of the backoff', async () => {
    let calls = 0;
    const onRetry = vi.fn();
    const promise = retry(
      async () => {
        calls++;
        if (calls === 1) throw new TransientError('slow down');
        return 'ok';
      },
      { options: NO_JITTER, classify: () => ({ retry: true, retryAfterMs: 5000 }), onRetry },
    );
    await vi.advanceTimersByTimeAsync(4999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(promise).resolves.toBe('ok');
    expect(calls).toBe(2);
    expect(onRetry).toHaveBeenCalledWith(expect.objectContaining({ delayMs: 5000, fromRetryAfter: true }));
  });

  it('honours a retryAfterMs hint above maxDelayMs as long as it is within maxRetryAfterMs', async () => {
    const onRetry = vi.fn();
    let calls = 0;
    const promise = retry(
      async () => {
        if (++calls === 1) throw new TransientError('wait');
        return calls;
      },
      { options: { ...NO_JITTER, maxDelayMs: 1000, maxRetryAfterMs: 10_000 }, classify: () => ({ retry: true, retryAfterMs: 8000 }), onRetry },
    );
    await vi.advanceTimersByTimeAsync(8000);
    await expect(promise).resolves.toBe(2);
    expect(onRetry.mock.calls[0]?.[0]).toMatchObject({ delayMs: 8000 });
  });

  it('retries immediately when retryAfterMs is 0', async () => {
    let calls = 0;
    const promise = retry(
      async () => {
        if (++calls === 1) throw new TransientError('now');
        return calls;
      },
      { options: NO_JITTER, classify: () => ({ retry: true, retryAfterMs: 0 }) },
    );
    await vi.advanceTimersByTimeAsync(0);
    await expect(promise).resolves.toBe(2);
  });

  it('ends retrying at once when retryAfterMs exceeds maxRetryAfterMs', async () => {
    const error = new TransientError('come back tomorrow');
    const onRetry = vi.fn();
    const operation = vi.fn(async () => {
      throw error;
    });
    await expect(
      retry(operation, {
        options: { ...NO_JITTER, maxRetryAfterMs: 60_000 },
        classify: () => ({ retry: true, retryAfterMs: 60_001 }),
        onRetry,
      }),
    ).rejects.toBe(error);
    expect(operation).toHaveBeenCalledTimes(1);
    expect(onRetry).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('waits a retryAfterMs exactly equal to maxRetryAfterMs', async () => {
    let calls = 0;
    const promise = retry(
      async () => {
        if (++calls === 1) throw new TransientError('edge');
        return calls;
      },
      { options: { ...NO_JITTER, maxRetryAfterMs: 2000 }, classify: () => ({ retry: true, retryAfterMs: 2000 }) },
    );
    await vi.advanceTimersByTimeAsync(2000);
    await expect(promise).resolves.toBe(2);
  });

  it('rejects with the signal reason when aborted during the wait and makes no further attempt', async () => {
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const operation = vi.fn(async () => {
      throw new TransientError('flaky');
    });
    const promise = retry(operation, { options: NO_JITTER, classify: retryTransient, signal: controller.signal });
    const assertion = expect(promise).rejects.toBe(reason);
    await vi.advanceTimersByTimeAsync(50);
    expect(operation).toHaveBeenCalledTimes(1);
    controller.abort(reason);
    await assertion;
    await vi.runAllTimersAsync();
    expect(operation).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rethrows the operation error without retrying when the signal aborted during the attempt', async () => {
    const controller = new AbortController();
    const error = new TransientError('interrupted');
    const classify = vi.fn(retryTransient);
    const operation = vi.fn(async () => {
      controller.abort(new Error('stop'));
      throw error;
    });
    await expect(retry(operation, { options: NO_JITTER, classify, signal: controller.signal })).rejects.toBe(error);
    expect(operation).toHaveBeenCalledTimes(1);
    expect(classify).not.toHaveBeenCalled();
  });

  it('never retries an AbortError thrown by the operation, even if classify would', async () => {
    const abortError = new DOMException('The operation was aborted.', 'AbortError');
    const classify = vi.fn((): RetryDecision => ({ retry: true }));
    const operation = vi.fn(async () => {
      throw abortError;
    });
    await expect(retry(operation, { options: NO_JITTER, classify })).rejects.toBe(abortError);
    expect(operation).toHaveBeenCalledTimes(1);
    expect(classify).not.toHaveBeenCalled();
  });

  it('treats any error named AbortError as an abort', async () => {
    const abortLike = Object.assign(new Error('aborted'), { name: 'AbortError' });
    const operation = vi.fn(async () => {
      throw abortLike;
    });
    await expect(retry(operation, { options: NO_JITTER, classify: () => ({ retry: true }) })).rejects.toBe(abortLike);
    expect(operation).toHaveBeenCalledTimes(1);
  });

  it('notifies onRetry with attempt, delayMs, error and fromRetryAfter before each wait', async () => {
    const notices: RetryNotice[] = [];
    const errors: Error[] = [];
    let calls = 0;
    const promise = retry(
      async () => {
        calls++;
        if (calls <= 2) {
          const error = new TransientError(`failure ${calls}`);
          errors.push(error);
          throw error;
        }
        return 'ok';
      },
      {
        options: NO_JITTER,
        classify: (_error, attempt) => (attempt === 1 ? { retry: true } : { retry: true, retryAfterMs: 750 }),
        onRetry: (notice) => notices.push(notice),
      },
    );
    await vi.advanceTimersByTimeAsync(0);
    // The notice arrives before the wait starts.
    expect(notices).toHaveLength(1);
    expect(calls).toBe(1);
    await vi.runAllTimersAsync();
    await expect(promise).resolves.toBe('ok');
    expect(notices).toEqual([
      { attempt: 1, delayMs: 100, error: errors[0], fromRetryAfter: false },
      { attempt: 2, delayMs: 750, error: errors[1], fromRetryAfter: true },
    ]);
    expect(notices[0]?.error).toBe(errors[0]);
  });

  it('uses the injected random source for jittered delays', async () => {
    const notices: RetryNotice[] = [];
    let calls = 0;
    const promise = retry(
      async () => {
        if (++calls < 3) throw new TransientError('x');
        return calls;
      },
      {
        options: { ...NO_JITTER, jitter: 'full' },
        classify: retryTransient,
        random: () => 0.5,
        onRetry: (notice) => notices.push(notice),
      },
    );
    await vi.runAllTimersAsync();
    await expect(promise).resolves.toBe(3);
    expect(notices.map((notice) => notice.delayMs)).toEqual([50, 100]);
  });
});
