/**
 * @internal A chat request body checked and copied in one walk before anything reads it: only JSON values (strings,
 * finite numbers, booleans, null, arrays and plain objects; `undefined` reads as absent), no key that could reach a
 * prototype, no string longer than the bound, no nesting deeper than the bound, at most a bounded JSON size (estimated
 * as it goes: a value handed in directly has no bytes to count). The copy
 * is fresh plain data, so a getter or a Proxy of a value handed in directly runs once, here, and never again; a
 * property that throws is an issue, never a crash. The walk is iterative (one frame per open container) and stops at
 * the size bound, so a hostile value costs bounded work and no stack.
 */
import { isForbiddenKey, isPlainObject, preview } from '../internal/json.js';
import { redactText } from '../internal/redact.js';
import { kindOf, pathText } from '../wire/safe-json.js';
import type { UIMessagesIssue } from './ui-messages-error.js';

/** @internal The bounds of one walk. */
export interface SnapshotLimits {
  /** JSON size, in characters, estimated (a number counts as one digit, an escape as one character). */
  maxBodyBytes: number;
  maxDepth: number;
  maxStringLength: number;
}

/** @internal Where issues go; returns false once no more are wanted (the walk then stops). */
export type IssueSink = (issue: UIMessagesIssue) => boolean;

/** @internal `messages[2].parts[0]` (`(body)` for the root). */
export function pathOf(keys: ReadonlyArray<string | number>): string {
  return keys.length === 0 ? '(body)' : pathText('', keys);
}

/** @internal A caller-sent value quoted for a message: at most 200 characters, credential shapes masked. */
export function quote(value: unknown): string {
  return redactText(preview(value, 200));
}

interface Frame {
  readonly source: object;
  /** The copy being filled; `undefined` when the walk only checks (JSON just parsed is plain data already). */
  readonly target: Record<string, unknown> | unknown[] | undefined;
  readonly keys: readonly string[] | undefined;
  readonly count: number;
  index: number;
  /** Where the container sits: its parent's frame and its key there (the path is built only for a problem). */
  readonly parent: Frame | undefined;
  readonly key: string | number;
  readonly depth: number;
}

/** What `enter` returns for a refused value (reported already). */
const REFUSED = Symbol('refused');

/**
 * The checked copy of `value` (issues reported to `sink`; the copy leaves out what was refused), or `undefined` when
 * the walk stopped at the size bound or the sink wanted no more. With `copy: false` (a value `JSON.parse` just made)
 * the value is only checked and returned as it is.
 */
export function snapshotBody(value: unknown, limits: SnapshotLimits, sink: IssueSink, root: ReadonlyArray<string | number> = [], copy = true): unknown {
  let size = 0;
  let stopped = false;
  const report = (code: UIMessagesIssue['code'], path: ReadonlyArray<string | number>, message: string): void => {
    if (!sink({ code, path: pathOf(path), message })) stopped = true;
  };
  const frames: Frame[] = [];
  // A path is built only for a problem: a body of two million values allocates none.
  const pathTo = (parent: Frame | undefined, key: string | number): ReadonlyArray<string | number> => {
    const keys: Array<string | number> = [];
    if (parent) keys.push(key);
    for (let frame = parent; frame?.parent; frame = frame.parent) keys.push(frame.key);
    return [...root, ...keys.reverse()];
  };
  /** The copy of a leaf, a new container to fill (pushed as a frame), or REFUSED. */
  const enter = (current: unknown, parent: Frame | undefined, key: string | number): unknown => {
    switch (typeof current) {
      case 'string':
        size += current.length + 2;
        if (current.length > limits.maxStringLength) {
          report('too_long', pathTo(parent, key), `is a string of ${current.length} characters; at most ${limits.maxStringLength} are accepted (maxStringLength)`);
          return REFUSED;
        }
        return current;
      case 'number':
        size += 1;
        if (!Number.isFinite(current)) {
          report('not_json', pathTo(parent, key), `is ${current}, which JSON cannot carry`);
          return REFUSED;
        }
        return current;
      case 'boolean':
        size += 4;
        return current;
      case 'undefined':
        return undefined;
      case 'object':
        break;
      default:
        report('not_json', pathTo(parent, key), `is ${kindOf(current)}, which JSON cannot carry`);
        return REFUSED;
    }
    if (current === null) {
      size += 4;
      return null;
    }
    size += 2;
    const depth = parent ? parent.depth + 1 : 0;
    if (depth >= limits.maxDepth) {
      report('too_deep', pathTo(parent, key), `nests deeper than ${limits.maxDepth} levels (maxDepth)`);
      return REFUSED;
    }
    let list: boolean;
    let keys: string[] | undefined;
    try {
      list = Array.isArray(current);
      if (!list && !isPlainObject(current)) {
        report('not_json', pathTo(parent, key), `is ${kindOf(current)}, not plain JSON data`);
        return REFUSED;
      }
      keys = list ? undefined : Object.keys(current);
    } catch {
      report('not_json', pathTo(parent, key), 'cannot be read (a throwing Proxy)');
      return REFUSED;
    }
    const count = keys ? keys.length : (current as unknown[]).length;
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) {
      report('not_json', pathTo(parent, key), 'is an array whose length cannot be read');
      return REFUSED;
    }
    if (count === 0) return copy ? (list ? [] : {}) : current; // nothing inside: no frame needed
    const target: Record<string, unknown> | unknown[] | undefined = copy ? (list ? [] : {}) : undefined;
    frames.push({ source: current, target, keys, count, index: 0, parent, key, depth });
    return target ?? current;
  };

  const top = enter(value, undefined, '');
  while (frames.length > 0 && !stopped) {
    if (size > limits.maxBodyBytes) {
      report('too_large', root, `is larger than ${limits.maxBodyBytes} characters of JSON (maxBodyBytes)`);
      return undefined;
    }
    const frame = frames[frames.length - 1] as Frame;
    if (frame.index >= frame.count) {
      frames.pop();
      continue;
    }
    const key: string | number = frame.keys ? (frame.keys[frame.index] as string) : frame.index;
    frame.index++;
    size += 1; // a separator (one too many per container: an estimate)
    if (typeof key === 'string') {
      size += key.length + 3;
      if (isForbiddenKey(key)) {
        report('prototype_key', pathTo(frame, key), `is a key that could reach an object's prototype (${JSON.stringify(key)}); it is never accepted`);
        continue;
      }
    }
    let child: unknown;
    try {
      child = (frame.source as Record<string | number, unknown>)[key];
    } catch {
      report('not_json', pathTo(frame, key), 'cannot be read (its getter threw)');
      continue;
    }
    const entered = enter(child, frame, key);
    const target = frame.target;
    if (entered === REFUSED || target === undefined) continue;
    // An array keeps its indices (a missing element reads as null, as JSON writes it); an object drops an absent key.
    if (Array.isArray(target)) target.push(entered ?? null);
    else if (entered !== undefined) target[key as string] = entered;
  }
  if (stopped) return undefined;
  if (size > limits.maxBodyBytes) {
    report('too_large', root, `is larger than ${limits.maxBodyBytes} characters of JSON (maxBodyBytes)`);
    return undefined;
  }
  return top === REFUSED ? undefined : top;
}
