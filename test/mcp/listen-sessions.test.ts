// The server's own stream (listen) across a forgotten session: a GET that went out with the old session and is
// answered 404 after a new handshake is about that old session, not the new one — listening goes on with the new
// session (from the start of its stream: the old stream's event ids are not sent), and no warning says it stopped.
// A 404 for the session still in use stops listening, and says so, as before.
import { describe, expect, it } from 'vitest';
import { createMCPClient } from '../../src/mcp/index.js';

const json = (body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', ...headers } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const encoder = new TextEncoder();

interface Get {
  session: string;
  lastEventId: string | null;
}

/**
 * A server whose first stream (session s-1) gives event `e-1` and ends (`retry: 1`: reconnected after the 250 ms
 * floor); the GET that reconnects with s-1 is held for the test to answer; s-1 requests get 404 once `forget()` is
 * called; an initialize can be held (`holdInitialize`); streams of later sessions stay open.
 */
function server() {
  let sessions = 0;
  let forgotten = false;
  const gets: Get[] = [];
  const held: { get?: (response: Response) => void; initialize?: Promise<void> } = {};
  const fetchStub: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const session = request.headers.get('mcp-session-id') ?? '';
    if (request.method === 'DELETE') return new Response(null, { status: 204 });
    if (request.method === 'GET') {
      gets.push({ session, lastEventId: request.headers.get('last-event-id') });
      if (gets.length === 1) return new Response(new Blob(['retry: 1\n', 'id: e-1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n']).stream(), { headers: { 'content-type': 'text/event-stream' } });
      if (session === 's-1') return new Promise<Response>((resolve) => (held.get = resolve));
      const body = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(encoder.encode(': open\n\n')) });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    }
    const message = (await request.json()) as { id?: number; method: string };
    if (message.id === undefined) return new Response(null, { status: 202 });
    if (message.method === 'initialize') {
      if (sessions > 0) await held.initialize;
      sessions++;
      return json({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }, { 'mcp-session-id': `s-${sessions}` });
    }
    if (session === 's-1' && forgotten) return new Response('', { status: 404 });
    return json({ jsonrpc: '2.0', id: message.id, result: {} });
  };
  return { fetchStub, gets, held, forget: () => (forgotten = true) };
}

async function listening(stub: ReturnType<typeof server>) {
  const warnings: string[] = [];
  const client = createMCPClient({ url: 'http://127.0.0.1:1/mcp', fetch: stub.fetchStub, retry: false, listen: true, onWarning: (warning) => warnings.push(warning) });
  await client.connect();
  // the first stream ends; the loop reconnects with s-1, resuming at e-1: that GET is held
  await expect.poll(() => stub.gets.length, { timeout: 5_000 }).toBe(2);
  expect(stub.gets).toEqual([
    { session: 's-1', lastEventId: null },
    { session: 's-1', lastEventId: 'e-1' },
  ]);
  return { client, warnings };
}

describe("listen across a forgotten session: a 404 about the old session's GET", () => {
  it('arriving after the new handshake: listening goes on with the new session, from its start, without a warning', async () => {
    const stub = server();
    const { client, warnings } = await listening(stub);
    stub.forget();
    await client.ping(); // 404 for s-1: a new handshake (s-2), whose listen() finds the old loop alive
    stub.held.get?.(new Response('', { status: 404 })); // only now the old GET learns s-1 is gone
    await expect.poll(() => stub.gets.length, { timeout: 5_000 }).toBe(3);
    expect(stub.gets[2]).toEqual({ session: 's-2', lastEventId: null });
    await sleep(300);
    await client.close();
    expect(stub.gets).toHaveLength(3); // one stream for s-2, kept open
    expect(warnings).toEqual([]);
  });

  it('arriving while the new handshake is under way: left to that handshake, which listens with the new session', async () => {
    const stub = server();
    let release!: () => void;
    stub.held.initialize = new Promise<void>((resolve) => (release = resolve));
    const { client, warnings } = await listening(stub);
    stub.forget();
    const ping = client.ping(); // 404 for s-1: the new handshake waits on the server
    await sleep(50);
    stub.held.get?.(new Response('', { status: 404 }));
    await sleep(50);
    release();
    await ping;
    await expect.poll(() => stub.gets.length, { timeout: 5_000 }).toBe(3);
    expect(stub.gets[2]).toEqual({ session: 's-2', lastEventId: null });
    await sleep(300);
    await client.close();
    expect(stub.gets).toHaveLength(3);
    expect(warnings).toEqual([]);
  });

  it('for the session still in use (no new handshake): listening stops, and says so', async () => {
    const stub = server();
    const { client, warnings } = await listening(stub);
    stub.held.get?.(new Response('', { status: 404 }));
    await expect.poll(() => warnings, { timeout: 5_000 }).toEqual([expect.stringMatching(/its own stream \(listen\) stopped: GET answered 404$/)]);
    await sleep(300);
    await client.close();
    expect(stub.gets).toHaveLength(2);
  });
});
