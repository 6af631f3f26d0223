// Requests a server sends the client (sampling, elicitation, roots, ping) are each answered — a ping with `{}`, the
// rest with the documented refusal (-32601) — in order, at most MAX_ANSWERS_IN_FLIGHT POSTs at once, whatever their
// number: a stream carrying thousands is read no further ahead of the answers than the queue's bound (memory stays
// bounded), and a body that cannot be paused and holds more than MAX_ANSWERS_WAITING is a typed protocol error.
import { describe, expect, it } from 'vitest';
import { createMCPClient, MCPError } from '../../src/mcp/index.js';
import { ANSWERS_BEFORE_PAUSE, MAX_ANSWERS_IN_FLIGHT, MAX_ANSWERS_WAITING } from '../../src/mcp/answer-queue.js';
import { fakeServer, frame } from './fake-server.js';

const URL = 'https://mcp.example/mcp';
const COUNT = 5_000;
const METHODS = ['sampling/createMessage', 'elicitation/create', 'roots/list', 'ping'];
const enc = new TextEncoder();

const serverRequest = (index: number) => ({ jsonrpc: '2.0', id: `srv-${index}`, method: METHODS[index % METHODS.length] });

/** An SSE answer made on demand: one request of the server's own per read, then `last` (if any). */
function requestStream(count: number, last: string | undefined, seen: { pulled: number }): Response {
  let index = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (index < count) {
          controller.enqueue(enc.encode(frame(serverRequest(index++))));
          seen.pulled = index;
        } else {
          if (last !== undefined) controller.enqueue(enc.encode(last));
          controller.close();
        }
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

interface Answer {
  id: string;
  result?: unknown;
  error?: { code: number; message: string };
}

/** Wraps a fake server: each answer POST of the client takes a macrotask, and is counted while in flight. */
function answering(server: ReturnType<typeof fakeServer>, seen: { pulled: number }) {
  const answers: Answer[] = [];
  const record = { inFlight: 0, maxInFlight: 0, maxAhead: 0 };
  const fetchImpl: typeof fetch = async (input, init) => {
    const message = init?.method === 'POST' ? (JSON.parse(String(init.body)) as Answer & { method?: string }) : undefined;
    if (message === undefined || message.method !== undefined) return server.fetch(input, init);
    record.inFlight++;
    record.maxInFlight = Math.max(record.maxInFlight, record.inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    record.inFlight--;
    answers.push(message);
    record.maxAhead = Math.max(record.maxAhead, seen.pulled - answers.length);
    return new Response(null, { status: 202 });
  };
  return { fetchImpl, answers, record };
}

function expectEveryAnswer(answers: readonly Answer[], count: number) {
  expect(answers.map((answer) => answer.id)).toEqual(Array.from({ length: count }, (_, index) => `srv-${index}`));
  answers.forEach((answer, index) => {
    if (METHODS[index % METHODS.length] === 'ping') expect(answer).toMatchObject({ result: {} });
    else expect(answer.error).toMatchObject({ code: -32601, message: expect.stringMatching(/^Method not found: this client offers no /) });
  });
}

describe("answers to the server's own requests are bounded", () => {
  it(`${COUNT} requests in one stream answering tools/call: each answered in order, at most ${MAX_ANSWERS_IN_FLIGHT} POSTs at once, the stream read no further than the queue's bound ahead`, async () => {
    const seen = { pulled: 0 };
    const server = fakeServer({ 'tools/call': (request) => requestStream(COUNT, frame({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: 'done' }] } }), seen) });
    const { fetchImpl, answers, record } = answering(server, seen);
    const client = createMCPClient({ url: URL, fetch: fetchImpl, retry: false, timeouts: { requestMs: 60_000 } });
    const result = await client.callTool('slow', {});
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    await expect.poll(() => answers.length, { timeout: 10_000 }).toBe(COUNT);
    expect(record.maxInFlight).toBeLessThanOrEqual(MAX_ANSWERS_IN_FLIGHT);
    expect(record.maxInFlight).toBeGreaterThan(1);
    expect(record.maxAhead).toBeLessThanOrEqual(ANSWERS_BEFORE_PAUSE + MAX_ANSWERS_IN_FLIGHT + 2);
    expectEveryAnswer(answers, COUNT);
    await client.close();
  });

  it(`${COUNT} requests on the server's own stream (listen): each answered in order, at most ${MAX_ANSWERS_IN_FLIGHT} at once`, async () => {
    const seen = { pulled: 0 };
    let gets = 0;
    const server = fakeServer({ GET: () => (++gets === 1 ? requestStream(COUNT, undefined, seen) : new Response(null, { status: 405 })) });
    const { fetchImpl, answers, record } = answering(server, seen);
    const client = createMCPClient({ url: URL, fetch: fetchImpl, retry: false, listen: true });
    await client.connect();
    await expect.poll(() => answers.length, { timeout: 10_000 }).toBe(COUNT);
    expect(record.maxInFlight).toBeLessThanOrEqual(MAX_ANSWERS_IN_FLIGHT);
    expect(record.maxAhead).toBeLessThanOrEqual(ANSWERS_BEFORE_PAUSE + MAX_ANSWERS_IN_FLIGHT + 2);
    expectEveryAnswer(answers, COUNT);
    await client.close();
  });

  it(`a JSON body holding ${COUNT} requests (it cannot be paused): the first ${MAX_ANSWERS_WAITING} waiting are answered, then the call fails with an MCPError protocol naming the bound`, async () => {
    const seen = { pulled: 0 };
    const server = fakeServer({
      'tools/call': (request) => {
        seen.pulled = COUNT;
        const batch = [...Array.from({ length: COUNT }, (_, index) => serverRequest(index)), { jsonrpc: '2.0', id: request.id, result: { content: [] } }];
        return Response.json(batch);
      },
    });
    const { fetchImpl, answers, record } = answering(server, seen);
    const client = createMCPClient({ url: URL, fetch: fetchImpl, retry: false });
    const error = await client.callTool('slow', {}).then(() => undefined, (failure: unknown) => failure);
    expect(MCPError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'protocol' });
    expect((error as Error).message).toContain(`more than ${MAX_ANSWERS_WAITING} requests of its own that wait for an answer`);
    await expect.poll(() => answers.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(MAX_ANSWERS_WAITING);
    expect(answers.length).toBeLessThanOrEqual(MAX_ANSWERS_WAITING + MAX_ANSWERS_IN_FLIGHT);
    expect(record.maxInFlight).toBeLessThanOrEqual(MAX_ANSWERS_IN_FLIGHT);
    expectEveryAnswer(answers, answers.length);
    await client.close();
  });

  it('close() drops the answers still waiting: nothing is posted after it, nothing rejects unhandled', async () => {
    const seen = { pulled: 0 };
    const server = fakeServer({ 'tools/call': () => requestStream(COUNT, undefined, seen) });
    const { fetchImpl, answers } = answering(server, seen);
    const client = createMCPClient({ url: URL, fetch: fetchImpl, retry: false });
    const call = client.callTool('slow', {}).then(() => undefined, (failure: unknown) => failure);
    await expect.poll(() => answers.length, { timeout: 10_000 }).toBeGreaterThan(10);
    await client.close();
    expect(await call).toMatchObject({ reason: 'closed' });
    const after = answers.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answers.length).toBeLessThanOrEqual(after + MAX_ANSWERS_IN_FLIGHT);
    expect(answers.length).toBeLessThan(COUNT);
  });
});
