/**
 * Our A2A handler against a hostile client: payloads nested to any depth, JSON-RPC ids of every wrong type, bodies
 * that trickle, more tasks than the handler runs at once, a stream reader that never reads. Every request gets the
 * JSON-RPC error or the failed task it deserves, every stream closes, the agent never runs on a request it refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createA2AHandler, type A2AHandlerOptions } from '../../src/a2a/index.js';
import { createEvent, type Invocation, type RunEvent, type RunnableAgent } from '../../src/runner/index.js';
import { dripBody, within } from '../helpers/async.js';
import { nestedText } from '../helpers/hostile-values.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type JSONObject = Record<string, any>;

/** An agent that answers with the text it got, counting its runs. */
function echoAgent(options: { delayMs?: number; chunks?: number } = {}): RunnableAgent & { runs: number } {
  const agent = {
    name: 'echo',
    runs: 0,
    async *runEvents(invocation: Invocation): AsyncGenerator<RunEvent> {
      agent.runs++;
      const origin = { invocationId: invocation.invocationId, author: 'echo' };
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      for (let index = 0; index < (options.chunks ?? 0); index++) {
        yield createEvent(origin, { response: { object: 'chat.completion.chunk', done: false, partial: true, choices: [{ index: 0, delta: { content: `c${index} ` } }] } });
      }
      yield createEvent(origin, { response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: `echo: ${invocation.message?.content ?? ''}` } }] } });
    },
  };
  return agent;
}

const handlerFor = (agent: RunnableAgent, options: Partial<A2AHandlerOptions> = {}) => createA2AHandler({ agent, card: { name: 'echo' }, ...options });

function request(body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Request {
  return new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, ...(typeof body === 'string' ? {} : { duplex: 'half' }) } as RequestInit);
}

/** `{"jsonrpc":"2.0","id":<idText>,"method":…,"params":{message with a data part}}` as text, so the data can be any depth. */
function sendText(method: string, dataText: string, idText = '1'): string {
  return `{"jsonrpc":"2.0","id":${idText},"method":"${method}","params":{"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"data","data":${dataText}}]}}}`;
}

async function frames(response: Response): Promise<JSONObject[]> {
  const text = await within(response.text(), 5_000, 'the SSE stream to close');
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice(6)) as JSONObject);
}

describe('payloads nested to any depth', () => {
  it('answers message/send and message/stream with -32602 naming the path, for any depth past the bound, and never runs the agent', async () => {
    const agent = echoAgent();
    const handler = handlerFor(agent, { keepAliveMs: 20 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(101, 500, 4_000, 20_000, 100_000), fc.constantFrom<'object' | 'array'>('object', 'array'), fc.constantFrom('message/send', 'message/stream'), async (depth, kind, method) => {
        const response = await within(handler(request(sendText(method, nestedText(depth, '1', kind)))), 5_000, 'the answer');
        expect(response.headers.get('content-type')).toBe('application/json');
        const body = (await response.json()) as JSONObject;
        expect(body.error.code).toBe(-32602);
        expect(body.error.message).toMatch(/^Invalid params: params\.message\.parts\[0\]\.data.*nests deeper than 100 levels$/);
        expect(body.error.data.issues[0]).toMatchObject({ code: 'too_deep' });
      }),
      { seed: 1105, numRuns: 20 },
    );
    expect(agent.runs).toBe(0);
  });

  it('runs a message nested within the bound, and its stream ends with the final event', async () => {
    const handler = handlerFor(echoAgent());
    const response = await handler(request(sendText('message/stream', nestedText(90))));
    const results = (await frames(response)).map((frame) => frame.result);
    expect(results.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
  });

  it('with the bound lifted, a value too deep to clone or encode still ends the task failed and closes the stream', async () => {
    const handler = handlerFor(echoAgent(), { maxDepth: 1_000_000, keepAliveMs: 20 });
    const streamed = await within(handler(request(sendText('message/stream', nestedText(20_000)))), 5_000, 'the answer');
    const all = await frames(streamed); // resolves only when the stream closes
    expect(all.at(-1)).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: expect.stringMatching(/^An event of task task-\S+ could not be encoded as JSON/) } });
    const unary = await handler(request(sendText('message/send', nestedText(20_000))));
    expect(unary.status).toBe(500);
    expect(((await unary.json()) as JSONObject).error).toEqual({ code: -32603, message: expect.stringMatching(/^The answer could not be encoded as JSON/) });
  });

  it('the bound is an option', async () => {
    const handler = handlerFor(echoAgent(), { maxDepth: 8 });
    const body = (await (await handler(request(sendText('message/send', nestedText(9))))).json()) as JSONObject;
    expect(body.error.message).toMatch(/nests deeper than 8 levels/);
  });
});

