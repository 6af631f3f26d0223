// Writing the answer: every way it can go wrong after the head ends in one place — `onError` hears what failed (a
// response body that fails mid-way, a client that stopped reading for `writeStallMs`) and the connection is cut —
// while a client that goes away is no failure, and the listener's own work still ends (no `end()` waited on for a
// dead socket). Real loopback HTTP throughout; a raw socket plays the client that stops reading.
import { createServer, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createA2AHandler } from '../../src/a2a/index.js';
import { ConfigError, StreamError } from '../../src/errors/index.js';
import { toNodeListener, type FetchHandler, type NodeListenerOptions } from '../../src/node/index.js';
import { createEvent, type Invocation, type RunEvent, type RunnableAgent } from '../../src/runner/index.js';
import { deferred, until, within } from '../helpers/async.js';

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))));
});

/** Serves `handler`; `responses` collects Node's response objects, to see what became of them. */
async function serve(handler: FetchHandler, options?: NodeListenerOptions, wrap?: (response: ServerResponse) => void) {
  const responses: ServerResponse[] = [];
  const listener = toNodeListener(handler, options);
  const server = createServer((request, response) => (responses.push(response), wrap?.(response), listener(request, response)));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, responses };
}

/** A client that sends a request and never reads a byte of the answer, nor closes. */
function stalledClient(port: number, request: string): void {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.pause();
  socket.write(request);
}

/** A body that never ends: 64 KiB a pull until cancelled; `cancelled` resolves with the reason. */
function endless() {
  const cancelled = deferred<unknown>();
  const body = new ReadableStream<Uint8Array>({
    pull: (controller) => controller.enqueue(new Uint8Array(65_536).fill(0x61)),
    cancel: (reason) => cancelled.resolve(reason),
  });
  return { body, cancelled: cancelled.promise };
}

describe('toNodeListener: a response body that fails after the head', () => {
  it('onError hears the failure (a database gone while streaming rows), and the client sees a cut answer', async () => {
    const heard: unknown[] = [];
    const failure = new Error('the database went away while streaming rows');
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode('row 1\n')),
      pull: () => {
        throw failure;
      },
    });
    const { port } = await serve(async () => new Response(body), { onError: (error) => heard.push(error) });
    const outcome = await within(
      new Promise<string>((resolve) => {
        const request = httpRequest({ host: '127.0.0.1', port, path: '/', agent: false }, (response) => {
          response.resume();
          response.on('end', () => resolve('end'));
          response.on('error', () => resolve('cut'));
          response.on('aborted', () => resolve('cut'));
        });
        request.on('error', () => resolve('cut'));
        request.end();
      }),
      5_000,
      'the answer',
    );
    expect(outcome).toBe('cut');
    await until(() => heard.length > 0, 5_000, 'onError');
    expect(heard).toEqual([failure]);
  });
});

describe('toNodeListener: a client that goes away mid-stream', () => {
  it('is no failure: the body is cancelled, onError hears nothing, and the listener waits on no end() of a dead socket', async () => {
    const heard: unknown[] = [];
    const { body, cancelled } = endless();
    let endCalled = false;
    let endSettled = false;
    const { port } = await serve(async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }), { onError: (error) => heard.push(error) }, (response) => {
      const end = response.end.bind(response) as (callback?: () => void) => ServerResponse;
      (response as unknown as { end: (callback?: () => void) => unknown }).end = (callback) => {
        endCalled = true;
        return end(() => ((endSettled = true), callback?.()));
      };
    });
    await new Promise<void>((resolve) => {
      const request = httpRequest({ host: '127.0.0.1', port, path: '/', agent: false }, (response) => {
        response.once('data', () => (request.destroy(), resolve()));
      });
      request.on('error', () => {});
      request.end();
    });
    await within(cancelled, 5_000, 'the cancel of the response body');
    await new Promise((resolve) => setTimeout(resolve, 200));
    // An end() on a response whose socket is gone never calls back: the listener's work would never settle.
    expect(endCalled === false || endSettled).toBe(true);
    expect(heard).toEqual([]);
  });
});

