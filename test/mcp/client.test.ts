// The MCP client against a scripted server: each way an MCP exchange fails lands as its typed error (for the
// caller) and as the structured tool result a local tool would give (for the model); nothing hangs, nothing leaks.
import { describe, expect, it } from 'vitest';
import { createMCPClient, MCPError, type MCPClientOptions } from '../../src/mcp/index.js';
import { JSONRPCError } from '../../src/errors/jsonrpc-error.js';
import { ConfigError } from '../../src/errors/config-error.js';
import { runTool } from '../../src/tools/run-tool.js';
import type { ToolLogRecord } from '../../src/tools/tool-log.js';
import { fakeServer, frame, keepAliveOnly, rpcError, rpcResult, sse, type Script } from './fake-server.js';

const TOOL = { name: 'lookup', description: 'Looks up an order.', inputSchema: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] } };
const TOKEN = 'tok-PLANTED-9f8e7d6c5b4a';

function client(script: Script, options: Partial<MCPClientOptions> = {}, serverOptions: Parameters<typeof fakeServer>[1] = {}) {
  const server = fakeServer({ 'tools/list': () => ({ tools: [TOOL] }), ...script }, serverOptions);
  const mcp = createMCPClient({ url: 'https://mcp.example/mcp', fetch: server.fetch, retry: { maxAttempts: 3, initialDelayMs: 1, jitter: 'none' }, ...options });
  return { server, mcp };
}

async function lookup(script: Script, args: unknown = { order: '42' }, options: Partial<MCPClientOptions> = {}) {
  const { server, mcp } = client(script, options);
  const [tool] = await mcp.tools();
  const log: ToolLogRecord[] = [];
  const run = await runTool(tool as NonNullable<typeof tool>, args, { logger: (record) => log.push(record) });
  return { run, log, server, mcp };
}

describe('handshake', () => {
  it('sends initialize, then notifications/initialized, then the session and version headers on every request', async () => {
    const { server, mcp } = client({ ping: () => ({}) });
    await mcp.ping();
    expect(server.requests.map((request) => request.method)).toEqual(['initialize', 'notifications/initialized', 'ping']);
    const ping = server.requests[2];
    expect(ping?.headers.get('mcp-session-id')).toBe('s-1');
    expect(ping?.headers.get('mcp-protocol-version')).toBe('2025-11-25');
    expect(ping?.headers.get('accept')).toBe('application/json, text/event-stream');
    expect(server.requests[0]?.headers.get('mcp-protocol-version')).toBeNull();
  });

  it('refuses a server that answers with a revision we do not speak', async () => {
    const { mcp } = client({}, {}, { protocolVersion: '2099-01-01' });
    await expect(mcp.connect()).rejects.toSatisfy((error) => MCPError.isInstance(error) && error.reason === 'protocol' && /2099-01-01/.test(error.message));
  });

  it('one handshake for many concurrent first calls; a failed one is tried again by the next call', async () => {
    let fail = true;
    const server = fakeServer({ ping: () => ({}) });
    const flaky: typeof fetch = async (input, init) => {
      if (fail && JSON.parse(String(init?.body)).method === 'initialize') {
        fail = false;
        return new Response('no', { status: 400 });
      }
      return server.fetch(input, init);
    };
    const mcp = createMCPClient({ url: 'https://mcp.example/mcp', fetch: flaky, retry: false });
    await expect(mcp.ping()).rejects.toSatisfy((error) => MCPError.isInstance(error) && error.status === 400);
    await Promise.all(Array.from({ length: 10 }, () => mcp.ping()));
    expect(server.requests.filter((request) => request.method === 'initialize')).toHaveLength(1);
  });

  it('checks its options, every problem at once', () => {
    expect(() => createMCPClient({ url: 'ftp://x', timeouts: { requestMs: -1 }, protocolVersion: '1999' } as MCPClientOptions)).toThrow(ConfigError);
    try {
      createMCPClient({ url: 'ftp://x', timeouts: { requestMs: -1 }, protocolVersion: '1999' } as MCPClientOptions);
    } catch (error) {
      expect(String((error as Error).message)).toMatch(/url must be http.*requestMs.*protocolVersion/s);
    }
  });
});

