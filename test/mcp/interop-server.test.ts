/**
 * Interop of our MCP server with the independent implementation: @modelcontextprotocol/sdk 1.32's `Client` over its
 * `StreamableHTTPClientTransport`, against `createMCPHandler` served on real loopback HTTP (demo/node/serve.mjs).
 *
 * | client                                   | our responseMode | revision   | result |
 * |------------------------------------------|------------------|------------|--------|
 * | SDK Client (asks 2025-11-25)             | json             | 2025-11-25 | interoperates: list, call, failures, unknown tool, cancel, DELETE |
 * | SDK Client (asks 2025-11-25)             | sse              | 2025-11-25 | interoperates, same checks |
 * | SDK Client, initialize rewritten (fetch) | json             | 2025-06-18 | interoperates; later requests carry mcp-protocol-version 2025-06-18 |
 * | SDK Client, initialize rewritten (fetch) | sse              | 2025-03-26 | interoperates; later requests carry mcp-protocol-version 2025-03-26 |
 *
 * The SDK's client always asks for its newest revision in `initialize` (no option changes it), so the older
 * revisions are forced through the transport's `fetch` option, rewriting the request on the wire: what the server
 * answers, and what the client sends afterwards, are then the SDK's own behaviour.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error — a plain JS module of the demo (the Node adapter of our fetch handler)
import { serve as serveJs } from '../../demo/node/serve.mjs';
import { createMCPHandler } from '../../src/mcp/handler.js';
import { within } from '../helpers/async.js';
import { crashTool, echoTool, lookupTool, SECRET, STACK_LINE, waitingTool } from './handler-harness.js';

interface Served {
  url: string;
  close(): Promise<void>;
}
const serve = serveJs as (handler: (request: Request) => Promise<Response>) => Promise<Served>;

/** What the SDK's transport sent: HTTP method, JSON-RPC method and the protocol-version header. */
interface Sent {
  method: string;
  rpc: string | undefined;
  version: string | null;
}

/** A fetch for the SDK transport that records each request and, when `force` is given, asks that revision in initialize. */
function wireFetch(sent: Sent[], force?: string): typeof fetch {
  return async (input, init) => {
    let body = init?.body;
    let rpc: string | undefined;
    if (typeof body === 'string') {
      const message = JSON.parse(body) as { method?: string; params?: Record<string, unknown> };
      rpc = message.method;
      if (force !== undefined && message.method === 'initialize') body = JSON.stringify({ ...message, params: { ...message.params, protocolVersion: force } });
    }
    sent.push({ method: init?.method ?? 'GET', rpc, version: new Headers(init?.headers).get('mcp-protocol-version') });
    return fetch(input, { ...init, body });
  };
}

async function connect(url: string, force?: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport; sent: Sent[] }> {
  const sent: Sent[] = [];
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { fetch: wireFetch(sent, force) });
  const client = new Client({ name: 'sdk-interop', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, sent };
}

