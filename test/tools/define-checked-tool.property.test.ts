// `defineCheckedTool` (what the MCP client makes a server's tools with) leaves out the checks that hold by
// construction there. Property: over definitions shaped as the MCP client builds them — any JSON Schema object a
// server may send (with or without `$schema`, of another type, too large), any `approvalExpiresInMs` a caller may
// pass — it returns the same tool as `defineTool`, or throws the same `ConfigError` with the same problems.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/config-error.js';
import { defineCheckedTool, defineTool } from '../../src/tools/define-tool.js';
import { patternedJSONSchema } from '../../src/tools/json-schema.js';
import type { JSONSchema } from '../../src/tools/standard-schema.js';

type Outcome = { tool: Record<string, unknown> } | { problems: readonly string[]; message: string };

function outcome(make: () => unknown): Outcome {
  try {
    const tool = make() as Record<string, unknown>;
    expect(Object.isFrozen(tool)).toBe(true);
    return { tool: { ...tool } };
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return { problems: (error as ConfigError).problems, message: (error as ConfigError).message };
  }
}

const property = fc.record({ type: fc.constantFrom('string', 'number', 'integer', 'boolean'), description: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }) }, { requiredKeys: ['type'] });
const schemas: fc.Arbitrary<JSONSchema> = fc.record(
  {
    $schema: fc.constant('https://json-schema.org/draft/2020-12/schema'),
    type: fc.constantFrom('object', 'array', 'string'),
    properties: fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), property, { maxKeys: 6 }),
    required: fc.array(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 3 }),
    description: fc.oneof(fc.string({ maxLength: 30 }), fc.constant('x'.repeat(20_000))),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<JSONSchema>;
const expiries = fc.oneof(fc.constant(undefined), fc.integer({ min: -5, max: 5 }), fc.constant(86_400_000), fc.constant(Number.NaN), fc.constant(1e20), fc.double());

describe('defineCheckedTool', () => {
  it('makes the same tool as defineTool, or refuses with the same problems, on every definition the MCP client builds', () => {
    fc.assert(
      fc.property(schemas, expiries, fc.string({ maxLength: 200 }), fc.boolean(), (schema, approvalExpiresInMs, description, needsApproval) => {
        const parameters = patternedJSONSchema(undefined, { type: 'object' }, { validate: false });
        const definition = { name: 'server_tool', description, parameters, jsonSchema: schema, timeoutMs: 30_000, needsApproval, execute: async () => 'done', ...(approvalExpiresInMs === undefined ? {} : { approvalExpiresInMs }) };
        const checked = outcome(() => defineCheckedTool(definition as never));
        const full = outcome(() => defineTool(definition as never));
        expect(checked).toEqual(full);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses what a server may send wrong: a schema of another type, a schema too large for the model', () => {
    const parameters = patternedJSONSchema(undefined, { type: 'object' }, { validate: false });
    const base = { name: 'server_tool', description: 'd', parameters, execute: async () => 'done' };
    expect(() => defineCheckedTool({ ...base, jsonSchema: { type: 'array' } } as never)).toThrow(/parameters must describe a JSON object of named arguments/);
    expect(() => defineCheckedTool({ ...base, jsonSchema: { type: 'object' }, approvalExpiresInMs: 0 } as never)).toThrow(/approvalExpiresInMs must be an integer > 0/);
  });
});
