// createA2AAgent as a RunnableAgent: seed-systems.md §5.6 (the streaming agent loop: flush deltas before complete
// events, stop after a terminal error, a synthetic final message otherwise), scenarios 78–81 (§8.9), and
// decisions.md point 9 (after ANY terminal failure — failed task, transport failure, failing custom converter,
// abort — nothing follows; tRPC still emits a synthetic final after a converter failure). Remote answers are
// hand-written JSON-RPC / SSE served through msw, or a scripted client where the wire does not matter.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createA2AAgent,
  defaultA2AEventConverter,
  type A2AAgentOptions,
  type A2AClient,
  type A2AEventStream,
  type A2AStreamEvent,
  type AgentCard,
} from '../../src/a2a/index.js';
import { isRunnerCompletion, isTerminalError, Runner, type Invocation, type RunEvent } from '../../src/runner/index.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

// ---------------------------------------------------------------------------------------------------------------
// The remote agent (A2A 0.3 JSON as a tRPC-Agent-Go server sends it, seed-systems §4.5)

const BASE_URL = 'https://remote.test';
const RPC_URL = `${BASE_URL}/a2a`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type JSONObject = Record<string, any>;

const FAILURE_METADATA = { object_type: 'error', error_type: 'flow_error', error_message: 'task failed', error_code: 'A2A_500', task_state: 'failed' };

const submittedTask = { kind: 'task', id: 'task-1', contextId: 's1', status: { state: 'submitted' } };
const submittedUpdate = { kind: 'status-update', taskId: 'task-1', contextId: 's1', status: { state: 'submitted' }, final: false };
const failedUpdate = {
  kind: 'status-update',
  taskId: 'task-1',
  contextId: 's1',
  final: true,
  status: { state: 'failed', message: { kind: 'message', messageId: 'resp-1', role: 'agent', parts: [{ kind: 'text', text: 'task failed' }], metadata: FAILURE_METADATA } },
  metadata: FAILURE_METADATA,
};
const completedUpdate = { kind: 'status-update', taskId: 'task-1', contextId: 's1', status: { state: 'completed' }, final: true };
const structuredErrorMessage = {
  kind: 'message',
  messageId: 'msg-structured-error',
  role: 'agent',
  taskId: 'task-1',
  contextId: 's1',
  parts: [{ kind: 'text', text: "Tool 'upload_to_cos' not found" }],
  metadata: { error_code: 'tool_not_found' },
};
const artifact = (text: string, fields: JSONObject = {}) => ({
  kind: 'artifact-update',
  taskId: 'task-1',
  contextId: 's1',
  artifact: { artifactId: fields.artifactId ?? 'artifact-1', parts: [{ kind: 'text', text }] },
  ...(fields.lastChunk !== undefined ? { lastChunk: fields.lastChunk } : {}),
  ...(fields.append !== undefined ? { append: fields.append } : {}),
});

/** One JSON-RPC request the remote agent received. */
interface Received {
  method: string;
  params: JSONObject;
}

/** The remote JSON-RPC endpoint: answers every call with `answer`, recording the requests. */
function remote(answer: (request: { id: unknown; method: string }) => Response | Promise<Response>): Received[] {
  const received: Received[] = [];
  server.use(
    http.post(RPC_URL, async ({ request }) => {
      const body = (await request.json()) as JSONObject;
      received.push({ method: body.method, params: body.params });
      return answer({ id: body.id, method: body.method });
    }),
  );
  return received;
}

/** An SSE answer of JSON-RPC envelopes (`stallAfter`: keep the connection open after that many items). */
function sse(results: unknown[], options: { stallAfter?: number } = {}) {
  return (request: { id: unknown }) => {
    const encoder = new TextEncoder();
    let index = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (options.stallAfter === index) return new Promise<void>(() => {});
          if (index >= results.length) {
            controller.close();
            return;
          }
          controller.enqueue(encoder.encode(`data: ${JSON.stringify({ jsonrpc: '2.0', id: request.id, result: results[index] })}\n\n`));
          index++;
        },
      },
      { highWaterMark: 0 },
    );
    return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } });
  };
}

/** A client that streams `events` (then throws `error`, if given) without any network. */
function scriptedClient(events: readonly unknown[], error?: unknown): A2AClient {
  const stream = () =>
    (async function* () {
      for (const event of events) yield event as A2AStreamEvent;
      if (error !== undefined) throw error;
    })() as unknown as A2AEventStream;
  return {
    getAgentCard: async () => undefined,
    sendMessage: async () => {
      throw new Error('not scripted');
    },
    streamMessage: stream,
    getTask: async () => {
      throw new Error('not scripted');
    },
    cancelTask: async () => {
      throw new Error('not scripted');
    },
    resubscribe: stream,
  };
}

