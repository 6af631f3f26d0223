/** @internal The check of a `now` clock option, shared by the circuit breaker and the retry budget. */
import { refusedValue } from '../internal/json.js';

/**
 * The problem of a `now` clock option: a function that returns a finite number of ms, asked once. A clock that gives
 * `NaN` or a string made every window comparison false — a breaker that never opened, failures silently dropped.
 * @example `problems.push(...clockProblems(options.now))`
 */
export function clockProblems(now: unknown): string[] {
  if (typeof now !== 'function') return ['now must be a function returning ms'];
  try {
    const value: unknown = now();
    return typeof value === 'number' && Number.isFinite(value) ? [] : [`now must return a finite number of ms (got ${refusedValue(value)})`];
  } catch (error) {
    return [`now must return a finite number of ms (it threw: ${error instanceof Error ? error.name : 'a value'})`];
  }
}
