import { ConfigError } from '../errors/config-error.js';
import { isPlainObject, refusedValue } from '../internal/json.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import { quietCall } from '../internal/quiet-call.js';
import type { NodeIncomingRequest, NodeServerResponse, ServeHandlerInfo } from './node-types.js';
import { requestBody, type RequestBody } from './request-body.js';

/**
 * A fetch handler, as `createA2AHandler` and `createMCPHandler` return. {@link toNodeListener} calls it with the
 * request and, as `Deno.serve` does, a {@link ServeHandlerInfo} saying who is calling.
 */
export type FetchHandler = (request: Request, info?: ServeHandlerInfo) => Promise<Response>;

/**
 * Options of {@link toNodeListener}.
 * @example
 * ```ts
 * const options: NodeListenerOptions = { onError: (error) => console.error('handler failed', error) };
 * ```
 */
export interface NodeListenerOptions {
  /**
   * Called with what the handler threw (or rejected with), or what failed while the answer was written; the client
   * gets a plain 500 either way (or, once the answer's head was sent, a cut connection). What `onError` itself throws,
   * or rejects with, is ignored.
   * @default a no-op
   */
  onError?: ((error: unknown) => void) | undefined;
}

const NO_BODY_METHODS = new Set(['GET', 'HEAD']);
const NO_BODY_STATUSES = new Set([101, 204, 205, 304]);
const INTERNAL_ERROR_TEXT = 'Internal Server Error';

/**
 * Serves a fetch handler `(request: Request) => Promise<Response>` from Node's `http.createServer`. The request
 * streams in (with `duplex: 'half'`) and the response streams out chunk by chunk, waiting for `drain`; a client that
 * goes away aborts the request's `signal` and cancels the response body. When the handler answers before it read the
 * whole request body (a 413, say), the response says `Connection: close` and the socket is closed after it, so the
 * unread rest cannot break the next request. A handler that throws gets a plain 500 (no stack, no message), and so
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
    problems.push(...unknownOptionProblems(options, ['onError']));
    if (options.onError !== undefined && typeof options.onError !== 'function') problems.push(`onError must be a function (got ${refusedValue(options.onError)})`);
  }
  // Refused when the server is made, not with a 500 on every request it then answers.
  if (problems.length > 0) throw ConfigError.fromProblems('toNodeListener', problems);
  return (request, response) => {
    serve(handler, options, request, response).catch((error: unknown) => fail(error, options, response));
  };
}

/**
 * The last resort when writing the answer failed: `onError` hears why, and the client gets a plain 500 — the failed
 * answer's headers cleared, the connection closed after it (the request body's state is unknown) — or, once the
 * answer's head is out, a cut connection. Never throws.
 */
function fail(error: unknown, options: NodeListenerOptions, outgoing: NodeServerResponse): void {
  quietCall(options.onError, error);
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

async function serve(handler: FetchHandler, options: NodeListenerOptions, incoming: NodeIncomingRequest, outgoing: NodeServerResponse): Promise<void> {
  const controller = new AbortController();
  const onClose = () => {
    if (!outgoing.writableFinished) controller.abort(new DOMException('The client closed the connection', 'AbortError'));
  };
  outgoing.on('close', onClose);
  const method = (incoming.method ?? 'GET').toUpperCase();
  const body = NO_BODY_METHODS.has(method) ? undefined : requestBody(incoming);
  let request: Request;
  try {
    request = new Request(requestURL(incoming), {
      method,
      headers: requestHeaders(incoming.headers),
      signal: controller.signal,
      ...(body ? { body: body.stream, duplex: 'half' } : {}),
    } as RequestInit);
  } catch {
    await send(new Response('Bad Request', { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } }), method, body, incoming, outgoing, controller.signal);
    return;
  }
  let response: Response;
  try {
    response = await handler(request, serveInfo(incoming));
    if (!(response instanceof Response)) throw new TypeError('The handler did not return a Response');
  } catch (error) {
    quietCall(options.onError, error);
    if (controller.signal.aborted) return;
    response = new Response(INTERNAL_ERROR_TEXT, { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  await send(response, method, body, incoming, outgoing, controller.signal);
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

/** Writes `response` to `outgoing`, its body with backpressure, then closes a connection whose request body was left unread. */
async function send(response: Response, method: string, body: RequestBody | undefined, incoming: NodeIncomingRequest, outgoing: NodeServerResponse, signal: AbortSignal): Promise<void> {
  if (signal.aborted) {
    await response.body?.cancel(signal.reason).catch(() => {});
    return;
  }
  // Arrived but unread is harmless (the parser is past it); still arriving would be parsed as the next request.
  const unread = () => body !== undefined && !body.ended() && incoming.complete !== true;
  let withBody: boolean;
  try {
    withBody = writeHead(response, method, outgoing, unread());
  } catch (error) {
    // A head Node refuses (a status out of its range, a header it cannot send): the listener answers 500 instead.
    await response.body?.cancel().catch(() => {});
    throw error;
  }
  if (!withBody) await response.body?.cancel().catch(() => {});
  else if (!(await writeBody(response.body as ReadableStream<Uint8Array>, outgoing, signal))) return;
  await new Promise<void>((resolve) => outgoing.end(resolve));
  // The unread rest of the request would be parsed as the next request on this connection: close it instead.
  if (unread()) outgoing.socket?.destroy();
  else if (body !== undefined && !body.ended()) body.discard();
}

/** Sets the status and headers of `response` on `outgoing`, and sends them when a body follows; whether one does. */
function writeHead(response: Response, method: string, outgoing: NodeServerResponse, close: boolean): boolean {
  outgoing.statusCode = response.status;
  if (response.statusText !== '') outgoing.statusMessage = response.statusText;
  for (const [name, value] of response.headers) if (name !== 'set-cookie') outgoing.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) outgoing.setHeader('set-cookie', cookies);
  if (close) outgoing.setHeader('connection', 'close');
  const withBody = response.body !== null && method !== 'HEAD' && !NO_BODY_STATUSES.has(response.status);
  if (withBody) outgoing.flushHeaders();
  return withBody;
}

/** Streams `body` to `outgoing`; false when it did not end normally (the client left, or the body failed). */
async function writeBody(body: ReadableStream<Uint8Array>, outgoing: NodeServerResponse, signal: AbortSignal): Promise<boolean> {
  const reader = body.getReader();
  const cancel = () => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return true;
      if (signal.aborted) return false;
      if (!outgoing.write(chunk.value)) await drained(outgoing);
    }
  } catch {
    // A body that fails mid-way is a dropped connection: end the socket after the bytes already sent, so the client
    // sees a cut-short chunked body rather than a clean end.
    if (!signal.aborted) outgoing.socket?.end();
    return false;
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

function drained(outgoing: NodeServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off('drain', done);
      outgoing.off('close', done);
      resolve();
    };
    outgoing.once('drain', done);
    outgoing.once('close', done);
  });
}
