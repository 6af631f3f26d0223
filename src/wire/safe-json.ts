/**
 * JSON at the edges, never a raw `RangeError` or `TypeError`: every place that serializes data it did not build itself
 * (tool results, graph state, A2A payloads, tool-call arguments) goes through {@link encodeJSON}, which throws a
 * `SerializeError` naming what failed and where (`issues: [{code, path, message}]`); inbound JSON is checked with
 * {@link nestingProblem} before anything clones or re-serializes it. The walks behind them are iterative, keep one
 * frame per open container (never one per child: a 4-million-element array costs no extra memory) and stop after a
 * bounded number of values, so a value nested 100,000 levels deep, a huge one or a cycle costs bounded work and no
 * stack.
 */
import { SerializeError, type SerializeIssue } from '../errors/serialize-error.js';
import { messageOf } from '../internal/error-chain.js';

/** Inbound JSON nested deeper than this is refused at the edge (protobuf's default recursion limit). */
export const MAX_JSON_DEPTH = 100;

/** Values a diagnosis walk reads at most (it only runs when encoding already failed, or to find dropped parts). */
const WALK_LIMIT = 100_000;

/** Values the inbound depth check reads at most; past it the payload is refused, never waved through. */
const CHECK_LIMIT = 1_000_000;

/** Why a value cannot become JSON. */
export type JSONProblemCode = 'too_deep' | 'too_large' | 'bigint' | 'cycle' | 'unreadable' | 'not_json';

const MAX_PATH_KEY = 32; // characters of one key a path shows: keys come from callers, and paths are quoted to them

/**
 * `data.rows[3].total` from a list of keys, bounded whatever the keys: past 12 segments the middle is shortened, and
 * each key shows at most {@link MAX_PATH_KEY} characters (a 9,000-character key nested 100 deep stays a short path).
 */
export function pathText(root: string, keys: ReadonlyArray<string | number>): string {
  const cut = keys.length > 12;
  const shown = cut ? [...keys.slice(0, 6), ...keys.slice(-4)] : keys;
  let text = root;
  shown.forEach((key, index) => {
    if (cut && index === 6) text += `…(${keys.length - 10} more)…`;
    if (typeof key === 'number') text += `[${key}]`;
    else if (key.length > MAX_PATH_KEY) text += `[${JSON.stringify(key.slice(0, MAX_PATH_KEY))}…]`;
    else text += /^[A-Za-z_$][\w$]*$/.test(key) ? `${text === '' ? '' : '.'}${key}` : `[${JSON.stringify(key)}]`;
  });
  return text === '' ? '(root)' : text;
}

/** What a value is, for messages: `a function`, `a Symbol`, `a BigInt`, `a Map`, `an Error`, `undefined`. */
export function kindOf(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a Symbol';
  if (typeof value === 'bigint') return 'a BigInt';
  if (value instanceof Map) return 'a Map';
  if (value instanceof Set) return 'a Set';
  if (value instanceof Error) return 'an Error';
  if (value instanceof RegExp) return 'a RegExp';
  if (value instanceof Promise) return 'a Promise (not awaited?)';
  if (typeof value === 'object' && value !== null) {
    const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
    return typeof name === 'string' && name !== '' && name !== 'Object' ? `an instance of ${name}` : 'an object';
  }
  return `a ${typeof value}`;
}

function issue(code: JSONProblemCode, root: string, keys: ReadonlyArray<string | number>, message: string): SerializeIssue {
  return { code, path: pathText(root, keys), message };
}

/** One open container of a walk: its children are visited one by one through `index`. */
interface Frame {
  readonly container: object;
  /** The keys of an object; `undefined` for an array (its indices). */
  readonly keys: readonly string[] | undefined;
  readonly count: number;
  index: number;
  /** Where the container sits in its parent (the root's is unused). */
  readonly at: string | number;
}

function open(container: object, at: string | number): Frame {
  const keys = Array.isArray(container) ? undefined : Object.keys(container);
  return { container, keys, count: keys ? keys.length : (container as unknown[]).length, index: 0, at };
}

/** The path to a child `key` of the innermost open container. */
function keysTo(frames: readonly Frame[], key: string | number): Array<string | number> {
  const keys: Array<string | number> = [];
  for (let index = 1; index < frames.length; index++) keys.push((frames[index] as Frame).at);
  keys.push(key);
  return keys;
}

/**
 * What to do with each value a walk reaches: descend into a container (`{ open }`: the value itself, or what its
 * `toJSON()` gave), `skip` it, or end the walk with an issue.
 */
type Verdict = { open: object } | 'skip' | SerializeIssue;

