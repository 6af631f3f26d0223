import { defineData, isPlainObject } from '../internal/json.js';

/**
 * One string per JSON value whatever the order of its keys: what an approval is bound to, so `{a:1,b:2}` and
 * `{b:2,a:1}` are the same arguments and `{a:1}` and `{a:"1"}` are not.
 * @example `argumentsKey({ b: 2, a: 1 }) === argumentsKey({ a: 1, b: 2 }) // true`
 */
export function argumentsKey(value: unknown): string {
  return JSON.stringify(sorted(value, 0));
}

function sorted(value: unknown, depth: number): unknown {
  if (depth > 64) return '[too deep]';
  if (Array.isArray(value)) return value.map((item) => sorted(item, depth + 1));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) defineData(out, key, sorted(value[key], depth + 1));
  return out;
}
