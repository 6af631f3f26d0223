// createA2AHandler checks its options at once and loads its server part (the JSON-RPC front, the task backend, the
// runner) on the first request: importing faultline/a2a in a client app loads none of it (issue 17;
// test/package/import-graph.test.ts). A server part that cannot be loaded answers 503, and the next request tries again.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../src/errors/config-error.js';

afterEach(() => {
  vi.doUnmock('../../src/a2a/handler-server.js');
  vi.resetModules();
});

const runnable = { name: 'echo', runEvents: async function* () {} };

describe('createA2AHandler loads its server part lazily', () => {
  it('still rejects bad options at the call, before any request', async () => {
    const { createA2AHandler } = await import('../../src/a2a/handler.js');
    expect(() => createA2AHandler({ card: { name: 'x' } } as never)).toThrow(ConfigError);
  });

  it('answers 503 with a JSON-RPC error (no detail) when the server part cannot load, then serves once it can', async () => {
    let fail = true;
    vi.doMock('../../src/a2a/handler-server.js', async (original) => {
      if (fail) throw new Error('chunk load failed: secret-token-123');
      return original();
    });
    const { createA2AHandler } = await import('../../src/a2a/handler.js');
    const handler = createA2AHandler({ agent: runnable as never, card: { name: 'echo' } });
    const first = await handler(new Request('http://agent.test/.well-known/agent-card.json'));
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('1');
    const body = await first.text();
    expect(JSON.parse(body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32603 } });
    expect(body).not.toContain('secret-token-123');
    fail = false;
    vi.resetModules();
    const second = await handler(new Request('http://agent.test/.well-known/agent-card.json'));
    expect(second.status).toBe(200);
    expect(await second.json()).toMatchObject({ name: 'echo' });
  });
});
