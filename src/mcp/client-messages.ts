/**
 * @internal What an MCP server sends the client, turned into meaning: a JSON-RPC message (a response to one of our
 * requests, a notification, a request of the server's own), or a typed failure — `JSONRPCError` for a JSON-RPC
 * error, `MCPError` for everything below that layer (an HTTP failure, an answer that breaks the protocol).
 */
import { JSONRPCError } from '../errors/jsonrpc-error.js';
import { MCPError } from '../errors/mcp-error.js';
import { messageOf as errorMessage } from '../internal/error-chain.js';
import { describeBytes, type BoundedText } from '../internal/http-body.js';
import { statusText } from '../internal/http-status.js';
import { isPlainObject, truncate } from '../internal/json.js';
import { redactError, redactHeaders, redactText, redactValue, removeSecrets } from '../internal/redact.js';
import { parseRetryAfter } from '../internal/retry-after.js';
import { nestingProblem } from '../wire/safe-json.js';
import type { MCPRequestId } from './protocol.js';

/** Who answered (the endpoint without credentials), its label, and the secrets to keep out of errors. */
export interface AnswerContext {
  url: string;
  server: string;
  secrets: readonly string[];
}

/** One message from the server. */
export type ServerMessage =
  | { kind: 'response'; id: MCPRequestId | null; result?: unknown; error?: RPCErrorObject }
  | { kind: 'notification'; method: string; params?: unknown }
  | { kind: 'request'; id: MCPRequestId; method: string; params?: unknown };

/** A JSON-RPC error object, checked: its code an integer, its message a string. */
export interface RPCErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** Deepest nesting accepted in a message from the server. */
export const MAX_MESSAGE_DEPTH = 100;

/** Parses one JSON-RPC text (a whole JSON body or an SSE event's data) into messages (a batch gives several). */
export function parseMessages(ctx: AnswerContext, text: string, where: string): ServerMessage[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw protocolError(ctx, `${where} is not JSON: ${truncate(redactText(text, ctx.secrets), 200)}`, redactError(error, ctx.secrets)); // V8 quotes the text's start
  }
  const nesting = nestingProblem(value, 'message', MAX_MESSAGE_DEPTH);
  if (nesting !== undefined) throw protocolError(ctx, `${where} is nested too deeply (${nesting.message})`);
  // Cleaned once, here, at the boundary: names, descriptions, keys, results, errors, notifications — whatever part of
  // a message quotes a secret, nothing after this point can see it.
  const clean = removeSecrets(value, ctx.secrets);
  const items = Array.isArray(clean) ? clean : [clean];
  return items.map((item) => messageOf(ctx, item, where));
}

function messageOf(ctx: AnswerContext, value: unknown, where: string): ServerMessage {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0') throw protocolError(ctx, `${where} is not a JSON-RPC 2.0 message`);
  const id = value.id;
  const validId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
  const params = value.params;
  if (Object.hasOwn(value, 'method')) {
    if (typeof value.method !== 'string') throw protocolError(ctx, `${where} has a method that is not a string (${kindOf(value.method)})`);
    if (params !== undefined && params !== null && typeof params !== 'object') throw protocolError(ctx, `${where} (${truncate(value.method, 100)}) has params that are not an object or array (${kindOf(params)})`);
    if (id === undefined) return { kind: 'notification', method: value.method, params };
    if (validId) return { kind: 'request', id, method: value.method, params };
    throw protocolError(ctx, `${where} is a request with an id that is not a string or a number (${kindOf(id)})`);
  }
  if (!validId && id !== null) throw protocolError(ctx, `${where} is a response with an id that is not a string, a number or null (${kindOf(id)})`);
  const hasResult = Object.hasOwn(value, 'result');
  if (!Object.hasOwn(value, 'error')) {
    if (!hasResult) throw protocolError(ctx, `${where} has neither result nor error`);
    if (id === null) throw protocolError(ctx, `${where} is a result with a null id`);
    return { kind: 'response', id: id as MCPRequestId, result: value.result };
  }
  if (hasResult) throw protocolError(ctx, `${where} has both a result and an error`);
  return { kind: 'response', id: id as MCPRequestId, error: errorOf(ctx, value.error, where) };
}

/**
 * A JSON-RPC error object as sent: an integer `code` and a string `message` (nothing is made up for a missing one). A
 * refused code is quoted as JSON: it is parsed JSON, so `JSON.stringify` writes it (what `preview` would say).
 */
