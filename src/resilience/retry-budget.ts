/**
 * A retry budget shared by many runs: retries may be at most `ratio` of the calls made over a sliding window (with a
 * floor of `minRetries`, so a quiet client can still retry). When it is spent, a failure is reported instead of
 * retried — 1,000 runs against a failing provider add at most a tenth more calls instead of tripling them. Like the
 * circuit breaker it keeps no timer.
 */
import { createNanoEvents } from 'nanoevents';
import { ConfigError } from '../errors/config-error.js';
import { isPlainObject, refusedValue } from '../internal/json.js';
import { SlidingCounts } from './sliding-counts.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import { clockProblems } from './clock-option.js';

/** Options of {@link createRetryBudget}; every field is optional. */
export interface RetryBudgetOptions {
  /** Retries allowed per call made, over the window. @default 0.1 */
  ratio?: number | undefined;
  /** Retries always allowed within a window, whatever the ratio. @default 10 */
  minRetries?: number | undefined;
  /** The sliding window, in ms (10 buckets). @default 10000 */
  windowMs?: number | undefined;
  /** The clock, in ms. @default Date.now */
  now?: (() => number) | undefined;
}

/** The budget's counts over its window. */
export interface RetryBudgetStats {
  /** Calls made (first attempts). */
  calls: number;
  /** Retries granted. */
  retries: number;
  /** Retries granted in total now: `max(minRetries, ratio × calls)`. */
  allowed: number;
  /** Retries refused since the budget was made. */
  denied: number;
}

/** The budget was spent (a retry was refused) or has room again (the payload of the `state` event). */
export interface RetryBudgetChange {
  state: 'exhausted' | 'available';
  at: number;
  calls: number;
  retries: number;
  allowed: number;
}

/**
 * A retry budget shared across clients and runs (see {@link createRetryBudget}).
 * @example `budget.recordCall(); if (!budget.tryRetry()) throw lastError;`
 */
export interface RetryBudget {
  /** Counts a call (a first attempt). */
  recordCall(): void;
  /** Takes one retry from the budget: false when it is spent (the caller then reports its failure). */
  tryRetry(): boolean;
  /** The counts over the window. */
  stats(): RetryBudgetStats;
  /** Observes `exhausted` / `available` changes; returns the function that unbinds the listener. */
  on(event: 'state', listener: (change: RetryBudgetChange) => void): () => void;
}

/**
 * Creates a retry budget. Give the same one to the clients whose retries it bounds (`retryBudget` option of chat, MCP
 * and A2A clients and of tools); a retry it refuses is reported on the `retry` event / `onRetry` notice with
 * `budgetExhausted: true`, and the call fails with its last error. Invalid options throw a `ConfigError`.
 *
 * @example
 * ```ts
 * const retryBudget = createRetryBudget({ ratio: 0.1, minRetries: 10, windowMs: 10_000 });
 * const model = createOpenAICompatibleClient({ baseURL, apiKey, model: 'gpt-4.1', retryBudget });
 * ```
 */
export function createRetryBudget(options: RetryBudgetOptions = {}): RetryBudget {
  if (!isPlainObject(options as unknown)) throw ConfigError.fromProblems('retry budget options', ['options must be an object']);
  const problems: string[] = [];
  const { ratio = 0.1, minRetries = 10, windowMs = 10_000 } = options;
  const now = options.now ?? (() => Date.now());
  if (typeof ratio !== 'number' || !Number.isFinite(ratio) || ratio < 0) problems.push(`ratio must be a finite number ≥ 0 (got ${refusedValue(ratio)})`);
  if (typeof minRetries !== 'number' || !Number.isInteger(minRetries) || minRetries < 0) problems.push(`minRetries must be an integer ≥ 0 (got ${refusedValue(minRetries)})`);
  if (typeof windowMs !== 'number' || !Number.isFinite(windowMs) || windowMs <= 0) problems.push(`windowMs must be a finite number of ms > 0 (got ${refusedValue(windowMs)})`);
  problems.push(...clockProblems(now));
  problems.push(...unknownOptionProblems(options, ['ratio', 'minRetries', 'windowMs', 'now']));
  if (problems.length > 0) throw ConfigError.fromProblems('retry budget options', problems);

  // One window: a "call" counts a first attempt, a "failure" slot counts a granted retry.
  const counts = new SlidingCounts(windowMs);
  const emitter = createNanoEvents<{ state: (change: RetryBudgetChange) => void }>();
  let exhausted = false;
  let denied = 0;

  const stats = (at: number): RetryBudgetStats => {
    const { calls: all, failures: retries } = counts.totals(at);
    const calls = all - retries;
    return { calls, retries, allowed: Math.max(minRetries, Math.floor(ratio * calls)), denied };
  };
  const change = (state: RetryBudgetChange['state'], at: number, current: RetryBudgetStats): void => {
    exhausted = state === 'exhausted';
    try {
      emitter.emit('state', { state, at, calls: current.calls, retries: current.retries, allowed: current.allowed });
    } catch {
      // an observer's failure is not the call's
    }
  };

  return {
    recordCall() {
      counts.add(now(), false);
    },
    tryRetry() {
      const at = now();
      const current = stats(at);
      if (current.retries >= current.allowed) {
        denied++;
        if (!exhausted) change('exhausted', at, { ...current, denied });
        return false;
      }
      if (exhausted) change('available', at, current);
      counts.add(at, true);
      return true;
    },
    stats() {
      return stats(now());
    },
    on(event, listener) {
      if (event !== 'state' || typeof listener !== 'function') throw ConfigError.fromProblems('retry budget listener', ["on() takes 'state' and a function"]);
      return emitter.on('state', listener);
    },
  };
}
