// A handler that answers at once and reads its request body afterwards (a webhook receiver answering 202): the read
// always settles, with every byte or with a `StreamError` (`read_failed`) saying why — never a read that waits
// forever with the bytes silently dropped. A body that had all arrived, a small one, or one a reader was taking when
// the answer went out (on a keep-alive connection) is read to its last byte; a large one nobody was reading cannot
// be (the answer says `Connection: close`). Real loopback HTTP throughout.
import { createServer, request as httpRequest, Agent, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamError } from '../../src/errors/index.js';
import { toNodeListener, type FetchHandler } from '../../src/node/index.js';
import { deferred, within } from '../helpers/async.js';

const servers: Server[] = [];
const agents: Agent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) agent.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))));
});

async function serve(handler: FetchHandler): Promise<number> {
  const server = createServer(toNodeListener(handler));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function keepAliveAgent(): Agent {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  return agent;
}

/** POSTs `size` bytes; the answer's status and headers once it ended (a connection cut after it is no failure). */
function post(port: number, size: number, agent: Agent | false = false): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'content-length': size } }, (response) => {
      answered = true;
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
    });
    request.on('error', (error) => (answered ? undefined : reject(error)));
    request.end(Buffer.alloc(size, 0x61));
  });
}

type Outcome = { bytes: number } | { error: unknown };

/**
 * A handler that answers 202 once `ready()` resolves and reads its whole body after the answer went out — starting
 * to read before the answer (`start: 'before'`, one chunk read then a wait for the answer) or only after it.
 */
function answerThenRead(ready: () => Promise<unknown>, start: 'before' | 'after') {
  const outcome = deferred<Outcome>();
  const answered = deferred();
  const handler: FetchHandler = async (request) => {
    const read = async () => {
      let bytes = 0;
      try {
        if (start === 'after') await answered.promise;
        for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
          bytes += chunk.byteLength;
          await answered.promise;
        }
        outcome.resolve({ bytes });
      } catch (error) {
        outcome.resolve({ error });
      }
    };
    void read();
    await ready();
    // The answer is out once the handler's promise settled and Node wrote it: a little later is after.
    setTimeout(answered.resolve, 50);
    return new Response(null, { status: 202 });
  };
  return { handler, outcome: outcome.promise };
}

const soon = (ms: number) => () => new Promise((resolve) => setTimeout(resolve, ms));

function expectReadFailed(outcome: Outcome, message: RegExp): void {
  expect(outcome).toHaveProperty('error');
  const error = (outcome as { error: unknown }).error;
  expect(StreamError.isInstance(error)).toBe(true);
  expect(error).toMatchObject({ reason: 'read_failed' });
  expect((error as Error).message).toMatch(message);
}

