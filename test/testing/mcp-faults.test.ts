// faultline/testing: every fault of mcpFaultHandlers through our own MCP client and runTool, with the typed error the
// caller gets and the structured result the model gets (MCP_FAULTS describes them; a fault without a test here fails
// the coverage check at the end). Nothing hangs: every call ends well within its limit, and no fault timer is left.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { JSONRPCError } from '../../src/errors/jsonrpc-error.js';
import { MCPError } from '../../src/errors/mcp-error.js';
import { createMCPClient, type MCPClientOptions } from '../../src/mcp/index.js';
import { MCP_FAULTS, mcpFaultHandlers } from '../../src/testing/index.js';
import type { AnyTool } from '../../src/tools/define-tool.js';
import { runTool } from '../../src/tools/run-tool.js';
import type { ToolLogRecord } from '../../src/tools/tool-log.js';
import { watchFaultTimers } from './fault-timers.js';

const MCP = 'https://mcp-faults.test/mcp';
const server = setupServer(...mcpFaultHandlers({ baseURL: MCP }));

interface Seen {
  id: string;
  http: string;
  rpc?: string;
  session: string | null;
  lastEventId: string | null;
  status?: number;
}
const seen: Seen[] = [];
server.events.on('request:start', ({ request, requestId }) => {
  const entry: Seen = { id: requestId, http: request.method, session: request.headers.get('mcp-session-id'), lastEventId: request.headers.get('last-event-id') };
  seen.push(entry);
  if (request.method === 'POST') {
    void request
      .clone()
      .text()
      .then((text) => {
        try {
          const message = JSON.parse(text) as { method?: string };
          entry.rpc = message.method ?? 'response';
        } catch {
          entry.rpc = 'malformed';
        }
      });
  }
});
server.events.on('response:mocked', ({ response, requestId }) => {
  const entry = seen.find((each) => each.id === requestId);
  if (entry) entry.status = response.status;
});
/** What the server saw: `<HTTP method> <JSON-RPC method> <status>`. */
const trail = () => seen.map((each) => [each.http, each.rpc ?? '', each.status ?? 0].join(' ').replace(/\s+/g, ' '));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  seen.length = 0;
});
afterAll(() => server.close());

const fastRetry = { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 5, jitter: 'none' as const };
/** Each run gets its own scope (only `session-expired` keeps state per scope). */
let runs = 0;
const scopeURL = () => `${MCP}/run-${++runs}`;
const TOOL_TIMEOUT_MS = 2_000;
/** A case must end well within the tool's limit. */
const PROMPT_MS = 1_000;

function mcp(options: Partial<MCPClientOptions> = {}) {
  return createMCPClient({ url: scopeURL(), retry: fastRetry, ...options });
}

/** One call of fault tool `fault` through `client.tools()` and `runTool`, as the agent loop makes it. */
async function modelSees(fault: string, args: Record<string, unknown> = {}, timeoutMs = TOOL_TIMEOUT_MS) {
  const client = mcp();
  const tools = await client.tools({ timeoutMs });
  const tool = tools.find((each) => each.name === fault) as AnyTool;
  expect(tool, `a tool named ${fault}`).toBeDefined();
  const log: ToolLogRecord[] = [];
  seen.length = 0;
  const started = performance.now();
  const run = await runTool(tool, args, { logger: (record) => log.push(record) });
  const ms = performance.now() - started;
  const calls = trail();
  await client.close();
  return { run, json: JSON.parse(run.content) as { ok: boolean; data?: unknown; error?: { type: string; message: string; context?: Record<string, unknown>; suggestion?: string } }, log, ms, calls, client };
}

/** One raw `client.callTool` of `fault`: its result, or the error it rejected with. */
async function direct(fault: string, args: Record<string, unknown> = {}, options: Partial<MCPClientOptions> = {}, timeoutMs?: number) {
  const client = mcp(options);
  await client.connect();
  seen.length = 0;
  const started = performance.now();
  try {
    return { result: await client.callTool(fault, args, { timeoutMs }), error: undefined, ms: performance.now() - started, calls: trail(), client };
  } catch (error) {
    return { result: undefined, error, ms: performance.now() - started, calls: trail(), client };
  } finally {
    await client.close();
  }
}

