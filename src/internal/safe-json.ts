/**
 * JSON at the edges, never a raw `RangeError` or `TypeError`: every place that serializes data it did not build itself
 * (tool results, graph state, A2A payloads, tool-call arguments) goes through {@link encodeJSON}, which throws a
 * `SerializeError` naming what failed and where (`issues: [{code, path, message}]`); inbound JSON is checked with
 * {@link nestingProblem} before anything clones or re-serializes it. The diagnosis walks are iterative and bounded,
 * so a value nested 100,000 levels deep or a cycle costs a bounded amount of work and no stack.
 */
import { SerializeError, type SerializeIssue } from '../errors/serialize-error.js';
import { messageOf } from './error-chain.js';

/** Inbound JSON nested deeper than this is refused at the edge (protobuf's default recursion limit). */
export const MAX_JSON_DEPTH = 100;

/** Nodes a diagnosis walk visits at most. */
const WALK_LIMIT = 100_000;

/** Why a value cannot become JSON. */
export type JSONProblemCode = 'too_deep' | 'bigint' | 'cycle' | 'unreadable' | 'not_json';

/** `data.rows[3].total` from a list of keys (shortened in the middle past 12 segments). */
export function pathText(root: string, keys: ReadonlyArray<string | number>): string {
  const shown = keys.length > 12 ? [...keys.slice(0, 6), `…(${keys.length - 10} more)…`, ...keys.slice(-4)] : keys;
  let text = root;
  for (const key of shown) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (key.startsWith('…')) text += key;
    else text += /^[A-Za-z_$][\w$]*$/.test(key) ? `${text === '' ? '' : '.'}${key}` : `[${JSON.stringify(key)}]`;
  }
  return text === '' ? '(root)' : text;
}

