/**
 * The per-keyword checks of the bounded JSON Schema validator, for the value at hand: `type`/`enum`/`const`, strings
 * (`minLength`, `maxLength`, `pattern`), numbers (`minimum`, `maximum`, the exclusive bounds, `multipleOf`), arrays
 * (`minItems`, `maxItems`, `prefixItems`/`items`/`additionalItems`, `uniqueItems`) and objects (`minProperties`,
 * `maxProperties`, `properties`, `patternProperties`, `additionalProperties`, `required`), with the deep equality
 * and the issue messages they need. Subschemas are applied through the walker lent in the context (`ctx.check`),
 * so this file imports only `json-schema-bounds.ts` (and `truncate`); the walker (`json-schema-validate.ts`) calls
 * these checks.
 */
import { truncate } from '../internal/json.js';
import {
  attempt,
  charge,
  isRecord,
  JSON_SCHEMA_LIMITS as LIMITS,
  kindOf,
  read,
  report,
  UNREADABLE,
  type Context,
  type Path,
  type Schema,
  type Sink,
} from './json-schema-bounds.js';

export function checkKind(ctx: Context, schema: Schema, value: unknown, kind: string, path: Path, sink: Sink): void {
  const names = schema.type as string[] | undefined;
  if (names) {
    let matched = false;
    for (let index = 0; index < names.length && !matched; index++) matched = matchesType(names[index] as string, kind, value);
    if (!matched) report(sink, `expected ${orList(names)}, received ${kind}`, path, names);
  }
  const options = schema.enum;
  if (Array.isArray(options)) {
    let unsure = false;
    let found = false;
    for (let index = 0; index < options.length && !found; index++) {
      const same = equal(ctx, options[index], value);
      found = same === true;
      unsure ||= same === undefined;
    }
    if (!found) report(sink, unsure ? INCOMPARABLE : options.length === 0 ? 'no value is allowed here (the enum is empty)' : `must be one of ${valueList(options)}`, path);
  }
  if ('const' in schema) {
    const same = equal(ctx, schema.const, value);
    if (same !== true) report(sink, same === false ? `must be ${brief(schema.const)}` : INCOMPARABLE, path);
  }
}

/** The message of a value that could not be compared (written out: module scope holds literals only). */
const INCOMPARABLE = 'could not be compared with the allowed values (nested more than 256 levels deep, or unreadable)';

function matchesType(name: string, kind: string, value: unknown): boolean {
  return name === kind || (name === 'integer' && kind === 'number' && Number.isInteger(value));
}

export function checkString(ctx: Context, schema: Schema, value: string, path: Path, sink: Sink): void {
  const min = schema.minLength;
  const max = schema.maxLength;
  if (isCount(min) || isCount(max)) {
    charge(ctx, Math.ceil(value.length / 64));
    checkCount(sink, min, max, codePoints(value), path, 'character');
  }
  const pattern = schema.pattern;
  if (typeof pattern === 'string' && value.length <= LIMITS.maxPatternInputLength) {
    const regex = ctx.regexFor?.(ctx, pattern);
    if (regex) {
      charge(ctx, Math.ceil(value.length / 16));
      if (!regex.test(value)) report(sink, `must match the pattern /${pattern}/`, path);
    }
  }
}

const BOUNDS = [
  ['minimum', 'exclusiveMinimum', '>=', '>'],
  ['maximum', 'exclusiveMaximum', '<=', '<'],
] as const;

export function checkNumber(schema: Schema, value: number, path: Path, sink: Sink): void {
  for (const [keyword, exclusiveKeyword, inclusive, strict] of BOUNDS) {
    const limit = schema[keyword];
    const exclusive = schema[exclusiveKeyword];
    if (isNumber(limit)) checkBound(sink, value, exclusive === true ? strict : inclusive, limit, path); // `true`: draft-04's boolean form
    if (isNumber(exclusive)) checkBound(sink, value, strict, exclusive, path);
  }
  const divisor = schema.multipleOf;
  if (isNumber(divisor) && divisor > 0) {
    const quotient = value / divisor; // a tolerance of a few ulps, so 19.99 is a multiple of 0.01
    const ok = Number.isFinite(quotient) && Math.abs(quotient - Math.round(quotient)) <= 8 * Number.EPSILON * Math.abs(quotient);
    if (!ok) report(sink, `expected a multiple of ${divisor}, received ${value}`, path);
  }
}

