// Pipelined requests: Node queues the answer of a request that came in behind another on the same connection (its
// response has no socket) until the one before it finished. A queued answer is not the client's to take yet — no
// `writeStallMs` runs on it — and it is aborted at once when the client leaves, though Node emits no `close` on it.
import { describe, expect, it } from 'vitest';
import { until } from '../helpers/async.js';
import { rawClient, serve, sleep } from './listener-harness.js';

const encoder = new TextEncoder();

describe('toNodeListener: a pipelined request queued behind a slow answer', () => {
  it('is answered after it, with no false buffer_full, though the slow answer lasts longer than writeStallMs', async () => {
    const heard: unknown[] = [];
    const { port } = await serve(
      async (request) => {
        if (new URL(request.url).pathname !== '/slow') return new Response('fast');
        let ticks = 0;
        // 8 ticks 100 ms apart: 800 ms, the client reading all along.
        return new Response(new ReadableStream({ async pull(controller) { await sleep(100); controller.enqueue(encoder.encode(`tick ${ticks}\n`)); if (++ticks === 8) controller.close(); } }));
      },
      { onError: (error) => heard.push(error), writeStallMs: 300 },
    );
    const client = rawClient(port);
    client.socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(() => client.text().endsWith('fast\r\n0\r\n\r\n') || client.isClosed(), 3_000, 'the second answer');
    expect(client.text()).toContain('tick 7');
    expect(client.text()).toContain('fast');
    expect(client.isClosed()).toBe(false);
    expect(heard).toEqual([]);
  });

  it('a queued answer still gets writeStallMs once it has the connection and its client stopped reading', async () => {
    const heard: unknown[] = [];
    const { port } = await serve(
      async (request) => {
        if (new URL(request.url).pathname === '/first') return new Response('first');
        return new Response(new ReadableStream({ pull: (controller) => controller.enqueue(new Uint8Array(65_536)) }));
      },
      { onError: (error) => heard.push(error), writeStallMs: 300 },
    );
    const client = rawClient(port);
    client.socket.pause();
    client.socket.write('GET /first HTTP/1.1\r\nHost: x\r\n\r\nGET /endless HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(() => heard.length > 0, 5_000, 'onError');
    expect(heard).toEqual([expect.objectContaining({ name: 'StreamError', reason: 'buffer_full' })]);
  });
});

describe('toNodeListener: a pipelined request queued behind another, whose client goes away', () => {
  it('has its signal aborted and its body cancelled at once, and onError hears nothing', async () => {
    const heard: unknown[] = [];
    const aborted: string[] = [];
    let cancelled = false;
    const { port } = await serve(
      async (request) => {
        const path = new URL(request.url).pathname;
        request.signal.addEventListener('abort', () => aborted.push(path));
        if (path === '/slow') return new Response(new ReadableStream({ async pull(controller) { await sleep(50); controller.enqueue(encoder.encode('tick\n')); } }));
        return new Response(new ReadableStream({ pull: (controller) => controller.enqueue(new Uint8Array(65_536)), cancel: () => void (cancelled = true) }));
      },
      { onError: (error) => heard.push(error), writeStallMs: 1_000 },
    );
    const client = rawClient(port);
    client.socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /big HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(() => client.text().includes('tick'), 3_000, 'the first answer');
    await sleep(100);
    client.socket.destroy();
    await until(() => cancelled && aborted.length === 2, 500, 'both requests aborted').catch(() => {});
    expect(aborted.sort()).toEqual(['/big', '/slow']);
    expect(cancelled).toBe(true);
    await sleep(1_200); // past writeStallMs: no clock was left running on the queued answer
    expect(heard).toEqual([]);
  });
});

describe('toNodeListener: a burst of pipelined requests on one connection', () => {
  it('all are aborted when the client leaves, with no MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const aborted: string[] = [];
      const { port } = await serve(async (request) => {
        await new Promise((resolve) => request.signal.addEventListener('abort', resolve));
        aborted.push(new URL(request.url).pathname);
        return new Response('late');
      });
      const client = rawClient(port);
      client.socket.write(Array.from({ length: 20 }, (_, index) => `GET /${index} HTTP/1.1\r\nHost: x\r\n\r\n`).join(''));
      await sleep(200);
      client.socket.destroy();
      await until(() => aborted.length === 20, 2_000, 'every request aborted');
      await sleep(50);
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
