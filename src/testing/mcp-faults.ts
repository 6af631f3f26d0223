import { http, HttpResponse, type HttpHandler } from './msw.js';
import { baseURLProblems, checkInput } from './input-check.js';
import { keepAliveAfter } from './keep-alive.js';

/**
 * The tools `mcpFaultHandlers` serve, by name: each fails one way (or succeeds). Every tool is listed by
 * `tools/list`, so `client.tools()` turns all of them into faultline tools.
 * @example `for (const [tool, what] of Object.entries(MCP_FAULTS)) console.log(tool, what)`
 */
export const MCP_FAULTS = /* @__PURE__ */ Object.freeze({
  ok: 'succeeds: a faultline-style result ({ok: true, data: {echo: <arguments>}} as structuredContent, its JSON as the text block)',
  'ok-text': 'succeeds with one text block and nothing else ("ok: <text argument>"), as most MCP servers answer',
  'is-error':
    'an isError result whose structuredContent is a faultline error ({ok: false, error: {type: "DataNotFoundError", message, context, suggestion}}): the model gets that error whole',
  'plain-error': 'an isError result with text only ("The order is archived."): the model gets a ToolExecutionFailed with that message',
  'invalid-params': 'a JSON-RPC error -32602 whose data.issues name the field "quantity" (whatever the arguments): an InputValidationError with context.fields ["quantity"]',
  'unknown-tool':
    'listed, but calling it answers JSON-RPC -32602 "Unknown tool: unknown-tool" with data.available (the other tools), as any unlisted name does: a ToolNotFound with context.available',
  'internal-error':
    'a JSON-RPC error -32603 whose message names an internal host (db-primary.fault.internal:5432): the model sees a sanitized ToolInternalError, the host name only reaches the developer log',
  'session-expired':
    'the first call per scope (see mcpFaultHandlers) forgets its session and answers HTTP 404; every later request with that session id gets 404 too. The client re-initializes once and repeats the call, which then succeeds ("ok: a new session") — deterministically, as does every later call of the tool in that scope',
  'session-expired-again':
    'every call forgets its session and answers HTTP 404, on the new session too: the client re-initializes once, the repeated call gets 404 again — deterministically an MCPError session_expired (the model sees a ToolInternalError)',
  'cut-stream':
    'an SSE answer with `retry: 10` and one priming event (an id, no data) that ends before the response; a GET with that Last-Event-ID (and the session) delivers the response once: the call succeeds ({resumed: true})',
  'cut-stream-no-resume': 'an SSE answer with a notifications/message event and no event ids that ends before the response: an MCPError protocol (the model sees a ToolInternalError)',
  'keep-alive-only': 'an SSE answer that sends only a `: keep-alive` comment every 20 ms while the client reads, never an event, until it cancels (a tool timeout: TimeoutError)',
} as const);

/**
 * A tool name of {@link MCP_FAULTS}.
 * @example `const fault: MCPFault = 'cut-stream'; await client.callTool(fault)`
 */
export type MCPFault = keyof typeof MCP_FAULTS;

/** The internal host the `internal-error` fault leaks in its JSON-RPC message (never for a model's eyes). */
const INTERNAL_HOST = 'db-primary.fault.internal:5432';
const SESSION_HEADER = 'mcp-session-id';
const VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
/** Resumable streams kept at most (oldest forgotten first). */
const MAX_STREAMS = 1_000;

interface RPC {
  jsonrpc?: unknown;
  id?: string | number | null;
  method?: unknown;
  params?: { name?: unknown; arguments?: unknown; protocolVersion?: unknown; [key: string]: unknown };
}

type Answer = { result: unknown } | { error: { code: number; message: string; data?: unknown } };

/** The fault server's tool list, built on first use (module scope holds declarations only). */
let tools: readonly { name: string; description: string; inputSchema: object }[] | undefined;
function faultTools(): readonly { name: string; description: string; inputSchema: object }[] {
  tools ??= Object.freeze(
    Object.keys(MCP_FAULTS).map((name) => ({
      name,
      description: `A tool of the MCP fault server: ${MCP_FAULTS[name as MCPFault]}`,
      inputSchema:
        name === 'invalid-params'
          ? { type: 'object', properties: { quantity: { type: 'number', description: 'How many (the server wants a positive integer).' } } }
          : name === 'ok' || name === 'ok-text'
            ? { type: 'object', properties: { text: { type: 'string' } } }
            : { type: 'object' },
    })),
  );
  return tools;
}

const text = (value: string) => [{ type: 'text', text: value }];

