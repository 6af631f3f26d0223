// Every body the MCP client reads, against a peer whose connection resets mid-body: the part that arrived is never
// taken for all the server said. A JSON answer cut off is a network failure (retried where the request is safe to
// repeat, a `NetworkError` for the model), never a "not JSON" protocol error blamed on the server — while a whole
// answer with the reset after it is the answer; an error body cut off (a request's, the handshake's notification's, a
// stream resumption's) leaves the HTTP status to decide and says the body broke off. The reset's cause reaches no one
// unredacted.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMCPClient, MCPError } from '../../src/mcp/index.js';
import { NetworkError } from '../../src/tools/network-error.js';
import { runTool } from '../../src/tools/run-tool.js';
import type { AnyTool } from '../../src/tools/define-tool.js';
import { fakeServer, rpcResult, sse } from './fake-server.js';

const URL = 'https://mcp.example/mcp';
const SECRET = 'mcp-PLANTED-reset-9f8e7d6c5b4a';
const TOOL = { name: 'find', inputSchema: { type: 'object' } };
const quiet = { logger: () => {} };

/** A response whose body sends the start of `text` (`sent` characters), then fails as a connection reset does (quoting the secret). */
function cutOff(text: string, init: ResponseInit = {}, sent = Math.max(1, Math.floor(text.length / 2))): Response {
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (started) return controller.error(new TypeError(`terminated: other side closed (proxy token ${SECRET})`));
      started = true; // the start is read first (an error at once would drop it from the queue)
      controller.enqueue(new TextEncoder().encode(text.slice(0, sent)));
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' }, ...init });
}

const answerText = (id: unknown, result: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result });
const failureOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as MCPError);
const leaks = (error: unknown) => JSON.stringify(error, (_key, item) => (item instanceof Error ? { ...item, message: item.message, cause: item.cause } : item)).includes(SECRET);

describe('a JSON answer cut off mid-body', () => {
  it('of an idempotent request (tools/list) is retried, and the retry succeeds', async () => {
    const server = fakeServer({ 'tools/list': (request, call) => (call === 1 ? cutOff(answerText(request.id, { tools: [TOOL] })) : { tools: [TOOL] }) });
    const client = createMCPClient({ url: URL, fetch: server.fetch, retry: { maxAttempts: 3, initialDelayMs: 1 }, secrets: [SECRET] });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['find']);
    expect(server.requests.filter((request) => request.method === 'tools/list')).toHaveLength(2);
    await client.close();
  });

  it('every time: a retryable network MCPError saying the answer broke off, its cause redacted (not a protocol "not JSON")', async () => {
    const server = fakeServer({ ping: (request) => cutOff(answerText(request.id, {})) });
    const client = createMCPClient({ url: URL, fetch: server.fetch, retry: { maxAttempts: 2, initialDelayMs: 1 }, secrets: [SECRET] });
    const error = await failureOf(client.ping());
    await client.close();
    expect(MCPError.isInstance(error)).toBe(true);
    expect({ reason: error?.reason, retryable: error?.retryable }).toEqual({ reason: 'network', retryable: true });
    expect(error?.message).toMatch(/^MCP ping to .* failed: its answer broke off: terminated: other side closed/);
    expect(error?.message).not.toMatch(/not JSON/);
    expect((error?.cause as Error | undefined)?.message).toContain('[REDACTED]');
    expect(leaks(error)).toBe(false);
    expect(server.requests.filter((request) => request.method === 'ping')).toHaveLength(2);
  });

  it('of tools/call (the server may have acted) is not repeated: the model sees a NetworkError', async () => {
    const server = fakeServer({
      'tools/list': () => ({ tools: [TOOL] }),
      'tools/call': (request) => cutOff(answerText(request.id, { content: [{ type: 'text', text: 'done' }] })),
    });
    const client = createMCPClient({ url: URL, fetch: server.fetch, retry: { maxAttempts: 3, initialDelayMs: 1 }, secrets: [SECRET] });
    const error = await failureOf(client.callTool('find', {}));
    expect({ reason: error?.reason, retryable: error?.retryable }).toEqual({ reason: 'network', retryable: false });
    const [tool] = await client.tools();
    const run = await runTool(tool as AnyTool, {}, quiet);
    await client.close();
    expect(server.requests.filter((request) => request.method === 'tools/call')).toHaveLength(2); // one each, none repeated
    expect(run.result.error?.type).toBe(NetworkError.name);
    expect(run.content).not.toContain(SECRET);
  });
});

