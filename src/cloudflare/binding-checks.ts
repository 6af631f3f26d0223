/**
 * @internal The checks of what a Durable Object store is built over: a storage or a namespace binding has the methods
 * the store calls (duck-typed: the platform's own objects, and any fake of them, fit), so a missing binding is a
 * `ConfigError` at construction, never a `TypeError` at the first call.
 */
import { refusedValue } from '../internal/json.js';

/**
 * The problem of `value`, the argument `name` (`storage`, `namespace`), when it lacks one of `methods`: none when it
 * has them all.
 * @example `problems.push(...bindingProblems(storage, 'storage', 'a Durable Object storage (state.storage)', ['get', 'put']))`
 */
export function bindingProblems(value: unknown, name: string, what: string, methods: readonly string[]): string[] {
  const missing = missingMethods(value, methods);
  if (missing.length === 0) return [];
  const got = value === null || (typeof value !== 'object' && typeof value !== 'function') ? refusedValue(value) : `one without ${missing.join(', ')}`;
  return [`${name} must be ${what} with ${methods.join(', ')} (got ${got})`];
}

/** What the storage-backed stores call on a Durable Object's storage. */
export const STORAGE_METHODS = ['get', 'put', 'delete', 'list'] as const;

/**
 * The methods of `methods` that `value` does not have as functions (all of them for a value that is no object).
 * @example `missingMethods(env.TASKS, ['idFromName', 'get']) // [] for a namespace binding`
 */
export function missingMethods(value: unknown, methods: readonly string[]): string[] {
  const holder = value !== null && (typeof value === 'object' || typeof value === 'function') ? (value as Record<string, unknown>) : undefined;
  return methods.filter((method) => typeof holder?.[method] !== 'function');
}
