/**
 * @internal What an A2A answer means: a unary JSON-RPC response or one SSE frame of a stream, turned into its
 * `result` or a typed failure (`JSONRPCError`, `SerializeError`, `A2ATransportError` for a non-JSON-RPC HTTP failure).
 */
import { A2ATransportError } from '../errors/a2a-transport-error.js';
import { JSONRPCError } from '../errors/jsonrpc-error.js';
import { SerializeError } from '../errors/serialize-error.js';
import type { BoundedText } from '../internal/http-body.js';
import { statusText } from '../internal/http-status.js';
import { isPlainObject, truncate } from '../internal/json.js';
import { messageOf } from '../internal/error-chain.js';
import { redactError, redactHeaders, redactText, redactValue } from '../internal/redact.js';
import { parseRetryAfter } from '../internal/retry-after.js';
import type { SSEEvent } from '../wire/sse-decoder.js';

/**
 * Largest answer read: a unary body, in bytes, and the data of one event of a stream, in characters. 16 MiB, written
 * out: an app bundler keeps module-scope arithmetic even when nothing reads it. Errors name it as `describeBytes`
 * writes it, in a literal a test holds to it: the client bundles no `describeBytes`.
 */
export const MAX_RESPONSE_BYTES = 16_777_216;

/** Who answered (the endpoint without credentials) and the secrets to keep out of errors. */
export interface AnswerContext {
  url: string;
  secrets: readonly string[];
}

/** The `result` of one SSE frame of a stream. */
export function streamItem(ctx: AnswerContext, event: SSEEvent, method: string, id: number): unknown {
  let envelope: unknown;
  try {
    envelope = JSON.parse(event.data);
  } catch {
    throw new SerializeError(`The A2A stream from ${ctx.url} sent data that is not JSON: ${truncate(redactText(event.data, ctx.secrets), 200)}`, { subject: 'A2A stream event' });
  }
  return unwrap(ctx, envelope, method, id, true, 200);
}

/** The `result` of a unary answer (its body read up to {@link MAX_RESPONSE_BYTES}). */
export function resultOf(ctx: AnswerContext, { text, exceeded, failed }: BoundedText, response: Response, method: string, id: number): unknown {
  if (exceeded && response.ok) {
    throw new SerializeError(`The A2A answer from ${ctx.url} to ${method} is over the 16 MiB (16777216 bytes) limit`, { subject: 'A2A response' });
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    if (!response.ok) throw httpError(ctx, response, method, failed ? '' : text);
    // A body that broke off (a connection reset) is the network's failure, not the agent's malformed answer.
    if (failed) throw networkError(`The A2A answer from ${ctx.url} broke off`, ctx.url, failed.error, ctx.secrets, method);
    throw new SerializeError(`The A2A answer from ${ctx.url} is not JSON: ${truncate(redactText(text, ctx.secrets), 200)}`, { subject: 'A2A response' });
  }
  // A failed HTTP answer is JSON-RPC only when it says so; a gateway's `{"error": …}` body is an HTTP failure.
  if (!response.ok && !(isPlainObject(envelope) && envelope.jsonrpc === '2.0' && isPlainObject(envelope.error))) throw httpError(ctx, response, method, text);
  return unwrap(ctx, envelope, method, id, false, response.status);
}

/** An answer that is not the JSON-RPC response it should be: `The A2A answer from <url> <problem>`, one issue. */
function notResponse(ctx: AnswerContext, problem: string, code: string, path: string, message: string): SerializeError {
  return new SerializeError(`The A2A answer from ${ctx.url} ${problem}`, { subject: 'A2A response', issues: [{ code, path, message }] });
}

function unwrap(ctx: AnswerContext, envelope: unknown, method: string, id: number, inStream: boolean, status: number): unknown {
  if (!isPlainObject(envelope) || envelope.jsonrpc !== '2.0') throw notResponse(ctx, 'is not a JSON-RPC 2.0 response', 'invalid_type', 'jsonrpc', 'expected "2.0"');
  const error = envelope.error;
  if (isPlainObject(error)) {
    const code = typeof error.code === 'number' ? error.code : -32603;
    const message = typeof error.message === 'string' ? error.message : 'Unknown JSON-RPC error';
    throw new JSONRPCError(code, redactText(message, ctx.secrets), { data: redactValue(error.data, ctx.secrets), method, status, inStream });
  }
  if (envelope.id !== undefined && envelope.id !== null && envelope.id !== id) {
    // The peer's id is not quoted: it may echo what it was sent, and be of any size.
    throw notResponse(ctx, `has another id than ${id}`, 'invalid_value', 'id', `expected ${id}`);
  }
  if (!('result' in envelope)) throw notResponse(ctx, 'has neither result nor error', 'invalid_type', 'result', 'expected a result');
  return envelope.result;
}

function httpError(ctx: AnswerContext, response: Response, method: string, body: string): A2ATransportError {
  const said = body.trim() === '' ? '' : `: ${truncate(redactText(body.trim(), ctx.secrets), 300)}`;
  return new A2ATransportError(`A2A request to ${ctx.url} failed with ${statusText(response.status)}${said}`, {
    status: response.status,
    headers: redactHeaders(response.headers, ctx.secrets),
    url: ctx.url,
    method,
    retryAfterMs: parseRetryAfter(response.headers),
  });
}

/** A request that got no answer (`reason: 'network'`): `<what failed>: <the error's message>`, both redacted. */
export function networkError(what: string, url: string, error: unknown, secrets: readonly string[], method?: string): A2ATransportError {
  return new A2ATransportError(`${what}: ${redactText(messageOf(error), secrets)}`, { reason: 'network', url, method, cause: redactError(error, secrets) });
}
