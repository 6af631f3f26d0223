/**
 * The MCP server: faultline tools over the Streamable HTTP transport (revisions 2025-11-25, 2025-06-18, 2025-03-26,
 * and 2024-11-05 clients negotiating over it), as a plain fetch handler.
 */
import { checkCaller } from '../internal/caller-check.js';
import { MCPSessionStore, SessionEndReason } from './handler-sessions.js';
import { Dispatcher } from './handler-dispatch.js';
import { resolveHandlerOptions, type MCPHandlerOptions } from './handler-options.js';
import { findSession, handlePost, versionHeader, type PostContext } from './handler-post.js';
import { refusal } from './handler-wire.js';
import { MCPErrorCode } from './protocol.js';

export type { MCPHandlerOptions } from './handler-options.js';

/**
 * The fetch handler {@link createMCPHandler} returns: one request in, one response out. What a platform passes after
 * the request tells who is calling (`Deno.serve`'s and `toNodeListener`'s `{ remoteAddr }`, a Worker's `env, ctx`:
 * see `allowedHosts`); every answer is complete when its response ends.
 *
 * @example
 * ```ts
 * const handler: MCPHandler = createMCPHandler({ tools: [getWeather], serverInfo: { name: 'weather', version: '1.0.0' } });
 * export default { fetch: handler }; // Cloudflare Workers
 * ```
 */
export type MCPHandler = (request: Request, ...platform: unknown[]) => Promise<Response>;

/**
 * Serves faultline tools (made by `defineTool`) to any MCP client, as a plain fetch handler `(request: Request) =>
 * Promise<Response>` over the Streamable HTTP transport: it runs unchanged as a Cloudflare Worker, in `Deno.serve`,
 * in a Service Worker, behind Node's `http` with a tiny adapter, at whatever path it is mounted on.
 *
 * - POST carries one JSON-RPC message (a batch too, for clients on revision 2025-03-26): `initialize` (answers the
 *   client's revision when we speak it, else the newest, and starts a session: header `mcp-session-id`), `ping`,
 *   `tools/list` (pages of `pageSize` with an opaque `nextCursor`), `tools/call`; notifications get HTTP 202, and
 *   `notifications/cancelled` aborts the named call of the same session (its tool's `context.signal`) — that call is
 *   then answered by an event stream that closes without a message, as the spec wants no response for it. A call
 *   stopped because its session ended (DELETE, expiry) is answered instead, with JSON-RPC -32000 saying why.
 * - `tools/call` runs the tool with `runTool`: every outcome is a result — `structuredContent` is the faultline
 *   `ToolResult` JSON (`{ ok, data?, error?: { type, message, context?, suggestion? } }`), the text block its JSON
 *   text, `isError` true for failures (a thrown `ToolFailure`, invalid arguments, a timeout, a crash: a sanitized
 *   `ToolInternalError`, never a stack; your `logger` gets the real error). An unknown tool is JSON-RPC -32602
 *   `Unknown tool: <name>` with `data.available`.
 * - Refusals have exact statuses: 406 (Accept lacks `application/json` or `text/event-stream`), 415, 413, 408, 400
 *   (unparseable -32700, not JSON-RPC -32600, params too deep -32602, an unknown `mcp-protocol-version`, no session
 *   id), 404 (unknown, expired or deleted session: the client initializes again), 421 (a `Host` that is not a
 *   loopback name nor in `allowedHosts`, unless the caller is on a public address and `allowedHosts` is not set: the
 *   defence against DNS rebinding), 403 (an `Origin` header that is neither the request's own origin nor in
 *   `allowedOrigins` — a request without one passes), 405 (GET: this server opens no stream of its own; `Allow: POST, DELETE`), 503 with
 *   `Retry-After: 1` (an `initialize` when `maxSessions` sessions all have calls in flight). DELETE with a session
 *   id ends the session (204) and aborts its calls in flight, each answered with JSON-RPC -32000.
 * - Nothing sent holds a configured secret (in any form) or a stack; an unexpected failure is -32603 with a generic
 *   message and goes to `onError`, redacted.
 *
 * Sessions live in this handler's memory (bounded: `maxSessions`, past which the least recently used idle session is
 * dropped, and `sessionIdleMs`). Where requests of one client may reach different isolates or processes, use
 * `sessions: false` (stateless).
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { defineTool } from 'faultline/tools';
 * import { createMCPHandler } from 'faultline/mcp';
 *
 * const getWeather = defineTool({
 *   name: 'get_weather',
 *   description: 'Current weather for a city.',
 *   parameters: z.object({ city: z.string().min(1) }),
 *   execute: async ({ city }, { signal }) => (await fetch(`https://api.example/weather?q=${encodeURIComponent(city)}`, { signal })).json(),
 * });
 * const handler = createMCPHandler({ tools: [getWeather], serverInfo: { name: 'weather', version: '1.0.0' }, responseMode: 'sse' });
 * export default { fetch: handler }; // Cloudflare Workers
 * Deno.serve(handler);                // Deno
 * ```
 */
export function createMCPHandler(options: MCPHandlerOptions): MCPHandler {
  const settings = resolveHandlerOptions(options);
  const { secrets } = settings;
  const sessions = settings.sessions ? new MCPSessionStore(settings.maxSessions, settings.sessionIdleMs) : undefined;
  const dispatcher = new Dispatcher(settings, sessions);
  const context: PostContext = { settings, sessions, dispatcher };
  const allow = sessions ? 'POST, DELETE' : 'POST';

  const remove = (request: Request): Response => {
    if (!sessions) return refusal(405, null, MCPErrorCode.InvalidRequest, 'Method Not Allowed: this server is stateless, there is no session to end', secrets, { allow });
    const header = versionHeader(request, secrets);
    if (header instanceof Response) return header;
    const session = findSession(request, sessions, secrets);
    if (session instanceof Response) return session;
    sessions.end(session.id, SessionEndReason.deleted);
    return new Response(null, { status: 204 });
  };

  const handle = async (request: Request, platform: readonly unknown[]): Promise<Response> => {
    const refused = checkCaller(request, platform, settings.caller);
    if (refused) return refusal(refused.status, null, MCPErrorCode.InvalidRequest, refused.message, secrets);
    if (request.method === 'POST') return handlePost(request, context);
    if (request.method === 'DELETE') return remove(request);
    const why = request.method === 'GET' ? 'this server opens no stream of its own (send requests with POST)' : `${request.method.slice(0, 20)} is not used by MCP`;
    return refusal(405, null, MCPErrorCode.InvalidRequest, `Method Not Allowed: ${why}`, secrets, { allow });
  };

  return async (request, ...platform) => {
    try {
      return await handle(request, platform);
    } catch (error) {
      dispatcher.report(error);
      return refusal(500, null, MCPErrorCode.InternalError, 'Internal error', secrets);
    }
  };
}
