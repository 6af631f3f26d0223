// Arguments JSON cannot hold — a cycle, a BigInt, a `toJSON` or a getter that throws — are the caller's to fix: every
// JSON-RPC client (A2A, MCP) refuses them with a SerializeError before anything is sent (no handshake, no request, no
// retry), never as a retryable network failure, and a secret the throwing code put in its message is masked. A
// property test plants the value at any depth of otherwise ordinary JSON.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createA2AClient, type AgentCard } from '../../src/a2a/index.js';
import { A2ATransportError, MCPError, SerializeError } from '../../src/errors/index.js';
import { createMCPClient } from '../../src/mcp/index.js';
import { agentCard03 } from '../helpers/a2a-card.js';

const SECRET = 'sk-planted-9f8e7d6c5b4a39281706';
const URL_ = 'http://127.0.0.1:9/rpc';
const card: AgentCard = agentCard03(URL_);

/** Values JSON.stringify throws on, each named. */
function unsendable(): Array<[string, () => unknown]> {
  return [
    ['a cycle', () => {
      const node: Record<string, unknown> = { name: 'loop' };
      node.self = node;
      return node;
    }],
    ['a BigInt', () => 10n ** 30n],
    ['a toJSON that throws a secret', () => ({ toJSON: () => { throw new Error(`cannot encode with ${SECRET}`); } })],
    ['a getter that throws a secret', () => Object.defineProperty({}, 'total', { enumerable: true, get: () => { throw new Error(`key ${SECRET} expired`); } })],
  ];
}

/** `bad` planted at a path of ordinary JSON. */
const planted = (bad: unknown) =>
  fc.tuple(fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 5 }), fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue(), { maxKeys: 4 })).map(([path, around]) => {
    let value: unknown = bad;
    for (const key of [...path].reverse()) value = { ...around, [key]: value };
    return { ...around, data: value } as Record<string, unknown>;
  });

function counted() {
  const sent: string[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    sent.push(String(input));
    return new Response('{}', { status: 500 });
  };
  return { sent, fetch: fetch as typeof globalThis.fetch };
}

function expectRefused(error: unknown, sent: string[]): void {
  expect(SerializeError.isInstance(error), String(error)).toBe(true);
  expect(A2ATransportError.isInstance(error) || MCPError.isInstance(error)).toBe(false);
  expect((error as Error).message).toMatch(/request to .* cannot be written as JSON/);
  expect(sent).toEqual([]); // nothing sent: not the card, not the handshake, not the request
  let at: unknown = error;
  for (let depth = 0; at instanceof Error && depth < 5; depth++, at = at.cause) {
    expect(at.message).not.toContain(SECRET);
    expect(at.stack ?? '').not.toContain(SECRET);
  }
  expect(JSON.stringify(error)).not.toContain(SECRET);
}

describe('arguments JSON cannot hold', () => {
  for (const [name, make] of unsendable()) {
    it(`${name} in an MCP call's arguments or params: a SerializeError, nothing sent`, async () => {
      await fc.assert(
        fc.asyncProperty(planted(make()), async (args) => {
          const { sent, fetch } = counted();
          const client = createMCPClient({ url: URL_, fetch, retry: { maxAttempts: 3, initialDelayMs: 1 } });
          expectRefused(await client.callTool('lookup', args).catch((error: unknown) => error), sent);
          expectRefused(await client.request('custom/method', args).catch((error: unknown) => error), sent);
          await client.close();
        }),
        { numRuns: 25 },
      );
    });

    it(`${name} in an A2A message: a SerializeError, nothing sent, for a unary call and a stream`, async () => {
      await fc.assert(
        fc.asyncProperty(planted(make()), async (data) => {
          const { sent, fetch } = counted();
          const client = await createA2AClient({ card, fetch, retry: { maxAttempts: 3, initialDelayMs: 1 } });
          const message = { kind: 'message' as const, role: 'user' as const, messageId: 'm-1', parts: [{ kind: 'data' as const, data }] };
          expectRefused(await client.sendMessage({ message }).catch((error: unknown) => error), sent);
          const streamed = await (async () => {
            for await (const _event of client.streamMessage({ message })) return undefined;
          })().catch((error: unknown) => error);
          expectRefused(streamed, sent);
        }),
        { numRuns: 25 },
      );
    });
  }

  it("the handshake's own params — a clientInfo holding a BigInt — are a SerializeError too, nothing sent", async () => {
    const { sent, fetch } = counted();
    const client = createMCPClient({ url: URL_, fetch, clientInfo: { name: 'app', version: '1', build: 7n } as never });
    const error = await client.connect().catch((caught: unknown) => caught);
    expectRefused(error, sent);
    expect((error as SerializeError).subject).toBe('MCP initialize request to 127.0.0.1:9');
  });

  it('a BigInt names what JSON cannot hold, and the subject names the request', async () => {
    const { sent, fetch } = counted();
    const client = createMCPClient({ url: URL_, fetch });
    const error = await client.callTool('lookup', { count: 1n }).catch((caught: unknown) => caught);
    expectRefused(error, sent);
    expect((error as SerializeError).message).toMatch(/BigInt/);
    expect((error as SerializeError).subject).toBe('MCP tools/call request to 127.0.0.1:9');
  });
});
