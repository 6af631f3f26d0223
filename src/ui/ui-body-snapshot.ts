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
  readonly target: Record<string, unknown> | unknown[];
  readonly keys: readonly string[] | undefined;
  readonly count: number;
  index: number;
  readonly path: ReadonlyArray<string | number>;
}

/**
 * The checked copy of `value` (issues reported to `sink`; the copy leaves out what was refused), or `undefined` when
 * the walk stopped at the size bound or the sink wanted no more.
 */
export function snapshotBody(value: unknown, limits: SnapshotLimits, sink: IssueSink, root: ReadonlyArray<string | number> = []): unknown {
  let size = 0;
  let stopped = false;
  const report = (code: UIMessagesIssue['code'], path: ReadonlyArray<string | number>, message: string): void => {
    if (!sink({ code, path: pathOf(path), message })) stopped = true;
  };
  const frames: Frame[] = [];
  /** The copy of a leaf, a new container to fill (pushed as a frame), or `undefined` for a refused value. */
  const enter = (current: unknown, path: ReadonlyArray<string | number>): { copy: unknown } | undefined => {
    switch (typeof current) {
      case 'string':
        size += current.length + 2;
        if (current.length > limits.maxStringLength) {
          report('too_long', path, `is a string of ${current.length} characters; at most ${limits.maxStringLength} are accepted (maxStringLength)`);
          return undefined;
        }
        return { copy: current };
      case 'number':
        size += 1;
        if (!Number.isFinite(current)) {
          report('not_json', path, `is ${current}, which JSON cannot carry`);
          return undefined;
        }
        return { copy: current };
      case 'boolean':
        size += 4;
        return { copy: current };
      case 'undefined':
        return { copy: undefined };
      case 'object':
        break;
      default:
        report('not_json', path, `is ${kindOf(current)}, which JSON cannot carry`);
        return undefined;
    }
    if (current === null) {
      size += 4;
      return { copy: null };
    }
    size += 2;
    if (path.length - root.length >= limits.maxDepth) {
      report('too_deep', path, `nests deeper than ${limits.maxDepth} levels (maxDepth)`);
      return undefined;
    }
    let list: boolean;
    let keys: string[] | undefined;
    try {
      list = Array.isArray(current);
      if (!list && !isPlainObject(current)) {
        report('not_json', path, `is ${kindOf(current)}, not plain JSON data`);
        return undefined;
      }
      keys = list ? undefined : Object.keys(current);
    } catch {
      report('not_json', path, 'cannot be read (a throwing Proxy)');
      return undefined;
    }
    const count = keys ? keys.length : (current as unknown[]).length;
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) {
      report('not_json', path, 'is an array whose length cannot be read');
      return undefined;
    }
    const target: Record<string, unknown> | unknown[] = list ? [] : {};
    frames.push({ source: current, target, keys, count, index: 0, path });
    return { copy: target };
  };

  const top = enter(value, root);
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
    const path = [...frame.path, key];
    size += 1; // a separator (one too many per container: an estimate)
    if (typeof key === 'string') {
      size += key.length + 3;
      if (isForbiddenKey(key)) {
        report('prototype_key', path, `is a key that could reach an object's prototype (${JSON.stringify(key)}); it is never accepted`);
        continue;
      }
    }
    let child: unknown;
    try {
      child = (frame.source as Record<string | number, unknown>)[key];
    } catch {
      report('not_json', path, 'cannot be read (its getter threw)');
      continue;
    }
    const entered = enter(child, path);
    if (entered === undefined) continue;
    // An array keeps its indices (a missing element reads as null, as JSON writes it); an object drops an absent key.
    if (Array.isArray(frame.target)) frame.target.push(entered.copy ?? null);
    else if (entered.copy !== undefined) frame.target[key as string] = entered.copy;
  }
  if (stopped) return undefined;
  if (size > limits.maxBodyBytes) {
    report('too_large', root, `is larger than ${limits.maxBodyBytes} characters of JSON (maxBodyBytes)`);
    return undefined;
  }
  return top?.copy;
}
