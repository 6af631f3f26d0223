// The MCP client under races and odd-but-legal servers (review findings of issue 13): a server's own stream that
// spins or fails, a hostile pattern, sessions expiring under concurrent calls, streams a server closes after every
// event, one caller's abort during a shared handshake, close() during waits, HTTP statuses with JSON-RPC bodies,
// data that looks like a faultline envelope, a refused revision, a listing with nameless entries.
import { describe, expect, it } from 'vitest';
import { createMCPClient, MCPError } from '../../src/mcp/index.js';
import { runTool } from '../../src/tools/run-tool.js';
import type { AnyTool } from '../../src/tools/define-tool.js';
import { fakeServer, frame, rpcError, rpcResult, sse, type Script } from './fake-server.js';

const URL = 'https://mcp.example/mcp';
const TOOL = { name: 'find', description: 'Finds.', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = { logger: () => {} };

/** The fake server's fetch, each answer one macrotask later (as a real connection would be). */
function slowed(server: ReturnType<typeof fakeServer>, extra: (init: RequestInit | undefined) => Promise<Response> | undefined = () => undefined): typeof fetch {
  return async (input, init) => {
    await new Promise((resolve) => setImmediate(resolve));
    return (await extra(init)) ?? server.fetch(input, init);
  };
}

describe("the server's own stream (listen)", () => {
  it('a stream that ends at once with retry: 0 is not reconnected in a spin', async () => {
    let gets = 0;
    const server = fakeServer({});
    const fetchImpl = slowed(server, (init) => (init?.method === 'GET' ? (gets++, Promise.resolve(sse(['retry: 0\n\n']))) : undefined));
    const client = createMCPClient({ url: URL, fetch: fetchImpl, listen: true });
    await client.connect();
    await sleep(1_000);
    await client.close();
    expect(gets).toBeGreaterThan(0);
    expect(gets).toBeLessThan(6);
  });

  it('a transient 503 is retried; a 405 stops listening and says so', async () => {
    let gets = 0;
    const warnings: string[] = [];
    const server = fakeServer({});
    const fetchImpl = slowed(server, (init) => {
      if (init?.method !== 'GET') return undefined;
      gets++;
      return Promise.resolve(gets === 1 ? new Response('', { status: 503, headers: { 'retry-after': '0' } }) : new Response(null, { status: 405 }));
    });
    const client = createMCPClient({ url: URL, fetch: fetchImpl, listen: true, onWarning: (warning) => warnings.push(warning) });
    await client.connect();
    await expect.poll(() => warnings.length, { timeout: 3_000 }).toBe(1);
    expect(gets).toBe(2);
    expect(warnings[0]).toMatch(/own stream \(listen\) stopped: GET answered 405/);
    await client.close();
  });
});

describe('hostile schemas', () => {
  it('a pattern that backtracks for minutes is not run on the client; the model still sees it', async () => {
    const evil = { name: 'find', inputSchema: { type: 'object', properties: { q: { type: 'string', pattern: '^a*a*a*a*a*a*$' } }, patternProperties: { '^x': { type: 'string' } }, additionalProperties: false } };
    const server = fakeServer({ 'tools/list': () => ({ tools: [evil] }), 'tools/call': () => ({ content: [{ type: 'text', text: 'ok' }] }) });
    const client = createMCPClient({ url: URL, fetch: server.fetch });
    const [tool] = await client.tools();
    expect(JSON.stringify(tool?.jsonSchema)).toContain('a*a*a*');
    const started = performance.now();
    const run = await runTool(tool as AnyTool, { q: `${'a'.repeat(300)}!`, xyz: 'fine' }, quiet);
    expect(performance.now() - started).toBeLessThan(500);
    expect(run.result.toJSON()).toEqual({ ok: true, data: 'ok' });
  });
});

describe('sessions', () => {
  it('five concurrent calls meeting one forgotten session all succeed, after one new handshake', async () => {
    const server = fakeServer({ ping: () => ({}) });
    let slowInit = false;
    const fetchImpl: typeof fetch = async (input, init) => {
      const body = typeof init?.body === 'string' ? init.body : '';
      if (slowInit && body.includes('"initialize"')) await sleep(50);
      const id = /"id":(\d+)/.exec(body)?.[1];
      if (!body.includes('"initialize"') && id) await sleep(3 * (Number(id) % 7));
      return server.fetch(input, init);
    };
    const client = createMCPClient({ url: URL, fetch: fetchImpl });
    await client.connect();
    server.forget();
    slowInit = true;
    const settled = await Promise.allSettled(Array.from({ length: 5 }, () => client.ping()));
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(server.sessions).toBe(2);
  });

  it('one caller aborting during the shared handshake fails only that caller', async () => {
    const server = fakeServer({ ping: () => ({}) });
    const fetchImpl: typeof fetch = async (input, init) => {
      if (typeof init?.body === 'string' && init.body.includes('"initialize"')) await sleep(60);
      return server.fetch(input, init);
    };
    const client = createMCPClient({ url: URL, fetch: fetchImpl });
    const controller = new AbortController();
    const reason = new Error('A gave up');
    const first = client.ping({ signal: controller.signal });
    const second = client.ping();
    setTimeout(() => controller.abort(reason), 10);
    await expect(first).rejects.toBe(reason);
    await expect(second).resolves.toBeUndefined();
    expect(server.sessions).toBe(1);
  });

  it('a server answering a revision we do not speak is refused, and the next call tries a new handshake (not "closed")', async () => {
    let version = '2099-01-01';
    const server = fakeServer({ ping: () => ({}) });
    const fetchImpl: typeof fetch = async (input, init) => {
      const response = await server.fetch(input, init);
      if (typeof init?.body === 'string' && init.body.includes('"initialize"')) {
        const answer = (await response.json()) as { result: Record<string, unknown>; id: number };
        return new Response(JSON.stringify({ ...answer, result: { ...answer.result, protocolVersion: version } }), { headers: response.headers });
      }
      return response;
    };
    const client = createMCPClient({ url: URL, fetch: fetchImpl });
    await expect(client.ping()).rejects.toSatisfy((error) => MCPError.isInstance(error) && error.reason === 'protocol');
    expect(server.requests.some((request) => request.httpMethod === 'DELETE')).toBe(true);
    version = '2025-06-18';
    await expect(client.ping()).resolves.toBeUndefined();
  });
});

describe('streams a server closes after every event (SEP-1699 polling)', () => {
  const cutting = (cuts: number, newIds: boolean): Script => {
    let resumed = 0;
    return {
      'tools/call': () => sse([`id: e-0\nretry: 1\ndata: \n\n`]),
      GET: () => {
        resumed++;
        if (resumed <= cuts) return sse([`id: e-${newIds ? resumed : 0}\nretry: 1\ndata: \n\n`]);
        return sse([frame({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: `after ${resumed - 1} cuts` }] } }, `e-${resumed}`)]);
      },
    };
  };

  it('five resumptions that each bring a new event id: the call succeeds', async () => {
    const client = createMCPClient({ url: URL, fetch: fakeServer(cutting(5, true)).fetch });
    expect((await client.callTool('find', {})).content).toEqual([{ type: 'text', text: 'after 5 cuts' }]);
  });

  it('resumptions that bring nothing new end after maxResumes in a row, typed', async () => {
    const client = createMCPClient({ url: URL, fetch: fakeServer(cutting(10, false)).fetch, maxResumes: 3 });
    await expect(client.callTool('find', {})).rejects.toSatisfy((error) => MCPError.isInstance(error) && /4 times in a row with nothing new/.test(error.message));
  });
});

