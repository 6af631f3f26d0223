// A call's options are checked before the call starts: `null` options, a signal that is not an AbortSignal or a
// timeoutMs that is not a number > 0 get a typed ConfigError naming the option, and the handshake a refused call
// would have shared is never left failing with nobody listening (an unhandled rejection ends a Node process). A
// tool name or method that is not a string, or arguments that are not an object, are refused the same way.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { createMCPClient, type MCPClient } from '../../src/mcp/index.js';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

describe('MCP call options', () => {
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
  });

  it('tools() on a signal that had already aborted, against a server that then fails: nothing is left unhandled', async () => {
    process.on('unhandledRejection', onUnhandled);
    unhandled.length = 0;
    // The handshake succeeds; the tools listing fails a moment later, after the aborted caller stopped waiting.
    const fetch = async (_url: unknown, init?: RequestInit): Promise<Response> => {
      const body = JSON.parse(String(init?.body)) as { id?: number; method: string };
      if (body.method === 'initialize') return Response.json({ jsonrpc: '2.0', id: body.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } });
      if (body.id === undefined) return new Response(null, { status: 202 });
      await new Promise((resolve) => setTimeout(resolve, 5));
      return new Response('down', { status: 500 });
    };
    const client = createMCPClient({ url: 'http://127.0.0.1:9/mcp', retry: false, fetch });
    await client.connect();
    const error = await client.tools({ signal: AbortSignal.abort() }).catch((caught: unknown) => caught);
    expect((error as Error).name).toBe('AbortError');
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(unhandled).toEqual([]);
    await client.close();
  });

  it.each([
    ['null options', null, /options must be an object \(got null\)/],
    ['a string signal', { signal: 'x' }, /signal must be an AbortSignal \(got "x"\)/],
    ['an object signal', { signal: {} }, /signal must be an AbortSignal \(got an object\)/],
    ['a NaN timeoutMs', { timeoutMs: Number.NaN }, /timeoutMs must be a number > 0 or Infinity \(got NaN\)/],
    ['a negative timeoutMs', { timeoutMs: -1 }, /got -1/],
  ])('%s: every call refuses them with a ConfigError, and nothing is left unhandled', async (_name, options, message) => {
    process.on('unhandledRejection', onUnhandled);
    unhandled.length = 0;
    // A server that never answers: a call that started would hang on it, so a refusal is the options check's.
    const client = createMCPClient({ url: 'http://127.0.0.1:9/mcp', retry: false, fetch: () => new Promise<Response>(() => {}) });
    const calls = [client.callTool('t', {}, options as never), client.listTools(options as never), client.ping(options as never), client.connect(options as never), client.tools(options as never), client.request('x', {}, options as never)];
    for (const call of calls) {
      const error = await call.catch((caught: unknown) => caught);
      expect(ConfigError.isInstance(error), String(error)).toBe(true);
      expect((error as Error).message).toMatch(message);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled).toEqual([]);
  });

  it.each([
    ['a tool name that is a number', (client: MCPClient) => client.callTool(12 as never), /the tool name must be a non-empty string \(got 12\)/],
    ['an empty tool name', (client: MCPClient) => client.callTool(''), /the tool name must be a non-empty string \(got ""\)/],
    ['null arguments', (client: MCPClient) => client.callTool('t', null as never), /arguments must be an object \(got null\)/],
    ['arguments that are an array', (client: MCPClient) => client.callTool('t', [1] as never), /arguments must be an object/],
    ['a method that is a Symbol', (client: MCPClient) => client.request(Symbol('m') as never), /the method must be a non-empty string \(got a symbol\)/],
    ['a method that is null', (client: MCPClient) => client.request(null as never), /the method must be a non-empty string \(got null\)/],
    ['params that are a string', (client: MCPClient) => client.request('x', 'y' as never), /params must be an object \(got "y"\)/],
    ['params that are null (sent as "params":null, which JSON-RPC refuses)', (client: MCPClient) => client.request('x', null as never), /params must be an object \(got null\)/],
  ])('%s: a ConfigError before anything is sent (it would be sent as given, or crash a message)', async (_name, call, message) => {
    let fetched = 0;
    const client = createMCPClient({ url: 'http://127.0.0.1:9/mcp', retry: false, fetch: async () => (fetched++, new Response('{}', { status: 500 })) });
    const error = await call(client).catch((caught: unknown) => caught);
    expect(ConfigError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
    expect(fetched).toBe(0);
  });

  it('a caller that gives up on the handshake leaves no unhandled rejection when the handshake fails later', async () => {
    process.on('unhandledRejection', onUnhandled);
    unhandled.length = 0;
    const client = createMCPClient({ url: 'http://127.0.0.1:9/mcp', retry: false, fetch: async () => Promise.reject(new TypeError('fetch failed')) });
    const controller = new AbortController();
    controller.abort(new Error('gave up'));
    await expect(client.connect({ signal: controller.signal })).rejects.toThrow('gave up');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled).toEqual([]);
    await client.close();
  });
});
