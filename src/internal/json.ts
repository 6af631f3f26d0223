/** Small JSON helpers that never throw and never follow prototypes. */

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** True for keys that must never be written through assignment on an ordinary object. */
export function isForbiddenKey(key: string): boolean {
  return FORBIDDEN_KEYS.has(key);
}

/**
 * True for `{}`-style objects (plain or null-prototype) from any realm — an iframe's, a worker's, a `vm` context's
 * `{}` has that realm's `Object.prototype` — and false for arrays, class instances and primitives.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  try {
    if (Array.isArray(value)) return false;
    const prototype = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null || isRealmObjectPrototype(prototype);
  } catch {
    return false; // a revoked or trapping Proxy is not plain data
  }
}

/** Another realm's `Object.prototype`: the root of its chain, its own `constructor` that realm's `Object`. */
function isRealmObjectPrototype(prototype: object): boolean {
  if (Object.getPrototypeOf(prototype) !== null) return false;
  const constructor = Object.getOwnPropertyDescriptor(prototype, 'constructor')?.value as unknown;
  return typeof constructor === 'function' && constructor.name === 'Object' && (constructor as { prototype?: unknown }).prototype === prototype;
}

/** `JSON.stringify` that returns `undefined` instead of throwing (cycles, BigInt, throwing `toJSON`). */
export function tryStringify(value: unknown, space?: number): string | undefined {
  try {
    return JSON.stringify(value, bigintReplacer, space);
  } catch {
    return undefined;
  }
}

function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/** Cuts `text` to at most `limit` characters, marking the cut. */
export function truncate(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, Math.max(0, limit - 1))}…`;
}

/** A short, human-readable rendering of any value (for messages), bounded to `limit` characters. */
export function preview(value: unknown, limit = 120): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return truncate(JSON.stringify(value), limit);
  if (typeof value === 'function') return '[function]';
  if (typeof value === 'symbol') return value.toString();
  const text = tryStringify(value);
  return truncate(text ?? safeString(value), limit);
}

/**
 * The options object a constructor or function was given, or `{}` when it got none or something that is not an
 * object (public APIs are called from plain JS too: `new StreamError('m')`, `new AgentNotFoundError('x', {})`).
 */
export function optionsOf<T extends object>(value: T | null | undefined | unknown): Partial<T> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Partial<T>) : {};
}

/** Problems with options that must be integers > 0 when given (bounds of stores and queues), as sentences. */
export function positiveIntegerProblems(settings: object, keys: readonly string[]): string[] {
  const problems: string[] = [];
  for (const key of keys) {
    const value = (settings as Record<string, unknown>)[key];
    if (value !== undefined && !(typeof value === 'number' && Number.isInteger(value) && value > 0)) problems.push(`${key} must be an integer > 0 (got ${refusedValue(value)})`);
  }
  return problems;
}

/**
 * A refused value as a problem names it: a string of up to 12 characters quoted (a mistyped name), a longer one by its
 * length only (`24 characters`), a number, boolean, bigint, `null` or `undefined` as itself, anything else by its
 * type only (`an object`, arrays included, `a function`, `a symbol`). A value put in the wrong option may be a secret
 * (an API key where a number was due, or inside an array, a `String` object, an object's `toString`, a function's
 * source), and a problem reaches messages and logs, so nothing that could hold one is printed.
 * @example `problems.push(\`maxTokens must be an integer ≥ 1 (got ${refusedValue(value)})\`)`
 */
export function refusedValue(value: unknown): string {
  const type = typeof value;
  if (type === 'string') return (value as string).length > 12 ? `${(value as string).length} characters` : JSON.stringify(value);
  return value === null || (type !== 'object' && type !== 'function' && type !== 'symbol') ? String(value) : type === 'object' ? 'an object' : `a ${type}`;
}

/** A message for an error constructor: strings as they are, anything else made printable (never throws). */
export function messageText(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined ? '' : safeString(value);
}

/** `String(value)` that never throws (objects without `toString`, throwing getters, revoked proxies). */
export function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    try {
      return Object.prototype.toString.call(value);
    } catch {
      return '[unprintable value]';
    }
  }
}

/**
 * Deep copy of JSON-like data: plain objects become fresh plain objects, arrays fresh arrays. Keys that could reach a
 * prototype (`__proto__`, `constructor`, `prototype`) are kept as own data properties, never assigned through.
 * Values that are not JSON-like (class instances, functions) are copied by reference. A property whose getter throws
 * becomes {@link UNREADABLE}; an object or array met again inside itself (a cycle) becomes {@link CYCLE}, and
 * `onCycle` (for a caller that refuses cycles) is called. Past 100 levels, or once {@link CLONE_NODE_BUDGET} objects
 * and arrays have been copied (a huge DAG whose shared parts are copied once per route), values are shared, not
 * copied. Never throws, never hangs.
 */
export function cloneJSONLike<T>(value: T, onCycle?: () => void): T {
  const path = new Set<object>(); // the objects being copied, root to current: meeting one again is a cycle
  let budget = CLONE_NODE_BUDGET;
  const clone = (node: unknown, depth: number): unknown => {
    if (depth > 100 || node === null || typeof node !== 'object') return node;
    if (path.has(node)) {
      onCycle?.();
      return CYCLE;
    }
    let array: boolean;
    try {
      array = Array.isArray(node);
      if (!array && !isPlainObject(node)) return node;
    } catch {
      return UNREADABLE; // a revoked Proxy: even asking what it is throws
    }
    if (budget-- <= 0) return node;
    path.add(node);
    try {
      if (array) return (node as unknown[]).map((item) => clone(item, depth + 1));
      const object: Record<string, unknown> = {};
      for (const key of Object.keys(node)) {
        let item: unknown;
        try {
          item = (node as Record<string, unknown>)[key];
        } catch {
          item = UNREADABLE; // a throwing getter: the copy says so instead of throwing
        }
        defineData(object, key, clone(item, depth + 1));
      }
      return object;
    } catch {
      return UNREADABLE; // a Proxy whose traps throw
    } finally {
      path.delete(node); // off the path: a shared part (no cycle) met again elsewhere is copied again
    }
  };
  return clone(value, 0) as T;
}

/** How many objects and arrays one {@link cloneJSONLike} call copies at most; past it, values are shared. */
export const CLONE_NODE_BUDGET = 1_000_000;

/**
 * What {@link cloneJSONLike} puts where an object or array refers back to one that contains it (a cycle, as
 * `encodeJSON` calls it: a parent link, an ORM entity), whose copy would never end.
 */
export const CYCLE = '[cycle]';

/** What {@link cloneJSONLike} puts where a getter threw. */
export const UNREADABLE = '[unreadable value]';

/** Writes `copy[key] = value` as an own data property, safe for `__proto__`. */
export function defineData(target: Record<string, unknown>, key: string, value: unknown): void {
  if (isForbiddenKey(key)) {
    Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  } else {
    target[key] = value;
  }
}
