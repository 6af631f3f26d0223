import { defineData, isPlainObject } from '../internal/json.js';

/**
 * One string per JSON value whatever the order of its keys: what an approval is bound to, so `{a:1,b:2}` and
 * `{b:2,a:1}` are the same arguments and `{a:1}` and `{a:"1"}` are not. Never throws: a value JSON cannot hold gets a
 * key no JSON value has.
 * @example `argumentsKey({ b: 2, a: 1 }) === argumentsKey({ a: 1, b: 2 }) // true`
 */
export function argumentsKey(value: unknown): string {
  try {
    return JSON.stringify(sorted(value, 0));
  } catch {
    // A value JSON cannot hold (a BigInt, a cycle under a class instance, a getter that throws) keys as no JSON text
    // does, and never throws: what takes the value refuses it on its own check (a resume's decisions: checkDecisions).
    return '\u0000not JSON';
  }
}

function sorted(value: unknown, depth: number): unknown {
  if (depth > 64) return '[too deep]';
  if (Array.isArray(value)) return value.map((item) => sorted(item, depth + 1));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) defineData(out, key, sorted(value[key], depth + 1));
  return out;
}