function invocation(overrides: Partial<Invocation> = {}): Invocation {
  return {
    invocationId: 'inv-1',
    appName: 'shop',
    userId: 'u1',
    sessionId: 's1',
    message: { role: 'user', content: 'Check order 42' },
    history: [],
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function run(options: A2AAgentOptions, overrides: Partial<Invocation> = {}): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of createA2AAgent({ name: 'inventory', retry: false, ...options }).runEvents(invocation(overrides))) events.push(event);
  return events;
}

/** A compact view of an event: object, done, partial, error and content. */
function view(event: RunEvent) {
  const response = event.response;
  const choice = response?.choices?.[0];
  return {
    object: response?.object,
    done: response?.done,
    ...(response?.partial !== undefined ? { partial: response.partial } : {}),
    ...(response?.error ? { error: response.error } : {}),
    ...(choice ? { content: choice.message?.content ?? choice.delta?.content } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------------

describe('createA2AAgent: streaming', () => {
  it('yields exactly one terminal error event for a stream with one failed status-update, and no synthetic final (scenario 78)', async () => {
    const received = remote(sse([submittedTask, failedUpdate]));
    const events = await run({ url: RPC_URL });
    expect(events.map(view)).toEqual([{ object: 'error', done: true, error: { type: 'flow_error', message: 'task failed', code: 'A2A_500' } }]);
    expect(events[0]).toMatchObject({ invocationId: 'inv-1', author: 'inventory', response: { id: 'resp-1' } });
    expect(isTerminalError(events[0])).toBe(true);
    expect(received.map((request) => request.method)).toEqual(['message/stream']);
    expect(received[0]?.params.message).toMatchObject({ role: 'user', contextId: 's1', parts: [{ kind: 'text', text: 'Check order 42' }] });
  });

  it('continues after a recoverable structured error: a non-done error event, then a done final with the answer and no error (scenario 79)', async () => {
    const events = await run({ client: scriptedClient([structuredErrorMessage, artifact('final answer'), completedUpdate]) });
    expect(events.map(view)).toEqual([
      { object: 'chat.completion', done: false, partial: false, error: { type: 'flow_error', message: "Tool 'upload_to_cos' not found", code: 'tool_not_found' }, content: "Tool 'upload_to_cos' not found" },
      { object: 'chat.completion.chunk', done: false, partial: true, content: 'final answer' },
      { object: 'chat.completion', done: true, partial: false, content: 'final answer' },
    ]);
    expect(events.filter(isTerminalError)).toEqual([]);
  });

  it('continues after a recoverable structured error streamed over the wire inside a running task (scenario 79 through the client)', async () => {
    remote(sse([submittedUpdate, structuredErrorMessage, artifact('final answer'), completedUpdate]));
    const events = await run({ url: RPC_URL });
    expect(events.map(view)).toEqual([
      { object: 'chat.completion', done: false, partial: false, error: { type: 'flow_error', message: "Tool 'upload_to_cos' not found", code: 'tool_not_found' }, content: "Tool 'upload_to_cos' not found" },
      { object: 'chat.completion.chunk', done: false, partial: true, content: 'final answer' },
      { object: 'chat.completion', done: true, partial: false, content: 'final answer' },
    ]);
  });

  it('flushes the deltas streamed so far as a complete message before a recoverable error, and never counts error text as content (scenario 81)', async () => {
    const events = await run({ client: scriptedClient([artifact('Hel'), artifact('lo'), structuredErrorMessage, artifact(' world'), completedUpdate]) });
    expect(events.map(view)).toEqual([
      { object: 'chat.completion.chunk', done: false, partial: true, content: 'Hel' },
      { object: 'chat.completion.chunk', done: false, partial: true, content: 'lo' },
      { object: 'chat.completion', done: false, partial: false, content: 'Hello' },
      { object: 'chat.completion', done: false, partial: false, error: { type: 'flow_error', message: "Tool 'upload_to_cos' not found", code: 'tool_not_found' }, content: "Tool 'upload_to_cos' not found" },
      { object: 'chat.completion.chunk', done: false, partial: true, content: ' world' },
      { object: 'chat.completion', done: true, partial: false, content: ' world' },
    ]);
  });

  it('drops the lastChunk aggregate of an artifact whose deltas were streamed, ending with one final of the streamed text', async () => {
    remote(sse([submittedTask, artifact('Hello', { append: false }), artifact(' world', { append: true }), artifact('Hello world', { lastChunk: true }), completedUpdate]));
    const events = await run({ url: RPC_URL });
    expect(events.map(view)).toEqual([
      { object: 'chat.completion.chunk', done: false, partial: true, content: 'Hello' },
      { object: 'chat.completion.chunk', done: false, partial: true, content: ' world' },
      { object: 'chat.completion', done: true, partial: false, content: 'Hello world' },
    ]);
  });

  it('takes a lastChunk artifact as the whole answer when nothing was streamed for it (as @a2a-js/sdk peers send it)', async () => {
    remote(sse([submittedTask, artifact('42 in stock', { lastChunk: true }), completedUpdate]));
    const events = await run({ url: RPC_URL });
    expect(events.map(view)).toEqual([
      { object: 'chat.completion.chunk', done: false, partial: true, content: '42 in stock' },
      { object: 'chat.completion', done: true, partial: false, content: '42 in stock' },
    ]);
  });

  it('reports a transport failure as one run_error event naming the streaming request, and nothing after it', async () => {
    remote(() => new HttpResponse('upstream busy', { status: 503 }));
    const events = await run({ url: RPC_URL });
    expect(events).toHaveLength(1);
    expect(view(events[0] as RunEvent)).toEqual({
      object: 'error',
      done: true,
      error: { type: 'run_error', message: `A2A streaming request failed: A2A request to ${RPC_URL} failed with 503 Service Unavailable: upstream busy` },
    });
    expect(events[0]?.response?.error?.message.startsWith('A2A streaming request failed')).toBe(true);
  });

  it('reports an in-stream JSON-RPC error after the events before it as a run_error carrying the JSON-RPC code', async () => {
    server.use(
      http.post(RPC_URL, async ({ request }) => {
        const { id } = (await request.json()) as JSONObject;
        const frames = [
          { jsonrpc: '2.0', id, result: submittedTask },
          { jsonrpc: '2.0', id, result: artifact('partial') },
          { jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error' } },
        ];
        return new HttpResponse(frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } });
      }),
    );
    const events = await run({ url: RPC_URL });
    expect(events.map(view)).toEqual([
      { object: 'chat.completion.chunk', done: false, partial: true, content: 'partial' },
      // §5.6: what was streamed is flushed as a complete (not done) assistant message before the error.
      { object: 'chat.completion', done: false, partial: false, content: 'partial' },
      { object: 'error', done: true, error: { type: 'run_error', message: 'A2A streaming request failed: Internal error', code: '-32603' } },
    ]);
  });

  it('reports a throwing custom converter as one terminal run_error and stops there (decisions.md point 9: tRPC would still emit a synthetic final)', async () => {
    let calls = 0;
    const converter = {
      ...defaultA2AEventConverter,
      convertStreamEvent: () => {
        calls++;
        throw new Error('unexpected part kind');
      },
    };
    const events = await run({ client: scriptedClient([artifact('answer'), completedUpdate]), converter });
    expect(events.map(view)).toEqual([{ object: 'error', done: true, error: { type: 'run_error', message: 'custom event converter failed: unexpected part kind' } }]);
    expect(calls).toBe(1);
  });

  it('reports a custom converter that returns something other than an array as a converter failure', async () => {
    const converter = { ...defaultA2AEventConverter, convertStreamEvent: () => 'nope' as unknown as RunEvent[] };
    const events = await run({ client: scriptedClient([artifact('answer'), completedUpdate]), converter });
    expect(events.map(view)).toEqual([
      { object: 'error', done: true, error: { type: 'run_error', message: 'custom event converter failed: the converter returned something other than an array of events' } },
    ]);
  });

  it('turns an abort into one cancelled event carrying the reason, after what was already streamed', async () => {
    remote(sse([submittedTask, artifact('Hel')], { stallAfter: 2 }));
    const controller = new AbortController();
    const events: RunEvent[] = [];
    for await (const event of createA2AAgent({ name: 'inventory', url: RPC_URL, retry: false }).runEvents(invocation({ signal: controller.signal }))) {
      events.push(event);
      if (events.length === 1) controller.abort(new Error('user left'));
    }
    expect(events.map(view)).toEqual([
      { object: 'chat.completion.chunk', done: false, partial: true, content: 'Hel' },
      { object: 'chat.completion', done: false, partial: false, content: 'Hel' },
      { object: 'error', done: true, error: { type: 'cancelled', message: 'The run was cancelled: user left' } },
    ]);
  });
});

describe('createA2AAgent: unary', () => {
  it('sends message/send and turns a failed Task into one terminal error event', async () => {
    const failedTask = { kind: 'task', id: 'task-1', contextId: 's1', status: failedUpdate.status, metadata: FAILURE_METADATA };
    const received = remote((request) => HttpResponse.json({ jsonrpc: '2.0', id: request.id, result: failedTask }));
    const events = await run({ url: RPC_URL, streaming: false });
    expect(events.map(view)).toEqual([{ object: 'error', done: true, error: { type: 'flow_error', message: 'task failed', code: 'A2A_500' } }]);
    expect(events[0]?.response?.id).toBe('resp-1');
    expect(received.map((request) => request.method)).toEqual(['message/send']);
  });

  it('turns a completed Task into one done assistant message', async () => {
    const completedTask = { kind: 'task', id: 'task-1', contextId: 's1', status: { state: 'completed' }, artifacts: [{ artifactId: 'a1', parts: [{ kind: 'text', text: '42 in stock' }] }] };
    remote((request) => HttpResponse.json({ jsonrpc: '2.0', id: request.id, result: completedTask }));
    const events = await run({ url: RPC_URL, streaming: false });
    expect(events.map(view)).toEqual([{ object: 'chat.completion', done: true, content: '42 in stock' }]);
  });

  it('reports a failed unary request as one run_error event naming the request', async () => {
    remote((request) => HttpResponse.json({ jsonrpc: '2.0', id: request.id, error: { code: -32001, message: 'Task not found' } }));
    const events = await run({ url: RPC_URL, streaming: false });
    expect(events.map(view)).toEqual([{ object: 'error', done: true, error: { type: 'run_error', message: 'A2A request failed: Task not found', code: '-32001' } }]);
  });

  it('follows the card: streaming false there means message/send, and the card name becomes the author', async () => {
    const card: AgentCard = {
      name: 'inventory-remote',
      description: '',
      url: RPC_URL,
      version: '1.0.0',
      capabilities: { streaming: false },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    };
    server.use(http.get(`${BASE_URL}/.well-known/agent-card.json`, () => HttpResponse.json(card)));
    const received = remote((request) => HttpResponse.json({ jsonrpc: '2.0', id: request.id, result: { kind: 'message', messageId: 'm', role: 'agent', parts: [{ kind: 'text', text: 'pong' }] } }));
    const events: RunEvent[] = [];
    for await (const event of createA2AAgent({ agentCardUrl: BASE_URL }).runEvents(invocation())) events.push(event);
    expect(events.map((event) => [event.author, view(event)])).toEqual([['inventory-remote', { object: 'chat.completion', done: true, content: 'pong' }]]);
    expect(received.map((request) => request.method)).toEqual(['message/send']);
  });
});

describe('createA2AAgent under the Runner', () => {
  it('ends the run with one runner.completion without an error when the terminal error event came first', async () => {
    remote(sse([submittedTask, failedUpdate]));
    const runner = new Runner({ appName: 'shop', agent: createA2AAgent({ name: 'inventory', url: RPC_URL, retry: false }) });
    const events: RunEvent[] = [];
    for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'Check order 42' })) events.push(event);
    expect(events.map((event) => [event.author, event.response?.object])).toEqual([
      ['inventory', 'error'],
      ['shop', 'runner.completion'],
    ]);
    expect(isTerminalError(events[0])).toBe(true);
    expect(events[0]?.response?.error).toEqual({ type: 'flow_error', message: 'task failed', code: 'A2A_500' });
    const completion = events[1] as RunEvent;
    expect(isRunnerCompletion(completion)).toBe(true);
    expect(completion.response?.error).toBeUndefined();
    expect(events.filter(isRunnerCompletion)).toHaveLength(1);
  });

  it('ends the run with a runner.completion without an error when a recoverable remote error was followed by the answer', async () => {
    const runner = new Runner({ appName: 'shop', agent: createA2AAgent({ name: 'inventory', client: scriptedClient([structuredErrorMessage, artifact('final answer'), completedUpdate]) }) });
    const events: RunEvent[] = [];
    for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'Check order 42' })) events.push(event);
    const completion = events.at(-1) as RunEvent;
    expect(isRunnerCompletion(completion)).toBe(true);
    expect(completion.response?.error).toBeUndefined();
    expect(completion.response?.choices?.[0]?.message?.content).toBe('final answer');
  });
});
