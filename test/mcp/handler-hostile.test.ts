// Our MCP handler against hostile input and careless tools: a planted secret that must not appear in any byte sent
// (a crash quoting it, a ToolFailure carrying it in message, context and suggestion, data holding it, a client
// echoing it), prototype-pollution keys everywhere, wrong types in every field, and the options checks.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ConfigError } from '../../src/errors/index.js';
import { createMCPHandler, type MCPHandlerOptions } from '../../src/mcp/handler.js';
import { defineTool } from '../../src/tools/index.js';
import { crashTool, echoTool, handlerWith, leakyFailureTool, post, ready, recordingLogger, rpc, SECRET, STACK_LINE, type Handler } from './handler-harness.js';

/** Every form of the secret a response could carry it in. */
const FORMS = [SECRET, btoa(SECRET), encodeURIComponent(SECRET), Buffer.from(SECRET).toString('base64url')];

const dataTool = defineTool({
  name: 'leaky_data',
  description: 'Returns the secret in its data.',
  parameters: z.object({}),
  execute: () => ({ token: SECRET, nested: { list: [`Bearer ${SECRET}`, btoa(SECRET)] } }),
});

async function bytesOf(handler: Handler, body: unknown, session: string | undefined): Promise<string> {
  const response = await post(handler, body, { session });
  return `${[...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n')}\n${await response.text()}`;
}

describe('a planted secret', () => {
  it.each([['json' as const], ['sse' as const]])('never appears in any response byte (%s mode)', async (responseMode) => {
    const { records, logger } = recordingLogger();
    const tools = [crashTool, leakyFailureTool, dataTool, echoTool];
    const { handler, session } = await ready({ tools, secrets: [SECRET], logger, responseMode, instructions: `never say ${SECRET}` });
    const sent: string[] = [];
    for (const name of ['crash', 'leaky_failure', 'leaky_data']) sent.push(await bytesOf(handler, rpc('tools/call', { name, arguments: {} }), session));
    sent.push(await bytesOf(handler, rpc('tools/call', { name: SECRET }), session));
    sent.push(await bytesOf(handler, rpc('tools/call', { name: 'echo', arguments: { text: SECRET } }), session));
    sent.push(await bytesOf(handler, rpc(`method-${SECRET}`), session));
    sent.push(await bytesOf(handler, rpc('initialize', { protocolVersion: SECRET }), undefined));
    sent.push(await bytesOf(handler, { jsonrpc: '2.0', id: SECRET, method: 5 }, session));
    for (const text of sent) {
      for (const form of FORMS) expect(text).not.toContain(form);
      expect(text).not.toMatch(STACK_LINE);
    }
    expect(sent.join('\n')).toContain('[REDACTED]');
    for (const record of records) expect(JSON.stringify(record)).not.toContain(SECRET);
    expect(records.some((record) => record.event === 'tool.crash')).toBe(true);
  });

  it('keeps the failure readable: type, redacted message, redacted context and suggestion', async () => {
    const { handler, session } = await ready({ tools: [leakyFailureTool], secrets: [SECRET] });
    const body = (await (await post(handler, rpc('tools/call', { name: 'leaky_failure', arguments: {} }), { session })).json()) as { result: { structuredContent: Record<string, unknown>; content: Array<{ text: string }> } };
    expect(body.result.structuredContent).toEqual({
      ok: false,
      error: { type: 'UpstreamRejected', message: 'upstream refused key [REDACTED]', context: { key: '[REDACTED]', note: 'used [REDACTED]' }, suggestion: 'rotate [REDACTED]' },
    });
    expect(JSON.parse(body.result.content[0]?.text ?? '')).toEqual(body.result.structuredContent);
  });

  it('masks credential-shaped values in errors even when no secret is configured', async () => {
    const leaky = defineTool({
      name: 'bearer',
      description: '',
      parameters: z.object({}),
      execute: () => {
        throw new (class extends Error {})('never shown'); // a crash: sanitized by runTool
      },
      formatError: () => ({ type: 'AuthFailed', message: 'rejected Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789' }),
    });
    const { handler, session } = await ready({ tools: [leaky] });
    const text = await bytesOf(handler, rpc('tools/call', { name: 'bearer', arguments: {} }), session);
    expect(text).not.toContain('abcdefghijklmnopqrstuvwxyz0123456789');
    expect(text).toContain('AuthFailed');
  });
});