/** The answer of a tool that answers at once (the streamed and session faults are handled by the caller). */
function callAnswer(name: string, args: Record<string, unknown>): Answer {
  switch (name) {
    case 'ok': {
      const structured = { ok: true, data: { echo: args } };
      return { result: { content: text(JSON.stringify(structured)), structuredContent: structured } };
    }
    case 'ok-text':
      return { result: { content: text(`ok: ${typeof args.text === 'string' ? args.text : ''}`) } };
    case 'is-error': {
      const structured = {
        ok: false,
        error: { type: 'DataNotFoundError', message: "No order 'A-1' exists.", context: { order: 'A-1' }, suggestion: 'Check the order id, or ask the user for it.' },
      };
      return { result: { content: text(JSON.stringify(structured)), structuredContent: structured, isError: true } };
    }
    case 'plain-error':
      return { result: { content: text('The order is archived.'), isError: true } };
    case 'invalid-params':
      return {
        error: {
          code: -32602,
          message: 'Invalid arguments for tool invalid-params: quantity: must be a positive integer',
          data: { issues: [{ path: ['quantity'], message: 'must be a positive integer' }] },
        },
      };
    case 'internal-error':
      return { error: { code: -32603, message: `Internal error: connect ECONNREFUSED ${INTERNAL_HOST} (pool "orders-primary" exhausted)` } };
    default:
      return { error: { code: -32602, message: `Unknown tool: ${name.slice(0, 100)}`, data: { available: faultTools().map((tool) => tool.name).filter((each) => each !== 'unknown-tool') } } };
  }
}

/**
 * msw handlers of an MCP server (Streamable HTTP, revisions 2025-11-25 to 2024-11-05) whose tools fail on purpose,
 * one way each, chosen by the tool's name (see {@link MCP_FAULTS}). The endpoint is `<baseURL>` or
 * `<baseURL>/<scope>`: the scope (any one path segment, like the chat faults' run id) only keeps the
 * `session-expired` fault's "first call" apart between runs; sessions and streams are per client anyway.
 *
 * - `POST`: `initialize` (a new `mcp-session-id`; the client's revision if supported, else the newest),
 *   `notifications/*` and responses (202), `ping`, `tools/list` (one page), `tools/call`; another method: -32601.
 *   Any request but `initialize` needs a session the server knows: none → 400, an unknown or forgotten one → 404.
 * - `GET` with `Last-Event-ID`: resumes a `cut-stream` answer; without it: 405 (no stream of the server's own).
 * - `DELETE`: ends the session (200; an unknown one: 404).
 *
 * `options` is `{ baseURL }`, an absolute http(s) URL, and nothing else: anything else is a `ConfigError` naming
 * each problem (a misspelt name with the one meant), thrown before a handler is built.
 *
 * @example
 * ```ts
 * const server = setupServer(...mcpFaultHandlers({ baseURL: 'https://mcp.test' }));
 * server.listen();
 * const client = createMCPClient({ url: 'https://mcp.test/run-1' });
 * const tools = await client.tools(); // ok, ok-text, is-error, plain-error, invalid-params, … (MCP_FAULTS)
 * const run = await runTool(tools.find((tool) => tool.name === 'invalid-params')!, { quantity: -1 });
 * run.result.error?.type; // 'InputValidationError'
 * ```
 */