function checkBound(sink: Sink, value: number, operator: string, limit: number, path: Path): void {
  const ok = operator === '>=' ? value >= limit : operator === '>' ? value > limit : operator === '<=' ? value <= limit : value < limit;
  if (!ok) report(sink, `expected a number ${operator} ${limit}, received ${value}`, path);
}

export function checkArray(ctx: Context, schema: Schema, value: object, path: Path, depth: number, sink: Sink): void {
  const rawLength = read(value, 'length');
  const length = typeof rawLength === 'number' && rawLength >= 0 ? rawLength : 0;
  checkCount(sink, schema.minItems, schema.maxItems, length, path, 'item');
  const prefix = schema.prefixItems;
  const items = schema.items;
  const tuple: unknown[] = Array.isArray(prefix) ? prefix : Array.isArray(items) ? items : []; // draft-07 `items: [...]` is a tuple
  const rest = Array.isArray(prefix) ? items : Array.isArray(items) ? schema.additionalItems : items;
  const unique = schema.uniqueItems === true;
  if (tuple.length === 0 && !(rest === false || isRecord(rest)) && !unique) return;
  charge(ctx, length);
  const values: unknown[] = [];
  for (let index = 0; index < length; index++) values.push(read(value, index));
  for (let index = 0; index < length; index++) {
    if (index < tuple.length) ctx.check(ctx, tuple[index], values[index], { parent: path, key: index }, depth + 1, 0, sink);
    else if (rest === false) {
      checkCount(sink, undefined, tuple.length, length, path, 'item');
      break;
    } else if (isRecord(rest)) ctx.check(ctx, rest, values[index], { parent: path, key: index }, depth + 1, 0, sink);
  }
  if (!unique) return;
  const primitives = new Map<string, number>();
  const containers: number[] = [];
  for (let index = 0; index < length; index++) {
    const item = values[index];
    const kind = kindOf(item);
    let twin: number | undefined;
    if (kind === 'array' || kind === 'object') {
      twin = containers.find((other) => equal(ctx, values[other], item) === true);
      containers.push(index);
    } else if (item !== UNREADABLE) {
      const key = `${kind}:${typeof item === 'symbol' ? index : String(item)}`;
      twin = primitives.get(key);
      primitives.set(key, twin ?? index);
    }
    if (twin !== undefined) return report(sink, `expected unique items, but items ${twin} and ${index} are equal`, path);
  }
}

export function checkObject(ctx: Context, schema: Schema, value: object, path: Path, depth: number, sink: Sink): void {
  const keys = attempt(() => Object.keys(value), undefined);
  if (!keys) return report(sink, 'could not be read (listing its properties threw an error)', path);
  charge(ctx, keys.length);
  checkCount(sink, schema.minProperties, schema.maxProperties, keys.length, path, 'property', 'properties');
  const properties = isRecord(schema.properties) ? schema.properties : undefined;
  const patternSchemas = isRecord(schema.patternProperties) ? schema.patternProperties : {};
  const patterns = Object.keys(patternSchemas);
  const additional = schema.additionalProperties;
  if (properties || patterns.length > 0 || additional === false || isRecord(additional)) {
    for (const key of keys) {
      const child: Path = { parent: path, key };
      const item = read(value, key);
      let known = false;
      if (properties && Object.hasOwn(properties, key)) {
        known = true;
        ctx.check(ctx, properties[key], item, child, depth + 1, 0, sink);
      }
      charge(ctx, patterns.length);
      for (const pattern of patterns) {
        const regex = key.length <= LIMITS.maxPatternInputLength ? ctx.regexFor?.(ctx, pattern) : null;
        if (!regex) known = true; // an unusable pattern might match: the name is not called additional
        else if (regex.test(key)) {
          known = true;
          ctx.check(ctx, patternSchemas[pattern], item, child, depth + 1, 0, sink);
        }
      }
      if (known) continue;
      if (additional === false) report(sink, `unexpected property ${quote(key)} (${allowedNames(properties, patterns)})`, child);
      else ctx.check(ctx, additional, item, child, depth + 1, 0, sink);
    }
  }
  const required = schema.required;
  if (!Array.isArray(required)) return;
  charge(ctx, required.length);
  for (const name of required) {
    if (typeof name === 'string' && !present(value, name)) report(sink, `missing required property ${quote(name)}`, { parent: path, key: name });
  }
}

