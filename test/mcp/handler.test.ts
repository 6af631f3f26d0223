// Our MCP server (createMCPHandler) driven as a plain fetch handler with `new Request(...)`, no network: the lifecycle
// (initialize, version negotiation, notifications), ping, tools/list with pagination, tools/call for every outcome
// of a faultline tool, unknown tools and methods, unexpected failures. The SSE response mode: handler-sse.test.ts;
// transport refusals: handler-transport.test.ts; sessions and cancellation: handler-sessions.test.ts; hostile input
// and planted secrets: handler-hostile.test.ts; the SDK's client over loopback HTTP: interop-server.test.ts.
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { ToolCatalog } from '../../src/mcp/handler-tools.js';
import { MCP_LATEST_PROTOCOL_VERSION, MCP_PROTOCOL_VERSIONS } from '../../src/mcp/protocol.js';
import { defineTool, ToolResult } from '../../src/tools/index.js';
import {
  call,
  echoTool,
  handlerWith,
  initialize,
  jsonOf,
  notification,
  post,
  ready,
  recordingLogger,
  rpc,
  STACK_LINE,
} from './handler-harness.js';

describe('initialize', () => {
  it.each(MCP_PROTOCOL_VERSIONS.map((version) => [version]))('answers a client asking for %s with that revision', async (version) => {
    const { result } = await initialize(handlerWith(), version);
    expect(result.protocolVersion).toBe(version);
  });

  it('answers a revision it does not speak with the newest one', async () => {
    const { result } = await initialize(handlerWith(), '2099-01-01');
    expect(result.protocolVersion).toBe(MCP_LATEST_PROTOCOL_VERSION);
  });

  it('answers capabilities, serverInfo and instructions, and starts a session with a random visible-ASCII id', async () => {
    const handler = handlerWith({ serverInfo: { name: 'inventory', version: '2.0.0', title: 'Inventory' }, instructions: 'Use lookup_order for orders.' });
    const first = await initialize(handler);
    const second = await initialize(handler);
    expect(first.result).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: 'inventory', version: '2.0.0', title: 'Inventory' },
      instructions: 'Use lookup_order for orders.',
    });
    expect(first.session).toMatch(/^[\x21-\x7e]{16,}$/);
    expect(second.session).not.toBe(first.session);
  });

  it('leaves instructions out when none are configured', async () => {
    const { result } = await initialize(handlerWith());
    expect(Object.keys(result).sort()).toEqual(['capabilities', 'protocolVersion', 'serverInfo']);
  });

  it('sends no session header when stateless', async () => {
    const { session, result } = await initialize(handlerWith({ sessions: false }));
    expect(session).toBeUndefined();
    expect(result.protocolVersion).toBe('2025-11-25');
  });

  it('answers -32602 (HTTP 200) when params.protocolVersion is missing or not a string, and starts no session', async () => {
    for (const params of [undefined, {}, { protocolVersion: 20251125 }]) {
      const response = await post(handlerWith(), rpc('initialize', params, 7));
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      const body = await jsonOf(response);
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602 } });
    }
  });

  it('accepts notifications/initialized with HTTP 202 and an empty body', async () => {
    const { handler, session } = await ready();
    const response = await post(handler, notification('notifications/initialized'), { session });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });
});

describe('ping and unknown methods', () => {
  it('answers ping with an empty result', async () => {
    const { handler, session } = await ready();
    expect(await call(handler, session, 'ping', undefined, 'p-1')).toEqual({ jsonrpc: '2.0', id: 'p-1', result: {} });
  });

  it.each([['resources/list'], ['prompts/get'], ['constructor'], ['__proto__'], ['toString'], ['']])('answers %j with -32601', async (method) => {
    const { handler, session } = await ready();
    const body = await call(handler, session, method, {}, 3);
    expect(body.id).toBe(3);
    expect(body.error.code).toBe(-32601);
    expect(body.error.message).toBe(`Method not found: ${method}`);
  });

  it('ignores unknown notifications with 202', async () => {
    const { handler, session } = await ready();
    expect((await post(handler, notification('notifications/whatever', { a: 1 }), { session })).status).toBe(202);
  });
});

