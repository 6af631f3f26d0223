// toNodeListener (issue 15): our fetch handlers (A2A and MCP) served by Node's own `http.createServer` on loopback,
// driven by real clients — `fetch`, and `http.request` with a keep-alive agent where the connection's reuse matters.
import { createServer, request as httpRequest, Agent, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createA2AHandler } from '../../src/a2a/index.js';
import { createMCPClient, createMCPHandler } from '../../src/mcp/index.js';
import { toNodeListener, type FetchHandler, type NodeListenerOptions } from '../../src/node/index.js';
import { createEvent, type EventOrigin, type Invocation, type RunEvent, type RunnableAgent } from '../../src/runner/index.js';
import { defineTool, runTool } from '../../src/tools/index.js';
import { deferred, within } from '../helpers/async.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type JSONObject = Record<string, any>;

const servers: Server[] = [];
const agents: Agent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) agent.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))));
});

/** Serves `handler` through toNodeListener on 127.0.0.1; resolves to its base URL. */
async function serve(handler: FetchHandler, options?: NodeListenerOptions): Promise<string> {
  const server = createServer(toNodeListener(handler, options));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const chunkEvent = (origin: EventOrigin, text: string) =>
  createEvent(origin, { response: { object: 'chat.completion.chunk', done: false, partial: true, choices: [{ index: 0, delta: { content: text } }] } });
const answerEvent = (origin: EventOrigin, text: string) =>
  createEvent(origin, { response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: text } }] } });

function scripted(script: (origin: EventOrigin, invocation: Invocation) => AsyncIterable<RunEvent>): RunnableAgent {
  return {
    name: 'inventory',
    async *runEvents(invocation: Invocation) {
      yield* script({ invocationId: invocation.invocationId, author: 'inventory' }, invocation);
    },
  };
}

const userMessage = (text = 'order 42') => ({ kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text }] });
const rpc = (method: string, params: unknown, id = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** Reads SSE frames from `body` until `until` holds for the frames so far; leaves the reader open. */
async function readFrames(reader: ReadableStreamDefaultReader<Uint8Array>, until: (frames: JSONObject[]) => boolean): Promise<JSONObject[]> {
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const frames = text.split('\n\n').filter((frame) => frame.startsWith('data: ')).map((frame) => JSON.parse(frame.slice(6)) as JSONObject);
    if (until(frames)) return frames;
    const chunk = await reader.read();
    if (chunk.done) return frames;
    text += decoder.decode(chunk.value, { stream: true });
  }
}

/** One `http.request`, its body sent in `chunks`; resolves with the status, headers and body text (and a client error, if any). */
function send(url: string, agent: Agent, body: Uint8Array[] | string, headers: Record<string, string | number> = {}) {
  return new Promise<{ status: number; headers: IncomingMessage['headers']; text: string; socketReused: boolean }>((resolve, reject) => {
    let answered = false;
    const request = httpRequest(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } }, (response) => {
      answered = true;
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (part: string) => (text += part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text, socketReused: request.reusedSocket }));
      response.on('error', reject);
    });
    // Writing into a connection the server closed after answering may fail (EPIPE/ECONNRESET) once the answer is in.
    request.on('error', (error) => (answered ? undefined : reject(error)));
    if (typeof body === 'string') request.end(body);
    else {
      for (const part of body) request.write(part);
      request.end();
    }
  });
}

describe('toNodeListener with createA2AHandler', () => {
  it('streams message/stream events as they happen, before the stream ends', async () => {
    const release = deferred();
    const handler = createA2AHandler({
      agent: scripted(async function* (origin) {
        yield chunkEvent(origin, 'checking ');
        await release.promise;
        yield answerEvent(origin, 'checking stock: 3 left');
      }),
      card: { name: 'inventory' },
    });
    const url = await serve(handler);
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: rpc('message/stream', { message: userMessage() }) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    const early = await within(readFrames(reader, (frames) => frames.some((frame) => frame.result?.kind === 'artifact-update')), 5_000, 'the first artifact');
    expect(early[0]?.result.kind).toBe('task');
    expect(JSON.stringify(early)).toContain('checking ');
    release.resolve();
    const rest = await within(readFrames(reader, () => false), 5_000, 'the end of the stream');
    expect(rest.at(-1)?.result).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
  });

  it('a client that disconnects mid-stream aborts the agent run', async () => {
    const aborted = deferred<unknown>();
    const handler = createA2AHandler({
      agent: scripted(async function* (origin, invocation) {
        yield chunkEvent(origin, 'working');
        await new Promise<void>((resolve) => invocation.signal.addEventListener('abort', () => resolve(), { once: true }));
        aborted.resolve(invocation.signal.reason);
      }),
      card: { name: 'inventory' },
    });
    const url = await serve(handler);
    const client = new AbortController();
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: rpc('message/stream', { message: userMessage() }), signal: client.signal });
    const reader = response.body!.getReader();
    await within(readFrames(reader, (frames) => frames.some((frame) => frame.result?.kind === 'artifact-update')), 5_000, 'the first artifact');
    client.abort();
    await within(aborted.promise, 5_000, "the agent's abort");
  });

  it('the fetch signal of the handler aborts when the client goes away', async () => {
    const seen = deferred<boolean>();
    const url = await serve(async (request) => {
      request.signal.addEventListener('abort', () => seen.resolve(request.signal.aborted), { once: true });
      return new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('first')) }));
    });
    const client = new AbortController();
    const response = await fetch(url, { signal: client.signal });
    await response.body!.getReader().read();
    client.abort();
    await expect(within(seen.promise, 5_000, 'the abort')).resolves.toBe(true);
  });

  it('a 413 with a declared length closes its connection; the next request on the keep-alive agent succeeds', async () => {
    const handler = createA2AHandler({ agent: scripted(async function* (origin) { yield answerEvent(origin, 'ok'); }), card: { name: 'inventory' }, maxBodyBytes: 1024 });
    const url = await serve(handler);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    const big = new Uint8Array(4 * 1024 * 1024).fill(0x20);
    const refused = await send(url, agent, [big], { 'content-length': big.byteLength });
    expect(refused.status).toBe(413);
    expect(refused.headers.connection).toBe('close');
    expect(JSON.parse(refused.text).error.code).toBe(-32600);
    const next = await send(url, agent, rpc('message/send', { message: userMessage() }));
    expect(next.status).toBe(200);
    expect(JSON.parse(next.text).result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
  });

  it('a 413 found while reading a chunked body closes its connection too; the next request succeeds', async () => {
    const handler = createA2AHandler({ agent: scripted(async function* (origin) { yield answerEvent(origin, 'ok'); }), card: { name: 'inventory' }, maxBodyBytes: 1024 });
    const url = await serve(handler);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    const parts = Array.from({ length: 64 }, () => new Uint8Array(64 * 1024).fill(0x20));
    const refused = await send(url, agent, parts);
    expect(refused.status).toBe(413);
    expect(refused.headers.connection).toBe('close');
    for (let round = 0; round < 3; round++) {
      const next = await send(url, agent, rpc('message/send', { message: userMessage() }));
      expect(next.status).toBe(200);
    }
  });

  it('keeps the connection alive when the handler read the whole body', async () => {
    const handler = createA2AHandler({ agent: scripted(async function* (origin) { yield answerEvent(origin, 'ok'); }), card: { name: 'inventory' } });
    const url = await serve(handler);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    const first = await send(url, agent, rpc('message/send', { message: userMessage() }));
    const second = await send(url, agent, rpc('message/send', { message: userMessage() }));
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.headers.connection).toBe('keep-alive');
    expect(second.socketReused).toBe(true);
  });
});

