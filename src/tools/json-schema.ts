/** `jsonSchema()`: a Standard Schema made from a plain JSON Schema; the validator is in `json-schema-validate.ts`. */
import { ConfigError } from '../errors/config-error.js';
import { defineData, isPlainObject } from '../internal/json.js';
import { attempt, regexFor, type PatternCompiler } from './json-schema-bounds.js';
import { createValidator, JSON_SCHEMA_LIMITS } from './json-schema-validate.js';
import type { JSONSchema, StandardSchemaV1 } from './standard-schema.js';

export { JSON_SCHEMA_LIMITS };

/**
 * Options of {@link jsonSchema}.
 * @example `jsonSchema(serverSchema, { validate: false }) // the server checks its own arguments`
 */
export interface JSONSchemaOptions {
  /** Check values against the schema (`false`: accept every value, e.g. when the server validates). @default true */
  validate?: boolean | undefined;
}

/**
 * A Standard Schema made from a plain JSON Schema, for tools whose schema is not written in zod: one a remote MCP
 * server sent, or a script-tag user's literal. `~standard.jsonSchema.input()` gives a deep copy of the schema (without
 * `$schema`); `~standard.validate` checks values synchronously with a bounded validator that never throws and never
 * hangs, whatever the schema or the value (untrusted schemas are expected).
 *
 * Checked keywords (draft 2020-12 and draft-07): `type` (`integer` is `Number.isInteger`), `enum`, `const`,
 * `properties`, `required`, `additionalProperties`, `patternProperties`, `minProperties`/`maxProperties`, `items`
 * (a schema, or draft-07's tuple array with `additionalItems`), `prefixItems`, `minItems`/`maxItems`, `uniqueItems`,
 * `minLength`/`maxLength` (in code points), `pattern`, `minimum`/`maximum`/`exclusiveMinimum`/`exclusiveMaximum`
 * (number and draft-04 boolean forms), `multipleOf` (with a few ulps of tolerance), `allOf`/`anyOf`/`oneOf`/`not`,
 * boolean schemas, OpenAPI's `nullable: true`, and local `$ref`s (`#`, `#/$defs/…`, `#/definitions/…`). Other keywords
 * (`format`, `if`, `propertyNames`…), remote `$ref`s and malformed keyword values are ignored: they accept.
 *
 * Bounds ({@link JSON_SCHEMA_LIMITS}), each reported as an issue: 100 issues, 256 nested levels, 64 levels of
 * `$ref`/`allOf`/`anyOf`/`oneOf`/`not` without going into the value (so `{"$ref": "#"}` ends), 1,000,000 steps of work.
 *
 * `pattern` is a ReDoS risk when the server is untrusted (a RegExp cannot be interrupted), so it is only tested when
 * it compiles with the `u` flag, is at most 256 characters, has no repeated group holding a quantifier or an
 * alternation (`(a+)+`, `(a|aa)*`: the shapes of exponential backtracking), and the string is at most 10,000
 * characters; otherwise it is ignored. Polynomial backtracking (`\d+\d+\d+x`) within those bounds remains possible:
 * pass `validate: false` for servers you do not trust to send sane patterns.
 *
 * Throws `ConfigError` when `schema` is not a JSON Schema object or a boolean, contains an object cycle (use `$ref`),
 * or `options` is malformed. The schema is copied once (iteratively: any depth), so later changes to it have no effect;
 * the copy is what JSON would hold (a `BigInt` becomes the number it holds, `Infinity` becomes `null`).
 *
 * @example
 * ```ts
 * const getWeather = defineTool({
 *   name: 'get_weather',
 *   description: 'Current weather for a city.',
 *   parameters: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
 *   execute: ({ city }) => ({ city, temperature: 21 }),
 * });
 * // runTool(getWeather, '{"city": 42}') → InputValidationError: city: expected string, received number (sent: 42)
 * ```
 */
export function jsonSchema<T = unknown>(
  schema: JSONSchema | boolean,
  options?: JSONSchemaOptions,
): StandardSchemaV1<unknown, T> & { readonly jsonSchema: JSONSchema } {
  return patternedJSONSchema<T>(regexFor, schema, options);
}

/**
 * @internal {@link jsonSchema}, its validator testing `pattern`s with `patterns` — or with none, for a schema that has
 * none left (the MCP client's, `withoutPatterns`): an app that makes only such schemas bundles no pattern compiler.
 */