describe.each([['json' as const], ['sse' as const]])("the SDK's Client against our handler (responseMode %s)", (responseMode) => {
  const waiting = waitingTool();
  let server: Served;
  beforeAll(async () => {
    const handler = createMCPHandler({
      tools: [echoTool, lookupTool, crashTool, waiting.tool],
      serverInfo: { name: 'faultline-interop', version: '0.1.0' },
      instructions: 'Call echo to test.',
      responseMode,
      secrets: [SECRET],
      logger: () => {},
    });
    server = await serve(handler);
  });
  afterAll(async () => server.close());

  it('connects on 2025-11-25, and gets serverInfo and instructions', async () => {
    const { client, transport, sent } = await connect(server.url);
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(transport.sessionId).toMatch(/^[\x21-\x7e]+$/);
    expect(client.getServerVersion()).toEqual({ name: 'faultline-interop', version: '0.1.0' });
    expect(client.getInstructions()).toBe('Call echo to test.');
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
    expect(sent.map((each) => each.rpc ?? each.method)).toEqual(expect.arrayContaining(['initialize', 'notifications/initialized']));
    await client.close();
  });

  it('lists the tools with their input schemas', async () => {
    const { client } = await connect(server.url);
    const { tools, nextCursor } = await client.listTools();
    expect(nextCursor).toBeUndefined();
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'lookup_order', 'crash', 'wait']);
    expect(tools[0]?.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } });
    await client.close();
  });

  it('calls a tool: structuredContent and the same JSON as text', async () => {
    const { client } = await connect(server.url);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'over the wire' } });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({ ok: true, data: { echo: 'over the wire' } });
    expect(result.content).toEqual([{ type: 'text', text: '{"ok":true,"data":{"echo":"over the wire"}}' }]);
    await client.close();
  });

  it('sees a failing tool as isError with structuredContent.error.type', async () => {
    const { client } = await connect(server.url);
    const result = await client.callTool({ name: 'lookup_order', arguments: { id: 7 } });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: { type: string; message: string } }).error).toMatchObject({ type: 'DataNotFoundError', message: 'No order 7.' });
    await client.close();
  });

  it('sees a crash as a ToolInternalError with no stack and no secret in the text', async () => {
    const { client } = await connect(server.url);
    const result = await client.callTool({ name: 'crash', arguments: {} });
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
    expect(result.isError).toBe(true);
    expect(JSON.parse(text).error.type).toBe('ToolInternalError');
    expect(text).not.toMatch(STACK_LINE);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    await client.close();
  });

  it('gets an McpError -32602 for an unknown tool', async () => {
    const { client } = await connect(server.url);
    const error = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain('Unknown tool: no_such_tool');
    await client.close();
  });

  it("cancelling a call through the SDK (its signal) aborts the tool's signal", async () => {
    const { client } = await connect(server.url);
    const controller = new AbortController();
    const pending = client.callTool({ name: 'wait', arguments: {} }, undefined, { signal: controller.signal }).catch((caught: unknown) => caught);
    const signal = await within(waiting.started, 2_000, 'the tool start');
    controller.abort('user stop');
    expect(await pending).toBeInstanceOf(Error);
    await within(
      new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }))),
      2_000,
      "the tool's signal",
    );
    expect(signal.aborted).toBe(true);
    await client.close();
  });

  it('terminateSession sends DELETE; the session is then gone (404 for whoever still uses it)', async () => {
    const { client, transport, sent } = await connect(server.url);
    const session = transport.sessionId as string;
    await transport.terminateSession();
    expect(sent.at(-1)?.method).toBe('DELETE');
    expect(transport.sessionId).toBeUndefined();
    const stale = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { sessionId: session });
    const second = new Client({ name: 'sdk-interop', version: '1.0.0' });
    await second.connect(stale); // a known session id: the SDK skips initialize
    const error = await second.callTool({ name: 'echo', arguments: { text: 'late' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(404);
    const after = await client.callTool({ name: 'echo', arguments: { text: 'no session' } }).catch((caught: unknown) => caught);
    expect((after as StreamableHTTPError).code).toBe(400); // the SDK dropped the id: no header at all
    await Promise.all([client.close(), second.close()]);
  });
});

describe.each([
  ['2025-06-18', 'json' as const],
  ['2025-03-26', 'sse' as const],
])("the SDK's Client on revision %s (responseMode %s)", (version, responseMode) => {
  let server: Served;
  beforeAll(async () => {
    server = await serve(createMCPHandler({ tools: [echoTool, lookupTool], serverInfo: { name: 'faultline-interop', version: '0.1.0' }, responseMode, logger: () => {} }));
  });
  afterAll(async () => server.close());

  it('negotiates the revision and then sends it in mcp-protocol-version', async () => {
    const { client, transport, sent } = await connect(server.url, version);
    expect(transport.protocolVersion).toBe(version);
    const result = await client.callTool({ name: 'echo', arguments: { text: version } });
    expect(result.structuredContent).toEqual({ ok: true, data: { echo: version } });
    const failed = await client.callTool({ name: 'lookup_order', arguments: { id: 1 } });
    expect(failed.isError).toBe(true);
    expect((await client.listTools()).tools).toHaveLength(2);
    const later = sent.filter((each) => each.rpc === 'tools/call' || each.rpc === 'tools/list');
    expect(later.length).toBe(3);
    for (const each of later) expect(each.version).toBe(version);
    await client.close();
  });
});

describe('raw initialize over loopback', () => {
  it.each([['2024-11-05'], ['2025-03-26'], ['2031-01-01']])('answers a client asking %s', async (asked) => {
    const server = await serve(createMCPHandler({ tools: [echoTool], serverInfo: { name: 'raw', version: '1' } }));
    try {
      const response = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
      });
      const body = (await response.json()) as { result: { protocolVersion: string } };
      expect(body.result.protocolVersion).toBe(asked === '2031-01-01' ? '2025-11-25' : asked);
      expect(response.headers.get('mcp-session-id')).toMatch(/^[\x21-\x7e]+$/);
    } finally {
      await server.close();
    }
  });
});
