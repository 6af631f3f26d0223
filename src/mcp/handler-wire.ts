/**
 * @internal What the MCP handler writes: JSON-RPC responses, as one `application/json` body or as SSE frames, every
 * one passed through the configured secrets on its way out (in every form they can take), and the header checks of
 * the Streamable HTTP transport (`Accept`, `Content-Type`).
 */
import { removeSecrets } from '../internal/redact.js';
import { mediaTypes } from '../internal/media-types.js';
import { MCPErrorCode, type MCPRequestId } from './protocol.js';

/** @internal A JSON-RPC id as answered: `null` when the request's id could not be read. */
export type AnswerId = MCPRequestId | null;

/** @internal A JSON-RPC error object. */
export interface RPCErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** @internal What a request is answered with when it must get no answer (it was cancelled, or its client left). */
export const NO_ANSWER: unique symbol = Symbol('faultline.mcp.noAnswer');

/** @internal A JSON-RPC response message, or {@link NO_ANSWER}. */
export type Answer = Record<string, unknown> | typeof NO_ANSWER;

/** @internal */
export function resultMessage(id: AnswerId, result: unknown): Record<string, unknown> {
  return { jsonrpc: '2.0', id, result };
}

/** @internal */
export function errorMessage(id: AnswerId, code: number, message: string, data?: unknown): Record<string, unknown> {
  const error: RPCErrorObject = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: '2.0', id, error };
}

/**
 * @internal The JSON text of an outgoing message, secrets removed. A message that cannot be encoded (it should never
 * happen: tool results are sealed JSON snapshots) becomes a -32603 error for the same id, never a thrown error.
 */
export function encodeMessage(message: unknown, secrets: readonly string[]): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(removeSecrets(message, secrets));
  } catch {
    text = undefined;
  }
  if (typeof text === 'string') return text;
  const id = (message as { id?: unknown } | null)?.id;
  const answerId = typeof id === 'string' || typeof id === 'number' ? id : null;
  return JSON.stringify(removeSecrets(errorMessage(answerId, MCPErrorCode.InternalError, 'The answer could not be encoded as JSON'), secrets));
}

/** @internal A JSON answer: one message, or an array of them (a batch). */
export function jsonAnswer(body: unknown, secrets: readonly string[], status = 200, headers: Readonly<Record<string, string>> = {}): Response {
  const text = Array.isArray(body) ? `[${body.map((message) => encodeMessage(message, secrets)).join(',')}]` : encodeMessage(body, secrets);
  return new Response(text, { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** @internal A refusal: HTTP `status` with a JSON-RPC error body. */
export function refusal(status: number, id: AnswerId, code: number, message: string, secrets: readonly string[], headers: Readonly<Record<string, string>> = {}, data?: unknown): Response {
  return jsonAnswer(errorMessage(id, code, message, data), secrets, status, headers);
}

/** @internal Headers of an SSE answer. */
export const SSE_HEADERS: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
});

/** @internal One SSE frame carrying a JSON-RPC message (`text` is one line: `JSON.stringify` never writes a newline). */
export function sseFrame(text: string, eventId: string): string {
  return `event: message\nid: ${eventId}\ndata: ${text}\n\n`;
}

/**
 * @internal The answer to requests that get no response (every one of them was cancelled): an event stream that
 * closes without a message — the spec's "the server sends nothing for a cancelled request" in an HTTP exchange that
 * must still end, in a content type the client accepted.
 */
export function emptyEventStream(headers: Readonly<Record<string, string>> = {}): Response {
  return new Response('', { status: 200, headers: { ...SSE_HEADERS, ...headers } });
}

/** @internal `HTTP 202 Accepted` with no body: the answer to notifications and client responses. */
export function accepted(): Response {
  return new Response(null, { status: 202 });
}

/** @internal True when `Accept` lists both `application/json` and `text/event-stream`, as the spec requires of clients. */
export function acceptsBoth(header: string | null): boolean {
  const types = mediaTypes(header);
  return types.includes('application/json') && types.includes('text/event-stream');
}