describe('tools/list', () => {
  it('describes every tool: name, description, and its JSON Schema as an object inputSchema', async () => {
    const { handler, session } = await ready();
    const body = await call(handler, session, 'tools/list');
    expect(body.result.nextCursor).toBeUndefined();
    expect(body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['echo', 'lookup_order', 'crash']);
    expect(body.result.tools[0]).toEqual({ name: 'echo', description: 'Echoes the text back.', inputSchema: { ...echoTool.jsonSchema, type: 'object' } });
    expect(body.result.tools[0].inputSchema.properties.text.type).toBe('string');
  });

  it('pages with an opaque nextCursor until every tool was listed', async () => {
    const tools = Array.from({ length: 5 }, (_, index) => defineTool({ name: `tool_${index}`, description: `Tool ${index}.`, parameters: z.object({}), execute: () => index }));
    const { handler, session } = await ready({ tools, pageSize: 2 });
    const names: string[] = [];
    const cursors: string[] = [];
    let cursor: string | undefined;
    do {
      const body = await call(handler, session, 'tools/list', cursor === undefined ? {} : { cursor });
      names.push(...body.result.tools.map((tool: { name: string }) => tool.name));
      expect(body.result.tools.length).toBeLessThanOrEqual(2);
      cursor = body.result.nextCursor;
      if (cursor !== undefined) cursors.push(cursor);
    } while (cursor !== undefined);
    expect(names).toEqual(['tool_0', 'tool_1', 'tool_2', 'tool_3', 'tool_4']);
    expect(cursors).toHaveLength(2);
    for (const each of cursors) expect(each).not.toMatch(/^\d+$/);
  });

  it.each([['not-base64!'], [btoa('faultline-tools:x')], [btoa('other:2')], [btoa('faultline-tools:99')], [btoa('faultline-tools:0')], [42], [{ offset: 2 }], ['x'.repeat(1000)]])(
    'answers the cursor %j with -32602',
    async (cursor) => {
      const tools = Array.from({ length: 3 }, (_, index) => defineTool({ name: `t${index}`, description: '', parameters: z.object({}), execute: () => index }));
      const { handler, session } = await ready({ tools, pageSize: 1 });
      const body = await call(handler, session, 'tools/list', { cursor }, 9);
      expect(body).toMatchObject({ id: 9, error: { code: -32602 } });
      expect(body.error.message).toContain('cursor');
    },
  );

  it('lists nothing when it serves no tools', async () => {
    const { handler, session } = await ready({ tools: [] });
    expect((await call(handler, session, 'tools/list')).result).toEqual({ tools: [] });
  });
});

