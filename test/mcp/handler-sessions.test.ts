// Sessions of our MCP handler (required id: 400; unknown, expired, deleted: 404; DELETE; the maxSessions and
// sessionIdleMs bounds; stateless mode), and the life of a call in flight: notifications/cancelled reaching the
// tool's signal and getting no answer, the client disconnecting (request aborted, answer stream cancelled), the
// session ending under it (the call answered with -32000), busy sessions never evicted (503 when all are busy), and
// 100 concurrent calls on one session.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTool } from '../../src/tools/index.js';
import { within } from '../helpers/async.js';
import { call, handlerWith, initialize, jsonOf, notification, post, ready, rpc, sseRead, waitingTool, type Handler } from './handler-harness.js';

const remove = (handler: Handler, session: string | undefined, headers: Record<string, string> = {}) => post(handler, undefined, { method: 'DELETE', session, headers });
const ping = (handler: Handler, session: string | undefined) => post(handler, rpc('ping'), { session });

async function refusalCode(response: Response): Promise<number> {
  return (await jsonOf(response)).error.code as number;
}

describe('session checks', () => {
  it('answers a request without mcp-session-id with 400 and -32000', async () => {
    const handler = handlerWith();
    await initialize(handler);
    const response = await ping(handler, undefined);
    expect(response.status).toBe(400);
    expect(await refusalCode(response)).toBe(-32000);
  });

  it('answers notifications without a session with 400 too', async () => {
    expect((await post(handlerWith(), notification('notifications/initialized'))).status).toBe(400);
  });

  it('answers an unknown session id with 404 and -32000', async () => {
    const response = await ping(handlerWith(), 'not-a-session');
    expect(response.status).toBe(404);
    expect(await refusalCode(response)).toBe(-32000);
  });

  it('keeps sessions apart: each id works, the ids differ', async () => {
    const handler = handlerWith();
    const a = (await initialize(handler)).session;
    const b = (await initialize(handler)).session;
    expect(a).not.toBe(b);
    expect((await ping(handler, a)).status).toBe(200);
    expect((await ping(handler, b)).status).toBe(200);
  });

  it('stateless: accepts every request without a session, and ignores a session header', async () => {
    const handler = handlerWith({ sessions: false });
    expect((await call(handler, undefined, 'tools/call', { name: 'echo', arguments: { text: 'x' } })).result.isError).toBe(false);
    expect((await ping(handler, 'whatever')).status).toBe(200);
    const response = await remove(handler, 'whatever');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('DELETE', () => {
  it('ends the session (204); the id is then unknown (404)', async () => {
    const { handler, session } = await ready();
    const response = await remove(handler, session);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect((await ping(handler, session)).status).toBe(404);
    expect((await remove(handler, session)).status).toBe(404);
  });

  it('answers DELETE without a session id with 400, and with a bad protocol version with 400', async () => {
    const { handler, session } = await ready();
    expect((await remove(handler, undefined)).status).toBe(400);
    expect((await remove(handler, session, { 'mcp-protocol-version': 'nope' })).status).toBe(400);
    expect((await ping(handler, session)).status).toBe(200);
  });

  it.each([['json' as const], ['sse' as const]])('aborts the calls in flight of the session; each is answered with -32000 naming the session end (%s)', async (responseMode) => {
    const { tool, started } = waitingTool();
    const { handler, session } = await ready({ tools: [tool], responseMode });
    const answer = post(handler, rpc('tools/call', { name: 'wait' }, 'call-1'), { session });
    const signal = await started;
    expect((await remove(handler, session)).status).toBe(204);
    expect(signal.aborted).toBe(true);
    const response = await within(answer, 2_000, 'the aborted call');
    expect(response.status).toBe(200);
    const body = responseMode === 'json' ? await jsonOf(response) : (await within(sseRead(response), 2_000, 'the aborted stream')).frames.map((frame) => frame.data);
    const message = responseMode === 'json' ? body : (body as unknown[])[0];
    if (responseMode === 'sse') expect(body).toHaveLength(1);
    expect(message).toMatchObject({ jsonrpc: '2.0', id: 'call-1', error: { code: -32000 } });
    expect((message as { error: { message: string } }).error.message).toMatch(/^The MCP session ended: the client deleted it \(HTTP DELETE\)/);
  });

  it('answers every call of a batch that the session end stopped', async () => {
    const { tool, started } = waitingTool();
    const { handler, session } = await ready({ tools: [tool] }, '2025-03-26');
    const answer = post(handler, [rpc('tools/call', { name: 'wait' }, 1), rpc('ping', undefined, 2)], { session });
    await started;
    await remove(handler, session);
    const body = (await jsonOf(await within(answer, 2_000, 'the batch'))) as unknown as Array<Record<string, { code?: number }>>;
    expect(body).toHaveLength(2);
    expect(body.find((each) => each.id === (1 as unknown))?.error?.code).toBe(-32000);
    expect(body.find((each) => each.id === (2 as unknown))?.result).toEqual({});
  });
});

describe('session bounds', () => {
  it('maxSessions 3: a fourth session drops the least recently used', async () => {
    const handler = handlerWith({ maxSessions: 3 });
    const ids: Array<string | undefined> = [];
    for (let index = 0; index < 4; index++) ids.push((await initialize(handler)).session);
    expect((await ping(handler, ids[0])).status).toBe(404);
    for (const id of ids.slice(1)) expect((await ping(handler, id)).status).toBe(200);
  });

  it('counts use, not creation: the session used last survives', async () => {
    const handler = handlerWith({ maxSessions: 3 });
    const [a, b, c] = [(await initialize(handler)).session, (await initialize(handler)).session, (await initialize(handler)).session];
    expect((await ping(handler, a)).status).toBe(200);
    const d = (await initialize(handler)).session;
    expect((await ping(handler, b)).status).toBe(404);
    for (const id of [a, c, d]) expect((await ping(handler, id)).status).toBe(200);
  });

  it('maxSessions 3: a busy session is never evicted; idle ones are, and its call completes normally', async () => {
    const { tool, started, release } = waitingTool();
    const handler = handlerWith({ tools: [tool], maxSessions: 3 });
    const busy = (await initialize(handler)).session;
    const idle = [(await initialize(handler)).session, (await initialize(handler)).session];
    const answer = post(handler, rpc('tools/call', { name: 'wait' }, 9), { session: busy });
    const signal = await started;
    const fresh: Array<string | undefined> = [];
    for (let index = 0; index < 3; index++) fresh.push((await initialize(handler)).session); // each drops the oldest idle one
    expect(signal.aborted).toBe(false);
    for (const id of idle) expect((await ping(handler, id)).status).toBe(404);
    expect((await ping(handler, fresh[0])).status).toBe(404); // the third initialize found only it idle (besides the two newer)
    for (const id of fresh.slice(1)) expect((await ping(handler, id)).status).toBe(200);
    release('survived');
    const body = await jsonOf(await within(answer, 2_000, 'the busy call'));
    expect(body).toMatchObject({ id: 9, result: { isError: false, structuredContent: { ok: true, data: { released: 'survived' } } } });
    expect(signal.aborted).toBe(false);
    expect((await ping(handler, busy)).status).toBe(200);
  });

  it('maxSessions 3 all busy: a fourth initialize gets 503 with Retry-After: 1 and -32000; no call is aborted', async () => {
    const waits = [waitingTool('wait_a'), waitingTool('wait_b'), waitingTool('wait_c')];
    const handler = handlerWith({ tools: waits.map((each) => each.tool), maxSessions: 3 });
    const sessions: Array<string | undefined> = [];
    const answers: Promise<Response>[] = [];
    for (const [index, each] of waits.entries()) {
      const { session } = await initialize(handler);
      sessions.push(session);
      answers.push(post(handler, rpc('tools/call', { name: each.tool.name }, index), { session }));
    }
    const signals = await Promise.all(waits.map((each) => each.started));
    const refused = await post(handler, rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'late', version: '0' } }, 0));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('mcp-session-id')).toBeNull();
    const body = await jsonOf(refused);
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 0, error: { code: -32000 } });
    expect(body.error.message).toContain('too many sessions with calls in flight; try again');
    expect(signals.map((signal) => signal.aborted)).toEqual([false, false, false]);
    for (const id of sessions) expect((await ping(handler, id)).status).toBe(200);

    waits[1]?.release('done');
    expect((await jsonOf(await answers[1]!)).result.structuredContent.data).toEqual({ released: 'done' });
    const { session: late } = await initialize(handler); // the session whose call ended is idle again: it makes room
    expect((await ping(handler, sessions[1])).status).toBe(404);
    expect((await ping(handler, late)).status).toBe(200);
    expect(signals.map((signal) => signal.aborted)).toEqual([false, false, false]);
    waits[0]?.release('a');
    waits[2]?.release('c');
    await Promise.all([answers[0], answers[2]]);
  });

  // Long enough that a loaded machine makes the next request within it (at 40 ms, a session once expired between
  // its initialize and the call the test made right after); the tests wait twice as long for it to pass.
  const IDLE_MS = 300;

  it('sessionIdleMs: an idle session is forgotten (404) when next used', async () => {
    const handler = handlerWith({ sessionIdleMs: IDLE_MS });
    const { session } = await initialize(handler);
    expect((await ping(handler, session)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2 * IDLE_MS));
    expect((await ping(handler, session)).status).toBe(404);
  });

  it('a session with a call in flight is not idle', async () => {
    const { tool, started, release } = waitingTool();
    const handler = handlerWith({ tools: [tool], sessionIdleMs: IDLE_MS });
    const { session } = await initialize(handler);
    const answer = post(handler, rpc('tools/call', { name: 'wait' }, 1), { session });
    const signal = await within(started, 5_000, 'the call starting (a refused call never starts)');
    await new Promise((resolve) => setTimeout(resolve, 2 * IDLE_MS));
    expect((await ping(handler, session)).status).toBe(200);
    release('late');
    expect((await jsonOf(await answer)).result.structuredContent).toEqual({ ok: true, data: { released: 'late' } });
    expect(signal.aborted).toBe(false);
  });
});

