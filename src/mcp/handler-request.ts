/**
 * @internal A POST body as the MCP handler accepts it: within the size limit, arrived within the time limit (a client
 * that trickles bytes cannot hold a request open), JSON; then each message classified — a request (`jsonrpc: "2.0"`,
 * a string `method`, an `id` that is a string or a finite number: MCP forbids `null`), a notification (no `id`), a
 * response of the client's (ignored: this server sends no requests), or invalid, with the JSON-RPC error it
 * deserves. `params`, when given, must be an object nested no deeper than the depth limit, so nothing downstream
 * clones or serializes a hostile value.
 */
import { readBoundedBody } from '../internal/http-body.js';
import { isPlainObject } from '../internal/json.js';
import { nestingProblem } from '../wire/safe-json.js';
import type { AnswerId } from './handler-wire.js';
import { MCPErrorCode, type MCPRequestId } from './protocol.js';

/** @internal What the body limits are. */
export interface BodyLimits {
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  maxDepth: number;
}

/** @internal A body that was refused: the HTTP status and the JSON-RPC error to answer with. */
export interface BodyRefusal {
  refused: true;
  status: number;
  code: number;
  message: string;
}

/** @internal One classified message. */
export type InboundMessage =
  | { kind: 'request'; id: MCPRequestId; method: string; params: Record<string, unknown> | undefined }
  | { kind: 'notification'; method: string; params: Record<string, unknown> | undefined }
  | { kind: 'response' }
  | { kind: 'invalid'; id: AnswerId; code: number; message: string; data?: unknown };

const refuse = (status: number, code: number, message: string): BodyRefusal => ({ refused: true, status, code, message });

/** @internal The parsed JSON of the body, or why it was refused. */
export async function readJSONBody(request: Request, limits: BodyLimits): Promise<{ refused: false; value: unknown } | BodyRefusal> {
  const tooLarge = `The request body exceeds ${limits.maxBodyBytes} bytes`;
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limits.maxBodyBytes) return refuse(413, MCPErrorCode.InvalidRequest, tooLarge);
  const { text, exceeded, timedOut, failed } = await readBoundedBody(request, limits.maxBodyBytes, { timeoutMs: limits.bodyTimeoutMs });
  if (exceeded) return refuse(413, MCPErrorCode.InvalidRequest, tooLarge);
  if (timedOut) return refuse(408, MCPErrorCode.InvalidRequest, `The request body did not arrive within ${limits.bodyTimeoutMs} ms`);
  if (failed) return refuse(400, MCPErrorCode.InvalidRequest, 'The request body could not be read to its end: the connection failed while it arrived');
  try {
    return { refused: false, value: JSON.parse(text) as unknown };
  } catch {
    return refuse(400, MCPErrorCode.ParseError, 'Parse error: the body is not valid JSON');
  }
}

function readId(value: unknown): MCPRequestId | undefined {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) ? value : undefined;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isFinite(value) ? 'a number' : 'a number that is not finite';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** @internal What one JSON-RPC message of the body is. */
export function classifyMessage(value: unknown, maxDepth: number): InboundMessage {
  if (!isPlainObject(value)) return { kind: 'invalid', id: null, code: MCPErrorCode.InvalidRequest, message: `A JSON-RPC message must be an object (got ${describe(value)})` };
  const hasId = Object.prototype.hasOwnProperty.call(value, 'id');
  const id = hasId ? readId(value.id) : undefined;
  const answerId = id ?? null;
  if (value.jsonrpc !== '2.0') return { kind: 'invalid', id: answerId, code: MCPErrorCode.InvalidRequest, message: 'The message must have jsonrpc "2.0"' };
  if (!Object.prototype.hasOwnProperty.call(value, 'method')) {
    if (hasId && ('result' in value || 'error' in value)) return { kind: 'response' };
    return { kind: 'invalid', id: answerId, code: MCPErrorCode.InvalidRequest, message: 'The message must have a method (or be a response with result or error)' };
  }
  if (typeof value.method !== 'string') return { kind: 'invalid', id: answerId, code: MCPErrorCode.InvalidRequest, message: `The method must be a string (got ${describe(value.method)})` };
  if (hasId && id === undefined) {
    return { kind: 'invalid', id: null, code: MCPErrorCode.InvalidRequest, message: `The request id must be a string or a finite number (got ${describe(value.id)}; MCP forbids null)` };
  }
  const params = value.params;
  if (params !== undefined && !isPlainObject(params)) return { kind: 'invalid', id: answerId, code: MCPErrorCode.InvalidParams, message: `Invalid params: params must be an object (got ${describe(params)})` };
  const tooDeep = nestingProblem(params, 'params', maxDepth);
  if (tooDeep) return { kind: 'invalid', id: answerId, code: MCPErrorCode.InvalidParams, message: `Invalid params: ${tooDeep.path} ${tooDeep.message}`, data: { issues: [tooDeep] } };
  return id === undefined ? { kind: 'notification', method: value.method, params } : { kind: 'request', id, method: value.method, params };
}
