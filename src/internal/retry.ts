/**
 * Retrying, for the whole package: the retry loop of tools, the chat client and the A2A client (exponential backoff
 * with full jitter, a per-delay cap, server `Retry-After` hints honoured, abortable sleeps, a notification per retry;
 * the first error that is not retryable is rethrown unchanged; aborts are never retried), and the options and
 * backoff that graph nodes use in their own loop (node-runner.ts: it awaits `onNodeError` callbacks between attempts
 * and runs synchronous nodes without a promise, which this loop cannot).
 */
import { delay } from './delay.js';
import { isAbortError } from './error-chain.js';
import { refusedValue } from './json.js';

/** How an operation is retried. Every field is optional; see {@link DEFAULT_RETRY}. */
export interface RetryOptions {
  /** Attempts in total, the first included (1 = no retry). @default 3 */
  maxAttempts?: number;
  /** Upper bound of the first retry's delay, in ms. @default 500 */
  initialDelayMs?: number;
  /** Cap for any single computed delay, in ms. @default 30000 */
  maxDelayMs?: number;
  /** Growth of the delay bound per retry. @default 2 */
  multiplier?: number;
  /** `'full'`: a random delay in `[0, bound)` (AWS "full jitter"); `'none'`: exactly the bound. @default 'full' */
  jitter?: 'full' | 'none';
  /** The longest server `Retry-After` that is waited for; a longer one ends retrying. @default 60000 */
  maxRetryAfterMs?: number;
}

export type ResolvedRetryOptions = Required<RetryOptions>;

export const DEFAULT_RETRY: ResolvedRetryOptions = /* @__PURE__ */ Object.freeze({
  maxAttempts: 3,
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  multiplier: 2,
  jitter: 'full',
  maxRetryAfterMs: 60_000,
});

/** `retry: false` with the default options: one attempt (shared: tools resolve it on every call), made on first use. */
let noRetry: ResolvedRetryOptions | undefined;

/** What a failed attempt means for the loop. */
export interface RetryDecision {
  retry: boolean;
  /** A server hint; when present it replaces the computed backoff. */
  retryAfterMs?: number | undefined;
}

/** Passed to `onRetry` before each wait. */
export interface RetryNotice {
  /** The attempt that just failed (1-based). */
  attempt: number;
  /** The delay before the next attempt, in ms. */
  delayMs: number;
  /** The error of the failed attempt. */
  error: unknown;
  /** Whether the delay came from a server hint. */
  fromRetryAfter: boolean;
  /** Set when a shared retry budget refused this retry: no wait follows, the call fails with `error`. */
  budgetExhausted?: boolean | undefined;
}

/** How one attempt's outcome is reported to a shared policy (a circuit breaker's permit). */
export interface AttemptReport {
  success(): void;
  failure(retryable: boolean): void;
  release(): void;
}

/**
 * Hooks of a policy shared across calls — a circuit breaker, a retry budget (`src/resilience/`) — into the loop:
 * `start` once per call, `enter` before each attempt (it throws to refuse one: an open circuit), `allowRetry` before
 * each retry (false: the budget is spent, the failure is reported instead).
 */
export interface RetryGuard {
  start(): void;
  enter(): AttemptReport | undefined;
  allowRetry(): boolean;
}

export interface RetryLoopConfig {
  options: ResolvedRetryOptions;
  classify: (error: unknown, attempt: number) => RetryDecision;
  /** Ends the loop (and any wait); a function is asked only after a failure (a scope that makes its signal lazily). */
  signal?: AbortSignal | (() => AbortSignal) | undefined;
  onRetry?: ((notice: RetryNotice) => void) | undefined;
  random?: () => number;
  guard?: RetryGuard | undefined;
}

/**
 * The numeric retry options and their rules, as data: the least value, and whether it must be an integer (`i`), a
 * finite number (`f`) or any number but NaN (`n`, so `Infinity` waits for any `Retry-After`).
 */

