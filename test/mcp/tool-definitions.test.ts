// What an MCP server's tool list puts in front of the model is capped like a local definition (MODEL_FACING_LIMITS):
// a schema too large or too deep is refused by name at client.tools() (a ConfigError saying how to leave it out),
// never sent into every request nor cut into a schema that says something else; a huge description is cut and
// marked; a huge name becomes a callable name of at most 64 characters and is quoted bounded in every message.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/config-error.js';
import { createMCPClient } from '../../src/mcp/index.js';
import { MODEL_FACING_LIMITS, runTool, type AnyTool } from '../../src/tools/index.js';
import { fakeServer } from './fake-server.js';

const OK = { name: 'ok', description: 'Fine.', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } };

function clientListing(tools: unknown[], call: () => unknown = () => ({ content: [], isError: true })) {
  const server = fakeServer({ 'tools/list': () => ({ tools }), 'tools/call': call });
  return createMCPClient({ url: 'https://mcp.example/mcp', fetch: server.fetch, retry: false });
}

const enumSchema = (entries: number) => ({ type: 'object', properties: { code: { enum: Array.from({ length: entries }, (_, index) => `code-${index}`) } } });
function deepSchema(levels: number) {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 1; level < levels; level++) schema = { type: 'object', properties: { inner: schema } };
  return schema;
}

describe("an MCP server's tool definitions within the model-facing caps", () => {
  it('a 200,000-entry enum schema is refused at client.tools(): a ConfigError naming the tool, the size, the cap and include', async () => {
    const client = clientListing([OK, { name: 'pick', description: 'Picks.', inputSchema: enumSchema(200_000) }]);
    const error = await client.tools().then(() => undefined, (failure: unknown) => failure);
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/^Invalid MCP tool 'pick' of 'fake' \(mcp\.example\): the parameters JSON Schema is \d{7} characters of JSON; the model gets at most 65536 \(MODEL_FACING_LIMITS\.maxSchemaLength\); leave the tool out with client\.tools\(\{ include \}\)$/);
    const tools = await client.tools({ include: (tool) => tool.name !== 'pick' });
    expect(tools.map((tool) => tool.name)).toEqual(['ok']);
    await client.close();
  });

  it('a schema nested deeper than maxSchemaDepth is refused by name', async () => {
    const client = clientListing([{ name: 'deep', inputSchema: { type: 'object', properties: { inner: deepSchema(40) } } }]);
    await expect(client.tools()).rejects.toThrow(/MCP tool 'deep' .*nests deeper than 64 levels/);
    await client.close();
  });

  it('a 1 MB description is cut to maxDescriptionLength, the cut marked', async () => {
    const client = clientListing([{ ...OK, description: 'd'.repeat(1_000_000) }]);
    const [tool] = await client.tools();
    expect(tool?.description.length).toBeLessThanOrEqual(MODEL_FACING_LIMITS.maxDescriptionLength);
    expect(tool?.description).toMatch(/… \[cut: \d+ more characters\]$/);
    await client.close();
  });

  it('a 100,000-character name becomes a callable name of 64 characters, and every message quotes it bounded', async () => {
    const name = `n${'x'.repeat(100_000)}`;
    const client = clientListing([{ name, inputSchema: { type: 'object' } }]);
    const [tool] = await client.tools();
    expect(tool?.name).toHaveLength(64);
    expect(tool?.description.length).toBeLessThan(400);
    const run = await runTool(tool as AnyTool, {}, { logger: () => {} });
    expect(run.result.error?.message).toMatch(/^The MCP tool 'nxxx+…' failed without saying why\.$/);
    expect(run.content.length).toBeLessThan(600);
    await client.close();
  });
});