describe('close()', () => {
  it('ends a call waiting out a Retry-After at once, with no timer left behind', async () => {
    const server = fakeServer({ ping: () => new Response('', { status: 503, headers: { 'retry-after': '30' } }) });
    const client = createMCPClient({ url: URL, fetch: server.fetch });
    const pending = client.ping().catch((error: unknown) => error);
    await sleep(50);
    const started = performance.now();
    await client.close();
    const failure = await pending;
    expect(performance.now() - started).toBeLessThan(500);
    expect(MCPError.isInstance(failure) && failure.reason).toBe('closed');
  });

  it('during the handshake: connect() rejects closed, and nothing is sent after the DELETE', async () => {
    const server = fakeServer({});
    const fetchImpl: typeof fetch = async (input, init) => {
      const response = await server.fetch(input, init);
      if (typeof init?.body === 'string' && init.body.includes('notifications/initialized')) await sleep(100); // a slow answer
      return response;
    };
    const client = createMCPClient({ url: URL, fetch: fetchImpl });
    const connecting = client.connect().catch((error: unknown) => error);
    await sleep(30);
    await client.close();
    const failure = await connecting;
    expect(MCPError.isInstance(failure) && failure.reason).toBe('closed');
    await sleep(150);
    const order = server.requests.map((request) => request.method);
    expect(order.indexOf('DELETE')).toBeGreaterThan(-1);
    expect(order.slice(order.indexOf('DELETE') + 1)).toEqual([]);
  });
});

