/** JSON-RPC 2.0 responses of our A2A handler: results, errors (with A2A 1.0 `ErrorInfo` data), SSE frames. */
import { A2A_ERROR_MESSAGES, type A2AProtocolVersion } from './constants.js';
import { messageOf } from '../internal/error-chain.js';
import type { JSONRPCErrorObject } from './types.js';

export type RequestId = string | number | null;

/** A2A 1.0 `ErrorInfo` reasons by A2A error code (`A2AErrorCode`; keys written as numbers: module scope holds literals only). */
const REASONS: Readonly<Record<number, string>> = {
  [-32001]: 'TASK_NOT_FOUND',
  [-32002]: 'TASK_NOT_CANCELABLE',
  [-32003]: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
  [-32004]: 'UNSUPPORTED_OPERATION',
  [-32005]: 'CONTENT_TYPE_NOT_SUPPORTED',
  [-32006]: 'INVALID_AGENT_RESPONSE',
  [-32007]: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
  [-32008]: 'EXTENSION_SUPPORT_REQUIRED',
  [-32009]: 'VERSION_NOT_SUPPORTED',
};

/** A JSON-RPC error object; A2A 1.0 errors carry a `google.rpc.ErrorInfo` in `data`. */
export function rpcError(code: number, message: string | undefined, version: A2AProtocolVersion, data?: unknown): JSONRPCErrorObject {
  const error: JSONRPCErrorObject = { code, message: message ?? A2A_ERROR_MESSAGES[code] ?? 'Error' };
  const reason = REASONS[code];
  if (version === '1.0' && reason) {
    error.data = [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org', ...(data !== undefined ? { metadata: { details: JSON.stringify(data) } } : {}) }];
  } else if (data !== undefined) {
    error.data = data;
  }
  return error;
}

/**
 * A JSON response with a JSON-RPC body. A body that cannot be encoded (it should never happen: inbound nesting is
 * bounded) is answered with a JSON-RPC -32603 saying so, never a thrown error.
 */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  let text: string;
  try {
    text = JSON.stringify(body);
  } catch (error) {
    const id = (body as { id?: unknown } | null)?.id;
    text = JSON.stringify(
      errorBody(typeof id === 'string' || typeof id === 'number' ? id : null, { code: -32603, message: `The answer could not be encoded as JSON: ${messageOf(error).slice(0, 200)}` }),
    );
    status = 500;
  }
  return new Response(text, { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function resultBody(id: RequestId, result: unknown): unknown {
  return { jsonrpc: '2.0', id, result };
}

export function errorBody(id: RequestId, error: JSONRPCErrorObject): unknown {
  return { jsonrpc: '2.0', id, error };
}

/** One SSE frame carrying a JSON-RPC response. */
export function sseFrame(body: unknown): string {
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** Headers of an SSE answer. */
export const SSE_HEADERS: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
});
