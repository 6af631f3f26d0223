import { ConfigError } from '../errors/config-error.js';
import { isPlainObject, refusedValue } from '../internal/json.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import { quietCall } from '../internal/quiet-call.js';
import type { NodeIncomingRequest, NodeServerResponse, ServeHandlerInfo } from './node-types.js';
import { requestBody, type RequestBody } from './request-body.js';
import { watchClose } from './socket-close.js';
import { writeResponse } from './write-response.js';

/**
 * A fetch handler, as `createA2AHandler` and `createMCPHandler` return. {@link toNodeListener} calls it with the
 * request and, as `Deno.serve` does, a {@link ServeHandlerInfo} saying who is calling.
 * @example
 * ```ts
 * const handler: FetchHandler = async (request) => new Response(`you sent ${(await request.text()).length} characters`);
 * ```
 */
export type FetchHandler = (request: Request, info?: ServeHandlerInfo) => Promise<Response>;

/**
 * Options of {@link toNodeListener}.
 * @example
 * ```ts
 * const options: NodeListenerOptions = { onError: (error) => console.error('answer failed', error), writeStallMs: 30000 };
 * ```
 */
export interface NodeListenerOptions {
  /**
   * Called with what the handler threw (or rejected with), or what failed while the answer was written — a response
   * body that fails mid-way, a client that stopped reading (`writeStallMs`); the client gets a plain 500 either way
   * (or, once the answer's head was sent, a cut connection). A client that goes away is not a failure: `onError` is
   * not called for it. What `onError` itself throws, or rejects with, is ignored.
   * @default a no-op
   */
  onError?: ((error: unknown) => void) | undefined;
  /**
   * How long one write of the answer may wait for the client to take it (Node's `drain`, or `finish` at the end).
   * A client that stopped reading is given up after it: the connection is cut, the response body cancelled (its
   * source released), the request's `signal` aborted, and `onError` hears a `StreamError` (`buffer_full`). Each
   * write hands Node at most 64 KiB, so the bound is on a client that stopped reading, not on the size of the
   * handler's chunks. `Infinity` waits as long as the client keeps the connection open.
   * @default 60000
   */
  writeStallMs?: number | undefined;
}

const NO_BODY_METHODS = new Set(['GET', 'HEAD']);
const INTERNAL_ERROR_TEXT = 'Internal Server Error';
const DEFAULT_WRITE_STALL_MS = 60_000;

/**
 * Serves a fetch handler `(request: Request) => Promise<Response>` from Node's `http.createServer`. The request
 * streams in (with `duplex: 'half'`) and the response streams out chunk by chunk, waiting for `drain` — at most
 * `writeStallMs` for a client that stopped reading; a client that goes away aborts the request's `signal` and cancels
 * the response body. A handler may answer before it read the request body and read it after: a body that had all
 * arrived, a small one (a declared length up to 64 KiB) or one a reader is already taking is read to its last byte,
 * the connection kept open for it while the client keeps it. Any other unread rest (a 413) is not read: the answer
 * says `Connection: close`, the socket is closed after it, and a read of the body after the answer fails with a
 * `StreamError` (`read_failed`) saying so. A handler that throws gets a plain 500 (no stack, no message), and so
 * does an answer that cannot be written (a status or header Node refuses); nothing the handler or `onError` does
 * leaves a request unanswered or a promise rejected unhandled. The handler's second argument is a
 * {@link ServeHandlerInfo}, `{ remoteAddr }` as `Deno.serve` passes, with `localAddr`, the server's end of the
 * connection.
 * @param handler the fetch handler: `createA2AHandler(…)`, `createMCPHandler(…)` or any other
 * @param options {@link NodeListenerOptions}
 * @returns a request listener for `http.createServer` (or `https.createServer`)
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createA2AHandler } from 'faultline/a2a';
 * import { toNodeListener } from 'faultline/node';
 *
 * createServer(toNodeListener(createA2AHandler({ agent, card: { name: 'inventory' } }))).listen(8080);
 * ```
 */
export function toNodeListener(handler: FetchHandler, options: NodeListenerOptions = {}): (request: NodeIncomingRequest, response: NodeServerResponse) => void {
  const problems: string[] = [];
  if (typeof handler !== 'function') problems.push(`handler must be a fetch handler, (request) => Promise<Response> (got ${refusedValue(handler)})`);
  if (!isPlainObject(options)) problems.push(`options must be an object (got ${refusedValue(options)})`);
  else {
    problems.push(...unknownOptionProblems(options, ['onError', 'writeStallMs']));
    if (options.onError !== undefined && typeof options.onError !== 'function') problems.push(`onError must be a function (got ${refusedValue(options.onError)})`);
    const stall = options.writeStallMs;
    if (stall !== undefined && !(typeof stall === 'number' && stall > 0)) problems.push(`writeStallMs must be a number > 0 or Infinity (got ${refusedValue(stall)})`);
  }
  // Refused when the server is made, not with a 500 on every request it then answers.
  if (problems.length > 0) throw ConfigError.fromProblems('toNodeListener', problems);
  const settings = { onError: options.onError, stallMs: options.writeStallMs ?? DEFAULT_WRITE_STALL_MS };
  return (request, response) => {
    serve(handler, settings, request, response).catch((error: unknown) => fail(error, settings, response));
  };
}

interface Settings {
  readonly onError: ((error: unknown) => void) | undefined;
  readonly stallMs: number;
}

