import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { JSON_SCHEMA_LIMITS, jsonSchema } from '../../src/tools/json-schema.js';
import { regexFor } from '../../src/tools/json-schema-bounds.js';
import { createValidator } from '../../src/tools/json-schema-validate.js';
import { defineTool, InputValidationError, runTool, type StandardSchemaV1 } from '../../src/tools/index.js';
import { nested } from '../helpers/hostile-values.js';

type Issue = { message: string; path: ReadonlyArray<PropertyKey> };

/** The issues of one synchronous validation ([] when valid). */
function issuesOf(schema: Record<string, unknown> | boolean, value: unknown): Issue[] {
  const result = jsonSchema(schema)['~standard'].validate(value);
  if (result instanceof Promise) throw new Error('validate must be synchronous');
  return (result.issues ?? []).map((issue) => ({ message: issue.message, path: issue.path as PropertyKey[] }));
}

const ok = (schema: Record<string, unknown> | boolean, ...values: unknown[]) => {
  values.forEach((value, index) => expect(issuesOf(schema, value), `value #${index}`).toEqual([]));
};
const bad = (schema: Record<string, unknown> | boolean, value: unknown, ...expected: Array<[string, Array<string | number>]>) =>
  expect(issuesOf(schema, value)).toEqual(expected.map(([message, path]) => ({ message, path })));

