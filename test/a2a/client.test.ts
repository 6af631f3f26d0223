// createA2AClient against hand-written JSON-RPC and SSE answers served through msw (the network boundary).
// Wire shapes: seed-systems.md §7 (A2A 0.3 methods and JSON, §7.4 card paths, §7.5 SSE framing — trpc-a2a-go
// writes `event:` lines —, §7.6 the 1.0 differences) and decisions.md point 13 (we speak 0.3, and 1.0 when the card
// offers only that). Every failure must be typed: A2ATransportError, JSONRPCError, SerializeError, StreamError.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createA2AClient, type A2AClientOptions, type A2AStreamEvent, type AgentCard } from '../../src/a2a/index.js';
import { A2ATransportError, JSONRPCError, SerializeError, StreamError } from '../../src/errors/index.js';
import { agentCard03 } from '../helpers/a2a-card.js';
import { dripBody } from '../helpers/async.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

// ---------------------------------------------------------------------------------------------------------------
// The remote agent

const BASE_URL = 'https://agent.test';
const RPC_URL = `${BASE_URL}/a2a`;
const V1_URL = `${BASE_URL}/v1/rpc`;
const fastRetry = { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 5 };

const card03: AgentCard = agentCard03(RPC_URL);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type JSONObject = Record<string, any>;

const workingTask = { kind: 'task', id: 'task-1', contextId: 'ctx-1', status: { state: 'working' } };
const completedTask = { kind: 'task', id: 'task-1', contextId: 'ctx-1', status: { state: 'completed' }, artifacts: [{ artifactId: 'a1', parts: [{ kind: 'text', text: '42 in stock' }] }] };
const agentReply = { kind: 'message', messageId: 'msg-reply', role: 'agent', parts: [{ kind: 'text', text: 'pong' }] };
const workingUpdate = { kind: 'status-update', taskId: 'task-1', contextId: 'ctx-1', status: { state: 'working' }, final: false };
const artifactDelta = { kind: 'artifact-update', taskId: 'task-1', contextId: 'ctx-1', artifact: { artifactId: 'a1', parts: [{ kind: 'text', text: '42 ' }] }, append: true, lastChunk: false };
const completedUpdate = { kind: 'status-update', taskId: 'task-1', contextId: 'ctx-1', status: { state: 'completed' }, final: true };

/** One JSON-RPC request as the agent received it. */
interface Received {
  url: string;
  id: unknown;
  method: string;
  params: JSONObject;
  headers: Headers;
}

type Answer = (request: Received) => Response | Promise<Response>;

/** A JSON-RPC endpoint answering each successive call with the next answer (the last one repeats). */
function rpcEndpoint(url: string, ...answers: Answer[]) {
  const received: Received[] = [];
  const handler = http.post(url, async ({ request }) => {
    const body = (await request.clone().json()) as JSONObject;
    const item: Received = { url: request.url, id: body.id, method: body.method, params: body.params, headers: request.headers };
    const answer = answers[Math.min(received.length, answers.length - 1)] as Answer;
    received.push(item);
    return answer(item);
  });
  server.use(handler);
  return received;
}

const result = (value: unknown, init?: ResponseInit): Answer => (request) => HttpResponse.json({ jsonrpc: '2.0', id: request.id, result: value }, init);
const rpcError = (error: JSONObject, init?: ResponseInit): Answer => (request) => HttpResponse.json({ jsonrpc: '2.0', id: request.id, error }, init);
const status = (code: number, body = '', headers: Record<string, string> = {}): Answer => () => new HttpResponse(body, { status: code, headers });

/** An SSE item: a JSON-RPC envelope with the request id, optionally after an `event:` line as trpc-a2a-go writes. */
type Frame = { result: unknown; event?: string } | { error: JSONObject } | { raw: string };

interface StreamPlan {
  /** Error the body (connection dropped) after this many frames. */
  dropAfter?: number;
  /** Send nothing more after this many frames, keeping the connection open. */
  stallAfter?: number;
}

/** The SSE text of one frame answering `request`. */
function frameText(frame: Frame, request: Received): string {
  if ('raw' in frame) return frame.raw;
  const envelope = 'error' in frame ? { jsonrpc: '2.0', id: request.id, error: frame.error } : { jsonrpc: '2.0', id: request.id, result: frame.result };
  return `${'event' in frame && frame.event ? `event: ${frame.event}\n` : ''}data: ${JSON.stringify(envelope)}\n\n`;
}

/** A text/event-stream answer sent frame by frame (pull-based, so a fault comes only after what was sent before). */
const sse =
  (frames: Frame[], plan: StreamPlan = {}): Answer =>
  (request) => {
    const encoder = new TextEncoder();
    let index = 0;
    const text = (frame: Frame) => frameText(frame, request);
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (plan.dropAfter === index) {
            controller.error(new TypeError('terminated: other side closed'));
            return;
          }
          if (plan.stallAfter === index) return new Promise<void>(() => {});
          if (index >= frames.length) {
            controller.close();
            return;
          }
          controller.enqueue(encoder.encode(text(frames[index] as Frame)));
          index++;
        },
      },
      { highWaterMark: 0 },
    );
    return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } });
  };

/**
 * A 200 answer that sends `frames`, then `every` (a frame, or raw text) every 10 ms while the client reads: alive, and
 * useless unless `every` is progress. Pull-based, so nothing keeps ticking once the client stops reading (msw keeps a
 * copy of each mocked body, so a body the client cancels is not cancelled at its source; test/hardening/
 * useless-peers.test.ts checks over loopback that the client lets go).
 */
function drip(frames: Frame[], every: Frame, contentType = 'text/event-stream'): Answer {
  return (request) => new HttpResponse(dripBody(frames.map((frame) => frameText(frame, request)).join(''), () => frameText(every, request)), { headers: { 'content-type': contentType } });
}
const keepAlive: Frame = { raw: ': keep-alive\n\n' };

/** An answer that never comes (until the test ends). */
const never: Answer = () => new Promise<Response>(() => {});

const client = (overrides: Partial<A2AClientOptions> = {}) => createA2AClient({ url: RPC_URL, retry: fastRetry, ...overrides });