describe('notifications/cancelled', () => {
  it("aborts the named call's signal; its answer closes with no message (JSON mode)", async () => {
    const { tool, started } = waitingTool();
    const { handler, session } = await ready({ tools: [tool] });
    const answer = post(handler, rpc('tools/call', { name: 'wait' }, 'call-7'), { session });
    const signal = await started;
    const accepted = await post(handler, notification('notifications/cancelled', { requestId: 'call-7', reason: 'user pressed stop' }), { session });
    expect(accepted.status).toBe(202);
    expect(signal.aborted).toBe(true);
    expect(String((signal.reason as Error).message)).toContain('user pressed stop');
    const response = await within(answer, 2_000, 'the cancelled call');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe('');
  });

  it('closes the SSE stream of the cancelled call without a message frame', async () => {
    const { tool, started } = waitingTool();
    const { handler, session } = await ready({ tools: [tool], responseMode: 'sse' });
    const response = await post(handler, rpc('tools/call', { name: 'wait' }, 3), { session });
    const signal = await started;
    await post(handler, notification('notifications/cancelled', { requestId: 3 }), { session });
    expect(signal.aborted).toBe(true);
    expect((await within(sseRead(response), 2_000, 'the cancelled stream')).frames).toEqual([]);
  });

  it('reaches only the call with that id (a number is not its string) of the same session', async () => {
    const { tool, started, release } = waitingTool();
    const handler = handlerWith({ tools: [tool] });
    const { session } = await initialize(handler);
    const other = (await initialize(handler)).session;
    const answer = post(handler, rpc('tools/call', { name: 'wait' }, 5), { session });
    const signal = await started;
    await post(handler, notification('notifications/cancelled', { requestId: '5' }), { session });
    await post(handler, notification('notifications/cancelled', { requestId: 6 }), { session });
    await post(handler, notification('notifications/cancelled', { requestId: 5 }), { session: other });
    await post(handler, notification('notifications/cancelled', {}), { session });
    expect(signal.aborted).toBe(false);
    release('kept');
    expect((await jsonOf(await answer)).result.structuredContent.data).toEqual({ released: 'kept' });
  });

  it('is ignored when stateless (no session scopes the id): the call goes on', async () => {
    const { tool, started, release } = waitingTool();
    const handler = handlerWith({ tools: [tool], sessions: false });
    const answer = post(handler, rpc('tools/call', { name: 'wait' }, 1));
    const signal = await started;
    expect((await post(handler, notification('notifications/cancelled', { requestId: 1 }))).status).toBe(202);
    expect(signal.aborted).toBe(false);
    release('stateless');
    expect((await jsonOf(await answer)).result.structuredContent.data).toEqual({ released: 'stateless' });
  });

  it('refuses a second call with the id of one in flight', async () => {
    const { tool, started, release } = waitingTool();
    const { handler, session } = await ready({ tools: [tool] });
    const first = post(handler, rpc('tools/call', { name: 'wait' }, 1), { session });
    await started;
    const second = await call(handler, session, 'tools/call', { name: 'wait' }, 1);
    expect(second.error.code).toBe(-32600);
    release('one');
    expect((await jsonOf(await first)).id).toBe(1);
  });
});