describe('jsonSchema(): the Standard Schema', () => {
  const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

  it('is a faultline Standard Schema v1 whose JSON Schema is a deep copy without $schema', () => {
    const standard = jsonSchema(schema);
    expect(standard['~standard'].vendor).toBe('faultline');
    expect(standard['~standard'].version).toBe(1);
    const input = standard['~standard'].jsonSchema?.input({ target: 'draft-2020-12' });
    const output = standard['~standard'].jsonSchema?.output({ target: 'draft-07' });
    const expected = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    expect(input).toEqual(expected);
    expect(output).toEqual(expected);
    expect(standard.jsonSchema).toEqual(expected);
    expect(input).not.toBe(output);
    (input as { properties: { city: Record<string, unknown> } }).properties.city.type = 'number';
    expect(standard['~standard'].jsonSchema?.input({ target: 'draft-2020-12' })).toEqual(expected);
    expect(schema.$schema).toBeDefined(); // the caller's object is not touched
  });

  it('takes a snapshot: later changes to the caller object change neither the schema nor validation', () => {
    const mutable = { type: 'object', properties: { n: { type: 'number' } } };
    const standard = jsonSchema(mutable);
    mutable.properties.n.type = 'string';
    expect(standard.jsonSchema).toEqual({ type: 'object', properties: { n: { type: 'number' } } });
    expect(issuesOf(mutable, { n: 1 })).toHaveLength(1);
    expect(standard['~standard'].validate({ n: 1 })).toEqual({ value: { n: 1 } });
    expect(Object.isFrozen(standard.jsonSchema)).toBe(true);
    expect(Object.isFrozen((standard.jsonSchema.properties as Record<string, unknown>).n)).toBe(true);
  });

  it('returns { value } (the same value) when valid and { issues } when not, synchronously', () => {
    const value = { city: 'Paris' };
    const result = jsonSchema(schema)['~standard'].validate(value) as StandardSchemaV1.SuccessResult<unknown>;
    expect(result.value).toBe(value);
    expect(result.issues).toBeUndefined();
    expect(jsonSchema(schema)['~standard'].validate({})).toEqual({ issues: [{ message: 'missing required property "city"', path: ['city'] }] });
  });

  it('accepts boolean schemas: true is {} and false is {"not": {}}', () => {
    expect(jsonSchema(true).jsonSchema).toEqual({});
    expect(jsonSchema(false).jsonSchema).toEqual({ not: {} });
    ok(true, 1, null, 'x', {});
    bad(false, 1, ['must not match the schema in "not"', []]);
  });

  it('with validate: false accepts every value', () => {
    const standard = jsonSchema(schema, { validate: false });
    expect(standard['~standard'].validate(42)).toEqual({ value: 42 });
    expect(standard['~standard'].validate({ city: 7 })).toEqual({ value: { city: 7 } });
    expect(standard.jsonSchema).toEqual({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    expect(jsonSchema(schema, { validate: true })['~standard'].validate(42)).toHaveProperty('issues');
  });

  it('throws a ConfigError for a schema that is not an object or a boolean, listing every problem', () => {
    for (const wrong of [null, undefined, 42, 'object', [], [{ type: 'string' }], new Date(0)]) {
      let caught: unknown;
      try {
        jsonSchema(wrong as never);
      } catch (error) {
        caught = error;
      }
      expect(ConfigError.isInstance(caught), String(wrong)).toBe(true);
      expect((caught as ConfigError).problems[0]).toMatch(/^the schema must be a JSON Schema object or a boolean \(got /);
    }
    let caught: unknown;
    try {
      jsonSchema(7 as never, { validate: 'yes' as never });
    } catch (error) {
      caught = error;
    }
    expect((caught as ConfigError).problems).toEqual(['the schema must be a JSON Schema object or a boolean (got number)', 'options.validate must be true or false (got string)']);
    expect(() => jsonSchema({}, 5 as never)).toThrow(/options must be an object/);
  });

  it('throws a ConfigError for a schema holding an object cycle, but keeps shared objects shared', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    expect(() => jsonSchema(cyclic)).toThrow(/the schema contains a cycle/);
    const shared = { type: 'string' };
    const standard = jsonSchema({ properties: { a: shared, b: shared } });
    const properties = standard.jsonSchema.properties as Record<string, unknown>;
    expect(properties.a).toBe(properties.b);
    bad({ properties: { a: shared, b: shared } }, { a: 1, b: 2 }, ['expected string, received number', ['a']], ['expected string, received number', ['b']]);
  });

  it('copies with JSON rules: no functions, undefined, non-finite numbers, throwing getters; a BigInt as its number; __proto__ stays data', () => {
    const source = JSON.parse('{"properties": {"__proto__": {"type": "string"}}, "enum": [1, 2]}') as Record<string, unknown>;
    Object.assign(source, { f: () => 1, u: undefined, big: 1n, inf: Infinity, list: [undefined, () => 1, NaN, 1] });
    Object.defineProperty(source, 'boom', { enumerable: true, get: () => { throw new Error('no'); } });
    const copy = jsonSchema(source).jsonSchema;
    expect(Object.keys(copy).sort()).toEqual(['big', 'enum', 'inf', 'list', 'properties']);
    expect(copy.big).toBe(1);
    expect(copy.inf).toBeNull();
    expect(copy.list).toEqual([null, null, null, 1]);
    expect(Object.hasOwn(copy.properties as object, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(copy.properties)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });

  it('a BigInt bound is kept as the number it holds, and enforced (it was dropped: the bound was silently gone)', () => {
    const schema = jsonSchema({ type: 'object', properties: { count: { type: 'integer', minimum: 1n, maximum: 10n } } } as never);
    expect(schema.jsonSchema).toEqual({ type: 'object', properties: { count: { type: 'integer', minimum: 1, maximum: 10 } } });
    bad({ type: 'object', properties: { count: { type: 'integer', maximum: 10n } } } as never, { count: 50 }, ['expected a number <= 10, received 50', ['count']]);
  });

  it('copies a schema nested 100,000 levels deep without overflowing the stack', () => {
    const deep = nested(100_000, { type: 'string' }) as Record<string, unknown>;
    const standard = jsonSchema(deep);
    let node: unknown = standard['~standard'].jsonSchema?.input({ target: 'draft-07' });
    let levels = 0;
    while (typeof node === 'object' && node !== null && 'a' in node) {
      node = (node as { a: unknown }).a;
      levels++;
    }
    expect(levels).toBe(100_000);
    expect(node).toEqual({ type: 'string' });
  });
});

describe('jsonSchema(): keywords', () => {
  it('type: each JSON type, integer as Number.isInteger, arrays of types', () => {
    ok({ type: 'string' }, '', 'x');
    ok({ type: 'number' }, 0, -1.5, 1e300);
    ok({ type: 'integer' }, 0, -3, 1.0, 2 ** 60);
    ok({ type: 'boolean' }, true, false);
    ok({ type: 'null' }, null);
    ok({ type: 'array' }, [], [1]);
    ok({ type: 'object' }, {}, { a: 1 });
    ok({ type: ['string', 'null'] }, 'x', null);
    bad({ type: 'integer' }, '5', ['expected integer, received string', []]);
    bad({ type: 'integer' }, 1.5, ['expected integer, received number', []]);
    bad({ type: 'string' }, null, ['expected string, received null', []]);
    bad({ type: 'object' }, [], ['expected object, received array', []]);
    bad({ type: 'array' }, {}, ['expected array, received object', []]);
    bad({ type: 'null' }, undefined, ['expected null, received undefined', []]);
    bad({ type: 'number' }, 1n, ['expected number, received bigint', []]);
    bad({ type: ['string', 'null'] }, 3, ['expected string or null, received number', []]);
    bad({ type: ['string', 'string'] }, 3, ['expected string, received number', []]);
  });

  it('type: malformed values are ignored', () => {
    ok({ type: 42 }, 1, 'x');
    ok({ type: ['string', 42] }, 1);
    ok({ type: 'any' }, 1);
    ok({ type: [] }, 1);
    ok({ type: null }, 1);
  });

  it('nullable: true (OpenAPI) also accepts null', () => {
    ok({ type: 'string', nullable: true }, 'x', null);
    ok({ type: 'string', enum: ['a'], nullable: true }, null, 'a');
    bad({ type: 'string', nullable: true }, 1, ['expected string or null, received number', []]);
    bad({ type: 'string', nullable: false }, null, ['expected string, received null', []]);
    bad({ type: 'string', nullable: 'yes' }, null, ['expected string, received null', []]);
  });

  it('enum: deep equality, a bounded list in the message', () => {
    ok({ enum: ['a', 'b'] }, 'a', 'b');
    ok({ enum: [{ x: [1, 2] }, null] }, { x: [1, 2] }, null);
    bad({ enum: ['a', 'b'] }, 'c', ['must be one of "a", "b"', []]);
    bad({ enum: [1, '1'] }, true, ['must be one of 1, "1"', []]);
    bad({ enum: [{ x: [1, 2] }] }, { x: [2, 1] }, ['must be one of {"x":[1,2]}', []]);
    bad({ enum: [{ x: 1 }] }, { x: 1, y: 2 }, ['must be one of {"x":1}', []]);
    bad({ enum: [] }, 1, ['no value is allowed here (the enum is empty)', []]);
    const many = Array.from({ length: 12 }, (_, index) => index);
    bad({ enum: many }, 'x', ['must be one of 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, … (12 in all)', []]);
    ok({ enum: 'ab' }, 'c');
    expect(issuesOf({ enum: ['x'.repeat(1_000)] }, 'y')[0]?.message.length).toBeLessThan(80);
  });

  it('const: deep equality, including null and objects', () => {
    ok({ const: 'x' }, 'x');
    ok({ const: null }, null);
    ok({ const: { a: [1, { b: true }] } }, { a: [1, { b: true }] });
    bad({ const: 'x' }, 'y', ['must be "x"', []]);
    bad({ const: null }, 0, ['must be null', []]);
    bad({ const: 0 }, '0', ['must be 0', []]);
    bad({ const: [1, 2] }, [1, 2, 3], ['must be [1,2]', []]);
    bad({ const: { a: 1 } }, { b: 1 }, ['must be {"a":1}', []]);
    ok({ const: 0 }, -0);
  });

  it('properties and required: nested paths, the missing key in the path', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] };
    ok(schema, { city: 'Paris' }, { city: 'Paris', days: 3, extra: true });
    bad(schema, {}, ['missing required property "city"', ['city']]);
    bad(schema, { city: 42, days: 'x' }, ['expected string, received number', ['city']], ['expected integer, received string', ['days']]);
    bad({ properties: { a: { properties: { b: { type: 'string' } } } } }, { a: { b: 1 } }, ['expected string, received number', ['a', 'b']]);
    bad({ required: ['a', 'b'] }, {}, ['missing required property "a"', ['a']], ['missing required property "b"', ['b']]);
    ok({ required: ['a'] }, 'not an object', [1]);
    bad({ required: ['a'] }, { a: undefined }, ['missing required property "a"', ['a']]);
  });

  it('properties, required: malformed values are ignored', () => {
    ok({ properties: null }, { a: 1 });
    ok({ properties: [{ type: 'string' }] }, { 0: 1 });
    ok({ properties: { a: 42 } }, { a: 1 });
    ok({ required: 'x' }, {});
    ok({ required: [1, null] }, {});
  });

  it('required: inherited names are not present (own properties only)', () => {
    bad({ required: ['toString', 'constructor', '__proto__'] }, {}, ['missing required property "toString"', ['toString']], ['missing required property "constructor"', ['constructor']], ['missing required property "__proto__"', ['__proto__']]);
    ok({ required: ['__proto__', 'constructor'] }, JSON.parse('{"__proto__": 1, "constructor": 2}'));
  });

  it('__proto__ and constructor keys are data in the value and in the schema', () => {
    const schema = JSON.parse('{"properties": {"__proto__": {"type": "string"}, "constructor": {"type": "integer"}}, "additionalProperties": false}') as Record<string, unknown>;
    ok(schema, JSON.parse('{"__proto__": "x", "constructor": 1}'), {});
    bad(schema, JSON.parse('{"__proto__": 5, "constructor": "x"}'), ['expected string, received number', ['__proto__']], ['expected integer, received string', ['constructor']]);
    bad({ additionalProperties: false }, JSON.parse('{"__proto__": {"polluted": true}}'), ['unexpected property "__proto__" (no properties are allowed)', ['__proto__']]);
    bad({ properties: { a: { type: 'string' } } }, JSON.parse('{"a": 1, "toString": 2}'), ['expected string, received number', ['a']]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('additionalProperties: false names the property and what is allowed; a schema checks the others', () => {
    const closed = { properties: { city: {}, days: {} }, additionalProperties: false };
    ok(closed, { city: 1, days: 2 });
    bad(closed, { city: 1, country: 'FR' }, ['unexpected property "country" (allowed: "city", "days")', ['country']]);
    bad({ properties: { a: {} }, additionalProperties: { type: 'number' } }, { a: 'x', b: 1, c: 'y' }, ['expected number, received string', ['c']]);
    ok({ additionalProperties: true }, { any: 1 });
    ok({ additionalProperties: 'no' }, { any: 1 });
  });

  it('patternProperties: matching names are checked and are not additional', () => {
    const schema = { properties: { id: {} }, patternProperties: { '^x-': { type: 'string' } }, additionalProperties: false };
    ok(schema, { id: 1, 'x-trace': 'abc' });
    bad(schema, { 'x-trace': 1, other: 1 }, ['expected string, received number', ['x-trace']], ['unexpected property "other" (allowed: "id", names matching /^x-/)', ['other']]);
    ok({ patternProperties: { '(': { type: 'string' } }, additionalProperties: false }, { anything: 1 }); // unusable pattern: lenient
  });

  it('minProperties / maxProperties', () => {
    ok({ minProperties: 1, maxProperties: 2 }, { a: 1 }, { a: 1, b: 2 });
    bad({ minProperties: 1 }, {}, ['expected at least 1 property, received 0', []]);
    bad({ maxProperties: 2 }, { a: 1, b: 2, c: 3 }, ['expected at most 2 properties, received 3', []]);
    ok({ minProperties: -1, maxProperties: 'x' }, {});
  });

  it('items (a schema) and the draft-07 tuple form with additionalItems', () => {
    ok({ items: { type: 'integer' } }, [], [1, 2]);
    bad({ items: { type: 'integer' } }, [1, 'x', 2.5], ['expected integer, received string', [1]], ['expected integer, received number', [2]]);
    const tuple = { items: [{ type: 'string' }, { type: 'number' }] };
    ok(tuple, ['a', 1], ['a', 1, true], ['a']);
    bad(tuple, [1, 'a'], ['expected string, received number', [0]], ['expected number, received string', [1]]);
    bad({ ...tuple, additionalItems: false }, ['a', 1, true], ['expected at most 2 items, received 3', []]);
    bad({ ...tuple, additionalItems: { type: 'boolean' } }, ['a', 1, 'x'], ['expected boolean, received string', [2]]);
    bad({ items: false }, [1], ['expected at most 0 items, received 1', []]);
    ok({ items: false }, []);
    ok({ items: 5 }, [1]);
  });

  it('prefixItems with items for the rest (2020-12)', () => {
    const schema = { prefixItems: [{ const: 'point' }, { type: 'number' }], items: { type: 'number' } };
    ok(schema, ['point', 1, 2, 3], ['point']);
    bad(schema, ['line', 1, 'x'], ['must be "point"', [0]], ['expected number, received string', [2]]);
    bad({ prefixItems: [{}], items: false }, [1, 2], ['expected at most 1 item, received 2', []]);
    bad({ prefixItems: [false] }, [1], ['no value is allowed here (the schema is false)', [0]]);
  });

  it('minItems / maxItems / uniqueItems', () => {
    ok({ minItems: 1, maxItems: 2 }, [1], [1, 2]);
    bad({ minItems: 2 }, [1], ['expected at least 2 items, received 1', []]);
    bad({ maxItems: 1 }, [1, 2], ['expected at most 1 item, received 2', []]);
    ok({ uniqueItems: true }, [1, '1', true, null, { a: 1 }, { a: 2 }, [1], [[1]]]);
    bad({ uniqueItems: true }, [1, 2, 1], ['expected unique items, but items 0 and 2 are equal', []]);
    bad({ uniqueItems: true }, [{ a: [1] }, { a: [1] }], ['expected unique items, but items 0 and 1 are equal', []]);
    ok({ uniqueItems: false }, [1, 1]);
  });

  it('minLength / maxLength count code points', () => {
    ok({ minLength: 2, maxLength: 2 }, 'ab', '😀😀', 'é!');
    bad({ minLength: 2 }, '😀', ['expected at least 2 characters, received 1', []]);
    bad({ maxLength: 1 }, 'ab', ['expected at most 1 character, received 2', []]);
    ok({ minLength: 5 }, 12345);
  });

  it('pattern: unicode RegExp; one that does not compile, a long one, or a nested quantifier is ignored', () => {
    ok({ pattern: '^[a-z]+$' }, 'abc');
    bad({ pattern: '^[a-z]+$' }, 'aBc', ['must match the pattern /^[a-z]+$/', []]);
    bad({ pattern: '^\\p{Lu}' }, 'a', ['must match the pattern /^\\p{Lu}/', []]);
    ok({ pattern: '^.$' }, '😀');
    ok({ pattern: '(' }, 'x');
    ok({ pattern: '\\-' }, 'x'); // an identity escape is a syntax error with the u flag
    ok({ pattern: `^${'a'.repeat(257)}$` }, 'b');
    bad({ pattern: `^${'a'.repeat(250)}$` }, 'b', [`must match the pattern /^${'a'.repeat(250)}$/`, []]);
    ok({ pattern: '^a' }, `b${'x'.repeat(10_000)}`); // longer than 10,000: not tested
    bad({ pattern: '^a' }, `b${'x'.repeat(9_998)}`, ['must match the pattern /^a/', []]);
    ok({ pattern: '^(a+)+$' }, `${'a'.repeat(40)}!`); // would backtrack for hours
    ok({ pattern: '^(a|aa)*$' }, `${'a'.repeat(40)}!`);
    ok({ pattern: '^(?:\\d+){3}$' }, 'x');
    bad({ pattern: '^(?:ab)+$' }, 'abx', ['must match the pattern /^(?:ab)+$/', []]);
    bad({ pattern: '^(?<year>\\d{4})-(\\+|-)?\\d$' }, '20x', ['must match the pattern /^(?<year>\\d{4})-(\\+|-)?\\d$/', []]);
    ok({ pattern: 42 }, 'x');
    ok({ pattern: '^a$' }, 5);
  });

  it('a validator made without a pattern compiler tests no pattern (every one unusable), and checks the rest', () => {
    const schema = { type: 'object', properties: { q: { type: 'string', pattern: '^a$', maxLength: 2 } }, patternProperties: { '^x': { type: 'number' } }, additionalProperties: false };
    expect(createValidator(schema, undefined)({ q: 'b', x1: 'not a number', other: 1 }).issues).toEqual([]);
    expect(createValidator(schema, undefined)({ q: 'bbb' }).issues).toEqual([{ message: 'expected at most 2 characters, received 3', path: ['q'] }]);
    expect(createValidator(schema, regexFor)({ q: 'b', x1: 'not a number' }).issues.map((issue) => issue.message)).toEqual(['must match the pattern /^a$/', 'expected number, received string']);
  });

  it('minimum / maximum / exclusiveMinimum / exclusiveMaximum, number and draft-04 boolean forms', () => {
    ok({ minimum: 1, maximum: 3 }, 1, 2, 3);
    bad({ minimum: 1 }, 0, ['expected a number >= 1, received 0', []]);
    bad({ maximum: 3 }, 3.5, ['expected a number <= 3, received 3.5', []]);
    bad({ exclusiveMinimum: 1 }, 1, ['expected a number > 1, received 1', []]);
    bad({ exclusiveMaximum: 3 }, 3, ['expected a number < 3, received 3', []]);
    ok({ exclusiveMinimum: 1, exclusiveMaximum: 3 }, 2);
    bad({ minimum: 1, exclusiveMinimum: true }, 1, ['expected a number > 1, received 1', []]);
    bad({ maximum: 3, exclusiveMaximum: true }, 3, ['expected a number < 3, received 3', []]);
    ok({ minimum: 1, exclusiveMinimum: false }, 1);
    ok({ exclusiveMinimum: true }, -100);
    ok({ minimum: '1', maximum: null }, -5);
    ok({ minimum: 10 }, 'not a number');
  });

  it('multipleOf, with a tolerance for binary floating point', () => {
    ok({ multipleOf: 3 }, 0, 9, -6);
    ok({ multipleOf: 0.01 }, 19.99, 0.3);
    ok({ multipleOf: 0.1 }, 0.3, 0.7);
    bad({ multipleOf: 3 }, 10, ['expected a multiple of 3, received 10', []]);
    bad({ multipleOf: 0.01 }, 0.015, ['expected a multiple of 0.01, received 0.015', []]);
    ok({ multipleOf: 0 }, 1);
    ok({ multipleOf: -2 }, 1);
  });

  it('allOf: every schema, every issue', () => {
    ok({ allOf: [{ type: 'integer' }, { minimum: 1 }] }, 2);
    bad({ allOf: [{ type: 'integer' }, { minimum: 1 }] }, 0.5, ['expected integer, received number', []], ['expected a number >= 1, received 0.5', []]);
  });

  it('anyOf: type alternatives merge; others are summarized', () => {
    ok({ anyOf: [{ type: 'string' }, { type: 'null' }] }, 'x', null);
    bad({ anyOf: [{ type: 'string' }, { type: 'null' }] }, 1, ['expected string or null, received number', []]);
    bad(
      { anyOf: [{ type: 'string', minLength: 3 }, { type: 'object', required: ['id'] }] },
      { name: 'x' },
      ['must match at least one of the anyOf schemas: (1) expected string, received object; (2) id: missing required property "id"', []],
    );
    bad({ properties: { n: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] } } }, { n: 'x' }, ['expected integer or boolean, received string', ['n']]);
    ok({ anyOf: [] }, 1);
  });

  it('oneOf: exactly one', () => {
    const schema = { oneOf: [{ type: 'integer' }, { minimum: 2 }] };
    ok(schema, 1, 2.5);
    bad(schema, 3, ['must match exactly one of the oneOf schemas, but matches schemas 1 and 2', []]);
    bad(schema, 0.5, ['must match exactly one of the oneOf schemas: (1) expected integer, received number; (2) expected a number >= 2, received 0.5', []]);
  });

  it('not', () => {
    ok({ not: { type: 'string' } }, 1);
    bad({ not: { type: 'string' } }, 'x', ['must not match the schema in "not"', []]);
    bad({ not: {} }, 1, ['must not match the schema in "not"', []]);
    ok({ not: false }, 1);
  });

  it('boolean subschemas', () => {
    bad({ properties: { gone: false } }, { gone: 1 }, ['no value is allowed here (the schema is false)', ['gone']]);
    ok({ properties: { gone: false, any: true } }, { any: [1] });
  });

  it('$ref to #/$defs and #/definitions, JSON Pointer escapes, recursion through the value', () => {
    const schema = {
      $defs: { city: { type: 'string', minLength: 1 }, 'a/b~c': { type: 'integer' } },
      definitions: { node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/definitions/node' } } }, required: ['name'] } },
      properties: { city: { $ref: '#/$defs/city' }, escaped: { $ref: '#/$defs/a~1b~0c' }, tree: { $ref: '#/definitions/node' } },
    };
    ok(schema, { city: 'Paris', escaped: 3, tree: { name: 'root', children: [{ name: 'leaf', children: [] }] } });
    bad(
      schema,
      { city: '', escaped: 'x', tree: { name: 'root', children: [{ children: [] }] } },
      ['expected at least 1 character, received 0', ['city']],
      ['expected integer, received string', ['escaped']],
      ['missing required property "name"', ['tree', 'children', 0, 'name']],
    );
    bad({ $ref: '#/$defs/x', $defs: { x: { type: 'string' } }, minLength: 2 }, 'a', ['expected at least 2 characters, received 1', []]); // siblings apply (2020-12)
  });

  it('$ref: unresolvable, remote or malformed references are ignored', () => {
    ok({ $ref: '#/$defs/missing' }, 1);
    ok({ $ref: 'https://example.com/schema.json' }, 1);
    ok({ $ref: '#anchor' }, 1);
    ok({ $ref: '#/%E0%A4%A' }, 1);
    ok({ $ref: 42 }, 1);
    ok({ $ref: '#/type' , type: 'string' }, 'x'); // resolves to a string, not a schema
  });

  it('$ref: a circular reference that never reaches into the value ends with an issue', () => {
    const [issue] = issuesOf({ $ref: '#' }, 1);
    expect(issue).toEqual({ message: expect.stringMatching(/^could not be checked: the schema nests more than 64 levels here without going into the value/), path: [] });
    expect(issuesOf({ $defs: { a: { $ref: '#/$defs/b' }, b: { anyOf: [{ $ref: '#/$defs/a' }] } }, properties: { x: { $ref: '#/$defs/a' } } }, { x: 1 })).toEqual([
      { message: expect.stringContaining('more than 64 levels'), path: ['x'] },
    ]);
  });

  it('ignores unknown keywords and format', () => {
    ok({ format: 'email', 'x-custom': { type: 'string' }, if: { type: 'string' }, then: false, propertyNames: false }, 'not an email', { a: 1 });
  });
});

describe('jsonSchema(): bounds and hostile input', () => {
  it('reports at most 100 issues', () => {
    const value = Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`k${index}`, 'x']));
    const issues = issuesOf({ additionalProperties: { type: 'number' } }, value);
    expect(issues).toHaveLength(JSON_SCHEMA_LIMITS.maxIssues);
    expect(issues[99]).toEqual({ message: 'expected number, received string', path: ['k99'] });
  });

  it('stops past 256 nested levels with an issue at that path', () => {
    const issues = issuesOf({ type: 'object', additionalProperties: { $ref: '#' } }, nested(300, 1));
    expect(issues).toHaveLength(1);
    expect(issues[0]?.message).toBe('too deeply nested to check (more than 256 levels)');
    expect(issues[0]?.path.length).toBeGreaterThan(100);
    expect(issues[0]?.path.every((key) => key === 'a')).toBe(true);
    const shallow = issuesOf({ type: 'object', additionalProperties: { $ref: '#' } }, nested(50, 1));
    expect(shallow).toEqual([{ message: 'expected object, received number', path: Array(50).fill('a') }]);
  });

  it('stops a schema nested 100,000 levels deep (not inside not inside not…)', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 100_000; level++) schema = { not: schema };
    expect(issuesOf(schema, 'x')[0]?.message).toMatch(/more than 64 levels/);
    let deepProperties: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 100_000; level++) deepProperties = { properties: { a: deepProperties } };
    const standard = jsonSchema(deepProperties)['~standard'];
    expect((standard.validate(nested(100_000, 1)) as StandardSchemaV1.FailureResult).issues[0]?.message).toBe('too deeply nested to check (more than 256 levels)');
    expect(standard.validate({ a: { a: 1 } })).toEqual({ value: { a: { a: 1 } } });
  });

  it('stops exponential schemas with a step budget', () => {
    const defs: Record<string, unknown> = { d0: { type: 'string' } };
    for (let level = 1; level <= 25; level++) defs[`d${level}`] = { anyOf: [{ $ref: `#/$defs/d${level - 1}` }, { $ref: `#/$defs/d${level - 1}` }] };
    const validate = createValidator({ $defs: defs, $ref: '#/$defs/d25' }, regexFor);
    const report = validate(1);
    expect(report.issues).toEqual([{ message: expect.stringMatching(/^could not be checked: it takes more than 1000000 validation steps/), path: [] }]);
    expect(report.steps).toBe(JSON_SCHEMA_LIMITS.maxSteps);
  });

  it('stops huge enums and uniqueItems on huge arrays with the step budget', () => {
    const enumIssues = issuesOf({ enum: Array.from({ length: 1_100_000 }, (_, index) => index) }, -1);
    expect(enumIssues[0]?.message).toMatch(/more than 1000000 validation steps/);
    ok({ enum: Array.from({ length: 200_000 }, (_, index) => index) }, 199_999);
    const objects = Array.from({ length: 3_000 }, (_, index) => ({ index }));
    expect(issuesOf({ uniqueItems: true }, objects)[0]?.message).toMatch(/more than 1000000 validation steps/);
    ok({ uniqueItems: true }, Array.from({ length: 100_000 }, (_, index) => index));
  });

  it('reports throwing getters, revoked proxies and unreadable keys instead of throwing', () => {
    const value = { ok: 'x' } as Record<string, unknown>;
    Object.defineProperty(value, 'bad', { enumerable: true, get: () => { throw new Error('getter'); } });
    bad({ properties: { bad: { type: 'string' } } }, value, ['could not be read (reading it threw an error)', ['bad']]);
    ok({ required: ['bad'] }, value); // present, without calling the getter
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    bad({ type: 'object' }, proxy, ['could not be read (inspecting it threw an error)', []]);
    const trap = new Proxy({}, { ownKeys: () => { throw new Error('keys'); } });
    bad({ properties: {} }, trap, ['could not be read (listing its properties threw an error)', []]);
    const array = [1, 2];
    Object.defineProperty(array, 1, { get: () => { throw new Error('item'); } });
    bad({ items: { type: 'number' } }, array, ['could not be read (reading it threw an error)', [1]]);
    expect(issuesOf({ const: { a: 1 } }, { get a() { throw new Error('x'); } })[0]?.message).toMatch(/^could not be compared/);
    // The message names the depth limit (written out in json-schema-keywords.ts): it must be the limit in force.
    expect(issuesOf({ const: { a: 1 } }, { get a() { throw new Error('x'); } })[0]?.message).toContain(`nested more than ${JSON_SCHEMA_LIMITS.maxDepth} levels deep`);
  });

  it('a getter is read once per validation', () => {
    let reads = 0;
    const value = { get n() { reads++; return 1; } };
    ok({ properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false }, value);
    expect(reads).toBe(1);
  });
});