/**
 * The last resort when writing the answer failed: `onError` hears why, and the client gets a plain 500 — the failed
 * answer's headers cleared, the connection closed after it (the request body's state is unknown) — or, once the
 * answer's head is out, a cut connection. Never throws.
 */
function fail(error: unknown, settings: Settings, outgoing: NodeServerResponse): void {
  quietCall(settings.onError, error);
  try {
    if (outgoing.headersSent) {
      outgoing.destroy();
      return;
    }
    for (const name of outgoing.getHeaderNames?.() ?? []) outgoing.removeHeader?.(name);
    outgoing.statusCode = 500;
    outgoing.statusMessage = INTERNAL_ERROR_TEXT;
    outgoing.setHeader('content-type', 'text/plain; charset=utf-8');
    outgoing.setHeader('connection', 'close');
    outgoing.write(new TextEncoder().encode(INTERNAL_ERROR_TEXT));
    outgoing.end();
  } catch {
    try {
      outgoing.destroy();
    } catch {
      // nothing is left to do for this connection
    }
  }
}

async function serve(handler: FetchHandler, settings: Settings, incoming: NodeIncomingRequest, outgoing: NodeServerResponse): Promise<void> {
  const controller = new AbortController();
  const closed = () => {
    if (!outgoing.writableFinished) controller.abort(new DOMException('The client closed the connection', 'AbortError'));
  };
  outgoing.on('close', closed);
  // A pipelined answer queued behind the one before it gets no `close` of its own when the connection goes: the
  // socket's is watched too, while this request is served.
  const unwatch = watchClose(incoming.socket, closed);
  const method = (incoming.method ?? 'GET').toUpperCase();
  const body = NO_BODY_METHODS.has(method) ? undefined : requestBody(incoming);
  // Still arriving and unread when the head goes out: the answer says `Connection: close` and the connection closes
  // after it, so a rest no one will read cannot hold it (nor be read off the wire for nothing) — unless a reader is
  // taking it or it is small, and the client keeps its connection: then the rest is let arrive, as a handler that
  // answers first and reads after expects.
  let closing = false;
  const send = (response: Response) => {
    const unread = body !== undefined && !body.ended() && incoming.complete !== true;
    closing = unread && !(body.keepable() && outgoing.shouldKeepAlive !== false);
    return writeResponse(response, method, closing, { outgoing, signal: controller.signal, stallMs: settings.stallMs });
  };
  try {
    await answer(handler, settings, incoming, method, body, controller.signal, send);
  } catch (error) {
    // The head is out: the connection is cut, and the handler's signal says why.
    if (outgoing.headersSent) controller.abort(error);
    fail(error, settings, outgoing);
  } finally {
    unwatch();
    const answered = outgoing.writableFinished;
    body?.letGo(closing || !answered ? 'closing' : 'kept', answered);
  }
}

/** Calls the handler with the request and sends its answer (a 400 for a request no `Request` can hold, a 500 for a handler that failed). */
async function answer(handler: FetchHandler, settings: Settings, incoming: NodeIncomingRequest, method: string, body: RequestBody | undefined, signal: AbortSignal, send: (response: Response) => Promise<void>): Promise<void> {
  let request: Request;
  try {
    request = new Request(requestURL(incoming), {
      method,
      headers: requestHeaders(incoming.headers),
      signal,
      ...(body ? { body: body.stream, duplex: 'half' } : {}),
    } as RequestInit);
  } catch {
    await send(new Response('Bad Request', { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } }));
    return;
  }
  let response: Response;
  try {
    response = await handler(request, serveInfo(incoming));
    if (!(response instanceof Response)) throw new TypeError('The handler did not return a Response');
  } catch (error) {
    // A client that left is no failure: what the handler rejects with then (the signal's reason, a body read that
    // failed with the connection) is not reported.
    if (signal.aborted) return;
    quietCall(settings.onError, error);
    response = new Response(INTERNAL_ERROR_TEXT, { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  await send(response);
}

/**
 * Who is calling: the client's end of the connection, as `Deno.serve` reports it, and this server's end (a caller whose
 * address is the server's own is on this machine).
 */
function serveInfo(incoming: NodeIncomingRequest): ServeHandlerInfo {
  const socket = incoming.socket;
  const remote = socket?.remoteAddress;
  const local = socket?.localAddress;
  if (typeof remote !== 'string') return {};
  const remoteAddr = { hostname: remote, port: socket?.remotePort ?? 0, transport: 'tcp' } as const;
  return typeof local === 'string' ? { remoteAddr, localAddr: { hostname: local, port: socket?.localPort ?? 0, transport: 'tcp' } } : { remoteAddr };
}

/** The request's absolute URL: `http(s)://` + its Host header + its target. */
function requestURL(incoming: NodeIncomingRequest): URL {
  const encrypted = incoming.socket?.encrypted === true;
  const host = incoming.headers.host;
  if (typeof host !== 'string' || host === '' || /[/\\?#@\s]/.test(host)) throw new TypeError('A request needs a valid Host header');
  const target = incoming.url ?? '/';
  const base = `${encrypted ? 'https' : 'http'}://${host}`;
  const url = new URL(target.startsWith('/') ? base + target : target, base);
  return url;
}

function requestHeaders(source: Readonly<Record<string, string | string[] | undefined>>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(source)) {
    if (name.startsWith(':') || value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.append(name, value);
  }
  return headers;
}
