// A jsonSchema that cannot be written as JSON — a cycle, a BigInt, a throwing toJSON, 100,000 levels of nesting — given
// beside a tool's parameters is a ConfigError naming the tool, not a bare TypeError or RangeError from inside
// defineTool; as the parameters (`jsonSchema(schema)`), a cycle and a depth past the stack are refused too.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { defineTool, jsonSchema } from '../../src/tools/index.js';

function deep(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < levels; level++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

describe('defineTool with a schema that is not JSON', () => {
  const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
  (cyclic.properties as Record<string, unknown>).self = cyclic;
  it.each([
    ['a cycle', cyclic, true],
    ['a BigInt', { type: 'object', properties: { a: { type: 'integer', maximum: 10n } } }, false],
    ['a throwing toJSON', { type: 'object', toJSON: () => { throw new Error('no'); } }, false],
    ['100,000 levels', deep(100_000), true],
  ])('%s: as the jsonSchema beside the parameters, a ConfigError naming the tool', (_name, schema, asParametersToo) => {
    const refusal = (define: () => unknown): unknown => {
      try {
        define();
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const asParameters = refusal(() => defineTool({ name: 'hostile', description: 'Hostile.', parameters: jsonSchema(schema as never), execute: async () => ({}) }));
    const beside = refusal(() => defineTool({ name: 'hostile', description: 'Hostile.', parameters: jsonSchema({ type: 'object' }), jsonSchema: schema as never, execute: async () => ({}) }));
    for (const caught of asParametersToo ? [asParameters, beside] : [beside]) expect(ConfigError.isInstance(caught), String(caught)).toBe(true);
    expect((beside as Error).message).toMatch(/tool "hostile"/);
  });
});
