/**
 * The bounded JSON Schema validator behind `jsonSchema()`. It reads a schema snapshot (plain JSON data) and any value,
 * never throws, and never runs unbounded: every unit of work is charged to a step budget, recursion is bounded in
 * depth, and a value's getters are read inside `try`. A keyword whose value is malformed is ignored.
 *
 * This file holds the entry point (`createValidator`: one step budget and one issue list per validation) and the walker
 * that applies a subschema: its known keywords (read once), then the applicators `$ref`, `allOf`, `anyOf`, `oneOf` and
 * `not`, with local `$ref` resolution. The per-keyword checks are in `json-schema-keywords.ts`; the limits, the budget
 * and issue-sink primitives, the safe reads and the bounded `pattern` compilation are in `json-schema-bounds.ts`.
 */
import { truncate } from '../internal/json.js';
import { checkArray, checkKind, checkNumber, checkObject, checkString, orList } from './json-schema-keywords.js';
import {
  attempt,
  charge,
  fail,
  isRecord,
  JSON_SCHEMA_LIMITS,
  kindOf,
  report,
  UNREADABLE,
  type Context,
  type PatternCompiler,
  type Issue,
  type Key,
  type Path,
  type Schema,
  type Sink,
} from './json-schema-bounds.js';
import type { StandardSchemaV1 } from './standard-schema.js';

export { JSON_SCHEMA_LIMITS };

/**
 * What one validation found, and how much work it took.
 * @example `const { issues, steps } = createValidator(schema)(value)`
 */
export interface ValidationReport {
  /** Empty when the value is valid; at most {@link JSON_SCHEMA_LIMITS}.maxIssues. */
  readonly issues: StandardSchemaV1.Issue[];
  /** Units of work spent, never more than {@link JSON_SCHEMA_LIMITS}.maxSteps. */
  readonly steps: number;
}

const LIMITS = JSON_SCHEMA_LIMITS;
const MISSING = Symbol('missing');
const TYPE_NAMES = new Set(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string']);
const KEYWORDS = new Set([
  'type', 'nullable', 'enum', 'const', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum',
  'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems', 'uniqueItems', 'items', 'prefixItems', 'additionalItems',
  'minProperties', 'maxProperties', 'properties', 'patternProperties', 'additionalProperties', 'required', '$ref',
  'allOf', 'anyOf', 'oneOf', 'not',
]);

/**
 * A validator for a schema snapshot (plain JSON data: objects, arrays, primitives, never changed afterwards: what it
 * reads of each schema object is cached), testing `pattern`s with `regexFor` (`json-schema-bounds.ts`), or none when
 * it is undefined (a schema without patterns, such as the MCP client's: the app then bundles no pattern compiler).
 * Internal to `jsonSchema()`, which passes a frozen copy; exported for tests, which read `steps`.
 * @example `createValidator({ type: 'string' }, regexFor)(42).issues // [{ message: 'expected string, received number', path: [] }]`
 */
export function createValidator(root: unknown, regexFor: PatternCompiler | undefined): (value: unknown) => ValidationReport {
  const refs = new Map<string, unknown>();
  const patterns = new Map<string, RegExp | null>();
  const keywords = new WeakMap<object, Schema | null>();
  return (value) => {
    const ctx: Context = { root, refs, patterns, keywords, steps: 0, check, regexFor };
    const sink: Sink = { issues: [], cap: LIMITS.maxIssues, ctx };
    try {
      check(ctx, root, value, undefined, 0, 0, sink);
    } catch (error) {
      if (ctx.fatal) sink.issues.push({ message: ctx.fatal.message, at: ctx.fatal.path });
      else if (error !== sink) sink.issues.push({ message: 'could not be checked: the validator failed unexpectedly', at: undefined });
    }
    return { issues: sink.issues.map(({ message, at }) => ({ message, path: keysOf(at) })), steps: Math.min(ctx.steps, LIMITS.maxSteps) };
  };
}

function check(ctx: Context, schema: unknown, value: unknown, path: Path, depth: number, levels: number, sink: Sink): void {
  charge(ctx, 1);
  if (schema === true || !(schema === false || isRecord(schema))) return; // a malformed subschema is ignored
  if (depth > LIMITS.maxDepth) fail(ctx, `too deeply nested to check (more than ${LIMITS.maxDepth} levels)`, path);
  if (levels > LIMITS.maxSchemaLevels) {
    fail(ctx, `could not be checked: the schema nests more than ${LIMITS.maxSchemaLevels} levels here without going into the value (a circular "$ref"?)`, path);
  }
  if (schema === false) return report(sink, 'no value is allowed here (the schema is false)', path);
  const keywords = keywordsOf(ctx, schema);
  if (!keywords) return; // no keyword this validator knows: accepts
  if (value === UNREADABLE) return report(sink, 'could not be read (reading it threw an error)', path);
  const kind = kindOf(value);
  if (kind === 'unreadable') return report(sink, 'could not be read (inspecting it threw an error)', path);
  if (!(value === null && keywords.nullable === true)) checkKind(ctx, keywords, value, kind, path, sink);
  if (kind === 'string') checkString(ctx, keywords, value as string, path, sink);
  else if (kind === 'number') checkNumber(keywords, value as number, path, sink);
  else if (kind === 'array') checkArray(ctx, keywords, value as object, path, depth, sink);
  else if (kind === 'object') checkObject(ctx, keywords, value as object, path, depth, sink);
  checkApplicators(ctx, keywords, value, kind, path, depth, levels, sink);
}

/** The known keywords of a schema object, read once per validator (the snapshot is frozen). */
function keywordsOf(ctx: Context, schema: Schema): Schema | null {
  let keywords = ctx.keywords.get(schema);
  if (keywords === undefined) {
    const all = Object.keys(schema);
    const keys = all.filter((key) => KEYWORDS.has(key));
    const found: Schema = Object.create(null) as Schema;
    for (const key of keys) found[key] = schema[key];
    const type = found.type; // normalized once: a list of known type names, or absent when malformed
    const names: unknown[] = typeof type === 'string' ? [type] : Array.isArray(type) ? type : [];
    charge(ctx, all.length + names.length);
    if (names.length > 0 && names.every((name) => typeof name === 'string' && TYPE_NAMES.has(name))) {
      found.type = [...new Set(found.nullable === true ? [...names, 'null'] : names)];
    } else delete found.type;
    keywords = keys.length > 0 ? found : null;
    ctx.keywords.set(schema, keywords);
  }
  return keywords;
}

const ALTERNATIVES = ['anyOf', 'oneOf'] as const;

function checkApplicators(ctx: Context, schema: Schema, value: unknown, kind: string, path: Path, depth: number, levels: number, sink: Sink): void {
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const target = resolve(ctx, ref); // an unresolvable (remote, anchor) reference is ignored
    if (target !== MISSING) check(ctx, target, value, path, depth + 1, levels + 1, sink);
  }
  const allOf = schema.allOf;
  if (Array.isArray(allOf)) for (const part of allOf) check(ctx, part, value, path, depth + 1, levels + 1, sink);
  for (const keyword of ALTERNATIVES) {
    const alternatives = schema[keyword];
    if (!Array.isArray(alternatives) || alternatives.length === 0) continue;
    const failures: Issue[][] = [];
    const matches: number[] = [];
    for (let index = 0; index < alternatives.length && matches.length < (keyword === 'oneOf' ? 2 : 1); index++) {
      const issues = branch(ctx, alternatives[index], value, path, depth, levels, 2);
      if (issues.length === 0) matches.push(index);
      else failures.push(issues);
    }
    if (matches.length === 0) reportAlternatives(sink, keyword, failures, kind, path);
    else if (matches.length > 1) {
      report(sink, `must match exactly one of the oneOf schemas, but matches schemas ${(matches[0] ?? 0) + 1} and ${(matches[1] ?? 0) + 1}`, path);
    }
  }
  const not = schema.not;
  if ((typeof not === 'boolean' || isRecord(not)) && branch(ctx, not, value, path, depth, levels, 1).length === 0) {
    report(sink, 'must not match the schema in "not"', path);
  }
}

