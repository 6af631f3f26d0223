// A path names where a value failed, and the keys in it are often a caller's: the A2A and MCP servers quote it back
// in a -32602 answer, the graph and the chat decoders in errors. Whatever the keys, it stays short.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createA2AHandler } from '../../src/a2a/index.js';
import { createMCPHandler } from '../../src/mcp/index.js';
import type { RunnableAgent } from '../../src/runner/index.js';
import { nestingProblem, pathText } from '../../src/wire/safe-json.js';

const KEY = 'k'.repeat(9_000);
/** params nested 101 levels deep, every level under a 9,000-character key: under 1 MiB of body. */
const deepParams = `${`{"${KEY}":`.repeat(101)}1${'}'.repeat(101)}`;

describe('pathText', () => {
  it('is bounded by its root and twelve short segments, whatever the keys', () => {
    const key = fc.oneof(fc.string({ maxLength: 200 }), fc.nat(), fc.constantFrom('…', '…(3 more)…', '__proto__', KEY));
    fc.assert(
      fc.property(fc.array(key, { maxLength: 40 }), (keys) => {
        const text = pathText('params', keys);
        // a segment: `["` + 32 characters JSON-escaped (≤ 6 each) + `…"]`, or an index
        expect(text.length).toBeLessThanOrEqual('params'.length + 12 * (32 * 6 + 5) + 30);
      }),
    );
  });

  it('keeps short keys whole and shows the start of a long one, marked as cut', () => {
    expect(pathText('data', ['rows', 3, 'total'])).toBe('data.rows[3].total');
    expect(pathText('', ['a b'])).toBe('["a b"]');
    expect(pathText('p', ['x'.repeat(40)])).toBe(`p["${'x'.repeat(32)}"…]`);
  });

  it('quotes a key that looks like its own shortening marker instead of passing it through raw', () => {
    expect(pathText('p', ['…evil'])).toBe('p["…evil"]');
    expect(pathText('p', Array.from({ length: 13 }, (_, index) => `k${index}`))).toBe('p.k0.k1.k2.k3.k4.k5…(3 more)….k9.k10.k11.k12');
  });

  it('nestingProblem reports a short path for a deep value under huge keys', () => {
    const found = nestingProblem(JSON.parse(deepParams), 'params', 100);
    expect(found?.code).toBe('too_deep');
    expect(found?.path.length).toBeLessThan(600);
  });
});

describe('servers quote a too-deep payload’s path, bounded', () => {
  it('A2A: the -32602 answer stays short', async () => {
    const agent: RunnableAgent = { name: 'a', async *runEvents() {} };
    const handler = createA2AHandler({ agent, card: { name: 'a' } });
    const body = `{"jsonrpc":"2.0","id":1,"method":"message/send","params":${deepParams}}`;
    expect(body.length).toBeLessThan(1_048_576);
    const response = await handler(new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    const answer = (await response.json()) as { error: { code: number; message: string } };
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message.length).toBeLessThan(1_000); // whole keys: ~90,000
  });

  it('MCP: the -32602 answer stays short (the path is in its message and its issues)', async () => {
    const handler = createMCPHandler({ tools: [], serverInfo: { name: 's', version: '1' }, logger: () => {} });
    const body = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":${deepParams}}`;
    const response = await handler(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body }),
    );
    const text = await response.text();
    expect(text).toContain('-32602');
    expect(text.length).toBeLessThan(2_000); // whole keys: ~180,000
  });
});
