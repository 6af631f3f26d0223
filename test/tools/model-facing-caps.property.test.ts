// What a model receives about tools has caps (MODEL_FACING_LIMITS), enforced where each is made: every tool
// failure — each ToolFailure type, an InputValidationError, a failed result's data — is cut where runTool seals it,
// so no failure type escapes (the content stays JSON, its error part within the cap, every cut marked `[cut:`); a
// tool definition over a cap is a ConfigError at defineTool; an invalid call never repeats a schema too large for
// the error. Properties have fixed seeds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ConfigError } from '../../src/errors/config-error.js';
import {
  APIFailure,
  AuthenticationError,
  DataNotFoundError,
  defineTool,
  InputValidationError,
  MODEL_FACING_LIMITS,
  NetworkError,
  PermissionError,
  RateLimitError,
  runTool,
  serializeToolResult,
  ServiceUnavailableError,
  TimeoutError,
  ToolFailure,
  ToolInternalError,
  ToolNotFound,
  ToolResult,
  toolRunContent,
  type ToolFailureOptions,
} from '../../src/tools/index.js';

const quiet = { logger: () => {} };
const LIMITS = MODEL_FACING_LIMITS;

type Make = (message: string, options: ToolFailureOptions, type: string) => ToolFailure;
const FAILURES: Array<[string, Make]> = [
  ['ToolFailure', (message, options, type) => new ToolFailure(type, message, options)],
  ['InputValidationError', (message, options) => new InputValidationError(message, options)],
  ['ToolNotFound', (message, options) => new ToolNotFound(message, options)],
  ['DataNotFoundError', (message, options) => new DataNotFoundError(message, options)],
  ['AuthenticationError', (message, options) => new AuthenticationError(message, options)],
  ['PermissionError', (message, options) => new PermissionError(message, options)],
  ['RateLimitError', (message, options) => new RateLimitError(message, options)],
  ['NetworkError', (message, options) => new NetworkError(message, options)],
  ['TimeoutError', (message, options) => new TimeoutError(message, options)],
  ['APIFailure', (message, options) => new APIFailure(message, options)],
  ['ServiceUnavailableError', (message, options) => new ServiceUnavailableError(message, options)],
  ['ToolInternalError', (message, options) => new ToolInternalError(message, options)],
];

/** Text from a few characters to far over every cap, with characters JSON escapes (six times longer) among them. */
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.tuple(fc.constantFrom('x', 'é', '\u0001', '"', '😀', '\n'), fc.integer({ min: 1_000, max: 120_000 })).map(([unit, count]) => unit.repeat(count)),
);
/** Context: small, wide (many keys), long (a huge list, the 200,000-entry enum of a schema), deep, or long strings. */
const context = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }),
  fc.integer({ min: 1_000, max: 20_000 }).map((keys) => Object.fromEntries(Array.from({ length: keys }, (_, index) => [`key${index}`, index]))),
  fc.integer({ min: 10_000, max: 200_000 }).map((entries) => ({ expectedSchema: { type: 'object', properties: { code: { enum: Array.from({ length: entries }, (_, index) => `code-${index}`) } } } })),
  fc.integer({ min: 10, max: 90 }).map((depth) => {
    let nested: Record<string, unknown> = { leaf: 'x'.repeat(500) };
    for (let level = 0; level < depth; level++) nested = { level, nested, filler: 'y'.repeat(400) };
    return nested;
  }),
  text.map((value) => ({ value, again: value })),
);

function expectCapped(content: string, errorJSONBefore: string) {
  const parsed = JSON.parse(content) as { ok: boolean; error: { type: unknown; message: unknown; suggestion?: unknown; context?: unknown } };
  const errorText = JSON.stringify(parsed.error);
  expect(errorText.length).toBeLessThanOrEqual(LIMITS.maxErrorLength);
  expect(typeof parsed.error.type).toBe('string');
  expect(typeof parsed.error.message).toBe('string');
  if (parsed.error.context !== undefined) expect(parsed.error.context).toBeTypeOf('object');
  if (errorJSONBefore.length > LIMITS.maxErrorLength) expect(errorText).toContain('[cut:');
  else expect(errorText).toBe(errorJSONBefore);
}

