/**
 * @internal A client's circuit breaker and retry budget as the shared retry loop's guard: one circuit per
 * `dependency`, one retry budget for every call given it. Also the checks of the two options, for every client.
 */
import type { URLView } from '../internal/redact.js';
import type { RetryGuard } from '../internal/retry.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import type { RetryBudget } from './retry-budget.js';

/** True for breakers made by `createCircuitBreaker` (or anything with the same shape). */
function isCircuitBreaker(value: unknown): value is CircuitBreaker {
  const candidate = value as Partial<CircuitBreaker> | null;
  return typeof candidate?.acquire === 'function' && typeof candidate.state === 'function' && typeof candidate.on === 'function';
}

/** True for budgets made by `createRetryBudget` (or anything with the same shape). */
function isRetryBudget(value: unknown): value is RetryBudget {
  const candidate = value as Partial<RetryBudget> | null;
  return typeof candidate?.recordCall === 'function' && typeof candidate.tryRetry === 'function';
}

/** The options every client (chat, MCP, A2A) and `defineTool` take. */
export interface ResilienceOptions {
  /**
   * A circuit breaker shared with other clients (`createCircuitBreaker`): this client's calls go through its circuit,
   * and while it is open they fail at once with a `CircuitOpenError`.
   */
  circuitBreaker?: CircuitBreaker | undefined;
  /** A retry budget shared with other clients (`createRetryBudget`): when it is spent, failures are not retried. */
  retryBudget?: RetryBudget | undefined;
}

/** The problems of `circuitBreaker` / `retryBudget` in `options`. */
export function resilienceProblems(options: ResilienceOptions): string[] {
  const problems: string[] = [];
  if (options.circuitBreaker !== undefined && !isCircuitBreaker(options.circuitBreaker)) problems.push('circuitBreaker must come from createCircuitBreaker()');
  if (options.retryBudget !== undefined && !isRetryBudget(options.retryBudget)) problems.push('retryBudget must come from createRetryBudget()');
  return problems;
}

/**
 * The circuit name of an HTTP dependency: its origin and path as shown (`urlView`: credentials in any position
 * replaced by `[REDACTED]`), without user info, query or fragment — the name travels in `CircuitOpenError`s, state
 * events and `snapshot()`. Two URLs that differ only by a credential (two tenants' tokens in the path of one server)
 * therefore share one circuit: it tracks the server's health, which their credentials do not change.
 */
export function dependencyOf(view: Pick<URLView, 'origin' | 'path'>): string {
  return `${view.origin}${view.path.replace(/\/+$/, '')}`;
}

/** The guard of calls to `dependency`, or undefined when neither option is set. */
export function resilienceGuard(dependency: string, options: ResilienceOptions): RetryGuard | undefined {
  const { circuitBreaker, retryBudget } = options;
  if (!circuitBreaker && !retryBudget) return undefined;
  return {
    start: () => retryBudget?.recordCall(),
    enter: () => circuitBreaker?.acquire(dependency),
    allowRetry: () => retryBudget?.tryRetry() ?? true,
  };
}