describe('jsonSchema() in a tool', () => {
  const weather = defineTool({
    name: 'get_weather',
    description: 'Current weather for a city.',
    parameters: jsonSchema<{ city: string; days?: number }>({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
      additionalProperties: false,
    }),
    execute: ({ city, days }) => ({ city, days: days ?? 1 }),
  });

  it('sends the schema without $schema', () => {
    expect(weather.jsonSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
      additionalProperties: false,
    });
  });

  it('a bad field becomes an InputValidationError naming it', async () => {
    const run = await runTool(weather, '{"city": 42}', { logger: () => {} });
    expect(run.outcome).toBe('invalid_arguments');
    expect(run.result.error?.type).toBe('InputValidationError');
    expect(run.error).toBeInstanceOf(InputValidationError);
    expect(run.result.error?.message).toBe("Tool 'get_weather' was called with invalid arguments: city: expected string, received number (sent: 42).");
    expect(run.result.error?.context?.issues).toEqual([{ path: 'city', message: 'expected string, received number', received: '42' }]);
  });

  it('a missing field and an unexpected one are named', async () => {
    const run = await runTool(weather, '{"town": "Paris"}', { logger: () => {} });
    expect(run.result.error?.context?.issues).toEqual([
      { path: 'town', message: 'unexpected property "town" (allowed: "city", "days")', received: '"Paris"' },
      { path: 'city', message: 'missing required property "city"', missing: true },
    ]);
  });

  it('valid arguments run the tool; a field sent as a JSON string is coerced', async () => {
    expect((await runTool(weather, '{"city": "Paris", "days": 2}', { logger: () => {} })).result.data).toEqual({ city: 'Paris', days: 2 });
    const coerced = await runTool(weather, '{"city": "Paris", "days": "3"}', { logger: () => {} });
    expect(coerced.result.data).toEqual({ city: 'Paris', days: 3 });
    expect(coerced.argumentsCoerced).toBe(true);
  });

  it('with validate: false the tool receives whatever was sent', async () => {
    const passthrough = defineTool({
      name: 'remote',
      description: 'x',
      parameters: jsonSchema({ type: 'object', properties: { city: { type: 'string' } } }, { validate: false }),
      execute: (args) => args,
    });
    expect((await runTool(passthrough, '{"city": 42}', { logger: () => {} })).result.data).toEqual({ city: 42 });
  });
});
