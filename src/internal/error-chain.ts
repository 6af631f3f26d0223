/**
 * Walking an error's chain the way Go's `errors.As` does: the value itself, then the members of an
 * `AggregateError` (depth-first, in order), then its ES2022 `cause`. Cycles and absurd depths are cut off.
 */
import { safeString, truncate, tryStringify } from './json.js';

const MAX_CHAIN = 64;

/** Yields every link of the chain once, starting with `error` itself. */
export function* errorChain(error: unknown): Generator<unknown> {
  const seen = new Set<unknown>();
  const stack: unknown[] = [error];
  while (stack.length > 0 && seen.size < MAX_CHAIN) {
    const link = stack.pop();
    if (link === undefined || link === null) continue;
    if (typeof link === 'object' || typeof link === 'function') {
      if (seen.has(link)) continue;
      seen.add(link);
    }
    yield link;
    const next: unknown[] = [];
    const members = read(link, 'errors');
    if (isArray(members) && isErrorLike(link)) next.push(...members.slice(0, MAX_CHAIN));
    const cause = read(link, 'cause');
    if (cause !== undefined) next.push(cause);
    for (let index = next.length - 1; index >= 0; index--) stack.push(next[index]);
  }
}

/** Reads `value[key]` without ever throwing (getters, proxies). */
export function read(value: unknown, key: string): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/**
 * Reads a convention that may be a method (`err.errorType()`) or a plain property (`err.errorType`).
 * Returns `{found: false}` when the link does not have it; a method that throws counts as absent.
 */
export function readConvention(link: unknown, key: string): { found: boolean; value?: unknown } {
  const member = read(link, key);
  if (member === undefined) return { found: false };
  if (typeof member === 'function') {
    try {
      return { found: true, value: (member as () => unknown).call(link) };
    } catch {
      return { found: false };
    }
  }
  return { found: true, value: member };
}

/** `value instanceof Class` that answers false instead of throwing (revoked or trapping Proxies). */
export function isInstanceOf(value: unknown, Class: abstract new (...args: never[]) => unknown): boolean {
  try {
    return value instanceof Class;
  } catch {
    return false;
  }
}

export function isErrorLike(value: unknown): value is { message: string; name?: string } {
  if (isInstanceOf(value, Error)) return true;
  return typeof read(value, 'message') === 'string' && typeof read(value, 'name') === 'string';
}

/** Messages longer than this are cut (a hostile error cannot flood logs and events). */
export const MAX_MESSAGE_LENGTH = 10_000;

/** The human message of any thrown value, never throwing, bounded to {@link MAX_MESSAGE_LENGTH}. */
export function messageOf(error: unknown): string {
  return truncate(messageWithin(error, new Set()), MAX_MESSAGE_LENGTH);
}

function messageWithin(error: unknown, seen: Set<unknown>): string {
  if (typeof error === 'string') return error;
  if (typeof error === 'function') return '[function]';
  if (error === null || typeof error !== 'object') return safeString(error); // null, undefined and the other primitives
  const message = read(error, 'message');
  if (typeof message === 'string' && message !== '') return message;
  const members = read(error, 'errors');
  if (!seen.has(error) && seen.size < 64 && isArray(members) && members.length > 0) {
    seen.add(error);
    return members
      .slice(0, 20)
      .map((member) => messageWithin(member, seen))
      .join('\n');
  }
  if (typeof message === 'string') return message;
  return truncate(tryStringify(error) ?? safeString(error), 500);
}

function isArray(value: unknown): value is unknown[] {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/** True when `error` is the platform's abort signal reason (`AbortError` DOMException or equivalent). */
export function isAbortError(error: unknown): boolean {
  return read(error, 'name') === 'AbortError';
}