async function collect(stream: AsyncIterable<A2AStreamEvent>): Promise<{ events: A2AStreamEvent[]; error?: unknown }> {
  const events: A2AStreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

const kinds = (events: A2AStreamEvent[]) => events.map((event) => (event.kind === 'task' || event.kind === 'status-update' ? `${event.kind}:${event.status.state}` : event.kind));

// ---------------------------------------------------------------------------------------------------------------

describe('createA2AClient: agent card discovery', () => {
  it('reads the card at /.well-known/agent-card.json once and sends every call to its url', async () => {
    let cardRequests = 0;
    server.use(
      http.get(`${BASE_URL}/.well-known/agent-card.json`, () => {
        cardRequests++;
        return HttpResponse.json(card03);
      }),
    );
    const received = rpcEndpoint(RPC_URL, result(agentReply), result(completedTask));
    const a2a = client({ agentCardUrl: BASE_URL, url: undefined });
    expect((await a2a.getAgentCard())?.name).toBe('inventory');
    expect(await a2a.sendMessage('ping')).toMatchObject({ kind: 'message', messageId: 'msg-reply' });
    expect(await a2a.getTask({ id: 'task-1' })).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect(cardRequests).toBe(1);
    expect(received.map((request) => [request.url, request.method])).toEqual([
      [RPC_URL, 'message/send'],
      [RPC_URL, 'tasks/get'],
    ]);
  });

  it('falls back to /.well-known/agent.json when agent-card.json answers 404 (A2A ≤ 0.2)', async () => {
    const asked: string[] = [];
    server.use(
      http.get(`${BASE_URL}/.well-known/agent-card.json`, ({ request }) => {
        asked.push(new URL(request.url).pathname);
        return new HttpResponse('not here', { status: 404 });
      }),
      http.get(`${BASE_URL}/.well-known/agent.json`, ({ request }) => {
        asked.push(new URL(request.url).pathname);
        return HttpResponse.json({ ...card03, name: 'legacy-inventory' });
      }),
    );
    const received = rpcEndpoint(RPC_URL, result(agentReply));
    const a2a = client({ agentCardUrl: `${BASE_URL}/`, url: undefined });
    await a2a.sendMessage('ping');
    expect(asked).toEqual(['/.well-known/agent-card.json', '/.well-known/agent.json']);
    expect((await a2a.getAgentCard())?.name).toBe('legacy-inventory');
    expect(received).toHaveLength(1);
  });

  it('uses a card URL ending in .json directly, without trying the well-known paths', async () => {
    server.use(http.get(`${BASE_URL}/cards/inventory.json`, () => HttpResponse.json({ ...card03, url: `${BASE_URL}/custom-rpc` })));
    const received = rpcEndpoint(`${BASE_URL}/custom-rpc`, result(agentReply));
    const reply = await client({ agentCardUrl: `${BASE_URL}/cards/inventory.json`, url: undefined }).sendMessage('ping');
    expect(reply.kind).toBe('message');
    expect(received.map((request) => request.url)).toEqual([`${BASE_URL}/custom-rpc`]);
  });

  it('speaks A2A 1.0 to a card that offers only a 1.0 JSON-RPC interface: PascalCase method, A2A-Version 1.0, 1.0 message shape', async () => {
    const card = { name: 'v1-only', description: '', version: '1.0.0', capabilities: { streaming: true }, supportedInterfaces: [{ url: V1_URL, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] };
    server.use(http.get(`${BASE_URL}/.well-known/agent-card.json`, () => HttpResponse.json(card)));
    const received = rpcEndpoint(
      V1_URL,
      result({ task: { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_FAILED', message: { messageId: 'resp-1', role: 'ROLE_AGENT', parts: [{ text: 'out of stock' }] } } } }),
    );
    const reply = await client({ agentCardUrl: BASE_URL, url: undefined }).sendMessage({
      message: { kind: 'message', messageId: 'msg-1', role: 'user', parts: [{ kind: 'text', text: 'order 42' }], contextId: 'ctx-1' },
      configuration: { blocking: false },
    });
    const [request] = received;
    expect(request?.method).toBe('SendMessage');
    expect(request?.headers.get('a2a-version')).toBe('1.0');
    expect(request?.params).toEqual({ message: { messageId: 'msg-1', role: 'ROLE_USER', parts: [{ text: 'order 42' }], contextId: 'ctx-1' }, configuration: { returnImmediately: true } });
    expect(reply).toEqual({
      kind: 'task',
      id: 'task-1',
      contextId: 'ctx-1',
      status: { state: 'failed', message: { kind: 'message', messageId: 'resp-1', role: 'agent', parts: [{ kind: 'text', text: 'out of stock' }] } },
    });
  });

  it('fails with an A2ATransportError keeping the status when the card cannot be fetched, and tries again on the next call', async () => {
    let cardRequests = 0;
    server.use(
      http.get(`${BASE_URL}/.well-known/agent-card.json`, () => {
        cardRequests++;
        return cardRequests === 1 ? new HttpResponse('down', { status: 503 }) : HttpResponse.json(card03);
      }),
    );
    rpcEndpoint(RPC_URL, result(agentReply));
    const a2a = client({ agentCardUrl: BASE_URL, url: undefined });
    const error = await rejection(a2a.sendMessage('ping'));
    expect(A2ATransportError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 503, url: `${BASE_URL}/.well-known/agent-card.json` });
    expect((await a2a.sendMessage('ping')).kind).toBe('message');
    expect(cardRequests).toBe(2);
  });
});

describe('createA2AClient: request shapes', () => {
  it('sends message/send as JSON-RPC 2.0 with a user text message, the A2A-Version header and the configured headers', async () => {
    const received = rpcEndpoint(RPC_URL, result(agentReply));
    const reply = await client({ headers: { 'x-team': 'blue' } }).sendMessage('Check order 42');
    expect(reply).toEqual(agentReply);
    const [request] = received as [Received];
    expect(request.method).toBe('message/send');
    expect(typeof request.id).toBe('number');
    expect(request.params).toEqual({ message: { kind: 'message', messageId: expect.stringMatching(/^msg-/), role: 'user', parts: [{ kind: 'text', text: 'Check order 42' }] } });
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(request.headers.get('accept')).toBe('application/json');
    expect(request.headers.get('a2a-version')).toBe('0.3');
    expect(request.headers.get('x-team')).toBe('blue');
  });

  it('passes MessageSendParams through unchanged in 0.3', async () => {
    const received = rpcEndpoint(RPC_URL, result(completedTask));
    const params = {
      message: { kind: 'message' as const, messageId: 'msg-1', role: 'user' as const, parts: [{ kind: 'text' as const, text: 'hi' }], contextId: 'session-1' },
      configuration: { blocking: false, acceptedOutputModes: ['text/plain'] },
      metadata: { trace: 'abc' },
    };
    expect(await client().sendMessage(params)).toEqual(completedTask);
    expect(received[0]?.params).toEqual(params);
  });

  it('sends message/stream asking for text/event-stream and yields each item, tolerating event: lines', async () => {
    const received = rpcEndpoint(
      RPC_URL,
      sse([
        { result: workingTask, event: 'task' },
        { result: artifactDelta, event: 'task_artifact_update' },
        { result: completedUpdate, event: 'task_status_update' },
      ]),
    );
    const { events, error } = await collect(client().streamMessage('Check order 42'));
    expect(error).toBeUndefined();
    expect(events).toEqual([workingTask, artifactDelta, completedUpdate]);
    expect(received[0]?.method).toBe('message/stream');
    expect(received[0]?.headers.get('accept')).toBe('text/event-stream');
    expect(received[0]?.params.message.parts).toEqual([{ kind: 'text', text: 'Check order 42' }]);
  });

  it('stops reading at the final event even when the server keeps the stream open', async () => {
    rpcEndpoint(RPC_URL, sse([{ result: workingTask }, { result: completedUpdate }], { stallAfter: 2 }));
    const { events, error } = await collect(client().streamMessage('hi'));
    expect(error).toBeUndefined();
    expect(kinds(events)).toEqual(['task:working', 'status-update:completed']);
  });

  it('accepts a single JSON answer to message/stream (one Message) as a one-item stream', async () => {
    rpcEndpoint(RPC_URL, result(agentReply));
    const { events, error } = await collect(client().streamMessage('ping'));
    expect(error).toBeUndefined();
    expect(events).toEqual([agentReply]);
  });

  it('ends a stream at a Message that answers the request on its own (A2A 0.3: exactly one Message, then close)', async () => {
    rpcEndpoint(RPC_URL, sse([{ result: agentReply, event: 'message' }], { stallAfter: 1 }));
    const { events, error } = await collect(client().streamMessage('ping'));
    expect(error).toBeUndefined();
    expect(events).toEqual([agentReply]);
  });

  it('keeps reading after a Message that belongs to a task running in the same stream', async () => {
    const submitted = { ...workingUpdate, status: { state: 'submitted' } };
    const first = { ...agentReply, messageId: 'm-1', taskId: 'task-1', contextId: 'ctx-1' };
    const second = { ...agentReply, messageId: 'm-2', taskId: 'task-1', contextId: 'ctx-1' };
    rpcEndpoint(RPC_URL, sse([{ result: submitted }, { result: first }, { result: second }, { result: completedUpdate }]));
    const { events, error } = await collect(client().streamMessage('hi'));
    expect(error).toBeUndefined();
    expect(kinds(events)).toEqual(['status-update:submitted', 'message', 'message', 'status-update:completed']);
  });

  it('sends tasks/get with id and historyLength, tasks/cancel and tasks/resubscribe with the id', async () => {
    const canceled = { ...completedTask, status: { state: 'canceled' } };
    const received = rpcEndpoint(RPC_URL, result(completedTask), result(canceled), sse([{ result: workingUpdate }, { result: completedUpdate }]));
    const a2a = client();
    expect(await a2a.getTask({ id: 'task-1', historyLength: 2 })).toEqual(completedTask);
    expect(await a2a.cancelTask({ id: 'task-1' })).toEqual(canceled);
    const { events } = await collect(a2a.resubscribe({ id: 'task-1' }));
    expect(kinds(events)).toEqual(['status-update:working', 'status-update:completed']);
    expect(received.map((request) => [request.method, request.params])).toEqual([
      ['tasks/get', { id: 'task-1', historyLength: 2 }],
      ['tasks/cancel', { id: 'task-1' }],
      ['tasks/resubscribe', { id: 'task-1' }],
    ]);
    expect(new Set(received.map((request) => request.id)).size).toBe(3);
  });

  it('uses the 1.0 method names and decodes 1.0 stream items when protocolVersion is 1.0', async () => {
    const v1Task = { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' } };
    const received = rpcEndpoint(
      RPC_URL,
      result(v1Task),
      result(v1Task),
      sse([{ result: { task: { ...v1Task, status: { state: 'TASK_STATE_WORKING' } } } }, { result: { statusUpdate: { taskId: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' } } } }]),
      sse([{ result: { statusUpdate: { taskId: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_CANCELED' } } } }]),
    );
    const a2a = client({ protocolVersion: '1.0' });
    expect((await a2a.getTask({ id: 'task-1' })).status.state).toBe('completed');
    expect((await a2a.cancelTask({ id: 'task-1' })).status.state).toBe('completed');
    const streamed = await collect(a2a.streamMessage('hi'));
    expect(streamed.events).toEqual([
      { kind: 'task', id: 'task-1', contextId: 'ctx-1', status: { state: 'working' } },
      { kind: 'status-update', taskId: 'task-1', contextId: 'ctx-1', status: { state: 'completed' }, final: true },
    ]);
    const resubscribed = await collect(a2a.resubscribe({ id: 'task-1' }));
    expect(kinds(resubscribed.events)).toEqual(['status-update:canceled']);
    expect(received.map((request) => [request.method, request.headers.get('a2a-version')])).toEqual([
      ['GetTask', '1.0'],
      ['CancelTask', '1.0'],
      ['SendStreamingMessage', '1.0'],
      ['SubscribeToTask', '1.0'],
    ]);
    expect(received[2]?.params.message).toEqual({ messageId: expect.stringMatching(/^msg-/), role: 'ROLE_USER', parts: [{ text: 'hi' }] });
  });
});

describe('createA2AClient: transport failures', () => {
  it('keeps the status and the response headers of a non-JSON-RPC answer, with credential-like headers redacted', async () => {
    rpcEndpoint(RPC_URL, status(503, 'upstream busy', { 'x-request-id': 'req-77', 'set-cookie': 'session=abc123', 'x-api-key': 'server-key-0001', 'retry-after': '0' }));
    const error = await rejection(client({ retry: false }).sendMessage('ping'));
    expect(A2ATransportError.isInstance(error)).toBe(true);
    const transport = error as A2ATransportError;
    expect(transport).toMatchObject({ name: 'A2ATransportError', kind: 'a2a_transport', status: 503, reason: 'http', retryable: true, method: 'message/send', url: RPC_URL });
    expect(transport.message).toBe(`A2A request to ${RPC_URL} failed with 503 Service Unavailable: upstream busy`);
    expect(transport.headers['x-request-id']).toBe('req-77');
    expect(transport.headers['set-cookie']).toBe('[REDACTED]');
    expect(transport.headers['x-api-key']).toBe('[REDACTED]');
    expect(JSON.stringify(transport.toJSON())).not.toContain('abc123');
    expect(JSON.stringify(transport.toJSON())).not.toContain('server-key-0001');
  });

  it('never shows a configured Authorization or API key header value, even when the server echoes it', async () => {
    const token = 'Bearer tok-SECRET-0123456789';
    const apiKey = 'key-SECRET-abcdef';
    rpcEndpoint(RPC_URL, ({ headers }) => new HttpResponse(`rejected ${headers.get('authorization')} and ${headers.get('x-api-key')}`, { status: 401, headers: { 'www-authenticate': 'Bearer realm="agent"' } }));
    const error = (await rejection(client({ retry: false, headers: { Authorization: token, 'x-api-key': apiKey } }).sendMessage('ping'))) as A2ATransportError;
    expect(A2ATransportError.isInstance(error)).toBe(true);
    expect(error.status).toBe(401);
    expect(error.retryable).toBe(false);
    const everything = `${error.message} ${JSON.stringify(error.toJSON())} ${JSON.stringify(error.headers)}`;
    expect(everything).not.toContain('tok-SECRET-0123456789');
    expect(everything).not.toContain(apiKey);
    expect(error.message).toContain('401');
  });

  it('reports an answer that never came as a retryable network A2ATransportError without a status', async () => {
    const received = rpcEndpoint(RPC_URL, () => HttpResponse.error());
    const error = (await rejection(client({ retry: false }).getTask({ id: 'task-1' }))) as A2ATransportError;
    expect(A2ATransportError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'network', retryable: true, method: 'tasks/get' });
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(new RegExp(`^A2A request to ${RPC_URL} failed: `));
    expect(received).toHaveLength(1);
  });

  it('keeps a configured credential out of a network failure of a custom fetch, its message and its cause', async () => {
    const apiKey = 'key-SECRET-abcdef';
    const failingFetch: typeof fetch = async () => {
      throw new TypeError(`proxy refused the request carrying x-api-key ${apiKey}`);
    };
    const error = (await rejection(createA2AClient({ url: RPC_URL, retry: false, fetch: failingFetch, headers: { 'x-api-key': apiKey } }).sendMessage('ping'))) as A2ATransportError;
    expect(A2ATransportError.isInstance(error)).toBe(true);
    expect(error.reason).toBe('network');
    expect(error.message).toBe(`A2A request to ${RPC_URL} failed: proxy refused the request carrying x-api-key [REDACTED]`);
    expect(JSON.stringify(error.toJSON())).not.toContain(apiKey);
    expect(String((error.cause as Error).message)).not.toContain(apiKey);
  });

  it('names the endpoint with the value of its api_key query masked, where API keys often travel', async () => {
    rpcEndpoint(RPC_URL, status(503, 'busy'));
    const error = (await rejection(createA2AClient({ url: `${RPC_URL}?api_key=QUERY-SECRET-1`, retry: false }).sendMessage('ping'))) as A2ATransportError;
    expect(error.url).toBe(`${RPC_URL}?api_key=[REDACTED]`);
    expect(`${error.message} ${JSON.stringify(error.toJSON())}`).not.toContain('QUERY-SECRET-1');
  });

  it('reports a non-2xx answer declaring text/event-stream as an A2ATransportError with its status', async () => {
    rpcEndpoint(RPC_URL, status(503, '', { 'content-type': 'text/event-stream', 'x-request-id': 'req-9' }));
    const { events, error } = await collect(client({ retry: false }).streamMessage('hi'));
    expect(events).toEqual([]);
    expect(A2ATransportError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 503, reason: 'http', headers: { 'x-request-id': 'req-9' } });
  });

  it('reports a non-2xx answer with a non-JSON body as an A2ATransportError, not a SerializeError', async () => {
    rpcEndpoint(RPC_URL, status(502, '<html>Bad Gateway</html>', { 'content-type': 'text/html' }));
    const error = (await rejection(client({ retry: false }).sendMessage('ping'))) as A2ATransportError;
    expect(A2ATransportError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 502, reason: 'http', retryable: true });
  });

  it('reports a streaming call that is refused before any event with its status', async () => {
    rpcEndpoint(RPC_URL, status(500, 'boom'));
    const { events, error } = await collect(client({ retry: false }).streamMessage('hi'));
    expect(events).toEqual([]);
    expect(A2ATransportError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 500, reason: 'http', retryable: false, method: 'message/stream' });
  });
});

describe('createA2AClient: JSON-RPC errors', () => {
  it('throws a JSONRPCError with the code, message and data of a unary error, without retrying it', async () => {
    const received = rpcEndpoint(RPC_URL, rpcError({ code: -32001, message: 'Task not found', data: { taskId: 'task-404' } }));
    const error = (await rejection(client().getTask({ id: 'task-404' }))) as JSONRPCError;
    expect(JSONRPCError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ name: 'JSONRPCError', kind: 'jsonrpc', rpcCode: -32001, code: '-32001', message: 'Task not found', data: { taskId: 'task-404' }, method: 'tasks/get', status: 200, inStream: false });
    expect(received).toHaveLength(1);
  });

  it('reads a JSON-RPC error that comes with an HTTP error status as a JSONRPCError keeping that status', async () => {
    rpcEndpoint(RPC_URL, rpcError({ code: -32602, message: 'Invalid parameters', data: [{ path: 'params.message' }] }, { status: 400 }));
    const error = (await rejection(client().sendMessage('ping'))) as JSONRPCError;
    expect(JSONRPCError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ rpcCode: -32602, message: 'Invalid parameters', data: [{ path: 'params.message' }], status: 400 });
  });

  it('delivers the events before an in-stream JSON-RPC error, then errors the stream with it (never skipped)', async () => {
    rpcEndpoint(
      RPC_URL,
      sse([
        { result: workingTask, event: 'task' },
        { result: artifactDelta, event: 'task_artifact_update' },
        { error: { code: -32603, message: 'Internal error', data: { detail: 'model crashed' } } },
        { result: completedUpdate },
      ]),
    );
    const { events, error } = await collect(client().streamMessage('hi'));
    expect(events).toEqual([workingTask, artifactDelta]);
    expect(JSONRPCError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ rpcCode: -32603, message: 'Internal error', data: { detail: 'model crashed' }, inStream: true, method: 'message/stream' });
  });

  it('errors the stream with a JSON-RPC error that is its first item', async () => {
    const received = rpcEndpoint(RPC_URL, sse([{ error: { code: -32004, message: 'This operation is not supported' } }]));
    const { events, error } = await collect(client().resubscribe({ id: 'task-1' }));
    expect(events).toEqual([]);
    expect(error).toMatchObject({ name: 'JSONRPCError', rpcCode: -32004, inStream: true });
    expect(received).toHaveLength(1);
  });
});

describe('createA2AClient: malformed payloads', () => {
  it('throws a SerializeError naming result.status.state for an unknown state', async () => {
    rpcEndpoint(RPC_URL, result({ ...completedTask, status: { state: 'exploded' } }));
    const error = (await rejection(client().getTask({ id: 'task-1' }))) as SerializeError;
    expect(SerializeError.isInstance(error)).toBe(true);
    expect(error.issues.map((issue) => issue.path)).toEqual(['result.status.state']);
    expect(error.message).toContain('result.status.state');
  });

  it('names the path of a bad stream item after delivering the good ones', async () => {
    rpcEndpoint(RPC_URL, sse([{ result: workingTask }, { result: { ...artifactDelta, artifact: { artifactId: 'a1', parts: [{ kind: 'text' }] } } }]));
    const { events, error } = await collect(client().streamMessage('hi'));
    expect(events).toEqual([workingTask]);
    expect(SerializeError.isInstance(error)).toBe(true);
    expect((error as SerializeError).issues.map((issue) => issue.path)).toEqual(['result.artifact.parts[0].text']);
  });

  it('throws a SerializeError for a 200 answer that is not JSON', async () => {
    rpcEndpoint(RPC_URL, status(200, 'this is not json{', { 'content-type': 'application/json' }));
    const error = (await rejection(client().sendMessage('ping'))) as SerializeError;
    expect(SerializeError.isInstance(error)).toBe(true);
    expect(error.subject).toBe('A2A response');
    expect(error.message).toBe(`The A2A answer from ${RPC_URL} is not JSON: this is not json{`);
  });

  it('throws a SerializeError for stream data that is not JSON', async () => {
    rpcEndpoint(RPC_URL, sse([{ result: workingTask }, { raw: 'data: {oops\n\n' }]));
    const { events, error } = await collect(client().streamMessage('hi'));
    expect(events).toEqual([workingTask]);
    expect(SerializeError.isInstance(error)).toBe(true);
    expect((error as SerializeError).subject).toBe('A2A stream event');
  });

  it('throws a SerializeError naming id when the answer has another id', async () => {
    rpcEndpoint(RPC_URL, () => HttpResponse.json({ jsonrpc: '2.0', id: 999, result: completedTask }));
    const error = (await rejection(client().getTask({ id: 'task-1' }))) as SerializeError;
    expect(SerializeError.isInstance(error)).toBe(true);
    expect(error.issues).toEqual([{ code: 'invalid_value', path: 'id', message: expect.stringMatching(/^expected \d+$/) }]);
  });

  it('throws a SerializeError naming jsonrpc for an answer that is not JSON-RPC 2.0', async () => {
    rpcEndpoint(RPC_URL, () => HttpResponse.json({ result: completedTask }));
    const error = (await rejection(client().getTask({ id: 'task-1' }))) as SerializeError;
    expect(SerializeError.isInstance(error)).toBe(true);
    expect(error.issues.map((issue) => issue.path)).toEqual(['jsonrpc']);
  });

  it('throws a SerializeError naming result for an answer with neither result nor error', async () => {
    rpcEndpoint(RPC_URL, (request) => HttpResponse.json({ jsonrpc: '2.0', id: request.id }));
    const error = (await rejection(client().getTask({ id: 'task-1' }))) as SerializeError;
    expect(error.issues.map((issue) => issue.path)).toEqual(['result']);
  });
});

describe('createA2AClient: retries', () => {
  it('retries tasks/get after a 503 and succeeds on the second call', async () => {
    const received = rpcEndpoint(RPC_URL, status(503, 'busy'), result(completedTask));
    expect(await client().getTask({ id: 'task-1' })).toEqual(completedTask);
    expect(received).toHaveLength(2);
  });

  it('does not retry message/send after a 500: it is not idempotent', async () => {
    const received = rpcEndpoint(RPC_URL, status(500, 'boom'), result(agentReply));
    const error = await rejection(client().sendMessage('ping'));
    expect(error).toMatchObject({ name: 'A2ATransportError', status: 500 });
    expect(received).toHaveLength(1);
  });

  it('does not retry message/send after a dropped connection: the message may have arrived', async () => {
    const received = rpcEndpoint(RPC_URL, () => HttpResponse.error(), result(agentReply));
    const error = await rejection(client().sendMessage('ping'));
    expect(error).toMatchObject({ name: 'A2ATransportError', reason: 'network' });
    expect(received).toHaveLength(1);
  });

  it('retries message/send after a 429: the server refused it before doing anything', async () => {
    const received = rpcEndpoint(RPC_URL, status(429, 'slow down', { 'retry-after': '0' }), result(agentReply));
    expect(await client().sendMessage('ping')).toEqual(agentReply);
    expect(received).toHaveLength(2);
    expect(received[0]?.params.message.messageId).toBe(received[1]?.params.message.messageId);
  });

  it('retries message/stream after a 503 before its first event', async () => {
    const received = rpcEndpoint(RPC_URL, status(503, 'busy'), sse([{ result: workingTask }, { result: completedUpdate }]));
    const { events, error } = await collect(client().streamMessage('hi'));
    expect(error).toBeUndefined();
    expect(kinds(events)).toEqual(['task:working', 'status-update:completed']);
    expect(received).toHaveLength(2);
  });

  it('waits the Retry-After of a 503 before retrying', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const received = rpcEndpoint(RPC_URL, status(503, 'busy', { 'retry-after': '2' }), result(completedTask));
    const pending = client().getTask({ id: 'task-1' });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(received).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual(completedTask);
    expect(received).toHaveLength(2);
  });

  it('gives up after maxAttempts and rethrows the last failure', async () => {
    const received = rpcEndpoint(RPC_URL, status(503, 'busy'));
    const error = await rejection(client({ retry: { maxAttempts: 2, initialDelayMs: 1 } }).getTask({ id: 'task-1' }));
    expect(error).toMatchObject({ name: 'A2ATransportError', status: 503 });
    expect(received).toHaveLength(2);
  });
});

describe('createA2AClient: time limits and aborts', () => {
  it('fails a slow unary answer with an A2ATransportError of reason timeout after timeoutMs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    rpcEndpoint(RPC_URL, never);
    const pending = rejection(client({ retry: false, timeoutMs: 5_000 }).getTask({ id: 'task-1' }));
    await vi.advanceTimersByTimeAsync(5_000);
    const error = (await pending) as A2ATransportError;
    expect(A2ATransportError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'timeout', timeout: 'call', retryable: true, method: 'tasks/get' });
    expect(error.message).toBe(`A2A tasks/get to ${RPC_URL} timed out: no complete answer within 5000 ms (call limit, timeoutMs)`);
    expect(error.toJSON()).toMatchObject({ reason: 'timeout', timeout: 'call' });
  });

  // Unary calls share the streaming path (issue 17, third round): these pin what makes them unary.
  it('a unary call is under its call limit only: neither streamTimeoutMs nor idleTimeoutMs bound it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    rpcEndpoint(RPC_URL, async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      return HttpResponse.json({ jsonrpc: '2.0', id: request.id, result: completedTask });
    });
    const pending = client({ retry: false, timeoutMs: Infinity, streamTimeoutMs: 1_000, idleTimeoutMs: 1_000 }).getTask({ id: 'task-1' });
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(pending).resolves.toEqual(completedTask);
  });

  it('a unary call asks for JSON and reads a 200 answer as one JSON-RPC response whatever its content type', async () => {
    const received = rpcEndpoint(RPC_URL, (request) => new HttpResponse(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: workingTask }), { headers: { 'content-type': 'text/event-stream' } }));
    await expect(client().getTask({ id: 'task-1' })).resolves.toEqual(workingTask);
    expect(received[0]?.headers.get('accept')).toBe('application/json');
    // a non-final Task is the whole answer of tasks/get: no "ended before its final event"
    await expect(client().sendMessage('hi')).resolves.toEqual(workingTask);
  });

  it('a unary call sent message/send is not retried after a drop, tasks/cancel is (idempotency per method)', async () => {
    const dropped = rpcEndpoint(RPC_URL, () => HttpResponse.error());
    await expect(client().sendMessage('hi')).rejects.toMatchObject({ name: 'A2ATransportError', reason: 'network' });
    expect(dropped).toHaveLength(1);
    await expect(client().cancelTask({ id: 'task-1' })).rejects.toMatchObject({ name: 'A2ATransportError', reason: 'network' });
    expect(dropped).toHaveLength(1 + fastRetry.maxAttempts);
  });

  it('fails a stream that goes silent after its first event with a non-retryable idle timeout', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    rpcEndpoint(RPC_URL, sse([{ result: workingTask }], { stallAfter: 1 }));
    const pending = collect(client({ retry: false, idleTimeoutMs: 10_000 }).streamMessage('hi'));
    await vi.advanceTimersByTimeAsync(10_000);
    const { events, error } = await pending;
    expect(events).toEqual([workingTask]);
    expect(A2ATransportError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'timeout', timeout: 'idle', retryable: false, message: `A2A message/stream to ${RPC_URL} timed out: no event for 10000 ms (idle limit, idleTimeoutMs)` });
  });

  it('rejects a unary call with exactly the abort reason', async () => {
    const controller = new AbortController();
    const reason = new Error('the user left');
    rpcEndpoint(RPC_URL, () => {
      controller.abort(reason);
      return new Promise<Response>(() => {});
    });
    const error = await rejection(client().sendMessage('ping', { signal: controller.signal }));
    expect(error).toBe(reason);
  });

  it('errors a stream with exactly the abort reason after delivering what came before', async () => {
    const controller = new AbortController();
    const reason = new DOMException('stop streaming', 'AbortError');
    rpcEndpoint(RPC_URL, sse([{ result: workingTask }], { stallAfter: 1 }));
    const events: A2AStreamEvent[] = [];
    let failure: unknown;
    try {
      for await (const event of client().streamMessage('hi', { signal: controller.signal })) {
        events.push(event);
        controller.abort(reason);
      }
    } catch (error) {
      failure = error;
    }
    expect(events).toEqual([workingTask]);
    expect(failure).toBe(reason);
  });

  it('does not retry an aborted call', async () => {
    const controller = new AbortController();
    const received = rpcEndpoint(RPC_URL, () => {
      controller.abort(new Error('cancelled by caller'));
      return new HttpResponse('busy', { status: 503 });
    });
    const error = await rejection(client().getTask({ id: 'task-1' }, { signal: controller.signal }));
    expect((error as Error).message).toBe('cancelled by caller');
    expect(received).toHaveLength(1);
  });
});