describe('toNodeListener with createMCPHandler', () => {
  const echo = defineTool({ name: 'echo', description: 'Echoes the text back.', parameters: z.object({ text: z.string() }), execute: ({ text }) => ({ echo: text }) });

  it('answers initialize by hand, then serves our MCP client a tools/call', async () => {
    const url = `${await serve(createMCPHandler({ tools: [echo], serverInfo: { name: 'node-test', version: '1.0.0' }, logger: () => {} }))}/mcp`;
    const initialize = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '0' } }, 0),
    });
    expect(initialize.status).toBe(200);
    const text = await initialize.text();
    const envelope = JSON.parse(text.startsWith('{') ? text : text.slice(text.indexOf('data: ') + 6).split('\n')[0]!) as JSONObject;
    expect(envelope.result.serverInfo).toMatchObject({ name: 'node-test', version: '1.0.0' });

    const client = createMCPClient({ url });
    try {
      const [tool] = await client.tools();
      expect(tool?.name).toBe('echo');
      const run = await runTool(tool!, { text: 'hi over node:http' }, { logger: () => {} });
      expect(run.content).toContain('hi over node:http');
      expect(run.result.ok).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('toNodeListener, the edges', () => {
  it('a handler that throws gets a plain 500, without its message or stack; onError sees the error', async () => {
    const errors: unknown[] = [];
    const url = await serve(
      async () => {
        throw new Error('db password sk-PLANTED-SECRET');
      },
      { onError: (error) => errors.push(error) },
    );
    const response = await fetch(url, { method: 'POST', body: '{}' });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const body = await response.text();
    expect(body).toBe('Internal Server Error');
    expect(body).not.toMatch(/PLANTED|\n\s+at\s/);
    expect(errors).toHaveLength(1);
  });

  it('streams the request body in, with the method, URL, headers and repeated headers', async () => {
    let seen: JSONObject = {};
    const url = await serve(async (request) => {
      seen = { method: request.method, url: request.url, custom: request.headers.get('x-custom'), text: await request.text() };
      return new Response('ok', { status: 201, headers: [['set-cookie', 'a=1'], ['set-cookie', 'b=2'], ['x-answer', '42']] });
    });
    const response = await fetch(`${url}/path?q=1`, { method: 'PUT', headers: { 'x-custom': 'yes' }, body: 'hello body' });
    expect(response.status).toBe(201);
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(response.headers.get('x-answer')).toBe('42');
    expect(seen).toEqual({ method: 'PUT', url: `${url}/path?q=1`, custom: 'yes', text: 'hello body' });
  });

  it('waits for drain: a client that stops reading stops the pulls of the response body', async () => {
    let pulls = 0;
    const size = 1024 * 1024;
    const total = 64;
    const url = await serve(async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            pulls++;
            controller.enqueue(new Uint8Array(size).fill(0x61));
            if (pulls === total) controller.close();
          },
        }, { highWaterMark: 0 }),
      ),
    );
    let pullsWhilePaused = 0;
    const received = await new Promise<number>((resolve, reject) => {
      httpRequest(url, (response) => {
        response.pause();
        setTimeout(() => {
          pullsWhilePaused = pulls;
          let bytes = 0;
          response.on('data', (chunk: Uint8Array) => (bytes += chunk.byteLength));
          response.on('end', () => resolve(bytes));
          response.resume();
        }, 400);
      }).on('error', reject).end();
    });
    expect(pullsWhilePaused).toBeLessThan(total / 2);
    expect(received).toBe(size * total);
    expect(pulls).toBe(total);
  });
});