describe('toNodeListener: a client that stops reading (writeStallMs)', () => {
  it('is given up after writeStallMs: the connection cut, the body cancelled, the signal aborted, onError told why', async () => {
    const heard: unknown[] = [];
    const { body, cancelled } = endless();
    const aborted = deferred<unknown>();
    const { port, responses } = await serve(
      async (request) => {
        request.signal.addEventListener('abort', () => aborted.resolve(request.signal.reason), { once: true });
        return new Response(body);
      },
      { onError: (error) => heard.push(error), writeStallMs: 300 },
    );
    const started = Date.now();
    stalledClient(port, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    const reason = await within(cancelled, 10_000, 'the cancel of the response body');
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(StreamError.isInstance(reason)).toBe(true);
    expect(reason).toMatchObject({ reason: 'buffer_full' });
    expect((reason as Error).message).toMatch(/did not take a write of the answer within 300 ms \(writeStallMs\)/);
    expect(await within(aborted.promise, 5_000, "the handler's signal")).toBe(reason);
    expect(heard).toEqual([reason]);
    await until(() => responses[0]?.destroyed, 5_000, 'the response destroyed');
  });

  it('an A2A stream whose client stopped reading is ended within the bound, once its handler gave up on it', async () => {
    const heard: unknown[] = [];
    const big = 'x'.repeat(256 * 1024);
    const agent: RunnableAgent = {
      name: 'talker',
      async *runEvents(invocation: Invocation): AsyncGenerator<RunEvent> {
        const origin = { invocationId: invocation.invocationId, author: 'talker' };
        for (let index = 0; index < 100 && !invocation.signal.aborted; index++) {
          yield createEvent(origin, { response: { object: 'chat.completion.chunk', done: false, partial: true, choices: [{ index: 0, delta: { content: big } }] } });
          await new Promise((resolve) => setImmediate(resolve));
        }
        yield createEvent(origin, { response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: 'done' } }] } });
      },
    };
    const handler = createA2AHandler({ agent, card: { name: 'talker' }, maxQueuedEvents: 5, keepAliveMs: false });
    const { port, responses } = await serve(handler, { onError: (error) => heard.push(error), writeStallMs: 500 });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/stream', params: { message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'talk' }] } } });
    stalledClient(port, `POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    await until(() => responses[0]?.destroyed || responses[0]?.writableEnded, 10_000, 'the answer given up');
    await until(() => heard.length > 0, 5_000, 'onError');
    expect(heard[0]).toMatchObject({ name: 'StreamError', reason: 'buffer_full' });
  }, 20_000);

  it('a client that reads steadily is not given up, however large the chunks: the bound is on a stall, not on a chunk', async () => {
    const heard: unknown[] = [];
    const size = 16 * 1024 * 1024;
    // One 16 MiB chunk: taken by Node whole, it would wait for the client to read most of it — some 3 s at 5 MB/s.
    const { port } = await serve(async () => new Response(new Uint8Array(size).fill(0x61)), { onError: (error) => heard.push(error), writeStallMs: 1_200 });
    const received = await within(
      new Promise<number>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port, path: '/', agent: false }, (response) => {
          let bytes = 0;
          response.on('data', (chunk: Uint8Array) => {
            bytes += chunk.byteLength;
            response.pause();
            setTimeout(() => response.resume(), chunk.byteLength / 5_000); // 5 MB/s
          });
          response.on('end', () => resolve(bytes));
          response.on('aborted', () => reject(new Error(`cut after ${bytes} bytes`)));
          response.on('error', reject);
        }).on('error', reject).end();
      }),
      20_000,
      'the whole answer',
    );
    expect(received).toBe(size);
    expect(heard).toEqual([]);
  }, 25_000);

  it('writeStallMs must be a number > 0 or Infinity, refused when the listener is made', () => {
    const handler: FetchHandler = async () => new Response('ok');
    for (const writeStallMs of [0, -1, Number.NaN, '60000', null]) {
      expect(() => toNodeListener(handler, { writeStallMs } as unknown as NodeListenerOptions)).toThrow(ConfigError);
      expect(() => toNodeListener(handler, { writeStallMs } as unknown as NodeListenerOptions)).toThrow(/writeStallMs must be a number > 0 or Infinity/);
    }
    expect(() => toNodeListener(handler, { writeStallMs: Number.POSITIVE_INFINITY })).not.toThrow();
    expect(() => toNodeListener(handler, { writeStallMs: 5_000 })).not.toThrow();
  });
});
