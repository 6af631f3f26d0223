// An MCP tool that fails the way a local tool does reaches the model the same way: the `{type, message, suggestion,
// context}` any server puts in an `isError` result's `structuredContent` is adopted — against a real
// `@modelcontextprotocol/sdk` server, and for every malformed variant (wrong types, huge fields, secrets inside) each
// field is taken only when valid, bounded and redacted, never lost to a generic `ToolError`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMCPClient, mcpResultToToolResult, type MCPClient } from '../../src/mcp/index.js';
import { runTool } from '../../src/tools/run-tool.js';
import { defineTool, type AnyTool } from '../../src/tools/define-tool.js';
import { DataNotFoundError } from '../../src/tools/data-not-found-error.js';
import { SDK_SERVER_SECRET, startSDKServer, type SDKServer } from '../helpers/mcp-sdk-server.js';
import { fakeServer } from './fake-server.js';

const quiet = { logger: () => {} };
const SECRET = 'tok-PLANTED-structured-0042';

describe("isError results with a structured error, from @modelcontextprotocol/sdk's server", () => {
  let server: SDKServer;
  let client: MCPClient;
  let tools: Map<string, AnyTool>;

  beforeAll(async () => {
    server = await startSDKServer();
    client = createMCPClient({ url: server.url, secrets: [SDK_SERVER_SECRET], retry: false });
    tools = new Map((await client.tools()).map((tool) => [tool.name, tool]));
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('reach the model exactly as a local tool throwing DataNotFoundError does: type, message, context and suggestion', async () => {
    const remote = await runTool(tools.get('missing') as AnyTool, { order: '42' }, quiet);
    const local = defineTool({
      name: 'missing',
      description: 'Local twin.',
      parameters: z.object({ order: z.string() }),
      execute: ({ order }) => {
        throw new DataNotFoundError(`No order ${order}.`, { suggestion: 'Check the order id, or list recent orders.', context: { order } });
      },
    });
    const twin = await runTool(local, { order: '42' }, quiet);
    expect(remote.outcome).toBe('error_result');
    expect(remote.result.toJSON()).toEqual({
      ok: false,
      error: { type: 'DataNotFoundError', message: 'No order 42.', context: { order: '42' }, suggestion: 'Check the order id, or list recent orders.' },
    });
    expect(remote.content).toBe(twin.content);
  });

  it('are redacted and bounded: the secret removed from message, suggestion and context, a credential-named key masked, a huge list cut and marked', async () => {
    const run = await runTool(tools.get('leaky') as AnyTool, {}, quiet);
    const error = run.result.error;
    expect(error?.type).toBe('PermissionError');
    expect(run.content).not.toContain(SDK_SERVER_SECRET);
    expect(error?.message).toBe('The key [REDACTED] may not read this.');
    expect(error?.suggestion).toBe('Ask for a key other than [REDACTED].');
    expect(error?.context).toMatchObject({ key: '[REDACTED]', apiKey: '[REDACTED]' });
    expect(JSON.stringify(error?.context)).toContain('[cut:');
    expect(run.content.length).toBeLessThan(20_000);
  });
});

type Variant = [name: string, structured: unknown, expected: Record<string, unknown>];

const HUGE = 'h'.repeat(1_000_000);
const VARIANTS: Variant[] = [
  ['a full structured error', { type: 'QuotaExceeded', message: 'Quota used up.', suggestion: 'Try tomorrow.', context: { left: 0 } }, { type: 'QuotaExceeded', message: 'Quota used up.', suggestion: 'Try tomorrow.', context: { left: 0 } }],
  ['a type that is a number', { type: 42, message: 'Quota used up.' }, { type: 'ToolExecutionFailed', message: 'Quota used up.' }],
  ['a type with spaces and a line break', { type: 'Quota\nExceeded now', message: 'Quota used up.' }, { type: 'ToolExecutionFailed', message: 'Quota used up.' }],
  ['a type of 10,000 characters', { type: 'Q'.repeat(10_000), message: 'Quota used up.' }, { type: 'ToolExecutionFailed', message: 'Quota used up.' }],
  ['a suggestion that is a number', { type: 'QuotaExceeded', message: 'Quota used up.', suggestion: 7 }, { type: 'QuotaExceeded', message: 'Quota used up.' }],
  ['a context that is an array', { type: 'QuotaExceeded', message: 'Quota used up.', context: [1, 2] }, { type: 'QuotaExceeded', message: 'Quota used up.' }],
  ['a context that is a string', { type: 'QuotaExceeded', message: 'Quota used up.', context: 'left: 0' }, { type: 'QuotaExceeded', message: 'Quota used up.' }],
  ['no message (the text content is the message)', { type: 'QuotaExceeded', suggestion: 'Try tomorrow.' }, { type: 'ToolExecutionFailed', message: 'the text content' }],
  ['a message that is a number', { type: 'QuotaExceeded', message: 404 }, { type: 'ToolExecutionFailed', message: 'the text content' }],
  ["a faultline server's envelope with data", { ok: false, error: { type: 'InputValidationError', message: 'Bad.', suggestion: 'Fix it.' }, data: { fields: ['a'] } }, { type: 'InputValidationError', message: 'Bad.', suggestion: 'Fix it.' }],
];

async function resultFor(structured: unknown, secrets: readonly string[] = []) {
  const server = fakeServer({
    'tools/list': () => ({ tools: [{ name: 'quota', inputSchema: { type: 'object' } }] }),
    'tools/call': () => ({ content: [{ type: 'text', text: 'the text content' }], structuredContent: structured, isError: true }),
  });
  const client = createMCPClient({ url: 'https://mcp.example/mcp', fetch: server.fetch, retry: false, secrets });
  const [tool] = await client.tools();
  const run = await runTool(tool as AnyTool, {}, quiet);
  await client.close();
  return run;
}

describe('a structured error from any server: each field taken only when valid, bounded, redacted', () => {
  for (const [name, structured, expected] of VARIANTS) {
    it(`${name} → ${JSON.stringify(expected).slice(0, 80)}`, async () => {
      const run = await resultFor(structured);
      expect(run.outcome).toBe('error_result');
      expect(run.result.error).toEqual(expected);
    });
  }

  it('keeps the data of a faultline envelope beside its error', async () => {
    const run = await resultFor(VARIANTS[9]?.[1]);
    expect(run.result.data).toEqual({ fields: ['a'] });
  });

  it('cuts a huge message, suggestion and context, each cut marked, the content still JSON', async () => {
    const keys = Object.fromEntries(Array.from({ length: 50_000 }, (_, index) => [`k${index}`, index]));
    const run = await resultFor({ type: 'Big', message: HUGE, suggestion: HUGE, context: { keys, text: HUGE } });
    const error = run.result.error;
    expect(error?.type).toBe('Big');
    expect(error?.message.length).toBeLessThanOrEqual(4_100);
    expect(error?.message).toContain('[cut:');
    expect(error?.suggestion?.length).toBeLessThanOrEqual(1_100);
    expect(JSON.stringify(error?.context)).toContain('[cut:');
    expect(run.content.length).toBeLessThanOrEqual(16_384 + 64);
    expect(() => JSON.parse(run.content)).not.toThrow();
  });

  it('removes a configured secret and credential-shaped text from every field, and masks values under credential-named keys', async () => {
    const run = await resultFor(
      { type: 'Denied', message: `key ${SECRET} refused`, suggestion: `use another than ${encodeURIComponent(SECRET)}`, context: { password: 'hunter2-hunter2', note: 'Bearer Zx9Kq2Lm8Pw4Rt6Yv1Bn3', nested: { echo: SECRET } } },
      [SECRET],
    );
    expect(run.content).not.toContain(SECRET);
    expect(run.content).not.toContain('hunter2');
    expect(run.content).not.toContain('Zx9Kq2Lm8Pw4Rt6Yv1Bn3');
    expect(run.result.error).toMatchObject({ type: 'Denied', message: 'key [REDACTED] refused', context: { password: '[REDACTED]', nested: { echo: '[REDACTED]' } } });
  });
});

describe("a faultline envelope whose error message is blank: the same checks as any structured error", () => {
  const hostile = (message: string) => ({
    ok: false,
    error: { type: 'T'.repeat(100_000), message, suggestion: 's'.repeat(100_000), context: { password: 'hunter2-hunter2', api_key: 'k-0123456789abcdef', blob: 'x'.repeat(200_000) } },
  });

  for (const message of ['', ' ', '\n\t']) {
    it(`message ${JSON.stringify(message)}: the text content is the message, the type checked, the rest bounded and redacted`, async () => {
      const run = await resultFor(hostile(message));
      expect(run.outcome).toBe('error_result');
      const error = run.result.error;
      expect(error?.type).toBe('ToolExecutionFailed');
      expect(error?.message).toBe('the text content');
      expect(error?.suggestion?.length).toBeLessThanOrEqual(1_100);
      expect(error?.context).toMatchObject({ password: '[REDACTED]', api_key: '[REDACTED]' });
      expect(JSON.stringify(error?.context)).toContain('[cut:');
      expect(run.content).not.toContain('hunter2-hunter2');
      expect(run.content.length).toBeLessThan(20_000);
    });
  }

  it('without text content, a default message; never the raw envelope (mcpResultToToolResult directly)', () => {
    const result = mcpResultToToolResult({ content: [], isError: true, structuredContent: hostile('') }, { server: 'evil', tool: 't' });
    const text = JSON.stringify(result.toJSON());
    expect(result.error).toMatchObject({ type: 'ToolExecutionFailed', message: "The MCP tool 't' failed without saying why." });
    expect(text).not.toContain('hunter2-hunter2');
    expect(text).not.toContain('k-0123456789abcdef');
    expect(text.length).toBeLessThan(20_000);
  });

  it('a credential in the text content that becomes the message is redacted like a message', async () => {
    const server = fakeServer({
      'tools/list': () => ({ tools: [{ name: 't', inputSchema: { type: 'object' } }] }),
      'tools/call': () => ({ content: [{ type: 'text', text: `refused ${SECRET}` }], structuredContent: hostile(' '), isError: true }),
    });
    const client = createMCPClient({ url: 'https://mcp.example/mcp', fetch: server.fetch, retry: false, secrets: [SECRET] });
    const [tool] = await client.tools();
    const run = await runTool(tool as AnyTool, {}, quiet);
    await client.close();
    expect(run.result.error?.message).toBe('refused [REDACTED]');
  });
});