/** Deep equality of JSON-like data; undefined when it cannot tell (too deep, or a getter threw). Iterative. */
function equal(ctx: Context, left: unknown, right: unknown): boolean | undefined {
  const stack: Array<[unknown, unknown, number]> = [[left, right, 0]];
  let unsure = false;
  while (stack.length > 0) {
    const [a, b, depth] = stack.pop() as [unknown, unknown, number];
    charge(ctx, 1);
    if (a === b) continue;
    if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
    const kind = kindOf(a);
    const otherKind = kindOf(b);
    if (kind !== otherKind && kind !== 'unreadable' && otherKind !== 'unreadable') return false;
    const keys = kind === 'object' ? attempt(() => Object.keys(a), undefined) : undefined;
    const length = kind === 'array' ? read(a, 'length') : keys?.length;
    const other = kind === 'array' ? read(b, 'length') : attempt(() => Object.keys(b).length, undefined);
    if (typeof length !== 'number' || typeof other !== 'number' || depth >= LIMITS.maxDepth) unsure = true;
    else if (length !== other) return false;
    else {
      charge(ctx, length);
      for (let index = 0; index < length; index++) {
        const key = keys ? (keys[index] as string) : index;
        if (keys && !attempt(() => Object.hasOwn(b, key), false)) return false;
        const itemA = read(a, key);
        const itemB = read(b, key);
        if (itemA === UNREADABLE || itemB === UNREADABLE) unsure = true;
        else stack.push([itemA, itemB, depth + 1]);
      }
    }
  }
  return unsure ? undefined : true;
}

/** An own property that is not `undefined`, found without calling its getter. */
function present(container: object, key: string): boolean {
  const descriptor = attempt(() => Object.getOwnPropertyDescriptor(container, key), undefined);
  return descriptor !== undefined && (descriptor.get !== undefined || descriptor.value !== undefined);
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && !Number.isNaN(value);
const isCount = (value: unknown): value is number => typeof value === 'number' && value >= 0;
const quote = (key: string): string => JSON.stringify(truncate(key, 60));
export const orList = (names: readonly string[]): string => names.slice(0, 10).join(' or ') + (names.length > 10 ? ' or …' : '');

/** The bounds `min`/`max` of a count: a string's characters, an array's items, an object's properties. */
function checkCount(sink: Sink, min: unknown, max: unknown, count: number, path: Path, one: string, many = `${one}s`): void {
  const plural = (bound: number) => `${bound} ${bound === 1 ? one : many}`;
  if (isCount(min) && count < min) report(sink, `expected at least ${plural(min)}, received ${count}`, path);
  if (isCount(max) && count > max) report(sink, `expected at most ${plural(max)}, received ${count}`, path);
}

function codePoints(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++, count++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
  }
  return count;
}

function allowedNames(properties: Schema | undefined, patterns: readonly string[]): string {
  const names = properties ? Object.keys(properties) : [];
  const shown = [...names.slice(0, 10).map(quote), ...patterns.slice(0, 3).map((pattern) => `names matching /${truncate(pattern, 40)}/`)];
  if (shown.length === 0) return 'no properties are allowed';
  return `allowed: ${shown.join(', ')}${names.length > 10 || patterns.length > 3 ? ', …' : ''}`;
}

function valueList(values: readonly unknown[]): string {
  return values.slice(0, 10).map((value) => brief(value)).join(', ') + (values.length > 10 ? `, … (${values.length} in all)` : '');
}

/** A short JSON-like rendering of schema data, bounded in work whatever its size (no JSON.stringify of the whole). */
function brief(value: unknown, depth = 0): string {
  if (typeof value === 'string') return JSON.stringify(truncate(value, 40));
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) {
    if (depth >= 2) return '[…]';
    return `[${value.slice(0, 5).map((item) => brief(item, depth + 1)).join(',')}${value.length > 5 ? ',…' : ''}]`;
  }
  if (depth >= 2) return '{…}';
  const parts: string[] = [];
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (parts.length === 5) {
      parts.push('…');
      break;
    }
    parts.push(`${quote(key)}:${brief((value as Schema)[key], depth + 1)}`);
  }
  return `{${parts.join(',')}}`;
}
