// The server's own stream (listen) against peers that stop without closing: a connection that died silently (no
// byte, no end) and a GET that is never answered are each dropped after `timeouts.listenIdleMs` and opened again,
// picking up at Last-Event-ID, so a later `tools/list_changed` still arrives. A quiet server that sends keep-alive
// comments is not cut, nor one the client holds back while its own answers are pending, and a silence is no failure:
// the stream is never given up for being quiet. A fetch that ignores its signal cannot hold the loop or its timer.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { createMCPClient } from '../../src/mcp/index.js';
import { fakeServer, frame, keepAliveOnly, sse } from './fake-server.js';

const URL = 'https://mcp.example/mcp';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const changed = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };

/** The fake server's fetch, with the GETs (the server's own stream) answered by `onGet`. */
function withGets(onGet: (call: number, init: RequestInit | undefined) => Promise<Response>) {
  const server = fakeServer({});
  const gets: Array<string | null> = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    if (init?.method !== 'GET') return server.fetch(input, init);
    gets.push(new Headers(init.headers).get('last-event-id'));
    return onGet(gets.length, init);
  };
  return { fetchImpl, gets };
}

describe("the server's own stream (listen): idle limit", () => {
  it('a stream that goes silent without closing is dropped and opened again at Last-Event-ID; the next notification arrives', async () => {
    const { fetchImpl, gets } = withGets(async (call) =>
      call === 1 ? sse([frame({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'up' } }, 'e-1')], { end: false }) : sse([frame(changed, 'e-2')], { end: false }),
    );
    const warnings: string[] = [];
    let toolsChanged = 0;
    const client = createMCPClient({ url: URL, fetch: fetchImpl, listen: true, timeouts: { listenIdleMs: 150 }, onWarning: (warning) => warnings.push(warning) });
    client.onToolsChanged(() => toolsChanged++);
    await client.connect();
    await expect.poll(() => toolsChanged, { timeout: 5_000 }).toBe(1);
    expect(gets.slice(0, 2)).toEqual([null, 'e-1']);
    expect(warnings).toEqual([]);
    await client.close();
  });

  it('a GET that is never answered is given up after the limit and tried again', async () => {
    const { fetchImpl, gets } = withGets(
      (call, init) =>
        call === 1
          ? new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true }))
          : Promise.resolve(sse([frame(changed, 'e-1')], { end: false })),
    );
    let toolsChanged = 0;
    const client = createMCPClient({ url: URL, fetch: fetchImpl, listen: true, timeouts: { listenIdleMs: 150 } });
    client.onToolsChanged(() => toolsChanged++);
    await client.connect();
    await expect.poll(() => toolsChanged, { timeout: 5_000 }).toBe(1);
    expect(gets.length).toBe(2);
    await client.close();
  });

  it('a GET that ignores its signal is still given up at the limit, and close() leaves no timer behind', async () => {
    const { fetchImpl, gets } = withGets(() => new Promise<Response>(() => {})); // a fetch that never answers nor hears an abort
    const client = createMCPClient({ url: URL, fetch: fetchImpl, listen: true, timeouts: { listenIdleMs: 150 } });
    await client.connect();
    await expect.poll(() => gets.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    const before = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    await client.close();
    await sleep(20);
    // the listen loop's idle timer and its backoff wait end with close(): fewer timers than while it listened
    expect(process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length).toBeLessThan(before);
  });

  it("a pause while the client's own answers are pending is no silence of the server: the stream is not cut", async () => {
    // 300 requests of the server's own in one read; each answer is taken slowly, so reading is held back for seconds
    const server = fakeServer({});
    const gets: Array<string | null> = [];
    let answered = 0;
    let frames = '';
    for (let i = 1; i <= 300; i++) frames += frame({ jsonrpc: '2.0', id: `p${i}`, method: 'ping' }, `e${i}`);
    const fetchImpl: typeof fetch = async (input, init) => {
      if (init?.method === 'GET') {
        gets.push(new Headers(init.headers).get('last-event-id'));
        return gets.length === 1 ? sse([frames], { end: false }) : sse([], { end: false });
      }
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
      if (body.method === undefined) {
        await sleep(100);
        answered++;
        return new Response(null, { status: 202 });
      }
      return server.fetch(input, init);
    };
    const client = createMCPClient({ url: URL, fetch: fetchImpl, listen: true, timeouts: { listenIdleMs: 400 } });
    await client.connect();
    await sleep(2_000); // five idle limits, all spent waiting for our own answers
    expect(answered).toBeGreaterThan(0);
    expect(gets).toEqual([null]);
    await client.close();
  });

  it('keep-alive comments keep a quiet stream open: one GET, no reconnection', async () => {
    const { fetchImpl, gets } = withGets(async () => keepAliveOnly(30));
    const client = createMCPClient({ url: URL, fetch: fetchImpl, listen: true, timeouts: { listenIdleMs: 200 } });
    await client.connect();
    await sleep(800);
    expect(gets.length).toBe(1);
    await client.close();
  });

  it('a server that accepts the stream and then says nothing, every time, is never given up (silence is no failure)', async () => {
    const warnings: string[] = [];
    const { fetchImpl, gets } = withGets(async () => sse([], { end: false }));
    const client = createMCPClient({ url: URL, fetch: fetchImpl, listen: true, timeouts: { listenIdleMs: 20 }, onWarning: (warning) => warnings.push(warning) });
    await client.connect();
    // the wait after a silence is the server's retry (1 s by default), never a failure's backoff (2 s, 4 s, …): four
    // GETs within 5 s only without it
    await expect.poll(() => gets.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(4);
    expect(warnings).toEqual([]);
    await client.close();
  });

  it.each([
    [{ listenIdleMs: 0 }, /timeouts.listenIdleMs must be a number > 0 or Infinity \(got 0\)/],
    [{ listenIdleMS: 1_000 }, /timeouts: unknown option "listenIdleMS" \(did you mean listenIdleMs\?\)/],
    [{ requestMS: 1_000 }, /timeouts: unknown option "requestMS" \(did you mean requestMs\?\)/],
  ])('timeouts %j: a ConfigError naming it', (timeouts, message) => {
    expect(() => createMCPClient({ url: URL, timeouts: timeouts as never })).toThrow(message);
    try {
      createMCPClient({ url: URL, timeouts: timeouts as never });
    } catch (error) {
      expect(ConfigError.isInstance(error)).toBe(true);
    }
  });
});
