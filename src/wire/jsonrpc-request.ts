/**
 * @internal The body of a JSON-RPC request a client sends (the A2A and MCP clients): the caller's params encoded once,
 * before anything is sent, so a value JSON cannot hold is the caller's typed error and never a retryable network
 * failure; each attempt then only writes its own id around them.
 */
import { SerializeError } from '../errors/serialize-error.js';
import { messageOf } from '../internal/error-chain.js';
import { redactError, redactText } from '../internal/redact.js';

/**
 * `params` as JSON (`undefined` for none), or a `SerializeError` about the request `subject` (a cycle, a BigInt, a
 * throwing `toJSON`; its message and cause with `secrets` masked).
 * @example `encodeParams('MCP tools/call request to weather', { name: 'get_weather', arguments: args }, secrets)`
 */
export function encodeParams(subject: string, params: unknown, secrets: readonly string[]): string | undefined {
  try {
    return params === undefined ? undefined : JSON.stringify(params);
  } catch (error) {
    throw new SerializeError(`The ${subject} cannot be written as JSON: ${redactText(messageOf(error), secrets)}`, { subject, cause: redactError(error, secrets) });
  }
}

/**
 * One attempt's JSON-RPC request: `{"jsonrpc":"2.0","id":…,"method":…,"params":…}` around params already encoded.
 * @example `requestBody(7, 'tools/call', encodeParams(subject, params, secrets))`
 */
export function requestBody(id: number, method: string, encoded: string | undefined): string {
  return `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)}${encoded === undefined ? '' : `,"params":${encoded}`}}`;
}