describe('toNodeListener: the request body read after the answer', () => {
  it('a body that had all arrived is read to its last byte, and the keep-alive connection serves the next request', async () => {
    const { handler, outcome } = answerThenRead(soon(300), 'before');
    const port = await serve(handler);
    const agent = keepAliveAgent();
    expect((await within(post(port, 150_000, agent), 5_000, 'the answer')).status).toBe(202);
    expect(await within(outcome, 5_000, 'the read after the answer')).toEqual({ bytes: 150_000 });
    expect((await within(post(port, 10, agent), 5_000, 'the next answer')).status).toBe(202);
  });

  it('a large body still arriving, which a reader was taking, is read to its last byte; the connection is kept for it', async () => {
    const { handler, outcome } = answerThenRead(soon(20), 'before');
    const port = await serve(handler);
    const agent = keepAliveAgent();
    const answer = await within(post(port, 8_000_000, agent), 10_000, 'the answer');
    expect(answer.status).toBe(202);
    expect(answer.headers.connection).toBe('keep-alive');
    expect(await within(outcome, 10_000, 'the read after the answer')).toEqual({ bytes: 8_000_000 });
    expect((await within(post(port, 10, agent), 5_000, 'the next answer')).status).toBe(202);
  });

  it('a small body is read whole even when the handler starts reading only after its answer, and most of it came after', async () => {
    const { handler, outcome } = answerThenRead(async () => {}, 'after');
    const port = await serve(handler);
    const answered = deferred<IncomingHttpHeaders>();
    const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/', agent: keepAliveAgent(), headers: { 'content-length': 60_000 } }, (response) => {
      response.resume();
      answered.resolve(response.headers);
    });
    request.on('error', () => {});
    request.write(Buffer.alloc(1_000, 0x61));
    expect((await within(answered.promise, 5_000, 'the answer')).connection).toBe('keep-alive');
    request.end(Buffer.alloc(59_000, 0x61)); // the rest, once the answer is in
    expect(await within(outcome, 5_000, 'the read after the answer')).toEqual({ bytes: 60_000 });
  });

  it('a large body still arriving that nobody was reading: the answer closes the connection, a later read fails saying why', async () => {
    const { handler, outcome } = answerThenRead(soon(20), 'after');
    const port = await serve(handler);
    const answer = await within(post(port, 8_000_000, keepAliveAgent()), 10_000, 'the answer');
    expect(answer.headers.connection).toBe('close');
    expectReadFailed(await within(outcome, 5_000, 'the read after the answer'), /answer was sent before the request body arrived in full.*read the body before answering/);
  });

  it('a reader taking a body on a connection the client closes after the answer (Connection: close) fails saying why', async () => {
    const { handler, outcome } = answerThenRead(soon(20), 'before');
    const port = await serve(handler);
    expect((await within(post(port, 8_000_000, false), 10_000, 'the answer')).status).toBe(202);
    expectReadFailed(await within(outcome, 5_000, 'the read after the answer'), /answer was sent before the request body arrived in full/);
  });

  it('a connection kept for a reader that the client then closes mid-body fails the read, not a read that waits forever', async () => {
    const { handler, outcome } = answerThenRead(async () => {}, 'before');
    const port = await serve(handler);
    const gotAnswer = deferred();
    const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/', agent: keepAliveAgent(), headers: { 'content-length': 8_000_000 } }, (response) => {
      response.resume();
      gotAnswer.resolve();
    });
    request.on('error', () => {});
    request.write(Buffer.alloc(100_000, 0x61));
    await within(gotAnswer.promise, 5_000, 'the answer');
    request.destroy();
    expectReadFailed(await within(outcome, 5_000, 'the read after the answer'), /connection closed before the request body arrived in full/);
  });

  it('a reader that stops taking the body after the answer (it cancels) gets the connection closed, not held', async () => {
    const port = await serve(async (request) => {
      const reader = request.body!.getReader();
      await reader.read();
      setTimeout(() => void reader.cancel(), 100);
      return new Response(null, { status: 202 });
    });
    const closed = deferred<string>();
    const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/', agent: keepAliveAgent(), headers: { 'content-length': 8_000_000 } }, (response) => response.resume());
    request.on('error', (error: NodeJS.ErrnoException) => closed.resolve(error.code ?? 'error'));
    request.on('close', () => closed.resolve('close'));
    request.end(Buffer.alloc(8_000_000, 0x61));
    expect(await within(closed.promise, 5_000, 'the close of the connection')).toMatch(/ECONNRESET|EPIPE|close/);
  });
});

describe('toNodeListener: the request body before the answer', () => {
  it('a client that goes away mid-body fails the handler\'s read with a StreamError (read_failed) keeping the cause', async () => {
    const failure = deferred<unknown>();
    const reading = deferred();
    const port = await serve(async (request) => {
      try {
        const reader = request.body!.getReader();
        await reader.read();
        reading.resolve();
        for (;;) if ((await reader.read()).done) break;
      } catch (error) {
        failure.resolve(error);
      }
      return new Response('late');
    });
    const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/', agent: false, headers: { 'content-length': 1_000_000 } });
    request.on('error', () => {});
    request.write(new Uint8Array(1000));
    await within(reading.promise, 5_000, 'the first read');
    request.destroy();
    const error = await within(failure.promise, 5_000, 'the failed read');
    expect(StreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'read_failed' });
    expect((error as Error).message).toMatch(/connection failed before the request body arrived in full/);
    expect((error as Error).cause).toBeInstanceOf(Error);
  });
});