describe('createA2AClient: each timeout names its limit (A2ATransportError.timeout)', () => {
  it('first_event: a stream of keep-alive comments only is no progress; retryable, and retried for a resubscription', async () => {
    const received = rpcEndpoint(RPC_URL, drip([], keepAlive));
    const { events, error } = await collect(client({ retry: { maxAttempts: 2, initialDelayMs: 1 }, timeoutMs: 100 }).resubscribe({ id: 'task-1' }));
    expect(events).toEqual([]);
    expect(error).toMatchObject({
      name: 'A2ATransportError',
      reason: 'timeout',
      timeout: 'first_event',
      retryable: true,
      method: 'tasks/resubscribe',
      message: `A2A tasks/resubscribe to ${RPC_URL} timed out: no first event within 100 ms (first_event limit, timeoutMs)`,
    });
    expect(received).toHaveLength(2);
  });

  it('first_event: blank lines and part of a line are no event either, and message/stream is not retried', async () => {
    for (const every of [{ raw: '\n' }, { raw: 'd' }]) {
      server.resetHandlers();
      const received = rpcEndpoint(RPC_URL, drip([], every));
      const { error } = await collect(client({ timeoutMs: 100 }).streamMessage('hi'));
      expect(error).toMatchObject({ reason: 'timeout', timeout: 'first_event', retryable: true });
      expect(received).toHaveLength(1);
    }
  });

  it('idle: keep-alive comments after the first event do not re-arm the idle limit', async () => {
    rpcEndpoint(RPC_URL, drip([{ result: workingTask }], keepAlive));
    const { events, error } = await collect(client({ idleTimeoutMs: 100 }).streamMessage('hi'));
    expect(events).toEqual([workingTask]);
    expect(error).toMatchObject({ reason: 'timeout', timeout: 'idle', retryable: false, message: `A2A message/stream to ${RPC_URL} timed out: no event for 100 ms (idle limit, idleTimeoutMs)` });
  });

  it('idle: each event re-arms it, so a slow but steady stream is never idle', async () => {
    const steady = sse([{ result: workingTask }, { result: workingUpdate }, { result: workingUpdate }, { result: completedUpdate }]);
    rpcEndpoint(RPC_URL, async (request) => {
      const response = await steady(request);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const slowed = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 40));
          const next = await reader.read();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
      });
      return new HttpResponse(slowed, { headers: { 'content-type': 'text/event-stream' } });
    });
    const { events, error } = await collect(client({ idleTimeoutMs: 100, timeoutMs: 100 }).streamMessage('hi'));
    expect(error).toBeUndefined();
    expect(kinds(events)).toEqual(['task:working', 'status-update:working', 'status-update:working', 'status-update:completed']);
  });

  it('total: a stream of events that never ends stops at streamTimeoutMs, not retried', async () => {
    const received = rpcEndpoint(RPC_URL, drip([{ result: workingTask }], { result: workingUpdate }));
    const started = performance.now();
    const { events, error } = await collect(client({ streamTimeoutMs: 200, idleTimeoutMs: 100 }).streamMessage('hi'));
    expect(events.length).toBeGreaterThan(3);
    expect(error).toMatchObject({
      name: 'A2ATransportError',
      reason: 'timeout',
      timeout: 'total',
      retryable: false,
      message: `A2A message/stream to ${RPC_URL} timed out: the stream did not end within 200 ms (total limit, streamTimeoutMs)`,
    });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(received).toHaveLength(1);
  });

  it('total: the limit spans the resubscriptions of one stream and their back-off waits', async () => {
    const received = rpcEndpoint(RPC_URL, sse([{ result: workingTask }]), sse([{ result: workingUpdate }]));
    const resubscribe = { maxAttempts: 1_000, initialDelayMs: 10, maxDelayMs: 10, jitter: 'none' as const };
    const { events, error } = await collect(client({ resubscribe, streamTimeoutMs: 200 }).streamMessage('hi'));
    expect(error).toMatchObject({ reason: 'timeout', timeout: 'total', method: 'message/stream' });
    expect(received.length).toBeGreaterThan(2);
    expect(received.slice(1).every((request) => request.method === 'tasks/resubscribe')).toBe(true);
    expect(events.length).toBe(received.length);
  });

  it('Infinity disables streamTimeoutMs, and a bad value is refused with the others', () => {
    expect(() => client({ streamTimeoutMs: Infinity })).not.toThrow();
    expect(() => client({ streamTimeoutMs: 0 })).toThrow('streamTimeoutMs must be a number > 0 or Infinity');
  });

  it('call: card discovery is bounded too, a card body that trickles included, and the next call tries again', async () => {
    let cardRequests = 0;
    const trickle = drip([{ raw: '{"name": "inventory", ' }], { raw: ' ' }, 'application/json');
    server.use(
      http.get(`${BASE_URL}/.well-known/agent-card.json`, ({ request }) => {
        cardRequests++;
        return cardRequests === 1 ? trickle({ url: request.url, id: undefined, method: 'GET', params: {}, headers: request.headers }) : HttpResponse.json(card03);
      }),
    );
    rpcEndpoint(RPC_URL, result(agentReply));
    const a2a = client({ agentCardUrl: BASE_URL, url: undefined, timeoutMs: 100 });
    const error = await rejection(a2a.getAgentCard());
    expect(error).toMatchObject({
      name: 'A2ATransportError',
      reason: 'timeout',
      timeout: 'call',
      retryable: true,
      url: `${BASE_URL}/.well-known/agent-card.json`,
      message: `Could not fetch the agent card from ${BASE_URL}/.well-known/agent-card.json: no complete card within 100 ms (call limit, timeoutMs)`,
    });
    expect((await a2a.sendMessage('ping')).kind).toBe('message');
    expect(cardRequests).toBe(2);
  });
});

