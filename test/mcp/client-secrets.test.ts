// A planted secret traced through every field an MCP server controls: whatever part of an answer quotes it — a tool's
// name, description or schema, a result's text or structured content, an error's message or data, a status body, a
// WWW-Authenticate challenge, a notification — no error, result, tool definition or event we produce carries it.
import { describe, expect, it } from 'vitest';
import { createMCPClient, MCPError } from '../../src/mcp/index.js';
import { JSONRPCError } from '../../src/errors/jsonrpc-error.js';
import { runTool } from '../../src/tools/run-tool.js';
import { secretForms } from '../../src/internal/redact.js';
import { fakeServer, frame, rpcError, rpcResult, sse } from './fake-server.js';

const SECRET = 'mcp-PLANTED-SECRET-7a6b5c4d3e2f';
const forms = secretForms(SECRET);
const leaks = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value, (_key, item) => (item instanceof Error ? { ...item, message: item.message } : item));
  return forms.filter((form) => text.includes(form));
};

type Answer = (id: unknown) => Response;
/** Each field of a tools/call answer that a server controls, quoting the secret in one of its forms. */
const answers: Record<string, Answer> = {
  'result text': (id) => rpcResult(id, { content: [{ type: 'text', text: `key=${SECRET}` }] }),
  'result text, base64': (id) => rpcResult(id, { content: [{ type: 'text', text: btoa(SECRET) }] }),
  'structured content': (id) => rpcResult(id, { content: [], structuredContent: { nested: { deep: [SECRET] } } }),
  'isError text': (id) => rpcResult(id, { content: [{ type: 'text', text: `denied ${SECRET}` }], isError: true }),
  'faultline structured error': (id) => rpcResult(id, { content: [], isError: true, structuredContent: { ok: false, error: { type: 'X', message: SECRET, context: { k: SECRET }, suggestion: SECRET } } }),
  'JSON-RPC error message': (id) => rpcError(id, -32603, `boom ${SECRET}`),
  'JSON-RPC error data': (id) => rpcError(id, -32602, 'bad', { echo: SECRET, issues: [{ path: [SECRET] }] }),
  'JSON-RPC error URL-encoded': (id) => rpcError(id, -32000, encodeURIComponent(`a ${SECRET} b`)),
  'HTTP 500 body': () => new Response(`internal ${SECRET}`, { status: 500 }),
  'HTTP 401 challenge': () => new Response('', { status: 401, headers: { 'www-authenticate': `Bearer realm="${SECRET}"` } }),
  'HTTP 400 JSON-RPC body': (id) => rpcError(id, -32600, SECRET, SECRET, 400),
  'SSE result': (id) => sse([frame({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: SECRET }] } })]),
  'not JSON': () => new Response(`{${SECRET}`, { headers: { 'content-type': 'application/json' } }),
  'SSE not JSON': () => sse([`data: ${SECRET}\n\n`]),
};

describe('a planted secret in every field an MCP server controls', () => {
  for (const [field, answer] of Object.entries(answers)) {
    it(`${field}: not in the model's result, the developer log, the caller's error`, async () => {
      const server = fakeServer({
        'tools/list': () => ({ tools: [{ name: 'lookup', description: `Uses ${SECRET}`, inputSchema: { type: 'object', description: SECRET, properties: { q: { type: 'string', description: SECRET } } } }] }),
        'tools/call': (request) => answer(request.id),
      });
      const notifications: unknown[] = [];
      const client = createMCPClient({
        url: 'https://mcp.example/mcp',
        fetch: server.fetch,
        retry: false,
        headers: { authorization: `Bearer ${SECRET}` },
        onNotification: (notification) => notifications.push(notification),
      });
      const [tool] = await client.tools();
      expect(leaks({ name: tool?.name, description: tool?.description, schema: tool?.jsonSchema })).toEqual([]);
      const log: unknown[] = [];
      const run = await runTool(tool as NonNullable<typeof tool>, { q: 'x' }, { logger: (record) => log.push(record) });
      expect(leaks(run.content)).toEqual([]);
      expect(leaks(run.result.toJSON())).toEqual([]);
      expect(leaks(log)).toEqual([]);
      const failure = await client.callTool('lookup', { q: 'x' }).then(
        (result) => result,
        (error: unknown) => error,
      );
      if (MCPError.isInstance(failure) || JSONRPCError.isInstance(failure)) {
        expect(leaks({ message: failure.message, json: failure.toJSON(), data: (failure as JSONRPCError).data, headers: (failure as MCPError).headers, authenticate: (failure as MCPError).authenticate })).toEqual([]);
      } else {
        expect(leaks(failure)).toEqual([]);
      }
      expect(leaks(await client.listTools())).toEqual([]);
      expect(leaks(notifications)).toEqual([]);
    });
  }

  it('in the server\'s name, a tool\'s name, schema keys and result keys: nowhere the model or the caller reads', async () => {
    const base = fakeServer({
      'tools/list': () => ({ tools: [{ name: `t_${SECRET}`, inputSchema: { type: 'object', properties: { [SECRET]: { type: 'string' } } } }] }),
      'tools/call': (request, call) => (call === 1 ? new Response('', { status: 429, headers: { 'retry-after': '0' } }) : rpcResult(request.id, { content: [], structuredContent: { [SECRET]: { [`k-${SECRET}`]: 1 } } })),
    });
    const fetchImpl: typeof fetch = async (input, init) => {
      const response = await base.fetch(input, init);
      if (typeof init?.body === 'string' && init.body.includes('"initialize"')) {
        const answer = (await response.json()) as { result: Record<string, unknown> };
        return new Response(JSON.stringify({ ...answer, result: { ...answer.result, serverInfo: { name: `echo ${SECRET}`, version: SECRET } } }), { headers: response.headers });
      }
      return response;
    };
    const client = createMCPClient({ url: 'https://mcp.example/mcp', fetch: fetchImpl, retry: false, secrets: [SECRET] });
    const [tool] = await client.tools();
    expect(leaks({ name: tool?.name, description: tool?.description, schema: tool?.jsonSchema, server: client.server })).toEqual([]);
    const log: unknown[] = [];
    const limited = await runTool(tool as NonNullable<typeof tool>, {}, { logger: (record) => log.push(record) });
    expect(limited.result.error?.type).toBe('RateLimitError');
    const answered = await runTool(tool as NonNullable<typeof tool>, {}, { logger: (record) => log.push(record) });
    expect(answered.result.ok).toBe(true);
    expect(leaks([limited.content, answered.content, log])).toEqual([]);
  });

  it('a notification quoting it reaches onNotification without it', async () => {
    const server = fakeServer({ ping: (request) => sse([frame({ jsonrpc: '2.0', method: 'notifications/message', params: { data: SECRET } }), frame({ jsonrpc: '2.0', id: request.id, result: {} })]) });
    const notifications: unknown[] = [];
    const client = createMCPClient({ url: 'https://mcp.example/mcp', fetch: server.fetch, secrets: [SECRET], onNotification: (notification) => notifications.push(notification) });
    await client.ping();
    expect(notifications).toHaveLength(1);
    expect(leaks(notifications)).toEqual([]);
  });
});
