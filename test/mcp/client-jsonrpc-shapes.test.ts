// Every JSON-RPC message the MCP client decodes — the answer to its request, a request of the server's own, a
// notification — is taken as sent or refused: a malformed shape is an `MCPError` `protocol` naming what was wrong,
// in a JSON body and in an SSE event alike, never a `JSONRPCError` with a code or message made up for it.
import { describe, expect, it } from 'vitest';
import { createMCPClient, MCPError } from '../../src/mcp/index.js';
import { JSONRPCError } from '../../src/errors/jsonrpc-error.js';
import { fakeServer, frame, sse } from './fake-server.js';

type Shape = (id: unknown) => unknown;

/** Malformed answers to our request (`id` is the request's), and the words the error must use. */
const ANSWERS: Array<[string, Shape, RegExp]> = [
  ['an error without a code', (id) => ({ jsonrpc: '2.0', id, error: { message: 'boom' } }), /code is missing/],
  ['an error whose code is a string', (id) => ({ jsonrpc: '2.0', id, error: { code: '-32000', message: 'boom' } }), /code is not an integer \("-32000"\)/],
  ['an error whose code is not an integer', (id) => ({ jsonrpc: '2.0', id, error: { code: -32000.5, message: 'boom' } }), /code is not an integer \(-32000\.5\)/],
  ['an error whose code is null', (id) => ({ jsonrpc: '2.0', id, error: { code: null, message: 'boom' } }), /code is not an integer \(null\)/],
  ['an error without a message', (id) => ({ jsonrpc: '2.0', id, error: { code: -32000 } }), /message is missing/],
  ['an error whose message is not a string', (id) => ({ jsonrpc: '2.0', id, error: { code: -32000, message: { text: 'boom' } } }), /message is not a string \(an object\)/],
  ['an error that is not an object', (id) => ({ jsonrpc: '2.0', id, error: 'boom' }), /error that is not an object \(string\)/],
  ['an error that is null', (id) => ({ jsonrpc: '2.0', id, error: null }), /error that is not an object \(null\)/],
  ['both a result and an error', (id) => ({ jsonrpc: '2.0', id, result: {}, error: { code: -32000, message: 'boom' } }), /both a result and an error/],
  ['neither a result nor an error', (id) => ({ jsonrpc: '2.0', id }), /neither result nor error/],
  ['an id that is a boolean', () => ({ jsonrpc: '2.0', id: true, result: {} }), /id that is not a string, a number or null \(boolean\)/],
  ['an id that is an object', () => ({ jsonrpc: '2.0', id: { n: 1 }, result: {} }), /id that is not a string, a number or null \(an object\)/],
  ['a result with a null id', () => ({ jsonrpc: '2.0', id: null, result: {} }), /result with a null id/],
  ['no jsonrpc version', (id) => ({ id, result: {} }), /not a JSON-RPC 2\.0 message/],
  ['a method that is not a string', () => ({ jsonrpc: '2.0', method: 42 }), /method that is not a string \(number\)/],
  ['a notification whose params are a string', () => ({ jsonrpc: '2.0', method: 'notifications/message', params: 'hi' }), /params that are not an object or array \(string\)/],
  ['a request of the server with an id that is an array', () => ({ jsonrpc: '2.0', id: [1], method: 'roots/list' }), /request with an id that is not a string or a number \(an array\)/],
];

function clientAnswering(shape: Shape, as: 'json' | 'sse') {
  const server = fakeServer({
    ping: (request) => {
      const message = shape(request.id);
      return as === 'json' ? Response.json(message) : sse([frame(message)]);
    },
  });
  return createMCPClient({ url: 'https://mcp.example/mcp', fetch: server.fetch, retry: false });
}

describe('malformed JSON-RPC shapes are protocol errors naming what was wrong', () => {
  for (const as of ['json', 'sse'] as const) {
    for (const [name, shape, words] of ANSWERS) {
      it(`${name} (${as === 'json' ? 'a JSON body' : 'an SSE event'}) is an MCPError protocol, never a JSON-RPC error with an invented value`, async () => {
        const mcp = clientAnswering(shape, as);
        const error = await mcp.ping().then(() => undefined, (failure: unknown) => failure);
        expect(JSONRPCError.isInstance(error)).toBe(false);
        expect(MCPError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ reason: 'protocol', retryable: false });
        expect((error as Error).message).toMatch(words);
        expect((error as Error).message).not.toMatch(/-32603|Unknown JSON-RPC error/);
        await mcp.close();
      });
    }
  }

  it('a well-formed error keeps its own code, message and data', async () => {
    const mcp = clientAnswering((id) => ({ jsonrpc: '2.0', id, error: { code: -32042, message: 'quota', data: { left: 0 } } }), 'json');
    const error = await mcp.ping().then(() => undefined, (failure: unknown) => failure);
    expect(JSONRPCError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ rpcCode: -32042, data: { left: 0 } });
    expect((error as Error).message).toMatch(/error -32042: quota$/);
    await mcp.close();
  });
});
