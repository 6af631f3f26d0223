import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ConfigError } from '../../src/errors/index.js';
import { defineTool, isTool, runTool, serializeToolResult } from '../../src/tools/index.js';

const quiet = { logger: () => {} };

describe('defineTool', () => {
  it('derives the JSON Schema of zod 4 parameters through Standard JSON Schema, without $schema', () => {
    const tool = defineTool({
      name: 'get_weather',
      description: 'Current weather for a city.',
      parameters: z.object({ city: z.string().describe('City name'), days: z.number().int().min(1).optional() }),
      execute: ({ city }) => ({ city }),
    });
    expect(tool.jsonSchema).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        days: { type: 'integer', minimum: 1, maximum: 9007199254740991 },
      },
      required: ['city'],
    });
    expect(isTool(tool)).toBe(true);
    expect(Object.isFrozen(tool)).toBe(true);
  });

  it('works with arktype and validates with it', async () => {
    const tool = defineTool({
      name: 'lookup',
      description: 'Look up a user.',
      parameters: type({ user_id: 'number.integer > 0' }),
      execute: ({ user_id }) => ({ user_id }),
    });
    expect(tool.jsonSchema).toMatchObject({ type: 'object', required: ['user_id'] });
    const run = await runTool(tool, '{"user_id": -3}', quiet);
    expect(run.outcome).toBe('invalid_arguments');
    expect(run.result.error?.message).toContain('user_id');
    expect((await runTool(tool, '{"user_id": 7}', quiet)).result.data).toEqual({ user_id: 7 });
  });

  it('works with valibot given an explicit jsonSchema, and validates with valibot', async () => {
    const tool = defineTool({
      name: 'echo',
      description: 'Echo a message.',
      parameters: v.object({ message: v.pipe(v.string(), v.minLength(1)) }),
      jsonSchema: { type: 'object', properties: { message: { type: 'string', minLength: 1 } }, required: ['message'] },
      execute: ({ message }) => ({ echoed: message }),
    });
    const bad = await runTool(tool, '{"message": ""}', quiet);
    expect(bad.result.error?.type).toBe('InputValidationError');
    expect(bad.result.error?.context?.issues).toEqual([
      expect.objectContaining({ path: 'message', received: '""', expected: '>=1' }),
    ]);
    expect(serializeToolResult((await runTool(tool, '{"message":"hi"}', quiet)).result)).toBe('{"ok":true,"data":{"echoed":"hi"}}');
  });

  it('asks for an explicit jsonSchema when the library cannot produce one', () => {
    expect(() =>
      defineTool({ name: 'echo', description: 'x', parameters: v.object({ message: v.string() }), execute: () => 1 }),
    ).toThrow(/cannot produce a JSON Schema: pass jsonSchema explicitly/);
  });

  it('reports every problem of a bad definition at once as a ConfigError', () => {
    let caught: unknown;
    try {
      defineTool({ name: 'bad name!', description: 5, parameters: {}, execute: 'no', timeoutMs: -1, retry: { maxAttempts: 0 } } as never);
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.isInstance(caught)).toBe(true);
    const problems = (caught as ConfigError).problems;
    expect(problems).toEqual([
      'name must be 1–64 characters of A–Z, a–z, 0–9, "_" or "-" (got "bad name!")',
      'description must be a string',
      'execute must be a function',
      'parameters must be a Standard Schema (a zod 4, valibot or arktype schema, for example)',
      'timeoutMs must be a number > 0 or Infinity (got -1)',
      'retry.maxAttempts must be an integer ≥ 1 (got 0)',
    ]);
    expect((caught as ConfigError).message).toMatch(/^Invalid tool "bad name!": 6 problems: \(1\) name must be/);
  });

  it('rejects parameters that are not an object of named arguments', () => {
    expect(() => defineTool({ name: 'x', description: 'x', parameters: z.string(), execute: () => 1 })).toThrow(
      /must describe a JSON object of named arguments/,
    );
  });

  it('rejects a schema that cannot be expressed as JSON Schema', () => {
    expect(() => defineTool({ name: 'x', description: 'x', parameters: z.object({ when: z.date() }), execute: () => 1 })).toThrow(
      ConfigError,
    );
  });

  it('rejects a non-object definition', () => {
    expect(() => defineTool(null as never)).toThrow(/the definition must be an object/);
    expect(() => defineTool('tool' as never)).toThrow(ConfigError);
  });

  it('accepts Infinity as "no timeout"', () => {
    expect(defineTool({ name: 'slow', description: 'x', parameters: z.object({}), execute: () => 1, timeoutMs: Infinity }).timeoutMs).toBe(Infinity);
  });
});