describe('createA2AClient: a fetched card whose endpoint is on another origin', () => {
  const OTHER = 'https://elsewhere.test';
  const token = 'Bearer tok-CROSS-ORIGIN-1';
  /** Serves a card naming `endpoint`, counts card requests, and records what reached the other origin. */
  function setup(card: JSONObject) {
    const counts = { card: 0 };
    server.use(
      http.get(`${BASE_URL}/.well-known/agent-card.json`, () => {
        counts.card++;
        return HttpResponse.json(card);
      }),
    );
    const other = rpcEndpoint(`${OTHER}/a2a`, result(agentReply));
    return { counts, other };
  }
  const crossOriginCard = { ...card03, url: `${OTHER}/a2a` };

  it('is refused by default with a ConfigError naming both origins and the option; the other origin gets no request', async () => {
    const { counts, other } = setup(crossOriginCard);
    const a2a = client({ agentCardUrl: BASE_URL, url: undefined, headers: { authorization: token } });
    const error = (await rejection(a2a.sendMessage('ping'))) as Error;
    expect(error).toMatchObject({ name: 'ConfigError', kind: 'config' });
    expect(error.message).toContain(BASE_URL);
    expect(error.message).toContain(OTHER);
    expect(error.message).toContain('allowCrossOrigin');
    expect(error.message).not.toContain('tok-CROSS-ORIGIN-1');
    expect(other).toHaveLength(0);
    // Like any failed discovery, the next call discovers again (and is refused again).
    expect(await rejection(a2a.streamMessage('ping').getReader().read())).toMatchObject({ name: 'ConfigError' });
    expect(counts.card).toBe(2);
    expect(other).toHaveLength(0);
  });

  it('is refused for a 1.0 card whose JSON-RPC interface is on another origin', async () => {
    const { other } = setup({ name: 'v1-only', description: '', version: '1.0.0', capabilities: {}, supportedInterfaces: [{ url: `${OTHER}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] });
    const error = (await rejection(client({ agentCardUrl: BASE_URL, url: undefined, headers: { authorization: token } }).getAgentCard())) as Error;
    expect(error).toMatchObject({ name: 'ConfigError' });
    expect(error.message).toContain(OTHER);
    expect(other).toHaveLength(0);
  });

  it('is followed with allowCrossOrigin: true, headers included', async () => {
    const { other } = setup(crossOriginCard);
    expect(await client({ agentCardUrl: BASE_URL, url: undefined, headers: { authorization: token }, allowCrossOrigin: true }).sendMessage('ping')).toEqual(agentReply);
    expect(other.map((request) => request.headers.get('authorization'))).toEqual([token]);
  });

  it('is followed when allowCrossOrigin lists its origin (compared as origins), and refused when it lists another', async () => {
    const { other } = setup(crossOriginCard);
    expect((await client({ agentCardUrl: BASE_URL, url: undefined, allowCrossOrigin: [`${OTHER}/any/path?x=1`] }).sendMessage('ping')).kind).toBe('message');
    expect(other).toHaveLength(1);
    expect(await rejection(client({ agentCardUrl: BASE_URL, url: undefined, allowCrossOrigin: ['https://third.test'] }).sendMessage('ping'))).toMatchObject({ name: 'ConfigError' });
    expect(other).toHaveLength(1);
  });

  it('is not checked for a card passed directly, nor for a plain url', async () => {
    const other = rpcEndpoint(`${OTHER}/a2a`, result(agentReply));
    expect((await client({ card: crossOriginCard, url: undefined }).sendMessage('ping')).kind).toBe('message');
    expect((await client({ url: `${OTHER}/a2a` }).sendMessage('ping')).kind).toBe('message');
    expect(other).toHaveLength(2);
  });

  it('accepts only true, false or a list of absolute origins', () => {
    expect(() => client({ allowCrossOrigin: ['elsewhere.test'] })).toThrow(/allowCrossOrigin must be a boolean or a list of absolute URLs/);
    expect(() => client({ allowCrossOrigin: 'yes' as never })).toThrow(/allowCrossOrigin/);
    expect(() => client({ allowCrossOrigin: [] })).not.toThrow();
  });
});

describe('createA2AClient: incomplete streams and resubscription', () => {
  it('errors a stream that ends before a final event with a StreamError of reason incomplete', async () => {
    rpcEndpoint(RPC_URL, sse([{ result: workingTask }, { result: workingUpdate }]));
    const { events, error } = await collect(client().streamMessage('hi'));
    expect(kinds(events)).toEqual(['task:working', 'status-update:working']);
    expect(StreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'incomplete', afterOutput: true, message: 'The A2A stream ended before its final event (task task-1)' });
  });

  it('surfaces a dropped stream as a network A2ATransportError when resubscription is off', async () => {
    rpcEndpoint(RPC_URL, sse([{ result: workingTask }], { dropAfter: 1 }));
    const { events, error } = await collect(client().streamMessage('hi'));
    expect(events).toEqual([workingTask]);
    expect(A2ATransportError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'network', message: expect.stringContaining('dropped') });
  });

  it('resumes a stream that dropped after the Task snapshot with tasks/resubscribe, and the final event arrives', async () => {
    const received = rpcEndpoint(RPC_URL, sse([{ result: workingTask }], { dropAfter: 1 }), sse([{ result: artifactDelta }, { result: completedUpdate }]));
    const { events, error } = await collect(client({ resubscribe: { maxAttempts: 2, initialDelayMs: 1 } }).streamMessage('hi'));
    expect(error).toBeUndefined();
    expect(events).toEqual([workingTask, artifactDelta, completedUpdate]);
    expect(received.map((request) => [request.method, request.method === 'tasks/resubscribe' ? request.params : undefined])).toEqual([
      ['message/stream', undefined],
      ['tasks/resubscribe', { id: 'task-1' }],
    ]);
  });

  it('resumes a stream that ended cleanly before its final event', async () => {
    const received = rpcEndpoint(RPC_URL, sse([{ result: workingTask }]), sse([{ result: completedUpdate }]));
    const { events, error } = await collect(client({ resubscribe: { maxAttempts: 2, initialDelayMs: 1 } }).streamMessage('hi'));
    expect(error).toBeUndefined();
    expect(kinds(events)).toEqual(['task:working', 'status-update:completed']);
    expect(received.map((request) => request.method)).toEqual(['message/stream', 'tasks/resubscribe']);
  });

  it('gives up after maxAttempts resubscriptions and rethrows the drop', async () => {
    const received = rpcEndpoint(RPC_URL, sse([{ result: workingTask }], { dropAfter: 1 }), sse([], { dropAfter: 0 }));
    // retry: false, so that each resubscription is one call (otherwise each one is retried before its first event too).
    const { events, error } = await collect(client({ retry: false, resubscribe: { maxAttempts: 2, initialDelayMs: 1 } }).streamMessage('hi'));
    expect(events).toEqual([workingTask]);
    expect(error).toMatchObject({ name: 'A2ATransportError', reason: 'network' });
    expect(received.map((request) => request.method)).toEqual(['message/stream', 'tasks/resubscribe', 'tasks/resubscribe']);
  });

  it('does not resubscribe before it knows the task id', async () => {
    const received = rpcEndpoint(RPC_URL, sse([], { dropAfter: 0 }));
    const { events, error } = await collect(client({ retry: false, resubscribe: { maxAttempts: 2, initialDelayMs: 1 } }).streamMessage('hi'));
    expect(events).toEqual([]);
    expect(error).toMatchObject({ name: 'A2ATransportError', reason: 'network' });
    expect(received.map((request) => request.method)).toEqual(['message/stream']);
  });
});

describe('createA2AClient: options', () => {
  it('refuses options without an endpoint, with a relative url or a bad timeout, listing every problem', () => {
    expect(() => createA2AClient({})).toThrow(/give url, agentCardUrl or card/);
    let thrown: unknown;
    try {
      createA2AClient({ url: '/a2a', timeoutMs: 0, protocolVersion: '2.0' as '1.0' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ name: 'ConfigError' });
    const message = (thrown as Error).message;
    expect(message).toContain('url must be an absolute URL (got "/a2a")');
    expect(message).toContain('timeoutMs must be a number > 0 or Infinity');
    expect(message).toContain(`protocolVersion must be '0.3' or '1.0'`);
  });
});