/** What a value is, for messages: `a function`, `a Symbol`, `a BigInt`, `undefined`. */
export function kindOf(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a Symbol';
  if (typeof value === 'bigint') return 'a BigInt';
  if (value instanceof Map) return 'a Map';
  if (value instanceof Set) return 'a Set';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Keys kept for a path: past this depth only the count grows (deep values cost no quadratic copying). */
const PATH_KEYS = 32;

function child(keys: ReadonlyArray<string | number>, key: string | number): Array<string | number> {
  return keys.length < PATH_KEYS ? [...keys, key] : (keys as Array<string | number>);
}

function issue(code: JSONProblemCode, root: string, keys: ReadonlyArray<string | number>, message: string, depth = keys.length): SerializeIssue {
  return { code, path: `${pathText(root, keys)}${depth > keys.length ? `…(${depth} levels)` : ''}`, message };
}

/** Reads `holder[key]`, or reports it unreadable. */
function readKey(holder: object, key: string | number): { value: unknown } | { error: unknown } {
  try {
    return { value: (holder as Record<string | number, unknown>)[key] };
  } catch (error) {
    return { error };
  }
}

/** Calls `toJSON` the way `JSON.stringify` does. */
function viaToJSON(value: object, key: string | number): { value: unknown } | { error: unknown } {
  try {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    return { value: typeof toJSON === 'function' ? (toJSON as (key: string) => unknown).call(value, String(key)) : value };
  } catch (error) {
    return { error };
  }
}

type Step = { enter: true; value: unknown; keys: Array<string | number>; depth: number } | { enter: false; object: object };

/**
 * The first reason `value` cannot be written as JSON, found by an iterative depth-first walk that reads every
 * property once (getters and `toJSON` included): a BigInt, a cycle, a throwing getter or `toJSON`, or nesting deeper
 * than `maxDepth`. `undefined` when none was found within the walk's bound.
 */
export function jsonProblem(value: unknown, root: string, maxDepth: number = Number.POSITIVE_INFINITY): SerializeIssue | undefined {
  const stack: Step[] = [{ enter: true, value, keys: [], depth: 0 }];
  const onPath = new Set<object>();
  let visited = 0;
  while (stack.length > 0 && visited < WALK_LIMIT) {
    const step = stack.pop() as Step;
    if (!step.enter) {
      onPath.delete(step.object);
      continue;
    }
    visited++;
    const { keys, depth } = step;
    let current = step.value;
    if (current !== null && typeof current === 'object') {
      const converted = viaToJSON(current, keys.length > 0 ? (keys[keys.length - 1] as string | number) : '');
      if ('error' in converted) return issue('unreadable', root, keys, `cannot be written: its toJSON() threw: ${messageOf(converted.error)}`, depth);
      current = converted.value;
    }
    if (typeof current === 'bigint') return issue('bigint', root, keys, 'is a BigInt, which JSON cannot represent (convert it to a string or a number)', depth);
    if (current === null || typeof current !== 'object') continue;
    if (onPath.has(current)) return issue('cycle', root, keys, 'refers back to an object that contains it (a cycle)', depth);
    if (depth >= maxDepth) return issue('too_deep', root, keys, `nests deeper than ${maxDepth} levels`, depth);
    let names: Array<string | number>;
    try {
      names = Array.isArray(current) ? Array.from({ length: current.length }, (_, index) => index) : Object.keys(current);
    } catch (error) {
      return issue('unreadable', root, keys, `cannot be read: its keys cannot be listed: ${messageOf(error)}`, depth);
    }
    onPath.add(current);
    stack.push({ enter: false, object: current });
    for (let index = names.length - 1; index >= 0; index--) {
      const key = names[index] as string | number;
      const read = readKey(current, key);
      if ('error' in read) return issue('unreadable', root, child(keys, key), `cannot be read: its getter threw: ${messageOf(read.error)}`, depth + 1);
      stack.push({ enter: true, value: read.value, keys: child(keys, key), depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * The path of the first container nested deeper than `maxDepth` in decoded JSON (plain objects and arrays), or
 * `undefined`. Iterative and bounded: cheap on ordinary payloads, safe on hostile ones.
 * @example `nestingProblem(JSON.parse(body), 'params', 64)`
 */
export function nestingProblem(value: unknown, root: string, maxDepth: number = MAX_JSON_DEPTH): SerializeIssue | undefined {
  const stack: Array<{ value: unknown; keys: Array<string | number>; depth: number }> = [{ value, keys: [], depth: 0 }];
  let visited = 0;
  while (stack.length > 0 && visited < WALK_LIMIT * 10) {
    const { value: current, keys, depth } = stack.pop() as { value: unknown; keys: Array<string | number>; depth: number };
    visited++;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= maxDepth) return issue('too_deep', root, keys, `nests deeper than ${maxDepth} levels`, depth);
    if (Array.isArray(current)) current.forEach((item, index) => stack.push({ value: item, keys: child(keys, index), depth: depth + 1 }));
    else for (const key of Object.keys(current)) stack.push({ value: (current as Record<string, unknown>)[key], keys: child(keys, key), depth: depth + 1 });
  }
  return undefined;
}

/**
 * `JSON.stringify(value)`, or a `SerializeError` about `subject` whose `issues` say why and where (a BigInt at
 * `data.total`, a cycle, a throwing getter, nesting too deep for the runtime, a top-level function or Symbol).
 * @example `encodeJSON(result.data, 'tool result', 'data')`
 */
export function encodeJSON(value: unknown, subject: string, root = ''): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    // A RangeError is the runtime's stack giving out: look for the path that nests that deep.
    const found =
      jsonProblem(value, root, error instanceof RangeError ? 1_000 : Number.POSITIVE_INFINITY) ??
      (error instanceof RangeError ? issue('too_deep', root, [], 'nests too deeply to be written as JSON') : issue('unreadable', root, [], messageOf(error)));
    throw new SerializeError(`The ${subject} cannot be written as JSON: ${found.path} ${found.message}`, { subject, issues: [found], cause: error });
  }
  if (text === undefined) {
    const found = issue('not_json', root, [], `is ${kindOf(value)}, which JSON cannot represent`);
    throw new SerializeError(`The ${subject} cannot be written as JSON: ${found.path} ${found.message}`, { subject, issues: [found] });
  }
  return text;
}

/** A value JSON would silently leave out or change: a function or Symbol (dropped), a Map or Set (written as `{}`). */
export interface DroppedValue {
  path: string;
  kind: string;
}

/**
 * Where `JSON.stringify` would silently drop or empty something in `value`: functions and Symbols (left out, or
 * `null` in arrays) and non-empty Maps and Sets (written as `{}`). Bounded: at most `limit` findings, a bounded walk.
 * @example `droppedValues({ rows: new Map([[1, 2]]), format() {} }, 'data') // [{ path: 'data.rows', kind: 'a Map' }, { path: 'data.format', kind: 'a function' }]`
 */
export function droppedValues(value: unknown, root: string, limit = 20): DroppedValue[] {
  const found: DroppedValue[] = [];
  const stack: Array<{ value: unknown; keys: Array<string | number>; depth: number }> = [{ value, keys: [], depth: 0 }];
  const seen = new Set<object>();
  let visited = 0;
  while (stack.length > 0 && visited < WALK_LIMIT && found.length < limit) {
    const { value: current, keys, depth } = stack.pop() as { value: unknown; keys: Array<string | number>; depth: number };
    visited++;
    if (keys.length > 0 && (typeof current === 'function' || typeof current === 'symbol')) {
      found.push({ path: pathText(root, keys), kind: kindOf(current) });
      continue;
    }
    if (current === null || typeof current !== 'object' || seen.has(current) || depth > MAX_JSON_DEPTH) continue;
    seen.add(current);
    if ((current instanceof Map || current instanceof Set) && current.size > 0) {
      found.push({ path: pathText(root, keys), kind: kindOf(current) });
      continue;
    }
    if (typeof (current as { toJSON?: unknown }).toJSON === 'function') continue; // it says how it is written
    try {
      const entries: Array<[string | number, unknown]> = Array.isArray(current) ? current.map((item, index) => [index, item]) : Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, item] = entries[index] as [string | number, unknown];
        stack.push({ value: item, keys: child(keys, key), depth: depth + 1 });
      }
    } catch {
      // unreadable parts were already reported by encodeJSON if they mattered
    }
  }
  return found;
}