const tested = new Set<string>();

describe('mcpFaultHandlers: the tools that succeed', () => {
  it('ok: a faultline-style result, whose data the model gets', async () => {
    tested.add('ok');
    const { run, json, ms } = await modelSees('ok', { text: 'hi' });
    expect([run.outcome, json]).toEqual(['success', { ok: true, data: { echo: { text: 'hi' } } }]);
    expect(ms).toBeLessThan(PROMPT_MS);
  });

  it('ok-text: one text block, which the model gets as a string', async () => {
    tested.add('ok-text');
    const { json } = await modelSees('ok-text', { text: 'hi' });
    expect(json).toEqual({ ok: true, data: 'ok: hi' });
    const { result } = await direct('ok-text', { text: 'raw' });
    expect(result).toEqual({ content: [{ type: 'text', text: 'ok: raw' }] });
  });

  it('lists every fault as a tool, with an object input schema', async () => {
    const client = mcp();
    const listed = await client.listTools();
    expect(listed.map((tool) => tool.name)).toEqual(Object.keys(MCP_FAULTS));
    expect(listed.every((tool) => tool.inputSchema.type === 'object' && typeof tool.description === 'string')).toBe(true);
    expect(client.server?.serverInfo).toEqual({ name: 'mcp-fault-server', version: '1.0.0' });
    await client.close();
  });
});

describe('mcpFaultHandlers: tool results with isError', () => {
  it('is-error: the faultline error in structuredContent reaches the model whole', async () => {
    tested.add('is-error');
    const { run, json, ms } = await modelSees('is-error');
    expect(run.outcome).toBe('error_result');
    expect(json).toEqual({
      ok: false,
      error: { type: 'DataNotFoundError', message: "No order 'A-1' exists.", context: { order: 'A-1' }, suggestion: 'Check the order id, or ask the user for it.' },
    });
    expect(ms).toBeLessThan(PROMPT_MS);
    const { result } = await direct('is-error');
    expect([result?.isError, result?.structuredContent?.ok]).toEqual([true, false]);
  });

  it('plain-error: text only, a ToolExecutionFailed with that text', async () => {
    tested.add('plain-error');
    const { json, ms } = await modelSees('plain-error');
    expect(json).toEqual({ ok: false, error: { type: 'ToolExecutionFailed', message: 'The order is archived.' } });
    expect(ms).toBeLessThan(PROMPT_MS);
  });
});

describe('mcpFaultHandlers: JSON-RPC errors', () => {
  it('invalid-params: -32602 with data.issues, an InputValidationError naming the field', async () => {
    tested.add('invalid-params');
    const { json, ms } = await modelSees('invalid-params', { quantity: -1 });
    expect(json.error?.type).toBe('InputValidationError');
    expect(json.error?.context?.fields).toEqual(['quantity']);
    expect(json.error?.message).toContain('quantity: must be a positive integer');
    expect(ms).toBeLessThan(PROMPT_MS);
    const { error } = await direct('invalid-params', { quantity: -1 });
    expect(JSONRPCError.isInstance(error) && [error.rpcCode, error.data]).toEqual([-32602, { issues: [{ path: ['quantity'], message: 'must be a positive integer' }] }]);
  });

  it('unknown-tool: -32602 "Unknown tool" with data.available, a ToolNotFound listing the others', async () => {
    tested.add('unknown-tool');
    const { json, ms } = await modelSees('unknown-tool');
    const others = Object.keys(MCP_FAULTS).filter((name) => name !== 'unknown-tool');
    expect([json.error?.type, json.error?.context]).toEqual(['ToolNotFound', { tool: 'unknown-tool', available: others }]);
    expect(ms).toBeLessThan(PROMPT_MS);
    const { error } = await direct('no-such-tool');
    expect(JSONRPCError.isInstance(error) && [error.rpcCode, (error.data as { available: string[] }).available]).toEqual([-32602, others]);
    expect((error as Error).message).toContain('Unknown tool: no-such-tool');
  });

  it('internal-error: -32603 naming an internal host; the model sees a sanitized ToolInternalError, the log the host', async () => {
    tested.add('internal-error');
    const { run, json, log, ms } = await modelSees('internal-error');
    expect([run.outcome, json.error?.type]).toEqual(['crash', 'ToolInternalError']);
    expect(run.content).not.toMatch(/db-primary|fault\.internal|5432|ECONNREFUSED/);
    expect(JSON.stringify(log)).toContain('db-primary.fault.internal:5432');
    expect(ms).toBeLessThan(PROMPT_MS);
    const { error } = await direct('internal-error');
    expect(JSONRPCError.isInstance(error) && error.rpcCode).toBe(-32603);
  });
});

