/**
 * @internal Checking a received value against a shape with plain functions: nothing is built at import or per call
 * but the copy of what passes. Objects are loose (unknown fields kept, copied like zod's `looseObject`: declared
 * fields first in declaration order, then the others; a `__proto__` key is never copied), records are shallow copies,
 * and every problem is an issue `{code, path, message}` whose message says what was expected — never what was
 * received. The walk follows the shape, never the value, so its depth is the shape's and its time linear in the
 * checked arrays.
 */

/** One key of a path: an object key or an array index. */
export type PathKey = string | number | symbol;

/** A problem found: its zod-style code, where, and what was expected. */
export interface Issue {
  code: string;
  path: PathKey[];
  message: string;
}

/** Issues kept per walk: decoding reports the first 20, so nothing beyond them is needed. */
const MAX_ISSUES = 20;

/**
 * One walk: the issues found so far (the first {@link MAX_ISSUES}: a walk failed when it has any) and the path being
 * checked (a stack: a key is pushed on the way down).
 */
export interface Walk {
  readonly issues: Issue[];
  readonly path: PathKey[];
}

/** A check: the value to keep (a copy for objects, arrays and records), with an issue in `walk` when it fails. */
export type Check = (walk: Walk, value: unknown) => unknown;

/**
 * What a value is checked against, as data: a check function; a string, the literal it must be; a list of strings,
 * the values it may take; a one-item list `[item]`, an array of `item`s; `{optional}`, a field that may be absent;
 * `{kinds}`, one of the shapes chosen by `kind`; `{anyOf}`, the first of the shapes that passes; any other object, a
 * loose object of that shape (so no shape has a field named `optional`, `kinds` or `anyOf`).
 */
export type Field =
  | Check
  | string
  | readonly string[]
  | readonly [Field]
  | { readonly optional: Field }
  | { readonly kinds: Readonly<Record<string, Shape>> }
  | { readonly anyOf: readonly Shape[] }
  | Shape;

/** The fields of a loose object, in the order they are checked and copied. */
export interface Shape {
  readonly [key: string]: Field;
}

/** Records a problem at the current path (or below it, at `key`), unless {@link MAX_ISSUES} are already recorded. */
function report(walk: Walk, code: string, message: string, key?: PathKey): void {
  if (walk.issues.length < MAX_ISSUES) walk.issues.push({ code, path: key === undefined ? [...walk.path] : [...walk.path, key], message });
}

/** zod's object test: any non-null object but an array. */
function isObject(value: unknown): value is Record<PropertyKey, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** zod's plain-object test (records): no prototype, or a constructor whose prototype has its own `isPrototypeOf`. */
function isRecord(value: unknown): value is Record<PropertyKey, unknown> {
  if (!isObject(value)) return false;
  const constructor = value.constructor;
  if (typeof constructor !== 'function') return true;
  const prototype: unknown = constructor.prototype;
  return isObject(prototype) && Object.hasOwn(prototype, 'isPrototypeOf');
}

function expected(walk: Walk, value: unknown, type: string): unknown {
  report(walk, 'invalid_type', `expected ${type}`);
  return value;
}

/** A string. */
export function string(walk: Walk, value: unknown): unknown {
  return typeof value === 'string' ? value : expected(walk, value, 'string');
}

/** A boolean. */
export function boolean(walk: Walk, value: unknown): unknown {
  return typeof value === 'boolean' ? value : expected(walk, value, 'boolean');
}

/** A finite number. */
export function number(walk: Walk, value: unknown): unknown {
  return typeof value === 'number' && Number.isFinite(value) ? value : expected(walk, value, 'number');
}

/** One of `values` (an enum, or a literal: one value). */
function oneOf(walk: Walk, value: unknown, values: readonly string[]): unknown {
  if (!values.includes(value as string)) report(walk, 'invalid_value', `expected one of ${values.join('|')}`);
  return value;
}

/** Checks `value` against `field` (see {@link Field}): the value to keep, with an issue in `walk` when it fails. */
export function check(walk: Walk, value: unknown, field: Field): unknown {
  if (typeof field === 'function') return field(walk, value);
  if (typeof field === 'string') return oneOf(walk, value, [field]);
  if (Array.isArray(field)) return typeof field[0] === 'string' ? oneOf(walk, value, field as readonly string[]) : array(walk, value, field[0] as Field);
  if ('kinds' in field) return byKind(walk, value, field.kinds as Readonly<Record<string, Shape>>);
  if ('anyOf' in field) return firstOf(walk, value, field.anyOf as readonly Shape[]);
  return object(walk, value, field as Shape);
}

/** A record of string keys to anything: a shallow copy of its own enumerable keys (`__proto__` left out). */
export function record(walk: Walk, value: unknown): unknown {
  if (!isRecord(value)) return expected(walk, value, 'record');
  const copy: Record<PropertyKey, unknown> = {};
  for (const key of Reflect.ownKeys(value)) {
    if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(value, key)) continue;
    if (typeof key === 'symbol') report(walk, 'invalid_key', 'Invalid input', key);
    else copy[key] = value[key];
  }
  return copy;
}

/** An array whose every item passes `item`: a copy of the checked items. */
function array(walk: Walk, value: unknown, item: Field): unknown {
  if (!Array.isArray(value)) return expected(walk, value, 'array');
  const copy: unknown[] = new Array(value.length);
  for (let index = 0; index < value.length; index++) {
    walk.path.push(index);
    copy[index] = check(walk, value[index], item);
    walk.path.pop();
  }
  return copy;
}

/** Checks `value[key]` against `field` and writes what passes to `copy` (an absent optional field is left out). */
function checkField(walk: Walk, value: Record<PropertyKey, unknown>, copy: Record<string, unknown>, key: string, field: Field): void {
  const item = value[key];
  const optional = typeof field === 'object' && 'optional' in field ? (field.optional as Field) : undefined;
  if (optional && item === undefined) {
    if (key in value) copy[key] = undefined;
    return;
  }
  walk.path.push(key);
  const result = check(walk, item, optional ?? field);
  walk.path.pop();
  if (key in value) copy[key] = result;
}

/** A loose object of `shape`: its fields checked and copied in order, then every other key copied as it is. */
function object(walk: Walk, value: unknown, shape: Shape): unknown {
  if (!isObject(value)) return expected(walk, value, 'object');
  const copy: Record<string, unknown> = {};
  for (const key in shape) checkField(walk, value, copy, key, shape[key] as Field);
  for (const key in value) {
    if (key === '__proto__' || Object.hasOwn(shape, key)) continue;
    copy[key] = value[key];
  }
  return copy;
}

/**
 * One of `options`, chosen by the value's `kind` (zod's `discriminatedUnion`): an unknown kind is an issue at
 * `kind` listing the known ones.
 */
function byKind(walk: Walk, value: unknown, options: Readonly<Record<string, Shape>>): unknown {
  if (!isObject(value)) return expected(walk, value, 'object');
  const kind = value.kind;
  if (typeof kind === 'string' && Object.hasOwn(options, kind)) return object(walk, value, options[kind] as Shape);
  report(walk, 'invalid_union', `expected one of ${Object.keys(options).join('|')}`, 'kind');
  return value;
}

/** The first of `options` that `value` passes (zod's `union`); none is one issue here, the options' own dropped. */
function firstOf(walk: Walk, value: unknown, options: readonly Shape[]): unknown {
  for (const shape of options) {
    const trial: Walk = { issues: [], path: walk.path };
    const result = object(trial, value, shape);
    if (trial.issues.length === 0) return result;
  }
  report(walk, 'invalid_union', 'Invalid input');
  return value;
}