describe('tools', () => {
  it('lists every page, and refuses a cursor that repeats', async () => {
    const pages = fakeServer({
      'tools/list': (request) => (request.params?.cursor === undefined ? { tools: [TOOL], nextCursor: 'p2' } : { tools: [{ ...TOOL, name: 'second' }] }),
    });
    const mcp = createMCPClient({ url: 'https://mcp.example/mcp', fetch: pages.fetch });
    expect((await mcp.listTools()).map((tool) => tool.name)).toEqual(['lookup', 'second']);
    const loop = fakeServer({ 'tools/list': () => ({ tools: [TOOL], nextCursor: 'same' }) });
    const looping = createMCPClient({ url: 'https://mcp.example/mcp', fetch: loop.fetch });
    await expect(looping.listTools()).rejects.toSatisfy((error) => MCPError.isInstance(error) && /repeats a cursor/.test(error.message));
  });

  it('makes names a model may call, unique, keeping the server name for the call', async () => {
    const { mcp, server } = client({
      'tools/list': () => ({ tools: [{ ...TOOL, name: 'docs.search' }, { ...TOOL, name: 'docs/search' }, { ...TOOL, name: 'x'.repeat(80) }] }),
      'tools/call': () => ({ content: [{ type: 'text', text: 'ok' }] }),
    });
    const tools = await mcp.tools({ prefix: 'kb_' });
    expect(tools.map((tool) => tool.name)).toEqual(['kb_docs_search', 'kb_docs_search_2', `kb_${'x'.repeat(61)}`]);
    await runTool(tools[1] as NonNullable<(typeof tools)[1]>, { order: '1' }, { logger: () => {} });
    expect(server.requests.find((request) => request.method === 'tools/call')?.params?.name).toBe('docs/search');
  });

  it('a faultline server\'s structured error reaches the model whole', async () => {
    const error = { type: 'DataNotFoundError', message: 'No order 42.', context: { order: '42' }, suggestion: 'Ask for the order number.' };
    const { run } = await lookup({ 'tools/call': () => ({ content: [{ type: 'text', text: JSON.stringify({ ok: false, error }) }], structuredContent: { ok: false, error }, isError: true }) });
    expect(run.result.toJSON()).toEqual({ ok: false, error });
    expect(run.outcome).toBe('error_result');
  });

  it('a plain isError result: its text is the message', async () => {
    const { run } = await lookup({ 'tools/call': () => ({ content: [{ type: 'text', text: 'Order 42 is archived.' }], isError: true }) });
    expect(run.result.toJSON()).toEqual({ ok: false, error: { type: 'ToolExecutionFailed', message: 'Order 42 is archived.' } });
  });

  it('-32602 for an unknown tool is a ToolNotFound listing the tools the model can call that the server still has', async () => {
    const { mcp } = client({
      'tools/list': () => ({ tools: [TOOL, { ...TOOL, name: 'find' }, { ...TOOL, name: 'gone' }] }),
      'tools/call': (request) => rpcError(request.id, -32602, 'Unknown tool: lookup', { available: ['find', 'lookup_v2'] }),
    });
    const [tool] = await mcp.tools({ prefix: 'shop_' });
    expect(tool?.name).toBe('shop_lookup');
    const run = await runTool(tool as NonNullable<typeof tool>, { order: '1' }, { logger: () => {} });
    expect(run.result.error).toMatchObject({ type: 'ToolNotFound', context: { tool: 'shop_lookup', available: ['shop_find', 'shop_gone'] } });
    expect(run.result.error?.message).toContain("no tool 'shop_lookup'");
  });

  it('-32602 for bad arguments is an InputValidationError naming the fields the server gave', async () => {
    const { run } = await lookup({
      'tools/call': (request) => rpcError(request.id, -32602, 'Invalid arguments', { issues: [{ path: ['order'], message: 'must be 6 digits' }] }),
    });
    expect(run.result.error?.type).toBe('InputValidationError');
    expect(run.result.error?.context).toMatchObject({ fields: ['order'] });
    expect(run.result.error?.message).toContain('Invalid arguments');
  });

  it('-32603 is a sanitized ToolInternalError for the model, the full error in the developer log', async () => {
    const { run, log } = await lookup({ 'tools/call': (request) => rpcError(request.id, -32603, 'pg: relation "orders" does not exist at db-7.internal') });
    expect(run.outcome).toBe('crash');
    expect(run.result.error?.type).toBe('ToolInternalError');
    expect(run.content).not.toContain('db-7.internal');
    expect(run.result.error?.message).toContain('JSON-RPC -32603');
    expect(JSON.stringify(log)).toContain('db-7.internal');
  });

  it('arguments the schema refuses never reach the server', async () => {
    const { run, server } = await lookup({ 'tools/call': () => ({ content: [] }) }, { order: 42 });
    expect(run.outcome).toBe('invalid_arguments');
    expect(server.requests.some((request) => request.method === 'tools/call')).toBe(false);
  });
});