/** The issues of one alternative, collected apart (at most `cap`: enough to tell pass from fail). */
function branch(ctx: Context, schema: unknown, value: unknown, path: Path, depth: number, levels: number, cap: number): Issue[] {
  const sink: Sink = { issues: [], cap, ctx };
  charge(ctx, 2); // a branch costs about two plain steps
  try {
    check(ctx, schema, value, path, depth + 1, levels + 1, sink);
  } catch (error) {
    if (error !== sink) throw error;
  }
  return sink.issues;
}

function reportAlternatives(sink: Sink, keyword: string, failures: Issue[][], kind: string, path: Path): void {
  let merged: string[] | undefined = [];
  for (const issues of failures) {
    const first = issues[0];
    if (issues.length !== 1 || !first?.types || first.at !== path) {
      merged = undefined;
      break;
    }
    for (const type of first.types) if (!merged.includes(type)) merged.push(type);
  }
  if (merged) return report(sink, `expected ${orList(merged)}, received ${kind}`, path, merged);
  const shown = failures.slice(0, 3).map((issues, index) => {
    const first = issues[0] as Issue;
    let where = '';
    for (let node = first.at; node && node !== path; node = node.parent) where = `${typeof node.key === 'number' ? `[${node.key}]` : `.${node.key}`}${where}`;
    return `(${index + 1}) ${where === '' ? '' : `${where.replace(/^\./, '')}: `}${truncate(first.message, 100)}`;
  });
  report(sink, `must match ${keyword === 'anyOf' ? 'at least one' : 'exactly one'} of the ${keyword} schemas: ${shown.join('; ')}${failures.length > 3 ? '; …' : ''}`, path);
}

/** A local reference (`#`, `#/$defs/x`, `#/definitions/x`, any JSON Pointer into the root), or MISSING. */
function resolve(ctx: Context, ref: string): unknown {
  if (ctx.refs.has(ref)) return ctx.refs.get(ref);
  let node: unknown = ref === '#' || ref.startsWith('#/') ? ctx.root : MISSING;
  charge(ctx, Math.ceil(ref.length / 16));
  for (const raw of ref.startsWith('#/') ? ref.slice(2).split('/') : []) {
    const key = attempt(() => decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~'), undefined);
    if (key !== undefined && isRecord(node) && Object.hasOwn(node, key)) node = node[key];
    else if (key !== undefined && Array.isArray(node) && /^(0|[1-9]\d{0,9})$/.test(key) && Number(key) < node.length) node = node[Number(key)];
    else node = MISSING;
    if (node === MISSING) break;
  }
  const target = typeof node === 'boolean' || isRecord(node) ? node : MISSING;
  ctx.refs.set(ref, target);
  return target;
}

function keysOf(path: Path): Key[] {
  const keys: Key[] = [];
  for (let node = path; node; node = node.parent) keys.push(node.key);
  return keys.reverse();
}