export function patternedJSONSchema<T = unknown>(
  patterns: PatternCompiler | undefined,
  schema: JSONSchema | boolean,
  options?: JSONSchemaOptions,
): StandardSchemaV1<unknown, T> & { readonly jsonSchema: JSONSchema } {
  const problems: string[] = [];
  let snapshot: JSONSchema | undefined;
  if (schema === true) snapshot = Object.freeze({});
  else if (schema === false) snapshot = Object.freeze({ not: Object.freeze({}) });
  else if (isPlainObject(schema)) {
    snapshot = copyJSON(schema, true);
    if (!snapshot) problems.push('the schema contains a cycle (an object inside itself): JSON Schema must be JSON data; use "$ref" for recursion');
  } else problems.push(`the schema must be a JSON Schema object or a boolean (got ${describe(schema)})`);
  let validate: unknown;
  if (options !== undefined && !isPlainObject(options)) problems.push(`options must be an object (got ${describe(options)})`);
  else if ((validate = options?.validate) !== undefined && typeof validate !== 'boolean') problems.push(`options.validate must be true or false (got ${describe(validate)})`);
  if (problems.length > 0 || !snapshot) throw ConfigError.fromProblems('JSON Schema', problems);
  const frozen = snapshot;
  const validator = validate === false ? undefined : createValidator(frozen, patterns);
  const copy = () => copyJSON(frozen, false) as Record<string, unknown>;
  const standard: StandardSchemaV1.Props<unknown, T> = Object.freeze({
    version: 1 as const,
    vendor: 'faultline',
    validate: (value: unknown): StandardSchemaV1.Result<T> => {
      const issues = validator?.(value).issues ?? [];
      return issues.length > 0 ? { issues } : { value: value as T };
    },
    jsonSchema: Object.freeze({ input: copy, output: copy }),
  });
  return Object.freeze({ '~standard': standard, jsonSchema: frozen });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object that is not plain data' : typeof value;
}

interface Frame {
  source: object;
  target: Record<string, unknown> | unknown[];
  keys: readonly string[] | undefined;
  length: number;
  index: number;
}

/**
 * A deep copy of JSON data, iterative (any depth), with JSON's rules: `undefined`, functions, symbols, BigInts and
 * objects that are not plain are dropped (`null` in arrays), non-finite numbers become `null`, a throwing getter drops
 * its key, the root's `$schema` is left out, and shared objects stay shared. `undefined` when it holds a cycle.
 */
function copyJSON(root: object, freeze: boolean): JSONSchema | undefined {
  const copies = new Map<object, Frame['target']>();
  const open = new Set<object>();
  const stack: Frame[] = [];
  const enter = (source: object): Frame['target'] => {
    const array = isArray(source); // a revoked Proxy: an empty object
    const target: Frame['target'] = array ? [] : {};
    let keys: readonly string[] = [];
    let length = 0;
    try {
      if (array) length = Math.min(Number((source as unknown[]).length) || 0, 2 ** 32 - 1);
      else keys = Object.keys(source);
    } catch {
      // unreadable: copied empty
    }
    copies.set(source, target);
    open.add(source);
    stack.push({ source, target, keys: array ? undefined : keys, length: array ? length : keys.length, index: 0 });
    return target;
  };
  const rootCopy = enter(root) as JSONSchema;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.index >= frame.length) {
      stack.pop();
      open.delete(frame.source);
      if (freeze) Object.freeze(frame.target);
      continue;
    }
    const index = frame.index++;
    const key = frame.keys ? (frame.keys[index] as string) : index;
    if (frame.source === root && key === '$schema') continue;
    let item: unknown;
    try {
      item = (frame.source as Record<string | number, unknown>)[key];
    } catch {
      item = undefined; // a throwing getter
    }
    let copied: unknown;
    if (item === null || typeof item === 'string' || typeof item === 'boolean') copied = item;
    else if (typeof item === 'number') copied = Number.isFinite(item) ? item : null;
    else if (typeof item === 'bigint') copied = Number(item); // JSON has one number type: `maximum: 10n` means 10, never nothing
    else if (typeof item === 'object' && copies.has(item)) {
      if (open.has(item)) return undefined;
      copied = copies.get(item);
    } else if (typeof item === 'object' && (isPlainObject(item) || isArray(item))) copied = enter(item);
    if (Array.isArray(frame.target)) frame.target.push(copied === undefined ? null : copied);
    else if (copied !== undefined) defineData(frame.target, key as string, copied);
  }
  return rootCopy;
}

function isArray(value: object): boolean {
  return attempt(() => Array.isArray(value), false);
}
