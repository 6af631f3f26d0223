// Edges of toNodeListener met with a raw client: a body whose every byte arrived before its client left, a response
// body that yields something other than bytes, a client that goes away while the handler works (no failure, so
// `onError` hears nothing), and what bounds a connection kept open for a body read after the answer — Node's
// keep-alive idle timeout (`keepAliveTimeout`, plus the 1 s Node adds), not `requestTimeout`.
import { Agent, request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { StreamError } from '../../src/errors/index.js';
import { deferred, until, within } from '../helpers/async.js';
import { rawClient, serve, sleep } from './listener-harness.js';

type Outcome = { bytes: number } | { bytes: number; error: unknown };

/** A handler that reads one chunk, answers 202, then reads the rest, `pause(bytes)` ms before each further read. */
function answerThenRead(pause: (bytes: number) => number) {
  const outcome = deferred<Outcome>();
  const handler = async (request: Request) => {
    const reader = request.body!.getReader();
    let bytes = (await reader.read()).value!.byteLength;
    void (async () => {
      try {
        for (;;) {
          await sleep(pause(bytes));
          const next = await reader.read();
          if (next.done) break;
          bytes += next.value.byteLength;
        }
        outcome.resolve({ bytes });
      } catch (error) {
        outcome.resolve({ bytes, error });
      }
    })();
    return new Response(null, { status: 202 });
  };
  return { handler, outcome: outcome.promise };
}

describe('toNodeListener: a body read after the answer, whose client sent it all and left', () => {
  it('is read to its last byte: the close loses nothing once every byte arrived', async () => {
    const size = 1_000_000;
    const { handler, outcome } = answerThenRead(() => 5);
    const { port } = await serve(handler);
    const client = rawClient(port);
    client.socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\n\r\n`);
    client.socket.write(Buffer.alloc(size, 0x61));
    await until(() => client.text().includes('202') && client.socket.writableLength === 0, 5_000, 'the answer');
    client.socket.end();
    expect(await within(outcome, 8_000, 'the read')).toEqual({ bytes: size });
  }, 10_000);
});

describe('toNodeListener: a response body chunk that is not a Uint8Array', () => {
  it('is not skipped: onError hears a StreamError (malformed_chunk) and the answer is cut', async () => {
    const heard: unknown[] = [];
    const body = new ReadableStream({ start(controller) { controller.enqueue('hello'); controller.enqueue(new TextEncoder().encode('!')); controller.close(); } });
    const { port } = await serve(async () => new Response(body as ReadableStream<Uint8Array>), { onError: (error) => heard.push(error) });
    const client = rawClient(port);
    client.socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await within(client.closed, 3_000, 'the connection close');
    expect(client.text()).toMatch(/^HTTP\/1\.1 200/);
    expect(client.text().endsWith('0\r\n\r\n')).toBe(false);
    expect(heard).toHaveLength(1);
    expect(StreamError.isInstance(heard[0]) && heard[0].reason).toBe('malformed_chunk');
  });
});

describe('toNodeListener: a client that goes away while the handler works is no failure', () => {
  it('a handler rejecting with the request signal reason: onError hears nothing', async () => {
    const heard: unknown[] = [];
    const rejected = deferred();
    const { port } = await serve(
      async (request) => {
        await new Promise((_resolve, reject) => request.signal.addEventListener('abort', () => (reject(request.signal.reason), rejected.resolve())));
        return new Response('never');
      },
      { onError: (error) => heard.push(error) },
    );
    const client = rawClient(port);
    client.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await sleep(100);
    client.socket.destroy();
    await within(rejected.promise, 2_000, 'the handler');
    await sleep(100);
    expect(heard).toEqual([]);
  });

  it('a handler reading the body when its client leaves mid-body: onError hears nothing', async () => {
    const heard: unknown[] = [];
    const failed = deferred<unknown>();
    const { port } = await serve(
      async (request) => new Response(await request.text().catch((error: unknown) => (failed.resolve(error), Promise.reject(error)))),
      { onError: (error) => heard.push(error) },
    );
    const client = rawClient(port);
    client.socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nabc');
    await sleep(100);
    client.socket.destroy();
    await within(failed.promise, 2_000, 'the body read');
    await sleep(100);
    expect(heard).toEqual([]);
  });
});

describe("toNodeListener: a connection kept for a body read after the answer is bounded by Node's keep-alive idle timeout", () => {
  /** POSTs `size` bytes on a keep-alive connection to a server whose `keepAliveTimeout` is 200 ms (cut after 1.2 s idle). */
  async function postKept(pause: (bytes: number) => number, size: number): Promise<Outcome> {
    const { handler, outcome } = answerThenRead(pause);
    const { port } = await serve(handler, undefined, (server) => void ((server.keepAliveTimeout = 200), (server.requestTimeout = 60_000)));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', agent, headers: { 'content-length': size } }, (response) => response.resume());
    request.on('error', () => {});
    request.end(Buffer.alloc(size, 0x61));
    try {
      return await within(outcome, 8_000, 'the read');
    } finally {
      agent.destroy();
    }
  }

  it('a reader idle longer than keepAliveTimeout + 1 s after the answer loses the rest (read_failed)', async () => {
    const outcome = await postKept((bytes) => (bytes < 200_000 ? 1_800 : 0), 8_000_000);
    expect('error' in outcome && StreamError.isInstance(outcome.error) && outcome.error.reason).toBe('read_failed');
  }, 10_000);

  it('a reader that keeps taking it, each pause shorter than that, gets every byte, however long the whole read takes', async () => {
    let next = 1_000_000;
    // Three pauses of 500 ms: 1.5 s in all, past the 1.2 s, none of them alone.
    const outcome = await postKept((bytes) => (bytes >= next ? ((next += 1_000_000), 500) : 0), 4_000_000);
    expect(outcome).toEqual({ bytes: 4_000_000 });
  }, 10_000);
});