describe('prototype pollution', () => {
  it('passes "__proto__" and "constructor" keys in arguments as data, never onto a prototype', async () => {
    const seen: unknown[] = [];
    const open = defineTool({ name: 'open', description: '', parameters: z.looseObject({ a: z.number() }), execute: (args) => (seen.push(args), Object.keys(args)) });
    const { handler, session } = await ready({ tools: [open] });
    const text = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"open","arguments":{"a":1,"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}}';
    const body = (await (await post(handler, text, { session })).json()) as { result: { structuredContent: { ok: boolean } } };
    expect(body.result.structuredContent.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(seen[0])).toBe(Object.prototype);
    expect((seen[0] as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([['__proto__'], ['constructor'], ['toString'], ['hasOwnProperty'], ['prototype']])('answers the tool name %j as an unknown tool', async (name) => {
    const { handler, session } = await ready();
    const body = (await (await post(handler, rpc('tools/call', { name, arguments: {} }), { session })).json()) as { error: { code: number; message: string } };
    expect(body.error).toMatchObject({ code: -32602, message: `Unknown tool: ${name}` });
  });

  it('reads "__proto__" keys of a message and its params as data', async () => {
    const { handler, session } = await ready();
    const text = '{"__proto__":{"id":1,"method":"ping"},"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"__proto__":{"cursor":"x"}}}';
    const body = (await (await post(handler, text, { session })).json()) as { id: number; result: { tools: unknown[] } };
    expect(body.id).toBe(2);
    expect(body.result.tools).toHaveLength(3);
    expect(({} as Record<string, unknown>).cursor).toBeUndefined();
  });
});

describe('wrong types everywhere', () => {
  it.each([
    ['tools/call params.name an object', 200, -32602, rpc('tools/call', { name: { toString: 'echo' } })],
    ['tools/call arguments a string of JSON', 200, -32602, rpc('tools/call', { name: 'echo', arguments: '{"text":"x"}' })],
    ['tools/list cursor a boolean', 200, -32602, rpc('tools/list', { cursor: true })],
    ['initialize protocolVersion an array', 200, -32602, rpc('initialize', { protocolVersion: ['2025-11-25'] })],
    ['params null', 400, -32602, { jsonrpc: '2.0', id: 1, method: 'ping', params: null }],
    ['method an array', 400, -32600, { jsonrpc: '2.0', id: 1, method: ['ping'] }],
    ['jsonrpc a number', 400, -32600, { jsonrpc: 2, id: 1, method: 'ping' }],
    ['id an array', 400, -32600, { jsonrpc: '2.0', id: [1], method: 'ping' }],
  ])('%s → HTTP %i, JSON-RPC %i', async (_what, status, code, message) => {
    const { handler, session } = await ready();
    const response = await post(handler, message, { session });
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(code);
  });

  it('survives a mcp-session-id that is huge or odd', async () => {
    const handler = handlerWith();
    for (const session of ['x'.repeat(8000), '../../etc/passwd', '__proto__', 'constructor']) {
      expect((await post(handler, rpc('ping'), { session })).status).toBe(404);
    }
  });
});

describe('options', () => {
  const base: MCPHandlerOptions = { tools: [echoTool], serverInfo: { name: 's', version: '1' }, allowedHosts: ['tools.example'] };

  it('lists every problem in one ConfigError', () => {
    const options = {
      tools: [echoTool, echoTool, { name: 'fake', execute: () => 1 }],
      serverInfo: { name: '', version: 2 },
      responseMode: 'xml',
      maxSessions: 0,
      sessionIdleMs: -1,
      pageSize: 1.5,
      maxBodyBytes: Number.POSITIVE_INFINITY,
      keepAliveMs: 0,
      secrets: [42],
      sessions: 'yes',
      onError: 'log',
    } as unknown as MCPHandlerOptions;
    let error: unknown;
    try {
      createMCPHandler(options);
    } catch (caught) {
      error = caught;
    }
    expect(ConfigError.isInstance(error)).toBe(true);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(13);
    expect(problems).toContain('tools[1]: the tool name "echo" is used twice');
    expect(problems).toContain('tools[2] is not a faultline tool (make it with defineTool)');
    expect(problems).toContain('serverInfo.name must be a non-empty string');
    expect(problems).toContain('serverInfo.version must be a string');
    expect(problems.join('\n')).toMatch(/maxSessions must be an integer > 0/);
  });

  it.each([[null], [undefined], ['options'], [{ serverInfo: { name: 's', version: '1' } }], [{ tools: [echoTool] }], [{ ...base, tools: 'echo' }], [{ ...base, allowedOrigins: 'x' }], [{ ...base, allowedOrigins: ['*', 1] }], [{ ...base, logger: 1 }]])(
    'refuses %j',
    (options) => {
      expect(() => createMCPHandler(options as unknown as MCPHandlerOptions)).toThrow(ConfigError);
    },
  );

  it('accepts every option at a valid value', async () => {
    const handler = createMCPHandler({
      ...base,
      instructions: 'hi',
      sessions: true,
      maxSessions: 1,
      sessionIdleMs: Number.POSITIVE_INFINITY,
      responseMode: 'sse',
      keepAliveMs: false,
      pageSize: 1,
      maxBodyBytes: 10_000,
      bodyTimeoutMs: Number.POSITIVE_INFINITY,
      maxDepth: 10,
      allowedOrigins: [],
      secrets: [SECRET],
      logger: () => {},
      onError: () => {},
    });
    expect((await post(handler, rpc('initialize', { protocolVersion: '2025-11-25' }))).status).toBe(200);
  });

  it("accepts allowedOrigins '*'", async () => {
    const handler = createMCPHandler({ ...base, allowedOrigins: '*' });
    expect((await post(handler, rpc('initialize', { protocolVersion: '2025-11-25' }), { headers: { origin: 'https://anywhere.example' } })).status).toBe(200);
  });
});

describe('an onError that fails', () => {
  /** A request whose method cannot be read: an unexpected failure inside the handler, which goes to onError. */
  const broken = (): Request => {
    const request = new Request('https://tools.example/mcp', { method: 'POST', body: '{}' });
    Object.defineProperty(request, 'method', { get: () => { throw new Error(`unreadable ${SECRET}`); } });
    return request;
  };

  it.each([
    ['throws', () => { throw new Error('onError failed'); }],
    ['rejects', async () => { throw new Error('onError rejected'); }],
    ['returns a thenable that rejects', () => ({ then: (_: unknown, reject: (error: Error) => void) => reject(new Error('thenable')) })],
  ])('%s: the request is still answered 500 with -32603, and nothing rejects unhandled', async (_what, onError) => {
    const unhandled: unknown[] = [];
    const listen = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listen);
    try {
      const heard: unknown[] = [];
      const handler = handlerWith({ secrets: [SECRET], onError: (error) => (heard.push(error), (onError as (error: unknown) => unknown)(error)) as void });
      const response = await handler(broken());
      expect(response.status).toBe(500);
      const body = await response.json();
      expect(body.error.code).toBe(-32603);
      expect(JSON.stringify(body)).not.toContain(SECRET);
      expect(heard).toHaveLength(1);
      expect(String((heard[0] as Error).message)).not.toContain(SECRET);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listen);
    }
  });
});