describe('HTTP failures', () => {
  it('401 is an AuthenticationError for the model; the caller gets the WWW-Authenticate challenge, never the token', async () => {
    const echoing = (request: { headers: Headers }) =>
      new Response(`bad token ${request.headers.get('authorization')}`, { status: 401, headers: { 'www-authenticate': 'Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource"' } });
    const { run, mcp } = await lookup({ 'tools/call': echoing }, undefined, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(run.result.error?.type).toBe('AuthenticationError');
    expect(JSON.stringify(run)).not.toContain(TOKEN);
    const failure = await mcp.callTool('lookup', { order: '1' }).catch((error: unknown) => error);
    expect(MCPError.isInstance(failure) && failure.authenticate).toContain('resource_metadata');
    expect(JSON.stringify((failure as MCPError).toJSON())).not.toContain(TOKEN);
    expect(String((failure as Error).message)).not.toContain(TOKEN);
  });

  it('403 is a PermissionError', async () => {
    const { run } = await lookup({ 'tools/call': () => new Response('', { status: 403 }) });
    expect(run.result.error?.type).toBe('PermissionError');
  });

  it('429 and 503 are retried, Retry-After honoured; then the call succeeds', async () => {
    const started = performance.now();
    const { run, server } = await lookup({
      'tools/call': (request, call) =>
        call === 1 ? new Response('slow down', { status: 429, headers: { 'retry-after': '0.2' } }) : call === 2 ? new Response('', { status: 503 }) : rpcResult(request.id, { content: [{ type: 'text', text: 'found' }] }),
    });
    expect(run.result.toJSON()).toEqual({ ok: true, data: 'found' });
    expect(server.requests.filter((request) => request.method === 'tools/call')).toHaveLength(3);
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
  });

  it('429 past the retries is a RateLimitError with its Retry-After', async () => {
    const { run } = await lookup({ 'tools/call': () => new Response('', { status: 429, headers: { 'retry-after': '0' } }) });
    expect(run.result.error?.type).toBe('RateLimitError');
  });

  it('a network failure is retried, then a NetworkError', async () => {
    const server = fakeServer({ 'tools/list': () => ({ tools: [TOOL] }) });
    let calls = 0;
    const broken: typeof fetch = async (input, init) => {
      if (JSON.parse(String(init?.body ?? '{}')).method === 'tools/call') {
        calls++;
        throw new TypeError('fetch failed');
      }
      return server.fetch(input, init);
    };
    const mcp = createMCPClient({ url: 'https://mcp.example/mcp', fetch: broken, retry: { maxAttempts: 2, initialDelayMs: 1 } });
    const [tool] = await mcp.tools();
    const run = await runTool(tool as NonNullable<typeof tool>, { order: '1' }, { logger: () => {} });
    expect(run.result.error?.type).toBe('NetworkError');
    expect(calls).toBe(2);
  });

  it('404 to a request with a session: re-initializes once and retries, then a typed error', async () => {
    let forgetEvery = false;
    const { server, mcp } = client({
      ping: (request) => {
        if (forgetEvery) server.forget();
        return rpcResult(request.id, {});
      },
    });
    await mcp.ping();
    server.forget();
    await mcp.ping();
    expect(server.sessions).toBe(2);
    expect(mcp.sessionId).toBe('s-2');
    forgetEvery = true;
    await mcp.ping(); // answered, and the session is forgotten after it
    await expect(mcp.ping()).resolves.toBeUndefined(); // forgot s-3 after answering: one new handshake helps
    const stubborn = fakeServer({ ping: () => new Response('gone', { status: 404 }) });
    const lost = createMCPClient({ url: 'https://mcp.example/mcp', fetch: stubborn.fetch });
    await expect(lost.ping()).rejects.toSatisfy((error) => MCPError.isInstance(error) && error.reason === 'session_expired');
    expect(stubborn.sessions).toBe(2);
  });

  it('a JSON-RPC error in a failed HTTP answer is a JSONRPCError', async () => {
    const { mcp } = client({ ping: (request) => rpcError(request.id, -32600, 'Bad Request', undefined, 400) });
    await expect(mcp.ping()).rejects.toSatisfy((error) => JSONRPCError.isInstance(error) && error.rpcCode === -32600 && error.status === 400);
  });
});

describe('streams and time limits', () => {
  it('answers in an SSE stream, with notifications before the response handed to onNotification', async () => {
    const seen: string[] = [];
    const { mcp } = client(
      {
        'tools/call': (request) =>
          sse([
            frame({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }),
            frame({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }),
            frame({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: 'done' }] } }),
          ]),
      },
      { onNotification: (notification) => seen.push(notification.method) },
    );
    let changed = 0;
    mcp.onToolsChanged(() => changed++);
    expect((await mcp.callTool('lookup', { order: '1' })).content).toEqual([{ type: 'text', text: 'done' }]);
    expect(seen).toEqual(['notifications/progress', 'notifications/tools/list_changed']);
    expect(changed).toBe(1);
  });

  it('answers a ping request the server sends in a stream', async () => {
    const { mcp, server } = client({
      'tools/call': (request) =>
        sse([frame({ jsonrpc: '2.0', id: 'srv-1', method: 'ping' }), frame({ jsonrpc: '2.0', id: request.id, result: { content: [] } })]),
    });
    await mcp.callTool('lookup', {});
    await expect.poll(() => server.requests.some((request) => request.method === 'response' && request.id === 'srv-1')).toBe(true);
  });

  it('a server that sends only keep-alives still times out, and is told to cancel', async () => {
    const { mcp, server } = client({ 'tools/call': () => keepAliveOnly(5) }, { timeouts: { requestMs: 150 } });
    const failure = await mcp.callTool('lookup', {}).catch((error: unknown) => error);
    expect(MCPError.isInstance(failure) && failure.reason === 'timeout' && failure.timeout === 'request').toBe(true);
    await expect.poll(() => server.requests.find((request) => request.method === 'notifications/cancelled')?.params?.requestId).toBeTypeOf('number');
  });

  for (const [name, status, type] of [
    ['a JSON answer', 200, 'application/json'],
    ['an error answer', 500, 'text/plain'],
    ['an SSE answer that never finishes its line', 200, 'text/event-stream'],
  ] as const) {
    it(`${name} that trickles bytes forever still times out`, async () => {
      const trickle = () => {
        let timer: ReturnType<typeof setInterval> | undefined;
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(type === 'text/event-stream' ? 'data: {' : '{'));
            timer = setInterval(() => controller.enqueue(new TextEncoder().encode(' ')), 5);
          },
          cancel() {
            clearInterval(timer);
          },
        });
        return new Response(body, { status, headers: { 'content-type': type } });
      };
      const { mcp } = client({ 'tools/call': trickle }, { timeouts: { requestMs: 150 }, retry: false });
      const started = performance.now();
      await expect(mcp.callTool('lookup', {})).rejects.toSatisfy((error) => MCPError.isInstance(error) && error.reason === 'timeout');
      expect(performance.now() - started).toBeLessThan(1_000);
    });
  }

  it('the same keep-alive server through a tool: a TimeoutError result, not a hang', async () => {
    const { run } = await lookup({ 'tools/call': () => keepAliveOnly(5) }, undefined, { timeouts: { requestMs: 150 } });
    expect(run.outcome).toBe('timeout');
    expect(run.result.error?.type).toBe('TimeoutError');
  });

  it('a stream that ends before its response, with event ids: resumed with Last-Event-ID', async () => {
    let resumedWith: string | null = null;
    const { mcp } = client({
      'tools/call': () => sse(['id: e-1\nretry: 5\ndata: \n\n']),
      GET: (request) => {
        resumedWith = request.headers.get('last-event-id');
        const id = 2; // the tools/call request's id: initialize is 1
        return sse([frame({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'resumed' }] } }, 'e-2')]);
      },
    });
    expect((await mcp.callTool('lookup', {})).content).toEqual([{ type: 'text', text: 'resumed' }]);
    expect(resumedWith).toBe('e-1');
  });

  it('a stream that ends before its response, without event ids: a typed protocol error', async () => {
    const { mcp } = client({ 'tools/call': () => sse([frame({ jsonrpc: '2.0', method: 'notifications/progress', params: {} })]) });
    await expect(mcp.callTool('lookup', {})).rejects.toSatisfy((error) => MCPError.isInstance(error) && error.reason === 'protocol' && /ended before the response/.test(error.message));
  });

  it('a server that cannot resume (GET 405) is a typed error', async () => {
    const { mcp } = client({ 'tools/call': () => sse(['id: e-1\ndata: \n\n']), GET: () => new Response(null, { status: 405 }) });
    await expect(mcp.callTool('lookup', {})).rejects.toSatisfy((error) => MCPError.isInstance(error) && /could not be resumed/.test(error.message));
  });
});