describe('the client leaving', () => {
  it('a request aborted by its client aborts the tool signal', async () => {
    const { tool, started } = waitingTool();
    const { handler, session } = await ready({ tools: [tool] });
    const client = new AbortController();
    const answer = post(handler, rpc('tools/call', { name: 'wait' }), { session, signal: client.signal });
    const signal = await started;
    client.abort();
    await within(answer, 2_000, 'the abandoned call');
    expect(signal.aborted).toBe(true);
  });

  it('cancelling the SSE answer stream aborts the tool signal', async () => {
    const { tool, started } = waitingTool();
    const { handler, session } = await ready({ tools: [tool], responseMode: 'sse', keepAliveMs: 10 });
    const response = await post(handler, rpc('tools/call', { name: 'wait' }), { session });
    const signal = await started;
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(': keep-alive\n\n');
    await reader.cancel();
    expect(signal.aborted).toBe(true);
  });
});

describe('concurrency', () => {
  it('answers 100 concurrent tools/call on one session, each with its own id and result', async () => {
    let running = 0;
    let peak = 0;
    const slowEcho = defineTool({
      name: 'slow_echo',
      description: '',
      parameters: z.object({ n: z.number() }),
      execute: async ({ n }) => {
        peak = Math.max(peak, ++running);
        await new Promise((resolve) => setTimeout(resolve, 5 + (n % 7)));
        running--;
        return { n };
      },
    });
    const { handler, session } = await ready({ tools: [slowEcho] });
    const answers = await Promise.all(Array.from({ length: 100 }, (_, n) => call(handler, session, 'tools/call', { name: 'slow_echo', arguments: { n } }, n)));
    for (const [n, answer] of answers.entries()) {
      expect(answer.id).toBe(n);
      expect(answer.result.structuredContent).toEqual({ ok: true, data: { n } });
    }
    expect(peak).toBeGreaterThan(50);
  });
});