function errorOf(ctx: AnswerContext, error: unknown, where: string): RPCErrorObject {
  if (!isPlainObject(error)) throw protocolError(ctx, `${where} has an error that is not an object (${kindOf(error)})`);
  const { code, message } = error;
  if (typeof code !== 'number' || !Number.isSafeInteger(code)) throw protocolError(ctx, `${where} has an error whose code is ${code === undefined ? 'missing' : `not an integer (${truncate(JSON.stringify(code), 40)})`}`);
  if (typeof message !== 'string') throw protocolError(ctx, `${where} has an error whose message is ${message === undefined ? 'missing' : `not a string (${kindOf(message)})`}`);
  return { code, message, data: error.data };
}

/** What a value is, for a message about a wrong type. */
function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : typeof value;
}

/** The result of a response to `method`, or its JSON-RPC error as a `JSONRPCError` (message and data redacted). */
export function resultOf(ctx: AnswerContext, message: Extract<ServerMessage, { kind: 'response' }>, method: string, status: number, inStream: boolean): unknown {
  if (message.error === undefined) return message.result;
  throw rpcFailure(ctx, message.error, method, status, inStream, '');
}

/** A JSON-RPC error the server answered `method` with (`how`: the HTTP status before it, if it matters), redacted. */
function rpcFailure(ctx: AnswerContext, error: RPCErrorObject, method: string, status: number, inStream: boolean, how: string): JSONRPCError {
  return new JSONRPCError(error.code, `MCP server ${ctx.server} answered ${method} with ${how}error ${error.code}: ${truncate(redactText(error.message, ctx.secrets), 500)}`, {
    data: redactValue(error.data, ctx.secrets),
    method,
    status,
    inStream,
  });
}

/**
 * A non-2xx answer: a JSON-RPC error when the body is one for `id`, else an `MCPError` `http`. A body that broke off
 * before its end (a connection reset) is still an answer of that status — only a whole JSON-RPC error in the part that
 * arrived is taken — and the message says it broke off: what arrived is not all the server said.
 */
export function httpFailure(ctx: AnswerContext, response: Response, body: BoundedText, method: string, id: MCPRequestId | undefined): JSONRPCError | MCPError {
  let messages: ServerMessage[] | undefined;
  try {
    messages = parseMessages(ctx, body.text, 'the error body');
  } catch {
    // not JSON-RPC: an HTTP failure (`messages` stays undefined)
  }
  const answer = messages?.find(
    (message): message is { kind: 'response'; id: MCPRequestId | null; error: RPCErrorObject } => message.kind === 'response' && message.error !== undefined && (message.id === id || message.id === null),
  );
  const challenge = response.headers.get('www-authenticate') ?? undefined;
  // The HTTP status decides first: auth, a missing session and transient statuses (408, 429, 5xx: retried, their
  // Retry-After honoured) stay HTTP failures whatever JSON-RPC error their body carries (kept in the message).
  const byStatus = [401, 403, 404, 408, 429].includes(response.status) || response.status >= 500;
  if (answer && !byStatus) return rpcFailure(ctx, answer.error, method, response.status, false, `HTTP ${response.status} and `);
  const said = body.text.trim() === '' ? '' : `: ${truncate(redactText(body.text.trim(), ctx.secrets), 300)}`;
  const broke = body.failed ? ` (its body broke off: ${truncate(redactText(errorMessage(body.failed.error), ctx.secrets), 200)})` : '';
  return new MCPError(`MCP ${method} to ${ctx.server} failed with ${statusText(response.status)}${said}${broke}`, {
    reason: 'http',
    status: response.status,
    headers: redactHeaders(response.headers, ctx.secrets),
    url: ctx.url,
    method,
    retryAfterMs: parseRetryAfter(response.headers),
    authenticate: challenge === undefined ? undefined : truncate(redactText(challenge, ctx.secrets, { patterns: false }), 500), // a challenge is not a credential: only ours are removed
  });
}

/** A body over its bound. */
export function tooLarge(ctx: AnswerContext, method: string, limit: number): MCPError {
  return new MCPError(`The answer of MCP server ${ctx.server} to ${method} is over the ${describeBytes(limit)} limit (maxResponseBytes)`, {
    reason: 'protocol',
    url: ctx.url,
    method,
    retryable: false,
  });
}

/** A 404 to a request that carried a session id: the server no longer knows the session (`what` says how it came to be). */
export function sessionExpired(ctx: AnswerContext, what: string, method: string, cause?: unknown): MCPError {
  return new MCPError(`MCP server ${ctx.server} ${what} (HTTP 404 to ${method})`, { reason: 'session_expired', status: 404, url: ctx.url, method, retryable: false, cause });
}

/** An answer that breaks the protocol. */
export function protocolError(ctx: AnswerContext, what: string, cause?: unknown, method?: string): MCPError {
  return new MCPError(`MCP server ${ctx.server}: ${what}`, { reason: 'protocol', url: ctx.url, method, retryable: false, cause });
}
