// Properties of jsonSchema()'s validator: random schemas (well-formed and malformed) × random and hostile values never
// throw, always answer synchronously within the step budget, and agree with the reference validator ajv on a
// generated corpus of the keywords both support with the same meaning. Every property has a fixed seed and a bounded
// run count. Where faultline knowingly disagrees with ajv (own `__proto__` properties, float `multipleOf`, `$ref`
// loops), a unit test below pins faultline's answer and ajv's.
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { JSON_SCHEMA_LIMITS, jsonSchema } from '../../src/tools/json-schema.js';
import { regexFor } from '../../src/tools/json-schema-bounds.js';
import { createValidator } from '../../src/tools/json-schema-validate.js';
import { depthArbitrary, hostileValue, nested, type Producer } from '../helpers/hostile-values.js';

/** An object with these entries as own data properties (`__proto__` included, never a prototype change). */
function objectOf(entries: ReadonlyArray<readonly [string, unknown]>): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

/** Number of JSON nodes in a value (bounded walk; for the work bound). */
function size(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count < 1e6) {
    const node = stack.pop();
    count++;
    if (typeof node === 'object' && node !== null) stack.push(...Object.values(node));
  }
  return count;
}

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype];
const baseline = PROTOTYPES.map((prototype) => Reflect.ownKeys(prototype).map(String).sort());
function expectPristinePrototypes(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  PROTOTYPES.forEach((prototype, index) => expect(Reflect.ownKeys(prototype).map(String).sort()).toEqual(baseline[index]));
}

// ---------------------------------------------------------------------------------------------------------------
// Generators

const typeName = fc.constantFrom('null', 'boolean', 'object', 'array', 'number', 'integer', 'string');
const SCALARS: readonly unknown[] = [null, true, false, 0, 1, -1, 2, 3, -3, 1.5, 0.5, -0.5, '', 'a', 'ab', 'abc', 'B', '😀', 'x-1', '7'];
const scalar = fc.constantFrom(...SCALARS);
const count = fc.integer({ min: 0, max: 3 });
const bound = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constant(0.5));
const safePattern = fc.constantFrom('^a', 'b$', '^[a-c]*$', '\\d', '^.{2}$', '^\\p{L}+$', '😀', '^(?:ab)+$', '^[^a]');

/** Small JSON values built from the thresholds the schemas use, with the given property names. */
function poolValue(keys: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  return fc.letrec((tie) => ({
    value: fc.oneof(
      { maxDepth: 3, depthIdentifier: 'pool' },
      scalar,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.array(fc.tuple(keys, tie('value')), { maxLength: 4 }).map(objectOf),
    ),
  })).value;
}

/**
 * Schemas of 0–3 keywords each, nested up to 3 deep, from the keywords faultline and ajv both check with the same
 * meaning. `draft` picks the array keywords (`prefixItems` vs draft-07's tuple `items` + `additionalItems`) and where
 * `$ref`s point (`$defs` vs `definitions`).
 */