const NUMERIC_RULES: ReadonlyArray<readonly [keyof RetryOptions, number, 'i' | 'f' | 'n']> = [
  ['maxAttempts', 1, 'i'],
  ['initialDelayMs', 0, 'f'],
  ['maxDelayMs', 0, 'f'],
  ['multiplier', 1, 'f'],
  ['maxRetryAfterMs', 0, 'n'],
];

/** Problems with user-supplied retry options' values, as sentences; empty when valid (their names: `retryNameProblems`). */
export function retryOptionProblems(options: unknown, where: string): string[] {
  if (options === undefined || options === false) return [];
  if (options === null || typeof options !== 'object') return [`${where} must be an object or false`];
  const problems: string[] = [];
  const record = options as Record<string, unknown>;
  for (const [key, least, kind] of NUMERIC_RULES) {
    const value = record[key];
    if (value === undefined) continue;
    const valid = typeof value === 'number' && value >= least && (kind === 'i' ? Number.isInteger(value) : kind === 'f' ? Number.isFinite(value) : true);
    if (!valid) problems.push(`${where}.${key} must be ${kind === 'i' ? 'an integer' : kind === 'f' ? 'a finite number' : 'a number'} ≥ ${least} (got ${refusedValue(value)})`);
  }
  if (record.jitter !== undefined && record.jitter !== 'full' && record.jitter !== 'none') {
    problems.push(`${where}.jitter must be 'full' or 'none' (got ${refusedValue(record.jitter)})`);
  }
  return problems;
}

/** Fills defaults; `false` means a single attempt. */
export function resolveRetryOptions(
  options: RetryOptions | false | undefined,
  defaults: ResolvedRetryOptions = DEFAULT_RETRY,
): ResolvedRetryOptions {
  if (options === false) return defaults === DEFAULT_RETRY ? (noRetry ??= Object.freeze({ ...DEFAULT_RETRY, maxAttempts: 1 })) : { ...defaults, maxAttempts: 1 };
  return { ...defaults, ...stripUndefined(options ?? {}) };
}

function stripUndefined(options: RetryOptions): RetryOptions {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) if (value !== undefined) result[key] = value;
  return result as RetryOptions;
}

/** The wait before retry number `retryNumber` (1 = first retry). */
export function backoffDelay(retryNumber: number, options: ResolvedRetryOptions, random: () => number = Math.random): number {
  const bound = Math.min(options.maxDelayMs, options.initialDelayMs * options.multiplier ** Math.max(0, retryNumber - 1));
  if (options.jitter === 'none') return bound;
  return Math.floor(random() * bound);
}

/**
 * Runs `operation` until it succeeds, a failure is not retryable, attempts run out, or `signal` aborts.
 * Rethrows the last error unchanged.
 */
export async function retry<T>(operation: (attempt: number) => Promise<T>, config: RetryLoopConfig): Promise<T> {
  const { options, classify, onRetry, guard } = config;
  guard?.start();
  for (let attempt = 1; ; attempt++) {
    const report = guard?.enter(); // an open circuit refuses the attempt here: its error is the call's
    try {
      const value = await operation(attempt);
      report?.success();
      return value;
    } catch (error) {
      const signal = typeof config.signal === 'function' ? config.signal() : config.signal;
      if (signal?.aborted || isAbortError(error)) {
        report?.release();
        throw error;
      }
      const decision = classify(error, attempt);
      // An outage counts against a circuit even where this call may not retry it (a timeout of a non-idempotent call).
      report?.failure(decision.retry || (error as { retryable?: unknown } | null)?.retryable === true);
      if (attempt >= options.maxAttempts || !decision.retry) throw error;
      const hinted = decision.retryAfterMs;
      if (hinted !== undefined && hinted > options.maxRetryAfterMs) throw error;
      const delayMs = hinted ?? backoffDelay(attempt, options, config.random);
      if (guard && !guard.allowRetry()) {
        onRetry?.({ attempt, delayMs: 0, error, fromRetryAfter: false, budgetExhausted: true });
        throw error;
      }
      onRetry?.({ attempt, delayMs, error, fromRetryAfter: hinted !== undefined });
      await delay(delayMs, signal);
    }
  }
}
