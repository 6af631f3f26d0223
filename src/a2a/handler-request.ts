/**
 * @internal The JSON-RPC request as the A2A handler accepts it: `application/json`, a body within the size limit that
 * arrives within the time limit (a client that trickles bytes cannot hold a request open), JSON nested no deeper than
 * the depth limit (nothing downstream clones or serializes a hostile value), one object with `jsonrpc: "2.0"`, a
 * string `method`, and an `id` that is a string, a number or null — anything else is answered with the JSON-RPC
 * error it deserves and the agent never runs.
 */
import { readBoundedBody } from '../internal/http-body.js';
import { isPlainObject, truncate } from '../internal/json.js';
import { isJSONContentType } from '../internal/media-types.js';
import { nestingProblem } from '../wire/safe-json.js';
import { A2AErrorCode } from './constants.js';
import type { RequestId } from './jsonrpc.js';

/** What the handler's limits say about a request body. */
export interface RequestLimits {
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  maxDepth: number;
}

/** A request that passed every check. */
export interface RPCRequest {
  id: RequestId;
  method: string;
  params: unknown;
}

/** Answers a request with a JSON-RPC error (`status` the HTTP status). */
export type Fail = (id: RequestId, code: number, message?: string, data?: unknown, status?: number) => Response;

/** The checked request, or the error response to send. */
export async function readRPCRequest(request: Request, limits: RequestLimits, fail: Fail): Promise<RPCRequest | Response> {
  const type = request.headers.get('content-type');
  if (!isJSONContentType(type)) {
    return fail(null, A2AErrorCode.ContentTypeNotSupported, `Content-Type must be application/json (got ${type === null ? 'none' : truncate(type, 100)})`, undefined, 415);
  }
  const declaredLength = Number(request.headers.get('content-length') ?? '0');
  if (declaredLength > limits.maxBodyBytes) return fail(null, A2AErrorCode.InvalidRequest, `The request body exceeds ${limits.maxBodyBytes} bytes`, undefined, 413);
  const { text, exceeded, timedOut, failed } = await readBoundedBody(request, limits.maxBodyBytes, { timeoutMs: limits.bodyTimeoutMs });
  if (exceeded) return fail(null, A2AErrorCode.InvalidRequest, `The request body exceeds ${limits.maxBodyBytes} bytes`, undefined, 413);
  if (timedOut) return fail(null, A2AErrorCode.InvalidRequest, `The request body did not arrive within ${limits.bodyTimeoutMs} ms`, undefined, 408);
  if (failed) return fail(null, A2AErrorCode.InvalidRequest, 'The request body could not be read to its end: the connection failed while it arrived', undefined, 400);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail(null, A2AErrorCode.ParseError);
  }
  if (Array.isArray(body)) return fail(null, A2AErrorCode.InvalidRequest, 'Batch requests are not supported');
  if (!isPlainObject(body)) return fail(null, A2AErrorCode.InvalidRequest, 'The request must be a JSON-RPC 2.0 object');
  const rawId = body.id;
  if (rawId !== undefined && rawId !== null && typeof rawId !== 'string' && !(typeof rawId === 'number' && Number.isFinite(rawId))) {
    const what = Array.isArray(rawId) ? 'an array' : typeof rawId === 'object' ? 'an object' : typeof rawId === 'number' ? 'a number that is not finite' : `a ${typeof rawId}`;
    return fail(null, A2AErrorCode.InvalidRequest, `The request id must be a string, a finite number or null (got ${what})`);
  }
  const id: RequestId = rawId ?? null;
  if (body.jsonrpc !== '2.0' || typeof body.method !== 'string') return fail(id, A2AErrorCode.InvalidRequest, 'The request must have jsonrpc "2.0" and a method');
  const tooDeep = nestingProblem(body.params, 'params', limits.maxDepth);
  if (tooDeep) return fail(id, A2AErrorCode.InvalidParams, `Invalid params: ${tooDeep.path} ${tooDeep.message}`, { issues: [tooDeep] });
  return { id, method: body.method, params: body.params };
}