export function mcpFaultHandlers(options: { baseURL: string }): HttpHandler[] {
  checkInput('mcpFaultHandlers options', baseURLProblems(options));
  const base = options.baseURL.replace(/\/+$/, '');
  let sequence = 0;
  const sessions = new Set<string>();
  const expiredScopes = new Set<string>();
  const streams = new Map<string, { session: string; frame: StreamFrame }>();

  const sessionOf = (request: Request): { id: string } | Response => {
    const id = request.headers.get(SESSION_HEADER);
    if (id === null) return HttpResponse.json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: no mcp-session-id (send initialize first)' } }, { status: 400 });
    if (!sessions.has(id)) return new HttpResponse('Session not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    return { id };
  };

  const post = async (request: Request, scope: string): Promise<Response> => {
    let rpc: RPC;
    try {
      rpc = (await request.json()) as RPC;
    } catch {
      return HttpResponse.json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }, { status: 400 });
    }
    if (typeof rpc !== 'object' || rpc === null || Array.isArray(rpc) || rpc.jsonrpc !== '2.0') {
      return HttpResponse.json({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } }, { status: 400 });
    }
    const reply = (answer: Answer, init?: ResponseInit) => HttpResponse.json({ jsonrpc: '2.0', id: rpc.id ?? null, ...answer }, init);
    if (rpc.method === 'initialize') {
      const asked = rpc.params?.protocolVersion;
      const version = typeof asked === 'string' && VERSIONS.includes(asked) ? asked : (VERSIONS[0] as string);
      const id = `mcp-fault-${++sequence}`;
      sessions.add(id);
      return reply(
        { result: { protocolVersion: version, capabilities: { tools: { listChanged: false } }, serverInfo: { name: 'mcp-fault-server', version: '1.0.0' } } },
        { headers: { [SESSION_HEADER]: id } },
      );
    }
    const session = sessionOf(request);
    if (session instanceof Response) return session;
    if (typeof rpc.method !== 'string') return new HttpResponse(null, { status: 202 }); // a response to a request of ours (we send none)
    if (rpc.id === undefined) return new HttpResponse(null, { status: 202 }); // notifications/initialized, notifications/cancelled, …
    if (rpc.method === 'ping') return reply({ result: {} });
    if (rpc.method === 'tools/list') return reply({ result: { tools: faultTools() } });
    if (rpc.method !== 'tools/call') return reply({ error: { code: -32601, message: `Method not found: ${rpc.method.slice(0, 100)}` } });
    const name = rpc.params?.name;
    if (typeof name !== 'string') return reply({ error: { code: -32602, message: 'Invalid params: params.name must be a string' } });
    const args = typeof rpc.params?.arguments === 'object' && rpc.params.arguments !== null ? (rpc.params.arguments as Record<string, unknown>) : {};
    const forget = () => {
      sessions.delete(session.id);
      return new HttpResponse('Session not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    };
    const message = (answer: Answer) => ({ jsonrpc: '2.0', id: rpc.id, ...answer });
    switch (name) {
      case 'session-expired':
        if (!expiredScopes.has(scope)) {
          expiredScopes.add(scope);
          return forget();
        }
        return reply({ result: { content: text('ok: a new session') } });
      case 'session-expired-again':
        return forget();
      case 'cut-stream': {
        const stream = `${session.id}-stream-${++sequence}`;
        streams.set(stream, { session: session.id, frame: { id: `${stream}/1`, data: message({ result: { content: text('{"resumed":true}'), structuredContent: { resumed: true } } }) } });
        while (streams.size > MAX_STREAMS) streams.delete(streams.keys().next().value as string);
        return streamOf([{ retry: 10, id: `${stream}/0`, data: '' }]);
      }
      case 'cut-stream-no-resume':
        return streamOf([{ data: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working on it' } } }]);
      case 'keep-alive-only':
        return keepAliveAfter('', request.signal);
      default:
        return reply(callAnswer(name, args));
    }
  };

  const get = (request: Request): Response => {
    const session = sessionOf(request);
    if (session instanceof Response) return session;
    const last = request.headers.get('last-event-id');
    if (last === null) return new HttpResponse('This server offers no stream of its own', { status: 405, headers: { allow: 'POST, DELETE' } });
    const stream = streams.get(last.replace(/\/\d+$/, ''));
    if (!stream || stream.session !== session.id) return new HttpResponse(`No stream to resume from event ${last.slice(0, 100)}`, { status: 400 });
    streams.delete(last.replace(/\/\d+$/, ''));
    return streamOf([stream.frame]);
  };

  const remove = (request: Request): Response => {
    const session = sessionOf(request);
    if (session instanceof Response) return session;
    sessions.delete(session.id);
    return new HttpResponse(null, { status: 200 });
  };

  return [`${base}`, `${base}/:scope`].flatMap((path) => [
    http.post(path, ({ request, params }) => post(request, typeof params.scope === 'string' ? params.scope : '')),
    http.get(path, ({ request }) => get(request)),
    http.delete(path, ({ request }) => remove(request)),
  ]);
}

/** One SSE event: `retry:`, `id:` and `data:` (an object JSON-encoded, a string as it is; '' a priming event). */
interface StreamFrame {
  retry?: number;
  id?: string;
  data: unknown;
}

const HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/** The text of one frame. */
function frameText(frame: StreamFrame): string {
  const data = typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data);
  return `${frame.retry === undefined ? '' : `retry: ${frame.retry}\n`}${frame.id === undefined ? '' : `id: ${frame.id}\n`}data: ${data}\n\n`;
}

/**
 * A 200 `text/event-stream` answer of `frames`, then a clean end (whatever the frames lack: a stream that
 * ends before its response is the fault).
 * @example `streamOf([{ retry: 10, id: 's/0', data: '' }])`
 */
function streamOf(frames: readonly StreamFrame[]): Response {
  return new HttpResponse(frames.map(frameText).join(''), { headers: HEADERS });
}

