// One bound for what the MCP client reads, from its documented option: `maxResponseBytes` holds, in UTF-8 bytes, for
// a JSON body, for one event of a request's SSE stream and for one event of the server's own stream (`listen`) — a
// message at the bound passes through each, one byte more is refused with the typed error naming the option, at the
// default and at a raised value alike. No inner bound (an SSE line, an event) refuses what the option allows.
import { describe, expect, it } from 'vitest';
import { createMCPClient, MCPError, type MCPNotification } from '../../src/mcp/index.js';
import { fakeServer, sse } from './fake-server.js';

const URL = 'https://mcp.example/mcp';
const MiB = 1024 * 1024;
const bytes = (text: string) => new TextEncoder().encode(text).byteLength;

/** A `tools/call` answer to request `id` whose JSON text is exactly `size` UTF-8 bytes (its text of `unit`s, then `x`s). */
function answerOf(id: unknown, size: number, unit = 'x'): string {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`;
  const tail = '"}]}}';
  const room = size - bytes(head) - bytes(tail);
  const units = Math.floor(room / bytes(unit));
  return head + unit.repeat(units) + 'x'.repeat(room - units * bytes(unit)) + tail;
}

/** A notification whose JSON text is exactly `size` bytes. */
function notificationOf(size: number): string {
  const head = '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"';
  const tail = '"}}';
  return head + 'n'.repeat(size - bytes(head) - bytes(tail)) + tail;
}

const sseResponse = (data: string) => sse(['retry: 1\n\n', `data: ${data}\n\n`]);

async function call(limit: number | undefined, size: number, as: 'json' | 'sse', unit?: string) {
  const server = fakeServer({
    'tools/call': (request) => {
      const text = answerOf(request.id, size, unit);
      return as === 'json' ? new Response(text, { headers: { 'content-type': 'application/json' } }) : sseResponse(text);
    },
  });
  const client = createMCPClient({ url: URL, fetch: server.fetch, retry: false, ...(limit === undefined ? {} : { maxResponseBytes: limit }) });
  try {
    const result = await client.callTool('read_file', {});
    return { length: (result.content[0] as { text: string }).text.length };
  } catch (error) {
    return { error };
  } finally {
    await client.close();
  }
}

function expectRefused(error: unknown, limit: number) {
  expect(MCPError.isInstance(error)).toBe(true);
  expect(error).toMatchObject({ reason: 'protocol', retryable: false });
  expect((error as Error).message).toContain(`${limit} bytes) limit (maxResponseBytes)`);
  expect((error as Error).message).not.toMatch(/SSE line|characters/);
}

for (const [label, limit] of [
  ['the default (16 MiB)', undefined],
  ['a raised maxResponseBytes (64 MiB)', 64 * MiB],
] as const) {
  const bound = limit ?? 16 * MiB;
  describe(`maxResponseBytes at ${label}: one bound for every reader`, () => {
    for (const as of ['json', 'sse'] as const) {
      const reader = as === 'json' ? 'a JSON body' : 'an SSE event of the request’s stream';
      it(`${reader} of exactly ${bound} bytes passes whole`, async () => {
        const outcome = await call(limit, bound, as);
        expect(outcome.error).toBeUndefined();
        expect(outcome.length).toBeGreaterThan(bound - 100);
      });

      it(`${reader} one byte over is refused with an MCPError naming maxResponseBytes`, async () => {
        const outcome = await call(limit, bound + 1, as);
        expectRefused(outcome.error, bound);
      });
    }

    it('an SSE event of multi-byte text is counted in bytes: at the bound it passes, one byte over it is refused', async () => {
      expect((await call(limit, bound, 'sse', 'é')).error).toBeUndefined();
      expectRefused((await call(limit, bound + 1, 'sse', '€')).error, bound);
    });

    it("an event of the server's own stream (listen) at the bound is delivered; one byte over is a warning naming maxResponseBytes", async () => {
      for (const [size, delivered] of [
        [bound, true],
        [bound + 1, false],
      ] as const) {
        const notifications: MCPNotification[] = [];
        const warnings: string[] = [];
        let gets = 0;
        const server = fakeServer({ GET: () => (++gets === 1 ? sseResponse(notificationOf(size)) : new Response(null, { status: 405 })) });
        const client = createMCPClient({
          url: URL,
          fetch: server.fetch,
          retry: false,
          listen: true,
          ...(limit === undefined ? {} : { maxResponseBytes: limit }),
          onNotification: (notification) => notifications.push(notification),
          onWarning: (warning) => warnings.push(warning),
        });
        await client.connect();
        await expect.poll(() => warnings.some((warning) => warning.includes('stopped')), { timeout: 5_000 }).toBe(true);
        await client.close();
        expect(notifications.length).toBe(delivered ? 1 : 0);
        const refused = warnings.filter((warning) => warning.includes('(maxResponseBytes)'));
        expect(refused.length).toBe(delivered ? 0 : 1);
        if (!delivered) expect(refused[0]).toContain(`${bound} bytes) limit (maxResponseBytes)`);
      }
    });
  });
}

describe('a listing full of entries without a name: one bounded warning per listing', () => {
  it('200,000 nameless entries (1.2 MB, under maxResponseBytes) are one warning: the count and the first three, each cut', async () => {
    const server = fakeServer({ 'tools/list': () => ({ tools: [{ name: 'find', inputSchema: { type: 'object' } }, { description: 'd'.repeat(1_000) }, ...Array.from({ length: 199_999 }, () => ({}))] }) });
    const warnings: string[] = [];
    const client = createMCPClient({ url: URL, fetch: server.fetch, retry: false, onWarning: (warning) => warnings.push(warning) });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['find']);
    await client.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^MCP server 'fake' \(mcp\.example\): tools\/list: entries without a name skipped: 200000 \(\{"description":"d{100,}…, \{\}, \{\}, …\)$/);
    expect(warnings[0]!.length).toBeLessThan(600);
  });

  it('the skipped entries of every page are one warning, said after the listing', async () => {
    const server = fakeServer({
      'tools/list': (request) =>
        request.params?.cursor === undefined ? { tools: [{}, { name: 'a', inputSchema: { type: 'object' } }], nextCursor: 'p2' } : { tools: [{ name: 7 }, { name: 'b', inputSchema: { type: 'object' } }] },
    });
    const warnings: string[] = [];
    const client = createMCPClient({ url: URL, fetch: server.fetch, retry: false, onWarning: (warning) => warnings.push(warning) });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['a', 'b']);
    await client.close();
    expect(warnings).toEqual([`MCP server 'fake' (mcp.example): tools/list: entries without a name skipped: 2 ({}, {"name":7})`]);
  });

  it('a listing that fails after skipping entries still says what it skipped, once', async () => {
    const server = fakeServer({ 'tools/list': () => ({ tools: [{}, {}], nextCursor: 'again' }) });
    const warnings: string[] = [];
    const client = createMCPClient({ url: URL, fetch: server.fetch, retry: false, onWarning: (warning) => warnings.push(warning) });
    await expect(client.listTools()).rejects.toThrow(/repeats a cursor/);
    await client.close();
    expect(warnings).toEqual([`MCP server 'fake' (mcp.example): tools/list: entries without a name skipped: 4 ({}, {}, {}, …)`]);
  });
});