describe('malformed answers are typed errors with bounds', () => {
  const cases: Array<[string, (id: unknown) => Response, RegExp]> = [
    ['not JSON', () => new Response('{oops', { headers: { 'content-type': 'application/json' } }), /not JSON/],
    ['not JSON-RPC', () => Response.json({ result: 1 }), /not a JSON-RPC 2.0 message/],
    ['neither result nor error', (id) => Response.json({ jsonrpc: '2.0', id }), /neither result nor error/],
    ['another id', () => Response.json({ jsonrpc: '2.0', id: 999, result: {} }), /no response to request/],
    ['a wrong content type', () => new Response('<html>', { headers: { 'content-type': 'text/html' } }), /content type "text\/html"/],
    ['no content type', () => new Response(null), /no content type/],
    ['too deep', (id) => new Response(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${'['.repeat(5000)}${']'.repeat(5000)}}`, { headers: { 'content-type': 'application/json' } }), /nested too deeply/],
    ['a result that is not a tool result', (id) => rpcResult(id, { content: 'text' }), /not a tool result/],
  ];
  for (const [name, answer, message] of cases) {
    it(name, async () => {
      const { mcp } = client({ 'tools/call': (request) => answer(request.id) });
      await expect(mcp.callTool('lookup', {})).rejects.toSatisfy((error) => MCPError.isInstance(error) && error.reason === 'protocol' && message.test(error.message));
    });
  }

  it('a body over maxResponseBytes', async () => {
    const { mcp } = client({ 'tools/call': (request) => rpcResult(request.id, { content: [{ type: 'text', text: 'x'.repeat(5000) }] }) }, { maxResponseBytes: 1000 });
    await expect(mcp.callTool('lookup', {})).rejects.toSatisfy((error) => MCPError.isInstance(error) && /over the .* limit/.test(error.message));
  });

  it('an SSE event over maxResponseBytes', async () => {
    const { mcp } = client({ 'tools/call': (request) => sse([frame({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: 'x'.repeat(5000) }] } })]) }, { maxResponseBytes: 1000 });
    await expect(mcp.callTool('lookup', {})).rejects.toSatisfy((error) => MCPError.isInstance(error) && error.reason === 'protocol');
  });
});

describe('secrets', () => {
  it('a server quoting our credential back: removed from the result the model sees and from every error', async () => {
    const quote = (request: { headers: Headers; id?: string | number }) => rpcResult(request.id, { content: [{ type: 'text', text: `you sent ${request.headers.get('authorization')}` }], isError: true });
    const { run, mcp } = await lookup({ 'tools/call': quote, ping: (request) => rpcError(request.id, -32000, `denied for ${request.headers.get('authorization')}`, { echo: TOKEN }) }, undefined, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(run.content).not.toContain(TOKEN);
    expect(run.content).toContain('[REDACTED]');
    const failure = await mcp.ping().catch((error: unknown) => error);
    expect(JSONRPCError.isInstance(failure)).toBe(true);
    expect(JSON.stringify({ message: (failure as Error).message, json: (failure as JSONRPCError).toJSON(), data: (failure as JSONRPCError).data })).not.toContain(TOKEN);
  });
});