describe('a whole JSON answer, the reset only after it', () => {
  it('is the answer: a tools/call that completed is not failed (or repeated) for the reset after it', async () => {
    const server = fakeServer({
      'tools/list': () => ({ tools: [TOOL] }),
      'tools/call': (request) => {
        const text = answerText(request.id, { content: [{ type: 'text', text: 'done' }] });
        return cutOff(text, {}, text.length);
      },
    });
    const client = createMCPClient({ url: URL, fetch: server.fetch, retry: false });
    await expect(client.callTool('find', {})).resolves.toMatchObject({ content: [{ type: 'text', text: 'done' }] });
    await client.close();
  });
});

describe('an error body cut off mid-body: the status decides, and the error says the body broke off', () => {
  const rpcErrorText = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32602, message: 'bad params' } });

  it('a request answered 400', async () => {
    const server = fakeServer({ 'tools/list': (request) => cutOff(rpcErrorText(request.id), { status: 400 }) });
    const client = createMCPClient({ url: URL, fetch: server.fetch, retry: false, secrets: [SECRET] });
    const error = await failureOf(client.listTools());
    await client.close();
    expect({ reason: error?.reason, status: error?.status }).toEqual({ reason: 'http', status: 400 });
    expect(error?.message).toMatch(/failed with 400 Bad Request: \{"jsonrpc":"2\.0".* \(its body broke off: terminated: other side closed \(proxy token \[REDACTED\]\)\)$/);
    expect(leaks(error)).toBe(false);
  });

  it('the notification that ends the handshake, answered 400', async () => {
    const server = fakeServer({});
    const fetchImpl: typeof fetch = async (input, init) => {
      if (typeof init?.body === 'string' && init.body.includes('notifications/initialized')) return cutOff('{"error":"refused"}', { status: 400 });
      return server.fetch(input, init);
    };
    const client = createMCPClient({ url: URL, fetch: fetchImpl, retry: false, secrets: [SECRET] });
    const error = await failureOf(client.connect());
    await client.close();
    expect({ reason: error?.reason, status: error?.status }).toEqual({ reason: 'http', status: 400 });
    expect(error?.message).toContain('its body broke off: ');
    expect(leaks(error)).toBe(false);
  });

  it('the GET resuming a request’s stream, answered 503', async () => {
    const server = fakeServer({ 'tools/list': () => sse(['id: e-1\nretry: 1\ndata: \n\n']) });
    const fetchImpl: typeof fetch = async (input, init) => (init?.method === 'GET' ? cutOff('Service Unavailable, try', { status: 503 }) : server.fetch(input, init));
    const client = createMCPClient({ url: URL, fetch: fetchImpl, retry: false, secrets: [SECRET] });
    const error = await failureOf(client.listTools());
    await client.close();
    expect(error?.reason).toBe('protocol');
    expect(error?.message).toMatch(/could not be resumed: .* failed with 503 Service Unavailable: Service Una.*\(its body broke off: terminated/);
    expect(leaks(error)).toBe(false);
  });
});

describe('a real connection reset mid-body (node:http, undici)', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

  it('tools/list whose first answer is cut by a destroyed socket is retried and succeeds', async () => {
    let lists = 0;
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        if (req.method !== 'POST') return res.writeHead(204).end();
        const message = JSON.parse(body) as { id?: number; method: string };
        if (message.id === undefined) return res.writeHead(202).end();
        const result = message.method === 'initialize' ? { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'x', version: '1' } } : { tools: [TOOL] };
        const full = answerText(message.id, result);
        if (message.method === 'tools/list' && ++lists === 1) {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(full.length) });
          res.write(full.slice(0, 20));
          setTimeout(() => res.socket?.destroy(), 20);
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(full);
      });
    });
    const address = await new Promise<AddressInfo>((resolve) => server!.listen(0, '127.0.0.1', () => resolve(server!.address() as AddressInfo)));
    const client = createMCPClient({ url: `http://127.0.0.1:${address.port}/mcp`, retry: { maxAttempts: 3, initialDelayMs: 1 } });
    const names = await client.listTools().then((tools) => tools.map((tool) => tool.name), (error: Error) => error.message);
    await client.close();
    expect(names).toEqual(['find']);
    expect(lists).toBe(2);
  });
});