describe('mcpFaultHandlers: sessions', () => {
  it('session-expired: a 404, one new handshake, the repeated call succeeds (deterministically); later calls just succeed', async () => {
    tested.add('session-expired');
    const client = mcp();
    await client.connect();
    const first = client.sessionId;
    seen.length = 0;
    expect(await client.callTool('session-expired')).toEqual({ content: [{ type: 'text', text: 'ok: a new session' }] });
    expect(trail()).toEqual(['POST tools/call 404', 'POST initialize 200', 'POST notifications/initialized 202', 'POST tools/call 200']);
    expect(seen[0]?.session).toBe(first);
    expect(client.sessionId).not.toBe(first);
    seen.length = 0;
    expect((await client.callTool('session-expired')).content).toEqual([{ type: 'text', text: 'ok: a new session' }]);
    expect(trail()).toEqual(['POST tools/call 200']);
    await client.close();
    const { json, ms } = await modelSees('session-expired');
    expect(json).toEqual({ ok: true, data: 'ok: a new session' });
    expect(ms).toBeLessThan(PROMPT_MS);
  });

  it('session-expired: the forgotten session gets 404 for every later request', async () => {
    const client = mcp();
    await client.connect();
    const forgotten = client.sessionId as string;
    await client.callTool('session-expired');
    const again = await fetch(client.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': forgotten }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(again.status).toBe(404);
    await client.close();
  });

  it('session-expired-again: 404, a new handshake, 404 again: an MCPError session_expired (the model: ToolInternalError)', async () => {
    tested.add('session-expired-again');
    const { error, calls, ms } = await direct('session-expired-again');
    expect(MCPError.isInstance(error) && [error.reason, error.status, error.retryable]).toEqual(['session_expired', 404, false]);
    expect(calls).toEqual(['POST tools/call 404', 'POST initialize 200', 'POST notifications/initialized 202', 'POST tools/call 404']);
    expect(ms).toBeLessThan(PROMPT_MS);
    const seenByModel = await modelSees('session-expired-again');
    expect([seenByModel.run.outcome, seenByModel.json.error?.type]).toEqual(['crash', 'ToolInternalError']);
    expect(seenByModel.ms).toBeLessThan(PROMPT_MS);
  });

  it('DELETE ends the session (close); a request without a session is a 400; GET without Last-Event-ID a 405', async () => {
    const client = mcp();
    await client.connect();
    const session = client.sessionId as string;
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const ping = (extra: Record<string, string>) => fetch(client.url, { method: 'POST', headers: { ...headers, ...extra }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(await (await ping({ 'mcp-session-id': session })).json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect((await fetch(client.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } })).status).toBe(405);
    const other = await fetch(client.url, { method: 'POST', headers: { ...headers, 'mcp-session-id': session }, body: '{"jsonrpc":"2.0","id":2,"method":"resources/list"}' });
    expect(((await other.json()) as { error: { code: number } }).error.code).toBe(-32601);
    seen.length = 0;
    await client.close();
    expect(trail()).toEqual(['DELETE 200']);
    expect((await ping({ 'mcp-session-id': session })).status).toBe(404);
    expect((await ping({})).status).toBe(400);
    await expect(client.ping()).rejects.toSatisfy((error) => MCPError.isInstance(error) && error.reason === 'closed');
  });
});

describe('mcpFaultHandlers: streams', () => {
  it('cut-stream: the SSE answer ends before the response; one resumption with Last-Event-ID delivers it', async () => {
    tested.add('cut-stream');
    const { run, json, calls, ms } = await modelSees('cut-stream');
    expect([run.outcome, json]).toEqual(['success', { ok: true, data: { resumed: true } }]);
    expect(calls).toEqual(['POST tools/call 200', 'GET 200']);
    const resume = seen.find((each) => each.http === 'GET');
    expect(resume?.lastEventId).toMatch(/\/0$/);
    expect(ms).toBeLessThan(PROMPT_MS);
  });

  it('cut-stream-no-resume: an SSE answer without ids that ends early: an MCPError protocol (the model: ToolInternalError)', async () => {
    tested.add('cut-stream-no-resume');
    const notifications: unknown[] = [];
    const { error, calls } = await direct('cut-stream-no-resume', {}, { onNotification: (notification) => notifications.push(notification) });
    expect(MCPError.isInstance(error) && [error.reason, error.retryable]).toEqual(['protocol', false]);
    expect((error as Error).message).toMatch(/ended before the response to tools\/call, and it gave no event ids/);
    expect(calls).toEqual(['POST tools/call 200']);
    expect(notifications).toEqual([{ method: 'notifications/message', params: { level: 'info', data: 'working on it' } }]);
    const { run, json, ms } = await modelSees('cut-stream-no-resume');
    expect([run.outcome, json.error?.type]).toEqual(['crash', 'ToolInternalError']);
    expect(ms).toBeLessThan(PROMPT_MS);
  });

  it('keep-alive-only: only comments until the tool timeout: a TimeoutError, the server told to cancel, nothing left ticking', async () => {
    tested.add('keep-alive-only');
    const timers = watchFaultTimers();
    try {
      const client = mcp();
      const [tool] = await client.tools({ timeoutMs: 150, include: (each) => each.name === 'keep-alive-only' });
      seen.length = 0;
      const started = performance.now();
      const run = await runTool(tool as AnyTool, {}, { logger: () => {} });
      const ms = performance.now() - started;
      expect([run.outcome, JSON.parse(run.content).error]).toEqual(['timeout', { type: 'TimeoutError', message: "The tool 'keep-alive-only' did not finish within 150 ms.", context: { timeoutMs: 150 }, suggestion: 'Try again later, or narrow the request so it can finish faster.' }]);
      expect(ms).toBeGreaterThanOrEqual(140);
      expect(ms).toBeLessThan(150 + PROMPT_MS);
      expect(timers.pending(), 'fault timers still pending once the tool timed out').toBe(0);
      await vi.waitFor(() => expect(trail()).toEqual(['POST tools/call 200', 'POST notifications/cancelled 202']), { timeout: 1_000 });
      await client.close();
      expect(timers.pending(), 'fault timers still pending').toBe(0);
    } finally {
      timers.stop();
    }
  });

  it('keep-alive-only: a raw callTool ends in an MCPError timeout (keep-alives do not extend the limit)', async () => {
    const { error, ms } = await direct('keep-alive-only', {}, {}, 120);
    expect(MCPError.isInstance(error) && [error.reason, error.timeout]).toEqual(['timeout', 'request']);
    expect(ms).toBeLessThan(120 + PROMPT_MS);
  });
});

describe('coverage of the documented faults', () => {
  it('tests every fault MCP_FAULTS lists', () => {
    expect([...tested].sort()).toEqual(Object.keys(MCP_FAULTS).sort());
  });
});
