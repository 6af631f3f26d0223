// toNodeListener never leaves a request unanswered and never rejects unhandled: every callback and option that throws
// or rejects (the handler, onError, a response Node refuses to write) ends in an answer — a plain 500 while nothing was
// sent, a cut connection once the head went out — with no `unhandledRejection` seen. Real loopback HTTP throughout.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toNodeListener, type FetchHandler, type NodeListenerOptions, type ServeHandlerInfo } from '../../src/node/index.js';
import { within } from '../helpers/async.js';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => void process.on('unhandledRejection', onUnhandled));
afterAll(() => void process.off('unhandledRejection', onUnhandled));

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))));
});

async function serve(handler: FetchHandler, options?: NodeListenerOptions): Promise<number> {
  const server = createServer(toNodeListener(handler, options));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** What the client got: a status, headers and body, or the connection cut (`'cut'`); never nothing. */
function ask(port: number, method = 'POST'): Promise<{ status: number; headers: Record<string, unknown>; text: string } | 'cut'> {
  return new Promise((resolve) => {
    const request = httpRequest({ host: '127.0.0.1', port, method, path: '/', agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (part: string) => (text += part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      response.on('error', () => resolve('cut'));
      response.on('aborted', () => resolve('cut'));
    });
    request.on('error', () => resolve('cut'));
    request.end(method === 'POST' ? '{"a":1}' : undefined);
  });
}

/** A Response whose property `name` is replaced by `value` (a getter when a function is given). */
function doctored(name: 'status' | 'headers', descriptor: PropertyDescriptor, body: BodyInit | null = 'fine'): Response {
  const response = new Response(body, { headers: { 'content-length': '4', 'x-from-handler': 'yes' } });
  Object.defineProperty(response, name, descriptor);
  return response;
}

const thrower = async () => {
  throw new Error('the handler failed');
};
const badHeaders = { value: { [Symbol.iterator]: function* () { yield ['x-bad', 'line\nbreak']; }, getSetCookie: () => [] } };

const cases: ReadonlyArray<{ name: string; handler: FetchHandler; options?: NodeListenerOptions; heard: number }> = [
  { name: 'the handler throws and onError throws', handler: thrower, options: { onError: () => { throw new Error('onError failed'); } }, heard: 1 },
  { name: 'the handler throws and onError rejects', handler: thrower, options: { onError: async () => { throw new Error('onError rejected'); } }, heard: 1 },
  { name: 'the handler rejects with a non-error and onError throws it back', handler: () => Promise.reject(42), options: { onError: (error) => { throw error; } }, heard: 1 },
  { name: 'the handler throws synchronously', handler: (() => { throw new Error('sync'); }) as unknown as FetchHandler, heard: 1 },
  { name: 'the handler returns something that is not a Response', handler: async () => ({ status: 200 }) as unknown as Response, heard: 1 },
  { name: 'the response has a status Node refuses', handler: async () => doctored('status', { value: 42 }), heard: 1 },
  { name: 'the response has a status Node refuses and no body', handler: async () => doctored('status', { value: 42 }, null), heard: 1 },
  { name: 'the response has a header value Node refuses', handler: async () => doctored('headers', badHeaders), heard: 1 },
  { name: "the response's headers throw when read", handler: async () => doctored('headers', { get: () => { throw new Error('headers'); } }), heard: 1 },
  { name: 'the response has a header Node refuses and onError throws', handler: async () => doctored('headers', badHeaders), options: { onError: () => { throw new Error('again'); } }, heard: 1 },
  { name: 'the response has a header Node refuses and onError rejects', handler: async () => doctored('headers', badHeaders), options: { onError: () => Promise.reject(new Error('again')) }, heard: 1 },
];

describe('toNodeListener: whatever throws or rejects, the client gets an answer and nothing rejects unhandled', () => {
  it.each(cases)('$name: a plain 500 without the failed answer\'s headers', async ({ handler, options, heard }) => {
    unhandled.length = 0;
    const errors: unknown[] = [];
    const port = await serve(handler, { onError: (error) => (errors.push(error), options?.onError?.(error)) });
    const answer = await within(ask(port), 5_000, 'the answer');
    expect(answer).not.toBe('cut');
    if (answer === 'cut') return;
    expect(answer.status).toBe(500);
    expect(answer.text).toBe('Internal Server Error');
    expect(answer.headers['x-from-handler']).toBeUndefined();
    expect(errors).toHaveLength(heard);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
    // the server still answers the next request
    expect(await within(ask(port, 'GET'), 5_000, 'the next answer')).not.toBe('cut');
  });

  it('a body that fails after the head went out cuts the connection: the client sees it end, not a hang', async () => {
    unhandled.length = 0;
    const port = await serve(
      async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('partial'));
            },
            pull() {
              throw new Error('the body failed');
            },
          }),
        ),
      { onError: () => { throw new Error('onError failed'); } },
    );
    const answer = await within(ask(port), 5_000, 'the end of the answer');
    expect(answer === 'cut' || answer.status === 200).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
  });
});

describe('toNodeListener tells the handler who is calling', () => {
  it('passes { remoteAddr } as Deno.serve does: the client end of the connection, and localAddr: the server end', async () => {
    let seen: ServeHandlerInfo | undefined;
    const port = await serve(async (_request, info) => ((seen = info), new Response('ok')));
    const answer = await ask(port, 'GET');
    expect(answer).not.toBe('cut');
    expect(seen?.remoteAddr).toMatchObject({ hostname: '127.0.0.1', transport: 'tcp' });
    expect(seen?.remoteAddr?.port).toBeGreaterThan(0);
    expect(seen?.localAddr).toEqual({ hostname: '127.0.0.1', port, transport: 'tcp' });
  });
});