/**
 * Walks `value` depth-first, one frame per open container: `check(child, keysOf, depth)` sees each value (the root
 * first, with no keys) and says whether to descend; `onLeave` hears each container when its last child is done. A
 * getter that throws is reported through `onUnreadable`. Returns the first issue, or `exhausted` when it read `limit`
 * values without finding one.
 */
function walk(
  value: unknown,
  limit: number,
  check: (current: unknown, keysOf: () => Array<string | number>, depth: number, at: string | number) => Verdict,
  onUnreadable: (keys: Array<string | number>, error: unknown) => SerializeIssue | undefined,
  onLeave: (container: object) => void = () => {},
): SerializeIssue | 'exhausted' | undefined {
  const frames: Frame[] = [];
  const enter = (current: unknown, keysOf: () => Array<string | number>, at: string | number): SerializeIssue | undefined => {
    const verdict = check(current, keysOf, frames.length, at);
    if (verdict === 'skip') return undefined;
    if (!('open' in verdict)) return verdict;
    try {
      frames.push(open(verdict.open, at));
    } catch (error) {
      onLeave(verdict.open);
      return onUnreadable(keysOf(), error);
    }
    return undefined;
  };
  const first = enter(value, () => [], '');
  if (first) return first;
  let visited = 1;
  while (frames.length > 0) {
    const frame = frames[frames.length - 1] as Frame;
    if (frame.index >= frame.count) {
      frames.pop();
      onLeave(frame.container);
      continue;
    }
    if (visited++ >= limit) return 'exhausted';
    const key: string | number = frame.keys ? (frame.keys[frame.index] as string) : frame.index;
    frame.index++;
    let child: unknown;
    try {
      child = (frame.container as Record<string | number, unknown>)[key];
    } catch (error) {
      const found = onUnreadable(keysTo(frames, key), error);
      if (found) return found;
      continue;
    }
    const found = enter(child, () => keysTo(frames, key), key);
    if (found) return found;
  }
  return undefined;
}

/**
 * The first reason `value` cannot be written as JSON, found by reading every property once (getters and `toJSON`
 * included): a BigInt, a cycle, a throwing getter or `toJSON`, or nesting deeper than `maxDepth`. `undefined` when
 * none was found within the walk's bound.
 */
export function jsonProblem(value: unknown, root: string, maxDepth: number = Number.POSITIVE_INFINITY): SerializeIssue | undefined {
  const onPath = new Set<object>();
  const found = walk(
    value,
    WALK_LIMIT,
    (current, keysOf, depth, at) => {
      let converted = current;
      if (converted !== null && typeof converted === 'object') {
        try {
          const toJSON = (converted as { toJSON?: unknown }).toJSON; // read inside: a getter or a proxy may throw
          if (typeof toJSON === 'function') converted = (toJSON as (key: string) => unknown).call(converted, String(at));
        } catch (error) {
          return issue('unreadable', root, keysOf(), `cannot be written: its toJSON() threw: ${messageOf(error)}`);
        }
      }
      if (typeof converted === 'bigint') return issue('bigint', root, keysOf(), 'is a BigInt, which JSON cannot represent (convert it to a string or a number)');
      if (converted === null || typeof converted !== 'object') return 'skip';
      if (onPath.has(converted)) return issue('cycle', root, keysOf(), 'refers back to an object that contains it (a cycle)');
      if (depth >= maxDepth) return issue('too_deep', root, keysOf(), `nests deeper than ${maxDepth} levels`);
      onPath.add(converted); // on the path while its children are walked: a shared part (no cycle) is seen again fine
      return { open: converted };
    },
    (keys, error) => issue('unreadable', root, keys, `cannot be read: its getter threw: ${messageOf(error)}`),
    (container) => onPath.delete(container),
  );
  return found === 'exhausted' ? undefined : found;
}

/**
 * The path of the first container nested deeper than `maxDepth` in decoded JSON (plain objects and arrays), or
 * `undefined`. A payload too large to check within the walk's bound (a million values) is reported as `too_large`:
 * the check fails closed. Cheap on ordinary payloads, bounded on hostile ones.
 * @example `nestingProblem(JSON.parse(body), 'params', 64)`
 */
export function nestingProblem(value: unknown, root: string, maxDepth: number = MAX_JSON_DEPTH): SerializeIssue | undefined {
  const found = walk(
    value,
    CHECK_LIMIT,
    (current, keysOf, depth) => {
      if (current === null || typeof current !== 'object') return 'skip';
      return depth >= maxDepth ? issue('too_deep', root, keysOf(), `nests deeper than ${maxDepth} levels`) : { open: current };
    },
    () => undefined,
  );
  return found === 'exhausted' ? issue('too_large', root, [], `holds more than ${CHECK_LIMIT} values`) : found;
}