function schemaArbitrary(draft: '2020-12' | 'draft-07', keys: fc.Arbitrary<string>): fc.Arbitrary<Record<string, unknown>> {
  const value = poolValue(keys);
  const defs = draft === '2020-12' ? '$defs' : 'definitions';
  const leafEntry = fc.oneof(
    fc.tuple(fc.constant('type'), fc.oneof(typeName, fc.uniqueArray(typeName, { minLength: 1, maxLength: 3 }))),
    fc.tuple(fc.constant('enum'), fc.array(value, { minLength: 1, maxLength: 4 })),
    fc.tuple(fc.constant('const'), value),
    fc.tuple(fc.constant('required'), fc.uniqueArray(keys, { maxLength: 3 })),
    fc.tuple(fc.constantFrom('minProperties', 'maxProperties', 'minItems', 'maxItems', 'minLength', 'maxLength'), count),
    fc.tuple(fc.constant('uniqueItems'), fc.boolean()),
    fc.tuple(fc.constant('pattern'), safePattern),
    fc.tuple(fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'), bound),
    fc.tuple(fc.constant('multipleOf'), fc.integer({ min: 1, max: 3 })),
    fc.tuple(fc.constant('$ref'), fc.constantFrom(`#/${defs}/text`, `#/${defs}/small`)),
    fc.tuple(fc.constant('format'), fc.constantFrom('email', 'date-time')),
  );
  const leaf = fc.oneof(fc.boolean(), fc.array(leafEntry, { maxLength: 3 }).map(objectOf));
  const tree = fc.letrec((tie) => {
    const sub = tie('schema') as fc.Arbitrary<unknown>;
    const arrays =
      draft === '2020-12'
        ? [fc.tuple(fc.constant('items'), sub), fc.tuple(fc.constant('prefixItems'), fc.array(sub, { minLength: 1, maxLength: 3 }))]
        : [fc.tuple(fc.constant('items'), fc.oneof(sub, fc.array(sub, { minLength: 1, maxLength: 3 }))), fc.tuple(fc.constant('additionalItems'), sub)];
    const entry = fc.oneof(
      leafEntry,
      leafEntry,
      fc.tuple(fc.constant('properties'), fc.array(fc.tuple(keys, sub), { maxLength: 3 }).map(objectOf)),
      fc.tuple(fc.constant('additionalProperties'), sub),
      fc.tuple(fc.constant('patternProperties'), fc.array(fc.tuple(fc.constantFrom('^a', 'c$', '^x-'), sub), { maxLength: 2 }).map(objectOf)),
      fc.tuple(fc.constantFrom('anyOf', 'oneOf', 'allOf'), fc.array(sub, { minLength: 1, maxLength: 3 })),
      fc.tuple(fc.constant('not'), sub),
      ...arrays,
    );
    return { schema: fc.oneof({ maxDepth: 3, depthIdentifier: 'schema' }, leaf, fc.array(entry, { minLength: 1, maxLength: 3 }).map(objectOf)) };
  }).schema;
  return fc
    .tuple(tree, fc.array(leafEntry.filter(([key]) => key !== '$ref'), { maxLength: 2 }))
    .map(([schema, small]) => ({ ...(typeof schema === 'boolean' ? { allOf: [schema] } : schema), [defs]: { text: { type: 'string', minLength: 1 }, small: objectOf(small) } }));
}

// ---------------------------------------------------------------------------------------------------------------
// Agreement with ajv

const AJV_OPTIONS = { strict: false, ownProperties: true, validateFormats: false } as const;
// ajv drops `properties.__proto__` and calls an own `__proto__` additional, and fast-deep-equal (its const/enum) throws
// on an own `toString` key (see below): the corpus leaves both out.
const corpusKeys = fc.constantFrom('a', 'b', 'c', 'constructor', 'x-1');

/** ajv's multipleOf is `x / d !== parseInt(x / d)`, wrong from 1e21 on (see below): the corpus keeps numbers smaller. */
function belowAjvParseIntBound(value: unknown): unknown {
  if (typeof value === 'number') return Math.abs(value) >= 1e21 ? value % 1e20 : value;
  if (Array.isArray(value)) return value.map(belowAjvParseIntBound);
  if (typeof value === 'object' && value !== null) return objectOf(Object.entries(value).map(([key, item]) => [key, belowAjvParseIntBound(item)]));
  return value;
}

describe.each([
  { draft: '2020-12' as const, ajv: new Ajv2020(AJV_OPTIONS), seed: 20261301 },
  { draft: 'draft-07' as const, ajv: new Ajv(AJV_OPTIONS), seed: 20261302 },
])('jsonSchema() agrees with ajv ($draft)', ({ draft, ajv, seed }) => {
  it('on whether each generated value is valid', () => {
    const tally = { compared: 0, valid: 0, invalid: 0, refused: 0 };
    fc.assert(
      fc.property(schemaArbitrary(draft, corpusKeys), fc.array(fc.oneof(poolValue(corpusKeys), fc.jsonValue({ maxDepth: 2 }).map(belowAjvParseIntBound)), { minLength: 1, maxLength: 6 }), (schema, values) => {
        let reference: (value: unknown) => boolean;
        try {
          reference = ajv.compile(schema) as (value: unknown) => boolean;
        } catch {
          tally.refused++; // ajv rejects the schema itself (e.g. a meta-schema violation): nothing to compare
          return;
        }
        const ours = jsonSchema(schema)['~standard'];
        for (const value of [...values, ...SCALARS]) { // every threshold the generator uses, at the root
          const expected = reference(value);
          const result = ours.validate(value) as { issues?: readonly unknown[] };
          expect(result.issues === undefined, `${JSON.stringify(schema)} on ${JSON.stringify(value)}: ${JSON.stringify(result.issues)}`).toBe(expected);
          expect(result.issues === undefined || result.issues.length > 0).toBe(true);
          tally.compared++;
          if (expected) tally.valid++;
          else tally.invalid++;
        }
      }),
      { seed, numRuns: 600 },
    );
    // The corpus is meaningful: ajv took nearly every schema, and both answers are common.
    expect(tally.refused).toBeLessThan(30);
    expect(tally.valid).toBeGreaterThan(tally.compared * 0.15);
    expect(tally.invalid).toBeGreaterThan(tally.compared * 0.15);
  });
});

describe('where jsonSchema() knowingly disagrees with ajv', () => {
  const ajv = new Ajv2020(AJV_OPTIONS);
  const valid = (schema: Record<string, unknown>, value: unknown) => (jsonSchema(schema)['~standard'].validate(value) as { issues?: unknown }).issues === undefined;

  it('an own "__proto__" property is data: ajv ignores properties.__proto__ and calls it additional', () => {
    const schema = JSON.parse('{"properties": {"__proto__": {"type": "number"}}, "additionalProperties": false}') as Record<string, unknown>;
    const value = JSON.parse('{"__proto__": "x"}') as unknown;
    expect(valid(schema, value)).toBe(false); // "x" is not a number
    expect(valid(schema, JSON.parse('{"__proto__": 1}'))).toBe(true);
    expect(ajv.compile(schema)(JSON.parse('{"__proto__": 1}'))).toBe(false); // ajv: "must NOT have additional properties"
  });

  it('multipleOf allows a few ulps: 19.99 is a multiple of 0.01 (ajv: 19.99 % 0.01 !== 0)', () => {
    expect(valid({ multipleOf: 0.01 }, 19.99)).toBe(true);
    expect(ajv.compile({ multipleOf: 0.01 })(19.99)).toBe(false);
    expect(valid({ multipleOf: 0.01 }, 19.995)).toBe(false);
  });

  it('multipleOf of a number from 1e21 on: ajv compares with parseInt("1e+21") and rejects it', () => {
    expect(valid({ multipleOf: 1 }, 1e21)).toBe(true);
    expect(ajv.compile({ multipleOf: 1 })(1e21)).toBe(false);
  });

  it('an own "toString" key is data: ajv\'s deep equality calls it and throws', () => {
    expect(valid({ const: {} }, { toString: {} })).toBe(false);
    expect(valid({ enum: [{ toString: 1 }] }, { toString: 1 })).toBe(true);
    expect(() => ajv.compile({ const: {} })({ toString: {} })).toThrow(TypeError);
  });

  it('{"$ref": "#"} is an issue, where ajv overflows the stack', () => {
    expect(valid({ $ref: '#' }, 1)).toBe(false);
    expect(() => ajv.compile({ $ref: '#' })(1)).toThrow(RangeError);
  });

  it('nullable: true accepts null even when an enum does not list it (ajv: enum fails)', () => {
    expect(valid({ type: 'string', enum: ['a'], nullable: true }, null)).toBe(true);
    expect(ajv.compile({ type: 'string', enum: ['a'], nullable: true })(null)).toBe(false);
  });

  it('a pattern with a nested quantifier is not tested (ajv tests it, and can backtrack for hours)', () => {
    expect(valid({ pattern: '^(a+)+$' }, 'b')).toBe(true);
    expect(ajv.compile({ pattern: '^(a+)+$' })('b')).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Never throws, never hangs

const garbage = fc.constantFrom<unknown>(null, 42, -1, 1e308, 'x', '', '#', '#/', '#/$defs', '(', '__proto__', [], {}, [1, 'a', null], true, false, { type: 42 }, [{ $ref: '#' }]);
const KEYWORDS = ['type', 'enum', 'const', 'properties', 'required', 'additionalProperties', 'patternProperties', 'items', 'prefixItems', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minProperties', 'maxProperties', 'anyOf', 'oneOf', 'allOf', 'not', 'nullable', '$ref', '$defs', 'definitions', '__proto__', 'constructor'];

/** Any keyword with any value: well-formed subschemas, garbage, JSON. */
const malformedSchema: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  schema: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'malformed' },
    garbage,
    fc.array(fc.tuple(fc.constantFrom(...KEYWORDS), fc.oneof(garbage, fc.jsonValue({ maxDepth: 2 }), tie('schema'), fc.array(tie('schema'), { maxLength: 3 }))), { maxLength: 5 }).map(objectOf),
  ),
})).schema;

const deepWrappers: Record<string, (inner: unknown) => unknown> = {
  not: (inner) => ({ not: inner }),
  properties: (inner) => ({ type: 'object', properties: { a: inner }, required: ['a'] }),
  additionalProperties: (inner) => ({ additionalProperties: inner }),
  items: (inner) => ({ items: inner, minItems: 1 }),
  allOf: (inner) => ({ allOf: [inner, true] }),
  anyOf: (inner) => ({ anyOf: [inner, inner] }), // shared: exponential if walked naively
  oneOf: (inner) => ({ oneOf: [{ $ref: '#' }, inner] }),
};

/** A schema nested `depth` levels deep through one keyword. */
function deepSchema(depth: number, wrapper: string): unknown {
  let schema: unknown = { type: 'string' };
  const wrap = deepWrappers[wrapper] as (inner: unknown) => unknown;
  for (let level = 0; level < depth; level++) schema = wrap(schema);
  return schema;
}

const circularSchemas = [
  { $ref: '#' },
  { anyOf: [{ $ref: '#' }, { $ref: '#' }] },
  { $defs: { a: { $ref: '#/$defs/b' }, b: { allOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' },
  { properties: { a: { $ref: '#' } }, additionalProperties: { $ref: '#' }, items: { $ref: '#' } },
  { not: { $ref: '#' } },
  { oneOf: [{ $ref: '#' }, { not: { $ref: '#' } }] },
];

const LARGE_ENUM = { enum: Array.from({ length: 5_000 }, (_, index) => ({ index })) }; // huge ones: json-schema.test.ts

/** Schemas of every hostile kind, each made fresh (some are not JSON, some have getters). */
const hostileSchema: fc.Arbitrary<Producer> = fc.oneof(
  schemaArbitrary('2020-12', fc.constantFrom('a', '__proto__', 'constructor')).map((schema) => ({ label: 'generated', make: () => schema })),
  malformedSchema.map((schema) => ({ label: 'malformed keywords', make: () => schema })),
  fc.tuple(depthArbitrary, fc.constantFrom(...Object.keys(deepWrappers))).map(([depth, wrapper]) => ({ label: `${wrapper} nested ${depth} deep`, make: () => deepSchema(depth, wrapper) })),
  fc.constantFrom(...circularSchemas).map((schema) => ({ label: 'circular $ref', make: () => schema })),
  fc.constant({ label: 'a large enum', make: () => LARGE_ENUM }),
  hostileValue, // values built to break cloning: cycles, BigInts, getters, 20,000-deep nesting
);

const anyValue: fc.Arbitrary<Producer> = fc.oneof(
  hostileValue,
  poolValue(fc.constantFrom('a', 'b', '__proto__', 'constructor')).map((value) => ({ label: 'pool value', make: () => value })),
  depthArbitrary.map((depth) => ({ label: `array nested ${depth}`, make: () => nested(depth, 'x', 'array') })),
  fc.constant({ label: 'a large array of objects', make: () => Array.from({ length: 2_000 }, (_, index) => ({ a: index })) }),
);

describe('jsonSchema() never throws and never hangs', () => {
  it('construction either works or throws a ConfigError; validation always answers synchronously, bounded', () => {
    const outcomes = { built: 0, refused: 0, invalid: 0 };
    fc.assert(
      fc.property(hostileSchema, fc.array(anyValue, { minLength: 1, maxLength: 3 }), (schemaProducer, valueProducers) => {
        let standard: ReturnType<typeof jsonSchema>;
        try {
          standard = jsonSchema(schemaProducer.make() as Record<string, unknown>);
        } catch (error) {
          expect(ConfigError.isInstance(error), `${schemaProducer.label}: ${String(error)}`).toBe(true);
          outcomes.refused++;
          return;
        }
        outcomes.built++;
        const validate = createValidator(standard.jsonSchema, regexFor);
        for (const producer of valueProducers) {
          const report = validate(producer.make());
          expect(report.steps).toBeLessThanOrEqual(JSON_SCHEMA_LIMITS.maxSteps);
          expect(report.issues.length).toBeLessThanOrEqual(JSON_SCHEMA_LIMITS.maxIssues);
          for (const issue of report.issues) {
            expect(typeof issue.message).toBe('string');
            expect(issue.message.length).toBeLessThan(1_000);
            expect(issue.path?.every((key) => typeof key === 'string' || typeof key === 'number')).toBe(true);
          }
          const result = standard['~standard'].validate(producer.make());
          expect(result).not.toBeInstanceOf(Promise);
          if ((result as { issues?: unknown }).issues) outcomes.invalid++;
        }
        expectPristinePrototypes();
      }),
      { seed: 20261303, numRuns: 250 },
    );
    expect(outcomes.built).toBeGreaterThan(100);
    expect(outcomes.refused).toBeGreaterThan(5);
    expect(outcomes.invalid).toBeGreaterThan(20);
  });

  it('work is bounded by the sizes of the schema and the value when the schema has no $ref', () => {
    const refFree = schemaArbitrary('2020-12', corpusKeys).map((schema) => JSON.parse(JSON.stringify(schema, (key, value: unknown) => (key === '$ref' ? undefined : value))) as Record<string, unknown>);
    fc.assert(
      fc.property(refFree, fc.oneof(poolValue(corpusKeys), fc.jsonValue({ maxDepth: 3 })), (schema, value) => {
        const { steps } = createValidator(jsonSchema(schema).jsonSchema, regexFor)(value);
        expect(steps).toBeGreaterThan(0);
        expect(steps).toBeLessThanOrEqual(10 * size(schema) * size(value));
      }),
      { seed: 20261304, numRuns: 500 },
    );
  });

  it('validation is deterministic and does not depend on earlier validations (caches are pure)', () => {
    fc.assert(
      fc.property(schemaArbitrary('2020-12', corpusKeys), fc.array(poolValue(corpusKeys), { minLength: 2, maxLength: 5 }), (schema, values) => {
        const shared = jsonSchema(schema)['~standard'];
        for (const value of values) expect(shared.validate(value)).toEqual(jsonSchema(schema)['~standard'].validate(value));
      }),
      { seed: 20261305, numRuns: 200 },
    );
  });
});