describe('tools/call', () => {
  it('answers a success with structuredContent { ok: true, data } and the same JSON as its text', async () => {
    const { handler, session } = await ready();
    const body = await call(handler, session, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }, 11);
    expect(body.id).toBe(11);
    expect(body.result).toEqual({ content: [{ type: 'text', text: '{"ok":true,"data":{"echo":"hi"}}' }], structuredContent: { ok: true, data: { echo: 'hi' } }, isError: false });
  });

  it('answers a thrown ToolFailure as isError with its type, message, context and suggestion', async () => {
    const { handler, session } = await ready();
    const body = await call(handler, session, 'tools/call', { name: 'lookup_order', arguments: { id: 42 } });
    expect(body.result.isError).toBe(true);
    const error = { type: 'DataNotFoundError', message: 'No order 42.', context: { id: 42 }, suggestion: 'Check the order number.' };
    expect(body.result.structuredContent).toEqual({ ok: false, error });
    expect(JSON.parse(body.result.content[0].text)).toEqual({ ok: false, error });
  });

  it('answers a partial result as not an error, with its PartialFailure part', async () => {
    const partial = defineTool({ name: 'partial', description: '', parameters: z.object({}), execute: () => ToolResult.partial({ current: 21 }, { forecast: 'Forecast service unreachable.' }) });
    const { handler, session } = await ready({ tools: [partial] });
    const body = await call(handler, session, 'tools/call', { name: 'partial', arguments: {} });
    expect(body.result.isError).toBe(false);
    expect(body.result.structuredContent.data).toEqual({ current: 21 });
    expect(body.result.structuredContent.error.type).toBe('PartialFailure');
    expect(JSON.parse(body.result.content[0].text)).toEqual(body.result.structuredContent);
  });

  it('answers a returned ToolResult.errorWithData as isError with its data', async () => {
    const invalid = defineTool({ name: 'validate', description: '', parameters: z.object({}), execute: () => ToolResult.errorWithData('Validation failed', { invalid_fields: ['path'] }) });
    const { handler, session } = await ready({ tools: [invalid] });
    const body = await call(handler, session, 'tools/call', { name: 'validate', arguments: {} });
    expect(body.result).toEqual({
      content: [{ type: 'text', text: '{"ok":false,"data":{"invalid_fields":["path"]},"error":{"type":"ToolExecutionFailed","message":"Validation failed"}}' }],
      structuredContent: { ok: false, data: { invalid_fields: ['path'] }, error: { type: 'ToolExecutionFailed', message: 'Validation failed' } },
      isError: true,
    });
  });

  it('answers invalid arguments as an InputValidationError result naming the field (not a JSON-RPC error)', async () => {
    const { handler, session } = await ready();
    const body = await call(handler, session, 'tools/call', { name: 'echo', arguments: { text: 42 } });
    expect(body.error).toBeUndefined();
    expect(body.result.isError).toBe(true);
    expect(body.result.structuredContent.error.type).toBe('InputValidationError');
    expect(body.result.structuredContent.error.message).toContain('text');
  });

  it('treats missing or null arguments as {}', async () => {
    const { handler, session } = await ready();
    for (const params of [{ name: 'echo' }, { name: 'echo', arguments: null }]) {
      const body = await call(handler, session, 'tools/call', params);
      expect(body.result.structuredContent.error.type).toBe('InputValidationError'); // {} lacks `text`: the tool's schema says so
    }
  });

  it('answers a timeout as a TimeoutError result', async () => {
    const slow = defineTool({ name: 'slow', description: '', parameters: z.object({}), timeoutMs: 20, execute: () => new Promise(() => {}) });
    const { handler, session } = await ready({ tools: [slow] });
    const body = await call(handler, session, 'tools/call', { name: 'slow', arguments: {} });
    expect(body.result.isError).toBe(true);
    expect(body.result.structuredContent.error.type).toBe('TimeoutError');
  });

  it('answers a crash with a sanitized ToolInternalError; the developer log gets the real error', async () => {
    const { records, logger } = recordingLogger();
    const { handler, session } = await ready({ logger });
    const response = await post(handler, rpc('tools/call', { name: 'crash', arguments: {} }), { session });
    const text = await response.clone().text();
    const body = await jsonOf(response);
    expect(body.result.isError).toBe(true);
    expect(body.result.structuredContent.error.type).toBe('ToolInternalError');
    expect(body.result.structuredContent.error.message).toBe("The tool 'crash' failed with an unexpected internal error.");
    expect(text).not.toMatch(STACK_LINE);
    expect(text).not.toContain('key ');
    const crash = records.find((record) => record.event === 'tool.crash');
    expect(crash?.error?.stack).toMatch(STACK_LINE);
  });

  it('answers an unknown tool with -32602 "Unknown tool: <name>" and the available names', async () => {
    const { handler, session } = await ready();
    const body = await call(handler, session, 'tools/call', { name: 'nope', arguments: {} }, 'c-1');
    expect(body).toEqual({ jsonrpc: '2.0', id: 'c-1', error: { code: -32602, message: 'Unknown tool: nope', data: { available: ['echo', 'lookup_order', 'crash'] } } });
  });

  it('lists at most 100 names for an unknown tool, and cuts a long requested name', async () => {
    const tools = Array.from({ length: 150 }, (_, index) => defineTool({ name: `tool_${index}`, description: '', parameters: z.object({}), execute: () => index }));
    const { handler, session } = await ready({ tools });
    const body = await call(handler, session, 'tools/call', { name: 'x'.repeat(5000) });
    expect(body.error.data.available).toHaveLength(100);
    expect(body.error.message.length).toBeLessThan(120);
  });

  it.each([[{}], [{ name: 42 }], [{ name: null }], [{ name: ['echo'] }], [{ name: 'echo', arguments: 'text=hi' }], [{ name: 'echo', arguments: ['hi'] }], [{ name: 'echo', arguments: 5 }]])(
    'answers the params %j with -32602',
    async (params) => {
      const { handler, session } = await ready();
      const body = await call(handler, session, 'tools/call', params, 5);
      expect(body).toMatchObject({ id: 5, error: { code: -32602 } });
      expect(body.result).toBeUndefined();
    },
  );

  it('answers -32603 with a generic message when something unexpected fails, and tells onError (redacted)', async () => {
    const errors: unknown[] = [];
    const { handler, session } = await ready({ onError: (error) => errors.push(error), secrets: ['sk-live-PLANTED123456'] });
    // A failure no tool result covers: the handler's own catalog breaks (a throwing log sink no longer can: it is quiet).
    vi.spyOn(ToolCatalog.prototype, 'plan').mockImplementation(() => {
      throw new Error('catalog broke at sk-live-PLANTED123456');
    });
    const response = await post(handler, rpc('tools/call', { name: 'crash', arguments: {} }, 8), { session });
    const body = await jsonOf(response);
    expect(body).toEqual({ jsonrpc: '2.0', id: 8, error: { code: -32603, message: 'Internal error while handling tools/call' } });
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as Error).message)).toBe('catalog broke at [REDACTED]');
  });

  it('answers a tool whose log sink throws with the tool result (the sink is quiet)', async () => {
    const logger = () => {
      throw new Error('log sink down');
    };
    const { handler, session } = await ready({ logger });
    const body = (await jsonOf(await post(handler, rpc('tools/call', { name: 'crash', arguments: {} }, 9), { session }))) as { result?: { isError?: boolean } };
    expect(body.result?.isError).toBe(true);
  });

  it('passes the arguments to the tool as the schema parsed them, with a callId', async () => {
    const seen: unknown[] = [];
    const probe = defineTool({ name: 'probe', description: '', parameters: z.object({ n: z.number() }), execute: (args, context) => (seen.push(args, context.callId), 'ok') });
    const { handler, session } = await ready({ tools: [probe] });
    await call(handler, session, 'tools/call', { name: 'probe', arguments: { n: 1, extra: true } });
    expect(seen[0]).toEqual({ n: 1 });
    expect(seen[1]).toMatch(/^mcp-call-/);
  });
});