describe('HTTP statuses decide before a JSON-RPC body', () => {
  it('429 with a JSON-RPC error body is retried with its Retry-After, then a RateLimitError for the model', async () => {
    let calls = 0;
    const server = fakeServer({
      'tools/list': () => ({ tools: [TOOL] }),
      'tools/call': (request) => {
        calls++;
        const refused = rpcError(null, -32000, 'Too many requests');
        return new Response(refused.body, { status: 429, headers: { 'retry-after': '0', 'content-type': 'application/json' } });
        void request;
      },
    });
    const client = createMCPClient({ url: URL, fetch: server.fetch, retry: { maxAttempts: 2, initialDelayMs: 1 } });
    const [tool] = await client.tools();
    const run = await runTool(tool as AnyTool, { q: 'x' }, quiet);
    expect(run.result.error?.type).toBe('RateLimitError');
    expect(calls).toBe(2);
  });

  it('503 with the -32603 body a server writes on failure is retried, then succeeds', async () => {
    const server = fakeServer({ ping: (request, call) => (call === 1 ? rpcError(null, -32603, 'Internal error', undefined, 503) : rpcResult(request.id, {})) });
    const client = createMCPClient({ url: URL, fetch: server.fetch, retry: { maxAttempts: 2, initialDelayMs: 1 } });
    await expect(client.ping()).resolves.toBeUndefined();
  });
});

describe('results', () => {
  it('successful data that looks like a faultline error envelope stays data', async () => {
    const server = fakeServer({
      'tools/list': () => ({ tools: [TOOL] }),
      'tools/call': () => ({ content: [], structuredContent: { ok: false, error: { message: 'replica lagging' } } }),
    });
    const client = createMCPClient({ url: URL, fetch: server.fetch });
    const [tool] = await client.tools();
    expect((await runTool(tool as AnyTool, { q: 'x' }, quiet)).result.toJSON()).toEqual({ ok: true, data: { ok: false, error: { message: 'replica lagging' } } });
  });

  it('listing entries without a name are skipped and reported, never silently', async () => {
    const warnings: string[] = [];
    const server = fakeServer({ 'tools/list': () => ({ tools: [TOOL, { name: 5 }, null, { name: '' }] }) });
    const client = createMCPClient({ url: URL, fetch: server.fetch, onWarning: (warning) => warnings.push(warning) });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['find']);
    expect(warnings).toEqual([`MCP server 'fake' (mcp.example): tools/list: entries without a name skipped: 3 ({"name":5}, null, {"name":""})`]);
  });
});