describe('JSON-RPC ids of the wrong type', () => {
  it.each([
    ['an object', '{"a":1}'],
    ['an array', '[1]'],
    ['a boolean', 'true'],
    ['a number that is not finite', '1e999'],
  ])('answers an id that is %s with -32600 and id null, and never runs the agent', async (_what, idText) => {
    const agent = echoAgent();
    const handler = handlerFor(agent);
    for (const method of ['message/send', 'message/stream', 'tasks/get']) {
      const body = (await (await handler(request(sendText(method, '{"x":1}', idText)))).json()) as JSONObject;
      expect(body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^The request id must be a string, a finite number or null/) } });
    }
    expect(agent.runs).toBe(0);
  });

  it('accepts string, number and null ids', async () => {
    const handler = handlerFor(echoAgent());
    for (const idText of ['"a"', '7', 'null']) {
      const body = (await (await handler(request(sendText('message/send', '{"x":1}', idText)))).json()) as JSONObject;
      expect(body.id).toEqual(JSON.parse(idText));
      expect(body.result.status.state).toBe('completed');
    }
  });
});

describe('clients that hold the handler', () => {
  it('answers a body that trickles past bodyTimeoutMs with HTTP 408 and -32600', async () => {
    const body = dripBody('{"jsonrpc":"2.0",', () => ' ');
    const response = await within(handlerFor(echoAgent(), { bodyTimeoutMs: 100 })(request(body)), 3_000, 'the answer');
    expect(response.status).toBe(408);
    expect(((await response.json()) as JSONObject).error).toEqual({ code: -32600, message: 'The request body did not arrive within 100 ms' });
  });

  it('refuses a task beyond maxLiveTasks with HTTP 503, Retry-After and -32603, and serves again once one ends', async () => {
    const handler = handlerFor(echoAgent({ delayMs: 50 }), { maxLiveTasks: 2 });
    const nonBlocking = (index: number) =>
      request(`{"jsonrpc":"2.0","id":${index},"method":"message/send","params":{"message":{"kind":"message","messageId":"m-${index}","role":"user","parts":[{"kind":"text","text":"hi"}]},"configuration":{"blocking":false}}}`);
    const first = await handler(nonBlocking(1));
    const second = await handler(nonBlocking(2));
    const third = await handler(nonBlocking(3));
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(third.status).toBe(503);
    expect(third.headers.get('retry-after')).toBe('1');
    expect(((await third.json()) as JSONObject).error).toEqual({ code: -32603, message: 'The agent is running its limit of 2 tasks; retry shortly' });
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect((await handler(nonBlocking(4))).status).toBe(200);
  });

  it('serves at most 100 streams of one running task, answering one more with HTTP 503 and Retry-After', async () => {
    let release = () => {};
    const waiting: RunnableAgent = {
      name: 'slow',
      async *runEvents(invocation) {
        await new Promise<void>((resolve) => (release = resolve));
        yield createEvent({ invocationId: invocation.invocationId, author: 'slow' }, { response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: 'done' } }] } });
      },
    };
    const handler = handlerFor(waiting, { keepAliveMs: false });
    const first = await handler(request(sendText('message/stream', '{"x":1}')));
    const reader = (first.body as ReadableStream<Uint8Array>).getReader();
    const frame = JSON.parse(new TextDecoder().decode((await reader.read()).value).slice(6)) as JSONObject;
    const taskId = frame.result.id as string;
    const resubscribe = () => handler(request(`{"jsonrpc":"2.0","id":2,"method":"tasks/resubscribe","params":{"id":"${taskId}"}}`));
    const streams = await Promise.all(Array.from({ length: 99 }, resubscribe));
    expect(streams.every((response) => response.headers.get('content-type') === 'text/event-stream')).toBe(true);
    const refused = await resubscribe();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as JSONObject).error.message).toMatch(/already has 100 streams/);
    release();
    await reader.cancel();
    await Promise.all(streams.map((response) => response.body?.cancel()));
  });

  it('ends the stream of a client that does not read with an error frame once maxQueuedEvents are waiting; the task completes', async () => {
    const handler = handlerFor(echoAgent({ chunks: 50 }), { maxQueuedEvents: 10, keepAliveMs: false });
    const response = await handler(request(sendText('message/stream', '{"x":1}')));
    await new Promise((resolve) => setTimeout(resolve, 50)); // the run finishes while nobody reads
    const all = await frames(response);
    const last = all.at(-1) as JSONObject;
    expect(all.length).toBeLessThanOrEqual(12);
    expect(last.error).toMatchObject({ code: -32603, message: expect.stringMatching(/fell more than 10 events behind.*tasks\/get or tasks\/resubscribe/) });
    const taskId = all[0]?.result?.id as string;
    const task = (await (await handler(request(`{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"id":"${taskId}"}}`))).json()) as JSONObject;
    expect(task.result.status.state).toBe('completed');
  });
});
