/**
 * Fitting JSON a model receives into a budget of characters, with every cut marked in words a model and a person
 * read (`… [cut: 1200 more characters]`), and the result still plain JSON of the same shape where it was kept.
 */
import { defineData, isPlainObject } from './json.js';

/** What every cut says, so a reader (or a test) can find it. */
export const CUT_MARK = '[cut:';

/** `text` cut to about `limit` characters, the cut marked with how much was left out. */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, Math.max(0, limit))}… ${CUT_MARK} ${text.length - limit} more characters]`;
}

interface Shape {
  /** Longest string kept whole. */
  text: number;
  /** Items of an array, keys of an object kept. */
  items: number;
  /** Levels of nesting kept. */
  depth: number;
}

/**
 * `value` (plain JSON: what `JSON.parse` gives) made to fit `maxLength` characters of JSON: longer strings are cut,
 * arrays and objects keep their first entries (a last item, or a `[cut]` key, says how many more there were), deep
 * parts become a marked string; tighter each round until it fits. `value` itself when it fits already.
 */
export function shrinkJSON(value: unknown, maxLength: number): unknown {
  if (JSON.stringify(value).length <= maxLength) return value;
  const shape: Shape = { text: Math.max(64, Math.floor(maxLength / 4)), items: 1_024, depth: 32 };
  for (let round = 0; round < 16; round++) {
    const shrunk = shrink(value, shape, 0);
    const length = JSON.stringify(shrunk).length;
    if (length <= maxLength) return shrunk;
    shape.text = Math.max(16, Math.floor(shape.text / 2));
    shape.items = Math.max(1, Math.floor(shape.items / 2));
    shape.depth = Math.max(1, shape.depth - 3);
  }
  return `${CUT_MARK} ${JSON.stringify(value).length} characters of JSON, too large to send]`;
}

function shrink(value: unknown, shape: Shape, depth: number): unknown {
  if (typeof value === 'string') return cutText(value, shape.text);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= shape.depth) return `${CUT_MARK} nested deeper than ${shape.depth} levels]`;
  if (Array.isArray(value)) {
    const kept = value.slice(0, shape.items).map((item) => shrink(item, shape, depth + 1));
    if (value.length > shape.items) kept.push(`${CUT_MARK} ${value.length - shape.items} more items]`);
    return kept;
  }
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  const copy: Record<string, unknown> = {};
  for (const key of keys.slice(0, shape.items)) defineData(copy, cutText(key, shape.text), shrink(value[key], shape, depth + 1));
  if (keys.length > shape.items) defineData(copy, '[cut]', `${CUT_MARK} ${keys.length - shape.items} more keys]`);
  return copy;
}