/**
 * `JSON.stringify(value)`, or a `SerializeError` about `subject` whose `issues` say why and where (a BigInt at
 * `data.total`, a cycle, a throwing getter, nesting too deep for the runtime, a value too large for a string, a
 * top-level function or Symbol).
 * @example `encodeJSON(result.data, 'tool result', 'data')`
 */
export function encodeJSON(value: unknown, subject: string, root = ''): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    const found = diagnose(value, root, error);
    throw new SerializeError(`The ${subject} cannot be written as JSON: ${found.path} ${found.message}`, { subject, issues: [found], cause: error });
  }
  if (text === undefined) {
    const found = issue('not_json', root, [], `is ${kindOf(value)}, which JSON cannot represent`);
    throw new SerializeError(`The ${subject} cannot be written as JSON: ${found.path} ${found.message}`, { subject, issues: [found] });
  }
  return text;
}

/**
 * Why `JSON.stringify(value)` threw `error`: the located problem a walk finds, else what the error itself says (a
 * walk stops at its bound: a BigInt past the first 100,000 values is still a `bigint`).
 */
function diagnose(value: unknown, root: string, error: unknown): SerializeIssue {
  const message = messageOf(error);
  const tooLarge = error instanceof RangeError && /string length/i.test(message);
  if (!tooLarge) {
    try {
      // A RangeError of another kind is the runtime's stack giving out: look for the path that nests that deep.
      const found = jsonProblem(value, root, error instanceof RangeError ? 1_000 : Number.POSITIVE_INFINITY);
      if (found) return found;
    } catch {
      // the walk met something stranger still: fall back to what the error says
    }
  }
  if (tooLarge) return issue('too_large', root, [], 'is too large to be written as one JSON text');
  if (error instanceof RangeError) return issue('too_deep', root, [], 'nests too deeply to be written as JSON');
  if (/bigint/i.test(message)) return issue('bigint', root, [], 'holds a BigInt, which JSON cannot represent (convert it to a string or a number)');
  if (/circular|cyclic/i.test(message)) return issue('cycle', root, [], 'holds a cycle (an object that contains itself)');
  return issue('unreadable', root, [], message);
}

/** A value JSON would silently leave out or empty. */
export interface DroppedValue {
  path: string;
  kind: string;
}

/** An object JSON writes as `{}` although it holds something: a Map, a Set, an Error, a RegExp, a Promise, a class instance without own data. */
function emptiedByJSON(value: object): boolean {
  if (value instanceof Map || value instanceof Set) return value.size > 0;
  if (Array.isArray(value) || value instanceof Number || value instanceof Boolean || value instanceof String) return false; // written as the primitive
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Object.prototype || prototype === null) return false;
  return Object.keys(value).length === 0;
}

/**
 * Where `JSON.stringify` would silently drop or empty something in `value`: functions and Symbols (left out, or
 * `null` in arrays), non-empty Maps and Sets, Errors, RegExps, Promises and class instances without own data (all
 * written as `{}`) — and with `nulls`, what it writes as `null`: a number that is not finite, a list's `undefined` or
 * hole. Diagnostic only: bounded (at most `limit` findings, a bounded walk) and it never throws.
 * @example `droppedValues({ rows: new Map([[1, 2]]), format() {} }, 'data') // [{ path: 'data.rows', kind: 'a Map' }, { path: 'data.format', kind: 'a function' }]`
 */
export function droppedValues(value: unknown, root: string, limit = 20, nulls = false): DroppedValue[] {
  const found: DroppedValue[] = [];
  const seen = new Set<object>();
  try {
    walk(
      value,
      WALK_LIMIT,
      (current, keysOf, depth, at) => {
        if (found.length >= limit) return issue('not_json', root, [], 'enough found');
        // `nulls`: also what JSON writes as null (a number that is not finite, a list's undefined or hole)
        if (nulls && ((typeof current === 'number' && !Number.isFinite(current)) || (current === undefined && typeof at === 'number'))) {
          found.push({ path: pathText(root, keysOf()), kind: current === undefined ? 'undefined in a list' : String(current) });
          return 'skip';
        }
        if (depth > 0 && (typeof current === 'function' || typeof current === 'symbol')) {
          found.push({ path: pathText(root, keysOf()), kind: kindOf(current) });
          return 'skip';
        }
        if (current === null || typeof current !== 'object' || seen.has(current) || depth > MAX_JSON_DEPTH) return 'skip';
        seen.add(current);
        if (typeof (current as { toJSON?: unknown }).toJSON === 'function') return 'skip'; // it says how it is written
        if (emptiedByJSON(current)) {
          found.push({ path: pathText(root, keysOf()), kind: kindOf(current) });
          return 'skip';
        }
        return { open: current };
      },
      () => undefined,
    );
  } catch {
    // a getter or a proxy that throws while being inspected: what was found so far is the answer
  }
  return found;
}