describe('every model-facing failure is within its cap, still JSON, every cut marked', () => {
  for (const [name, make] of FAILURES) {
    it(`${name} with any message, suggestion, context and type: the sealed content's error is at most ${LIMITS.maxErrorLength} characters`, async () => {
      await fc.assert(
        fc.asyncProperty(text, text, context, fc.oneof(fc.constant('QuotaExceeded'), text), async (message, suggestion, ctx, type) => {
          const failure = make(message, { suggestion, context: ctx }, type);
          const before = JSON.stringify(failure.toErrorInfo());
          expectCapped(serializeToolResult(ToolResult.error(failure)), before);
          // thrown by a tool and sealed by runTool: the same cap, in the run's content and in its flat form
          const tool = defineTool({ name: 'fails', description: 'Fails.', parameters: z.object({}), execute: () => Promise.reject(failure) });
          const run = await runTool(tool, {}, quiet);
          expectCapped(run.content, before);
          expect(toolRunContent(run, 'flat').length).toBeLessThanOrEqual(LIMITS.maxErrorLength + 64);
          expect(JSON.stringify(run.result.toJSON())).toBe(run.content);
        }),
        { seed: 2026_2603, numRuns: 12 },
      );
    });
  }

  it('the data of a failed result is cut to maxFailureDataLength, marked; a success keeps its data whole', () => {
    fc.assert(
      fc.property(context, (data) => {
        const content = serializeToolResult(ToolResult.errorWithData('Validation failed', data));
        const parsed = JSON.parse(content) as { data: unknown };
        const dataText = JSON.stringify(parsed.data);
        expect(dataText.length).toBeLessThanOrEqual(LIMITS.maxFailureDataLength);
        if (JSON.stringify(data).length > LIMITS.maxFailureDataLength) expect(dataText).toContain('[cut:');
        else expect(parsed.data).toEqual(data);
        expect(JSON.parse(serializeToolResult(ToolResult.success(data)))).toEqual({ ok: true, data });
      }),
      { seed: 2026_2604, numRuns: 20 },
    );
  });

  it('a partial result keeps its data whole and cuts only its error part', () => {
    const data = { rows: 'r'.repeat(100_000) };
    const content = serializeToolResult(ToolResult.partial(data, { forecast: new NetworkError('n'.repeat(100_000)) }));
    const parsed = JSON.parse(content) as { data: unknown; error: unknown };
    expect(parsed.data).toEqual(data);
    expect(JSON.stringify(parsed.error).length).toBeLessThanOrEqual(LIMITS.maxErrorLength);
    expect(JSON.stringify(parsed.error)).toContain('[cut:');
  });
});

describe('invalid arguments never repeat a schema too large for the error', () => {
  const enumTool = (entries: number) =>
    defineTool({
      name: 'pick',
      description: 'Picks a code.',
      parameters: z.object({ code: z.enum(Array.from({ length: entries }, (_, index) => `code-${index}`) as [string, ...string[]]) }),
      execute: ({ code }) => code,
    });

  it('a schema that fits half the error cap is repeated as expectedSchema', async () => {
    const run = await runTool(enumTool(10), { code: 'nope' }, quiet);
    expect(run.result.error?.context?.expectedSchema).toEqual(enumTool(10).jsonSchema);
  });

  it('a large schema (5,000 enum entries, within the definition cap) is named, not repeated: the error stays small and says where the schema is', async () => {
    const tool = enumTool(5_000);
    const run = await runTool(tool, { code: 'nope' }, quiet);
    expect(run.outcome).toBe('invalid_arguments');
    expect(run.result.error?.context?.expectedSchema).toMatch(/^\[cut: the schema \(\d+ characters\) is in the tool's definition\]$/);
    expect(run.result.error?.suggestion).toContain("the tool's parameters schema");
    expect(run.content.length).toBeLessThan(LIMITS.maxErrorLength);
    expect(JSON.stringify((run.error as InputValidationError).context).length).toBeLessThan(LIMITS.maxErrorLength);
  });

  it('the 200,000-entry enum is refused at defineTool: a ConfigError naming the size and the cap', () => {
    expect(() => enumTool(200_000)).toThrow(ConfigError);
    expect(() => enumTool(200_000)).toThrow(/parameters JSON Schema is \d{7} characters of JSON; the model gets at most 65536 \(MODEL_FACING_LIMITS\.maxSchemaLength\)/);
  });
});

describe('defineTool refuses a definition over a cap, at its exact bound', () => {
  const define = (description: string, jsonSchema: Record<string, unknown> = { type: 'object' }) =>
    defineTool({ name: 'capped', description, parameters: z.object({}), jsonSchema, execute: () => null });
  /** An object schema whose JSON is exactly `length` characters. */
  const schemaOf = (length: number) => {
    const base = JSON.stringify({ type: 'object', description: '' }).length;
    return { type: 'object', description: 'd'.repeat(length - base) };
  };
  const deep = (levels: number) => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let level = 1; level < levels; level++) schema = { type: 'object', properties: { inner: schema } };
    return schema;
  };

  it('accepts a description of exactly maxDescriptionLength characters and refuses one more', () => {
    expect(define('d'.repeat(LIMITS.maxDescriptionLength)).description.length).toBe(LIMITS.maxDescriptionLength);
    expect(() => define('d'.repeat(LIMITS.maxDescriptionLength + 1))).toThrow(/description is 8193 characters; the model gets at most 8192 \(MODEL_FACING_LIMITS\.maxDescriptionLength\)/);
  });

  it('accepts a schema of exactly maxSchemaLength characters of JSON and refuses one more', () => {
    expect(JSON.stringify(define('d', schemaOf(LIMITS.maxSchemaLength)).jsonSchema).length).toBe(LIMITS.maxSchemaLength);
    expect(() => define('d', schemaOf(LIMITS.maxSchemaLength + 1))).toThrow(ConfigError);
  });

  it('refuses a schema nested deeper than maxSchemaDepth', () => {
    expect(define('d', { type: 'object', properties: { inner: deep(20) } }).name).toBe('capped');
    expect(() => define('d', { type: 'object', properties: { inner: deep(80) } })).toThrow(/nests deeper than 64 levels; the model gets at most 64 \(MODEL_FACING_LIMITS\.maxSchemaDepth\)/);
  });
});
