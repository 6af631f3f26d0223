// Our A2A server, driven as a plain fetch handler with `new Request(...)` (no network): seed-systems.md §4 and
// scenarios 59–67 of §8.8 (tRPC-Agent-Go's server/a2a/server_test.go), the A2A protocol facts of §7 (methods, error
// codes, agent card paths, SSE framing, 0.3 vs 1.0 shapes) and decisions.md points 3, 13 and 14.
// Scenario 64 (tRPC's "message" streaming mode) is not implemented by our handler and has no test here.
import { describe, expect, it, vi } from 'vitest';
import { createA2AClient, createA2AHandler, decodeAgentCard, InMemoryA2ATaskStore, type A2AHandlerOptions, type Task } from '../../src/a2a/index.js';
import { ConfigError, recoverableError } from '../../src/errors/index.js';
import { ExecutionErrorCollector, messagesStateSchema, StateGraph, createGraphAgent } from '../../src/graph/index.js';
import { createErrorEvent, createEvent, type EventOrigin, type EventResponse, type Invocation, type RunEvent, type RunnableAgent } from '../../src/runner/index.js';
import { deferred, within } from '../helpers/async.js';
import { fatalWriteGraph } from '../helpers/graphs.js';

// ---------------------------------------------------------------------------------------------------------------
// Helpers

// JSON-RPC bodies are read as loose JSON; every assertion below names the exact values it expects.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type JSONObject = Record<string, any>;

const ORIGIN = 'http://127.0.0.1:41241';
const GENERIC_FAILURE_TEXT = 'An error occurred while processing your request.';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const STACK_LINE = /\n\s+at\s|\.ts:\d+|\.js:\d+|"stack"/;

type Script = (origin: EventOrigin, invocation: Invocation) => AsyncIterable<RunEvent> | Iterable<RunEvent>;

/** A small custom agent: its events come from `script`, with this invocation's id (the handler ignores others). */
function scripted(script: Script, name = 'inventory'): RunnableAgent {
  return {
    name,
    async *runEvents(invocation: Invocation) {
      yield* script({ invocationId: invocation.invocationId, author: name }, invocation);
    },
  };
}

/** A response event: `{ID, Object, Done, Error, Choices}` as tRPC's tests write them. */
function responseEvent(origin: EventOrigin, response: EventResponse, stateDelta?: Record<string, string | null>): RunEvent {
  return createEvent(origin, stateDelta ? { response, stateDelta } : { response });
}

const chunk = (origin: EventOrigin, text: string) => responseEvent(origin, { object: 'chat.completion.chunk', done: false, partial: true, choices: [{ index: 0, delta: { content: text } }] });
const answer = (origin: EventOrigin, text: string, id?: string) =>
  responseEvent(origin, { ...(id ? { id } : {}), object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: text } }] });

/** tRPC's test event: `{ID: "resp-1", Done: true, Error{flow_error, "task failed", code "A2A_500"}}`. */
const taskFailedEvent = (origin: EventOrigin) =>
  responseEvent(origin, { id: 'resp-1', object: 'chat.completion', done: true, error: { type: 'flow_error', message: 'task failed', code: 'A2A_500' } });

function handlerFor(agent: RunnableAgent, options: Partial<A2AHandlerOptions> = {}) {
  return createA2AHandler({ agent, card: { name: 'inventory', description: 'Stock lookups' }, ...options });
}

function userMessage(text = 'order 42'): JSONObject {
  return { kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text }] };
}

function post(handler: (request: Request) => Promise<Response>, body: unknown, headers: Record<string, string> = {}, path = '/'): Promise<Response> {
  return handler(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

const rpc = (method: string, params?: unknown, id: string | number = 1) => ({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });

async function call(handler: (request: Request) => Promise<Response>, method: string, params?: unknown, headers: Record<string, string> = {}): Promise<JSONObject> {
  const response = await post(handler, rpc(method, params), headers);
  expect(response.headers.get('content-type')).toBe('application/json');
  return (await response.json()) as JSONObject;
}

/** Every SSE frame of a response, as the parsed JSON-RPC envelopes; resolves only when the stream closes. */
async function sseEnvelopes(response: Response): Promise<JSONObject[]> {
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const text = await within(response.text(), 5_000, 'the SSE stream');
  const frames = text.split('\n\n').filter((frame) => frame !== '');
  return frames.map((frame) => {
    expect(frame.startsWith('data: ')).toBe(true);
    return JSON.parse(frame.slice('data: '.length)) as JSONObject;
  });
}

async function sseResults(response: Response, id: string | number = 1): Promise<JSONObject[]> {
  const envelopes = await sseEnvelopes(response);
  for (const envelope of envelopes) {
    expect(envelope.jsonrpc).toBe('2.0');
    expect(envelope.id).toBe(id);
    expect(envelope.error).toBeUndefined();
  }
  return envelopes.map((envelope) => envelope.result as JSONObject);
}

const decodeBase64 = (payload: string) => Buffer.from(payload, 'base64').toString('utf8');

/** The state a `state_delta` envelope carries, decoded. */
function stateOf(envelope: JSONObject | undefined): JSONObject {
  const state: JSONObject = {};
  for (const [key, value] of Object.entries(envelope ?? {})) state[key] = value.encoding === 'nil' ? null : JSON.parse(decodeBase64(value.payload));
  return state;
}

const fatalGraph = fatalWriteGraph;

/** A graph whose first node fails recoverably, then finishes with an answer. */
function recoverableGraph() {
  const collector = new ExecutionErrorCollector();
  return new StateGraph(collector.addField(messagesStateSchema()))
    .withNodeCallbacks(collector.nodeCallbacks())
    .addNode('lookup', () => {
      throw recoverableError('inventory lookup timed out', { code: 'SOFT_TIMEOUT' });
    })
    .addNode('finalize', () => ({ last_response: 'order 42 confirmed' }))
    .addEdge('lookup', 'finalize')
    .setEntryPoint('lookup')
    .setFinishPoint('finalize')
    .compile();
}

/** An agent that yields `first`, then waits for `gate` (or the abort), then yields `rest`. */
function gatedAgent(first: (origin: EventOrigin) => RunEvent[], rest: (origin: EventOrigin) => RunEvent[]) {
  const gate = deferred();
  const reached = deferred();
  const aborted = deferred<unknown>();
  const agent = scripted(async function* (origin, invocation) {
    invocation.signal.addEventListener('abort', () => aborted.resolve(invocation.signal.reason), { once: true });
    yield* first(origin);
    reached.resolve();
    await Promise.race([gate.promise, aborted.promise]);
    if (invocation.signal.aborted) return;
    yield* rest(origin);
  });
  return { agent, gate, reached, aborted };
}

async function waitForState(handler: (request: Request) => Promise<Response>, taskId: string, state: string): Promise<JSONObject> {
  let task: JSONObject = {};
  await vi.waitFor(
    async () => {
      task = (await call(handler, 'tasks/get', { id: taskId })).result as JSONObject;
      expect(task.status.state).toBe(state);
    },
    { timeout: 5_000, interval: 10 },
  );
  return task;
}

// ---------------------------------------------------------------------------------------------------------------
// Scenarios 59–67: structured task errors

describe('createA2AHandler: structured task errors (seed-systems §4, scenarios 59–67)', () => {
  // Scenario 59. Structured task errors are on by default in our handler (decisions.md point 14; tRPC: off).
  it('answers a unary message/send whose run ends with a terminal error as a failed Task with mirrored metadata', async () => {
    const handler = handlerFor(scripted((origin) => [taskFailedEvent(origin)]));
    const body = await call(handler, 'message/send', { message: userMessage() });
    expect(body.jsonrpc).toBe('2.0');
    expect(body.id).toBe(1);
    const task = body.result as JSONObject;
    expect(task.kind).toBe('task');
    expect(task.id).toMatch(/^task-/);
    expect(task.status.state).toBe('failed');
    expect(task.status.timestamp).toMatch(ISO);
    expect(task.artifacts).toBeUndefined();
    expect(task.metadata).toEqual({
      object_type: 'error',
      error_type: 'flow_error',
      error_message: 'task failed',
      error_code: 'A2A_500',
      task_state: 'failed',
      llm_response_id: 'resp-1',
    });
    expect(task.metadata.error_code).toBe('A2A_500');
    expect(task.status.message.metadata.error_code).toBe(task.metadata.error_code);
    expect(task.status.message).toEqual({
      kind: 'message',
      role: 'agent',
      messageId: 'resp-1',
      taskId: task.id,
      contextId: task.contextId,
      metadata: task.metadata,
      parts: [{ kind: 'text', text: 'task failed' }],
    });
    expect(task.status.message.parts).toHaveLength(1);
    expect(task.history.map((message: JSONObject) => [message.role, message.messageId])).toEqual([
      ['user', 'm-1'],
      ['agent', 'resp-1'],
    ]);
  });

  it('keeps the outer metadata and the status message metadata independent in the stored task', async () => {
    // Scenario 59's "maps independent", checked on the task the store hands back: mutating one map of a stored copy
    // leaves the other as it was.
    const store = new InMemoryA2ATaskStore();
    const handler = handlerFor(scripted((origin) => [taskFailedEvent(origin)]), { taskStore: store });
    const task = (await call(handler, 'message/send', { message: userMessage() })).result as JSONObject;
    const stored = (await store.get(task.id)) as Task;
    expect(stored.metadata).not.toBe(stored.status.message?.metadata);
    (stored.metadata as JSONObject).error_code = 'mutated';
    expect(stored.status.message?.metadata?.error_code).toBe('A2A_500');
  });

  it('adds the fallback state as a state_delta envelope to the outer metadata only, not to the status message', async () => {
    // Our addition (not in tRPC): the failed task's OUTER metadata carries the fallback business state so a remote
    // failure can reach a parent's ExecutionErrorCollector; status.message.metadata mirrors exactly the §4.2 map.
    const handler = handlerFor(
      scripted((origin) => [createEvent(origin, { stateDelta: { order_id: '"42"', reserved: 'false' } }), taskFailedEvent(origin)]),
    );
    const task = (await call(handler, 'message/send', { message: userMessage() })).result as JSONObject;
    expect(task.status.state).toBe('failed');
    expect(task.metadata.state_delta).toEqual({
      order_id: { encoding: 'bytes', payload: Buffer.from('"42"').toString('base64') },
      reserved: { encoding: 'bytes', payload: Buffer.from('false').toString('base64') },
    });
    expect(task.status.message.metadata).toEqual({
      object_type: 'error',
      error_type: 'flow_error',
      error_message: 'task failed',
      error_code: 'A2A_500',
      task_state: 'failed',
      llm_response_id: 'resp-1',
    });
  });

  it('fails a task of a real graph whose node fails fatally, with the node code and the execution_errors record in state_delta', async () => {
    const handler = handlerFor(createGraphAgent('inventory', fatalGraph()));
    const task = (await call(handler, 'message/send', { message: userMessage('write order 42') })).result as JSONObject;
    expect(task.status.state).toBe('failed');
    expect(task.metadata).toMatchObject({
      object_type: 'error',
      error_type: 'flow_error',
      error_code: 'WRITE_FATAL',
      error_message: 'node write failed at step 0: database write failed',
      task_state: 'failed',
    });
    // The failure is reported by the runner.completion (the graph's own error events are not terminal).
    expect(task.metadata.llm_response_id).toMatch(/^runner-completion-/);
    const state = stateOf(task.metadata.state_delta);
    expect(state.execution_errors).toHaveLength(1);
    expect(state.execution_errors[0]).toMatchObject({ severity: 'fatal', nodeId: 'write', error: { type: 'flow_error', code: 'WRITE_FATAL', message: 'database write failed' } });
    expect(task.status.message.metadata).not.toHaveProperty('state_delta');
    expect(task.status.message.parts).toEqual([{ kind: 'text', text: 'node write failed at step 0: database write failed' }]);
  });

  // Scenario 60.
  it('streams a submitted Task, then exactly one final failed status-update, then closes the stream', async () => {
    const handler = handlerFor(scripted((origin) => [taskFailedEvent(origin)]));
    const events = await sseResults(await post(handler, rpc('message/stream', { message: userMessage() })));
    expect(events.map((event) => [event.kind, event.status?.state, event.final])).toEqual([
      // Ours: the stream starts with a Task snapshot in state submitted (A2A 0.3 stream semantics: "Task, then
      // updates"), where tRPC sends a `submitted` status-update.
      ['task', 'submitted', undefined],
      ['status-update', 'failed', true],
    ]);
    const [task, failed] = events as [JSONObject, JSONObject];
    expect(failed.taskId).toBe(task.id);
    expect(failed.contextId).toBe(task.contextId);
    expect(failed.metadata).toEqual({
      object_type: 'error',
      error_type: 'flow_error',
      error_message: 'task failed',
      error_code: 'A2A_500',
      task_state: 'failed',
      llm_response_id: 'resp-1',
    });
    expect(failed.status.message.metadata.error_code).toBe('A2A_500');
    expect(failed.status.message.parts).toEqual([{ kind: 'text', text: 'task failed' }]);
    expect(events.some((event) => event.kind === 'artifact-update')).toBe(false);
  });

  it('sends nothing after the structured terminal error, even when the agent yields more', async () => {
    const handler = handlerFor(scripted((origin) => [taskFailedEvent(origin), chunk(origin, 'late text'), answer(origin, 'late answer')]));
    const events = await sseResults(await post(handler, rpc('message/stream', { message: userMessage() })));
    expect(events.map((event) => event.kind)).toEqual(['task', 'status-update']);
    expect(events[1]?.status.state).toBe('failed');
    expect(JSON.stringify(events)).not.toContain('late');
  });

  // Scenario 61.
  it('maps a stop_agent_error to exactly [submitted, canceled status-update], with no artifact and no completed', async () => {
    const handler = handlerFor(
      scripted((origin) => [responseEvent(origin, { id: 'resp-stop', object: 'error', done: true, error: { type: 'stop_agent_error', message: 'task canceled', code: 'A2A_499' } })]),
    );
    const events = await sseResults(await post(handler, rpc('message/stream', { message: userMessage() })));
    expect(events.map((event) => [event.kind, event.status?.state])).toEqual([
      ['task', 'submitted'],
      ['status-update', 'canceled'],
    ]);
    const canceled = events[1] as JSONObject;
    expect(canceled.final).toBe(true);
    expect(canceled.metadata).toEqual({
      object_type: 'error',
      error_type: 'stop_agent_error',
      error_message: 'task canceled',
      error_code: 'A2A_499',
      task_state: 'canceled',
      llm_response_id: 'resp-stop',
    });
    expect(canceled.status.message.parts).toEqual([{ kind: 'text', text: 'task canceled' }]);
    expect(JSON.stringify(events)).not.toContain('"completed"');
  });

  // Scenario 62.
  it('does not treat a graph.node.error event as terminal: nothing is sent for it and the task completes', async () => {
    const handler = handlerFor(
      scripted((origin) => [
        responseEvent(origin, { object: 'graph.node.error', done: false, error: { type: 'flow_error', message: 'node lookup failed', code: 'SOFT' } }),
        chunk(origin, 'order 42 '),
        chunk(origin, 'confirmed'),
        answer(origin, 'order 42 confirmed', 'resp-ok'),
      ]),
    );
    const events = await sseResults(await post(handler, rpc('message/stream', { message: userMessage() })));
    expect(events.map((event) => [event.kind, event.status?.state ?? null, event.lastChunk ?? null])).toEqual([
      ['task', 'submitted', null],
      ['artifact-update', null, false],
      ['artifact-update', null, false],
      ['artifact-update', null, true],
      ['status-update', 'completed', null],
    ]);
    expect(events[1]?.artifact.parts).toEqual([{ kind: 'text', text: 'order 42 ' }]);
    expect(events[1]?.append).toBe(false);
    expect(events[2]?.artifact.parts).toEqual([{ kind: 'text', text: 'confirmed' }]);
    expect(events[2]?.append).toBe(true);
    expect(events[3]?.metadata).toEqual({ llm_response_id: 'resp-ok' });
    expect(JSON.stringify(events)).not.toContain('node lookup failed');
    expect(JSON.stringify(events)).not.toContain('"failed"');
  });

  it('completes a real graph that recovers from a node error, with the recoverable record in state_delta', async () => {
    const handler = handlerFor(createGraphAgent('inventory', recoverableGraph()));
    const events = await sseResults(await post(handler, rpc('message/stream', { message: userMessage() })));
    expect(events.map((event) => [event.kind, event.status?.state ?? null])).toEqual([
      ['task', 'submitted'],
      ['artifact-update', null],
      ['status-update', 'completed'],
    ]);
    const final = events[1] as JSONObject;
    expect(final.lastChunk).toBe(true);
    expect(final.metadata).not.toHaveProperty('object_type');
    const state = stateOf(final.metadata.state_delta);
    expect(state.last_response).toBe('order 42 confirmed');
    expect(state.execution_errors).toHaveLength(1);
    expect(state.execution_errors[0]).toMatchObject({ severity: 'recoverable', nodeId: 'lookup', error: { code: 'SOFT_TIMEOUT', message: 'inventory lookup timed out' } });
    expect(events[2]?.status.message.parts).toEqual([{ kind: 'text', text: 'order 42 confirmed' }]);
  });

  // Scenario 63.
  it('ends a normal run with a lastChunk artifact-update carrying llm_response_id and the state_delta envelope, then completed', async () => {
    const handler = handlerFor(
      scripted((origin) => [
        answer(origin, 'final', 'resp-final'),
        responseEvent(origin, { object: 'graph.execution', done: true }, { last_response: '"final"', last_response_id: '"resp-final"' }),
      ]),
    );
    const events = await sseResults(await post(handler, rpc('message/stream', { message: userMessage() })));
    expect(events.map((event) => event.kind)).toEqual(['task', 'artifact-update', 'status-update']);
    const [task, final, completed] = events as [JSONObject, JSONObject, JSONObject];
    expect(final).toEqual({
      kind: 'artifact-update',
      taskId: task.id,
      contextId: task.contextId,
      artifact: { artifactId: expect.stringMatching(/^artifact-/), name: 'response', parts: [{ kind: 'text', text: 'final' }] },
      append: false,
      lastChunk: true,
      metadata: {
        llm_response_id: 'resp-final',
        state_delta: {
          last_response: { encoding: 'bytes', payload: Buffer.from('"final"').toString('base64') },
          last_response_id: { encoding: 'bytes', payload: Buffer.from('"resp-final"').toString('base64') },
        },
      },
    });
    expect(final.metadata).not.toHaveProperty('object_type');
    expect(completed.status.state).toBe('completed');
    expect(completed.final).toBe(true);
    expect(completed.metadata).toBeUndefined();
  });

  // Scenario 63, the seed's source of llm_response_id: the completion's state key `last_response_id` (a JSON string).
  it('takes llm_response_id from the completion state key last_response_id, as tRPC does', async () => {
    const handler = handlerFor(
      scripted((origin) => [responseEvent(origin, { object: 'graph.execution', done: true }, { last_response: '"final"', last_response_id: '"resp-final"' })]),
    );
    const events = await sseResults(await post(handler, rpc('message/stream', { message: userMessage() })));
    expect(events[1]?.kind).toBe('artifact-update');
    expect(events[1]?.metadata.llm_response_id).toBe('resp-final');
  });

  // Scenario 65.
  it('with structured errors off, puts a completion error into the final artifact metadata and still completes', async () => {
    const handler = handlerFor(
      scripted((origin) => [
        createEvent(origin, { stateDelta: { order_id: '"42"' } }),
        responseEvent(origin, { object: 'graph.node.error', done: false, error: { type: 'flow_error', message: 'runner failed', code: 'A2A_500' } }),
      ]),
      { structuredTaskErrors: false },
    );
    const events = await sseResults(await post(handler, rpc('message/stream', { message: userMessage() })));
    expect(events.map((event) => [event.kind, event.status?.state ?? null])).toEqual([
      ['task', 'submitted'],
      ['artifact-update', null],
      ['status-update', 'completed'],
    ]);
    const final = events[1] as JSONObject;
    expect(final.lastChunk).toBe(true);
    expect(final.metadata).toEqual({
      object_type: 'error',
      error_type: 'flow_error',
      error_message: 'runner failed',
      error_code: 'A2A_500',
      llm_response_id: expect.stringMatching(/^runner-completion-/),
      state_delta: { order_id: { encoding: 'bytes', payload: Buffer.from('"42"').toString('base64') } },
    });
    // §4.5: the non-structured path carries the §4.2 keys without task_state.
    expect(final.metadata).not.toHaveProperty('task_state');
    expect(JSON.stringify(events)).not.toContain('"failed"');
  });

  // Scenario 66.
  it('with structured errors on, turns the same erroring completion into one failed status-update', async () => {
    const handler = handlerFor(
      scripted((origin) => [
        createEvent(origin, { stateDelta: { order_id: '"42"' } }),
        responseEvent(origin, { object: 'graph.node.error', done: false, error: { type: 'flow_error', message: 'runner failed', code: 'A2A_500' } }),
      ]),
      { structuredTaskErrors: true },
    );
    const events = await sseResults(await post(handler, rpc('message/stream', { message: userMessage() })));
    expect(events.map((event) => [event.kind, event.status?.state])).toEqual([
      ['task', 'submitted'],
      ['status-update', 'failed'],
    ]);
    const failed = events[1] as JSONObject;
    expect(failed.final).toBe(true);
    expect(failed.metadata).toEqual({
      object_type: 'error',
      error_type: 'flow_error',
      error_message: 'runner failed',
      error_code: 'A2A_500',
      task_state: 'failed',
      llm_response_id: expect.stringMatching(/^runner-completion-/),
      state_delta: { order_id: { encoding: 'bytes', payload: Buffer.from('"42"').toString('base64') } },
    });
    expect(failed.status.message.metadata).toEqual({
      object_type: 'error',
      error_type: 'flow_error',
      error_message: 'runner failed',
      error_code: 'A2A_500',
      task_state: 'failed',
      llm_response_id: failed.metadata.llm_response_id,
    });
  });

  // Scenario 67.
  it('with structured errors off, answers a unary terminal error with a plain agent Message and no structured fields', async () => {
    const handler = handlerFor(scripted((origin) => [taskFailedEvent(origin)]), { structuredTaskErrors: false });
    const body = await call(handler, 'message/send', { message: userMessage() });
    const message = body.result as JSONObject;
    expect(message.kind).toBe('message');
    expect(message.role).toBe('agent');
    expect(message.messageId).toMatch(/^msg-/);
    expect(message.parts).toEqual([{ kind: 'text', text: GENERIC_FAILURE_TEXT }]);
    expect(message.metadata).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain('A2A_500');
    expect(JSON.stringify(body)).not.toContain('task failed');
  });

  it('turns an agent that throws into a failed run_error task without a stack trace', async () => {
    const handler = handlerFor(
      scripted(async function* () {
        yield* [];
        throw new Error('inventory service unreachable');
      }),
    );
    const response = await post(handler, rpc('message/send', { message: userMessage() }));
    const text = await response.text();
    const task = (JSON.parse(text) as JSONObject).result as JSONObject;
    expect(task.status.state).toBe('failed');
    expect(task.metadata).toMatchObject({ object_type: 'error', error_type: 'run_error', error_message: 'inventory service unreachable', task_state: 'failed' });
    expect(text).not.toMatch(STACK_LINE);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Agent card

describe('createA2AHandler: the agent card', () => {
  it.each(['/.well-known/agent-card.json', '/.well-known/agent.json'])('serves the card at %s with url = request origin + basePath', async (path) => {
    const handler = handlerFor(scripted(() => []), { basePath: '/a2a' });
    const response = await handler(new Request(`${ORIGIN}${path}`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const card = (await response.json()) as JSONObject;
    expect(card).toMatchObject({
      protocolVersion: '0.3.0',
      name: 'inventory',
      description: 'Stock lookups',
      url: `${ORIGIN}/a2a`,
      preferredTransport: 'JSONRPC',
      version: '1.0.0',
      capabilities: { streaming: true, pushNotifications: false },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    });
    expect(card.supportedInterfaces).toEqual([
      { url: `${ORIGIN}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: `${ORIGIN}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ]);
    expect(decodeAgentCard(card).url).toBe(`${ORIGIN}/a2a`);
  });

  it('defaults the card url to the origin with the root path, and follows the request origin', async () => {
    const handler = handlerFor(scripted(() => []));
    const card = (await (await handler(new Request('http://localhost:8787/.well-known/agent-card.json'))).json()) as JSONObject;
    expect(card.url).toBe('http://localhost:8787/');
    expect(card.supportedInterfaces.map((entry: JSONObject) => entry.url)).toEqual(['http://localhost:8787/', 'http://localhost:8787/']);
  });

  it('keeps a url given in the card and lists only the served protocol versions', async () => {
    const handler = createA2AHandler({ agent: scripted(() => []), card: { name: 'inventory', url: 'https://public.example/a2a' }, protocolVersions: ['0.3'] });
    const card = (await (await handler(new Request(`${ORIGIN}/.well-known/agent-card.json`))).json()) as JSONObject;
    expect(card.url).toBe('https://public.example/a2a');
    expect(card.supportedInterfaces).toEqual([{ url: 'https://public.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3' }]);
  });

  it('answers 404 for other paths and 405 for a GET on the JSON-RPC path', async () => {
    const handler = handlerFor(scripted(() => []));
    expect((await handler(new Request(`${ORIGIN}/elsewhere`))).status).toBe(404);
    const response = await handler(new Request(`${ORIGIN}/`));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

// ---------------------------------------------------------------------------------------------------------------
// JSON-RPC errors

describe('createA2AHandler: JSON-RPC errors', () => {
  const handler = handlerFor(scripted((origin) => [answer(origin, 'ok')]), { maxBodyBytes: 256 });

  async function errorOf(response: Response, status = 200): Promise<JSONObject> {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json');
    const text = await response.text();
    expect(text).not.toMatch(STACK_LINE);
    const body = JSON.parse(text) as JSONObject;
    expect(body.jsonrpc).toBe('2.0');
    expect(body.result).toBeUndefined();
    return body;
  }

  it('answers a wrong content type with HTTP 415 and -32005', async () => {
    const response = await handler(new Request(`${ORIGIN}/`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(rpc('message/send', { message: userMessage() })) }));
    const body = await errorOf(response, 415);
    expect(body.id).toBeNull();
    expect(body.error.code).toBe(-32005);
    expect(body.error.message).toBe('Content-Type must be application/json (got text/plain)');
  });

  it.each(['text/plain; x=application/json', 'application/jsonx', 'text/plain, application/json'])('answers a type that merely contains application/json (%s) with HTTP 415 too: browsers send text/plain cross-origin unasked', async (type) => {
    const response = await handler(new Request(`${ORIGIN}/`, { method: 'POST', headers: { 'content-type': type }, body: JSON.stringify(rpc('message/send', { message: userMessage() })) }));
    const body = await errorOf(response, 415);
    expect(body.error.code).toBe(-32005);
  });

  it('accepts application/json with a charset parameter', async () => {
    const body = await call(handler, 'tasks/get', { id: 'task-missing' }, { 'content-type': 'application/json; charset=utf-8' });
    expect(body.error.code).toBe(-32001);
  });

  it('answers a body over maxBodyBytes with HTTP 413 and -32600', async () => {
    const response = await post(handler, rpc('message/send', { message: userMessage('x'.repeat(400)) }));
    const body = await errorOf(response, 413);
    expect(body.id).toBeNull();
    expect(body.error).toEqual({ code: -32600, message: 'The request body exceeds 256 bytes' });
  });

  it('answers HTTP 413 also when Content-Length understates the body', async () => {
    const payload = JSON.stringify(rpc('message/send', { message: userMessage('x'.repeat(400)) }));
    const response = await post(handler, payload, { 'content-length': '10' });
    const body = await errorOf(response, 413);
    expect(body.error.code).toBe(-32600);
  });

  it('answers HTTP 413 for a streamed body without Content-Length that grows past the limit', async () => {
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let index = 0; index < 10; index++) controller.enqueue(encoder.encode('x'.repeat(100)));
        controller.close();
      },
    });
    const response = await handler(new Request(`${ORIGIN}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit));
    const body = await errorOf(response, 413);
    expect(body.error.code).toBe(-32600);
  });

  it('answers HTTP 413 from an announced Content-Length alone, without reading the body', async () => {
    // A body that never ends: reading it would hang, so a prompt answer shows the handler refused it up front.
    const endless = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const request = new Request(`${ORIGIN}/`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '100000' }, body: endless, duplex: 'half' } as RequestInit);
    const body = await errorOf(await within(handler(request), 1_000, 'the handler'), 413);
    expect(body.error).toEqual({ code: -32600, message: 'The request body exceeds 256 bytes' });
  });

  it('answers invalid JSON with -32700 and id null', async () => {
    const body = await errorOf(await post(handler, '{"jsonrpc": "2.0", "id": 7, "method": '));
    expect(body.id).toBeNull();
    expect(body.error).toEqual({ code: -32700, message: 'Invalid JSON payload' });
  });

  it('answers a batch array with -32600', async () => {
    const body = await errorOf(await post(handler, [rpc('tasks/get', { id: 'a' }), rpc('tasks/get', { id: 'b' }, 2)]));
    expect(body.id).toBeNull();
    expect(body.error).toEqual({ code: -32600, message: 'Batch requests are not supported' });
  });

  it('answers a non-object body with -32600', async () => {
    const body = await errorOf(await post(handler, '"message/send"'));
    expect(body.error.code).toBe(-32600);
  });

  it.each([
    ['no jsonrpc', { id: 3, method: 'tasks/get', params: { id: 'a' } }],
    ['jsonrpc 1.0', { jsonrpc: '1.0', id: 3, method: 'tasks/get', params: { id: 'a' } }],
    ['no method', { jsonrpc: '2.0', id: 3, params: { id: 'a' } }],
    ['a numeric method', { jsonrpc: '2.0', id: 3, method: 42 }],
  ])('answers a request with %s with -32600 and keeps its id', async (_name, request) => {
    const body = await errorOf(await post(handler, request));
    expect(body.id).toBe(3);
    expect(body.error).toEqual({ code: -32600, message: 'The request must have jsonrpc "2.0" and a method' });
  });

  it('answers an unknown method with -32601 naming it', async () => {
    const body = await errorOf(await post(handler, rpc('tasks/explode', {}, 'req-9')));
    expect(body.id).toBe('req-9');
    expect(body.error).toEqual({ code: -32601, message: 'Method not found: tasks/explode' });
  });

  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty'])('answers the method %s (an Object.prototype name) with -32601, not as a 1.0 method', async (method) => {
    const body = await errorOf(await post(handler, rpc(method, {}, 'req-10')));
    expect(body.error).toEqual({ code: -32601, message: `Method not found: ${method}` });
  });

  it('answers invalid params with -32602 and issues naming each bad path', async () => {
    const params = { message: { kind: 'message', messageId: 'm-1', role: 'robot', parts: [{ kind: 'text' }] } };
    const body = await errorOf(await post(handler, rpc('message/send', params, 5)));
    expect(body.id).toBe(5);
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toMatch(/^Invalid message\/send params: /);
    const paths = (body.error.data.issues as JSONObject[]).map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['params.message.role', 'params.message.parts[0].text']));
    const role = (body.error.data.issues as JSONObject[]).find((issue) => issue.path === 'params.message.role');
    expect(role).toEqual({ code: 'invalid_value', path: 'params.message.role', message: 'expected one of user|agent' });
  });

  it('answers missing params of tasks/get with -32602 naming params.id', async () => {
    const body = await errorOf(await post(handler, rpc('tasks/get', {})));
    expect(body.error.code).toBe(-32602);
    expect(body.error.data.issues).toEqual([{ code: 'invalid_type', path: 'params.id', message: 'expected string' }]);
  });

  it.each(['tasks/pushNotificationConfig/set', 'tasks/pushNotificationConfig/get', 'tasks/pushNotificationConfig/list', 'tasks/pushNotificationConfig/delete'])(
    'answers %s with -32003',
    async (method) => {
      const body = await errorOf(await post(handler, rpc(method, { id: 'task-1' })));
      expect(body.error).toEqual({ code: -32003, message: 'Push Notification is not supported' });
    },
  );

  it('answers agent/getAuthenticatedExtendedCard with -32007', async () => {
    const body = await errorOf(await post(handler, rpc('agent/getAuthenticatedExtendedCard')));
    expect(body.error).toEqual({ code: -32007, message: 'Authenticated Extended Card is not configured' });
  });

  it('answers an unsupported A2A-Version header with -32009', async () => {
    const body = await errorOf(await post(handler, rpc('message/send', { message: userMessage() }), { 'A2A-Version': '2.0' }));
    expect(body.id).toBe(1);
    expect(body.error.code).toBe(-32009);
    expect(body.error.message).toBe('A2A version "2.0" is not supported; supported: 0.3, 1.0');
  });

  it('accepts A2A-Version 1.1 and 0.3.0 (same major as a served version)', async () => {
    for (const version of ['1.1', '0.3.0']) {
      const body = await call(handler, 'tasks/get', { id: 'task-missing' }, { 'A2A-Version': version });
      expect(body.error.code).toBe(-32001);
    }
  });

  it('answers A2A-Version 10.0 with -32009', async () => {
    const body = await errorOf(await post(handler, rpc('tasks/get', { id: 'task-missing' }), { 'A2A-Version': '10.0' }));
    expect(body.error.code).toBe(-32009);
  });

  it('answers a failing task store with -32603 and none of its text or stack', async () => {
    const failing = {
      get: async () => {
        throw new Error('connection to db-internal.example:5432 refused');
      },
      save: async () => {},
    };
    const storeHandler = handlerFor(scripted(() => []), { taskStore: failing });
    const response = await post(storeHandler, rpc('tasks/get', { id: 'task-1' }));
    const body = await errorOf(response);
    expect(body.error).toEqual({ code: -32603, message: 'Internal error while handling tasks/get (Error)' });
    expect(JSON.stringify(body)).not.toContain('db-internal');
  });

  it('rejects invalid options with a ConfigError listing each problem', () => {
    let thrown: unknown;
    try {
      createA2AHandler({ card: { name: '' } });
    } catch (error) {
      thrown = error;
    }
    expect(ConfigError.isInstance(thrown)).toBe(true);
    expect(() => createA2AHandler({ card: { name: '' }, maxBodyBytes: 0, protocolVersions: ['2.0' as '1.0'] })).toThrow(
      /give agent or runner[\s\S]*card\.name is required[\s\S]*maxBodyBytes must be a number > 0[\s\S]*protocolVersions must list '0\.3' and\/or '1\.0'/,
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Tasks: get, cancel, resubscribe, non-blocking send

describe('createA2AHandler: tasks', () => {
  it('answers tasks/get for an unknown task with -32001', async () => {
    const handler = handlerFor(scripted(() => []));
    const body = await call(handler, 'tasks/get', { id: 'task-unknown' });
    expect(body.error).toEqual({ code: -32001, message: 'Task not found: task-unknown' });
  });

  it('answers tasks/get with the finished task, its history trimmed to historyLength', async () => {
    const handler = handlerFor(scripted((origin) => [answer(origin, 'order 42 is in stock')]));
    const sent = (await call(handler, 'message/send', { message: userMessage() })).result as JSONObject;
    expect(sent.status.state).toBe('completed');
    const full = (await call(handler, 'tasks/get', { id: sent.id })).result as JSONObject;
    expect(full.id).toBe(sent.id);
    expect(full.status.state).toBe('completed');
    expect(full.history.map((message: JSONObject) => message.role)).toEqual(['user', 'agent']);
    expect(full.artifacts).toEqual([{ artifactId: expect.stringMatching(/^artifact-/), name: 'response', parts: [{ kind: 'text', text: 'order 42 is in stock' }], metadata: { llm_response_id: expect.stringMatching(/^runner-completion-/) } }]);
    const trimmed = (await call(handler, 'tasks/get', { id: sent.id, historyLength: 1 })).result as JSONObject;
    expect(trimmed.history).toHaveLength(1);
    expect(trimmed.history[0].role).toBe('agent');
    expect(trimmed.history[0].parts).toEqual([{ kind: 'text', text: 'order 42 is in stock' }]);
    const longer = (await call(handler, 'tasks/get', { id: sent.id, historyLength: 5 })).result as JSONObject;
    expect(longer.history.map((message: JSONObject) => message.role)).toEqual(['user', 'agent']);
  });

  it('cancels a running task: tasks/cancel returns it canceled and a second cancel is -32002', async () => {
    const { agent, reached, aborted } = gatedAgent((origin) => [chunk(origin, 'checking ')], (origin) => [answer(origin, 'never')]);
    const handler = handlerFor(agent);
    const started = (await call(handler, 'message/send', { message: userMessage(), configuration: { blocking: false } })).result as JSONObject;
    await within(reached.promise, 5_000, 'the agent start');
    const canceled = (await call(handler, 'tasks/cancel', { id: started.id })).result as JSONObject;
    expect(canceled.id).toBe(started.id);
    expect(canceled.status.state).toBe('canceled');
    expect(canceled.status.message.parts).toEqual([{ kind: 'text', text: 'The task was canceled by request.' }]);
    expect(await within(aborted.promise, 1_000, 'the abort')).toBeInstanceOf(DOMException);
    const again = await call(handler, 'tasks/cancel', { id: started.id });
    expect(again.error).toEqual({ code: -32002, message: `Task ${started.id} is canceled and cannot be canceled` });
    expect(((await call(handler, 'tasks/get', { id: started.id })).result as JSONObject).status.state).toBe('canceled');
  });

  it('refuses to cancel a finished task with -32002 and an unknown one with -32001', async () => {
    const handler = handlerFor(scripted((origin) => [answer(origin, 'done')]));
    const sent = (await call(handler, 'message/send', { message: userMessage() })).result as JSONObject;
    const finished = await call(handler, 'tasks/cancel', { id: sent.id });
    expect(finished.error).toEqual({ code: -32002, message: `Task ${sent.id} is completed and cannot be canceled` });
    const unknown = await call(handler, 'tasks/cancel', { id: 'task-unknown' });
    expect(unknown.error).toEqual({ code: -32001, message: 'Task not found: task-unknown' });
  });

  it('resubscribes to a running task: its snapshot first, then the further events until completed', async () => {
    const { agent, gate, reached } = gatedAgent((origin) => [chunk(origin, 'par')], (origin) => [chunk(origin, 'tial'), answer(origin, 'partial', 'resp-2')]);
    const handler = handlerFor(agent);
    const started = (await call(handler, 'message/send', { message: userMessage(), configuration: { blocking: false } })).result as JSONObject;
    await within(reached.promise, 5_000, 'the agent start');
    const response = await post(handler, rpc('tasks/resubscribe', { id: started.id }, 'sub-1'));
    gate.resolve();
    const events = await sseResults(response, 'sub-1');
    expect(events.map((event) => [event.kind, event.status?.state ?? null])).toEqual([
      ['task', 'working'],
      ['artifact-update', null],
      ['artifact-update', null],
      ['status-update', 'completed'],
    ]);
    expect(events[0]?.id).toBe(started.id);
    expect(events[1]?.artifact.parts).toEqual([{ kind: 'text', text: 'tial' }]);
    expect(events[1]?.append).toBe(true);
    expect(events[2]?.lastChunk).toBe(true);
    expect(events[2]?.metadata.llm_response_id).toBe('resp-2');
    expect(events[3]?.final).toBe(true);
    expect(events[3]?.status.message.parts).toEqual([{ kind: 'text', text: 'partial' }]);
  });

  it('resubscribes to a finished task with one frame: its final snapshot', async () => {
    const handler = handlerFor(scripted((origin) => [answer(origin, 'done')]));
    const sent = (await call(handler, 'message/send', { message: userMessage() })).result as JSONObject;
    const events = await sseResults(await post(handler, rpc('tasks/resubscribe', { id: sent.id })));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'task', id: sent.id, status: { state: 'completed' } });
  });

  it('answers tasks/resubscribe for an unknown task with -32001 as JSON, not a stream', async () => {
    const handler = handlerFor(scripted(() => []));
    const body = await call(handler, 'tasks/resubscribe', { id: 'task-unknown' });
    expect(body.error).toEqual({ code: -32001, message: 'Task not found: task-unknown' });
  });

  it('returns a non-blocking send at once in submitted or working, and tasks/get later shows it completed', async () => {
    const { agent, gate, reached } = gatedAgent(() => [], (origin) => [answer(origin, 'later')]);
    const handler = handlerFor(agent);
    const started = (await call(handler, 'message/send', { message: userMessage(), configuration: { blocking: false } })).result as JSONObject;
    expect(started.kind).toBe('task');
    expect(['submitted', 'working']).toContain(started.status.state);
    expect(started.history).toEqual([{ ...userMessage(), taskId: started.id, contextId: started.contextId }]);
    await within(reached.promise, 5_000, 'the agent start');
    expect(((await call(handler, 'tasks/get', { id: started.id })).result as JSONObject).status.state).toBe('working');
    gate.resolve();
    const finished = await waitForState(handler, started.id, 'completed');
    expect(finished.status.message.parts).toEqual([{ kind: 'text', text: 'later' }]);
  });

  it('keeps the contextId the client sends', async () => {
    const handler = handlerFor(scripted((origin) => [answer(origin, 'ok')]));
    const task = (await call(handler, 'message/send', { message: { ...userMessage(), contextId: 'ctx-client' } })).result as JSONObject;
    expect(task.contextId).toBe('ctx-client');
  });

  it('cancels the task when the streaming client goes away', async () => {
    const { agent, reached, aborted } = gatedAgent((origin) => [chunk(origin, 'working on it')], (origin) => [answer(origin, 'never')]);
    const handler = handlerFor(agent);
    const response = await post(handler, rpc('message/stream', { message: userMessage() }));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const task = (JSON.parse(first.slice('data: '.length)) as JSONObject).result as JSONObject;
    expect(task.status.state).toBe('submitted');
    await within(reached.promise, 5_000, 'the agent start');
    await reader.cancel();
    await within(aborted.promise, 5_000, 'the abort');
    await waitForState(handler, task.id, 'canceled');
  });
});

// ---------------------------------------------------------------------------------------------------------------
// A2A 1.0

describe('createA2AHandler: A2A 1.0 requests', () => {
  const V1 = { 'A2A-Version': '1.0' };
  const v1Message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'order 42' }] };

  it('answers SendMessage in 1.0 shapes: {task} with TASK_STATE_FAILED, ROLE_AGENT and {text} parts, no kind', async () => {
    const handler = handlerFor(scripted((origin) => [taskFailedEvent(origin)]));
    const response = await post(handler, rpc('SendMessage', { message: v1Message }), V1);
    const text = await response.text();
    expect(text).not.toContain('"kind"');
    const body = JSON.parse(text) as JSONObject;
    const task = body.result.task as JSONObject;
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(task.status.message).toEqual({
      messageId: 'resp-1',
      taskId: task.id,
      contextId: task.contextId,
      role: 'ROLE_AGENT',
      metadata: { object_type: 'error', error_type: 'flow_error', error_message: 'task failed', error_code: 'A2A_500', task_state: 'failed', llm_response_id: 'resp-1' },
      parts: [{ text: 'task failed' }],
    });
    expect(task.metadata.error_code).toBe('A2A_500');
    expect(task.history[0]).toEqual({ messageId: 'm-1', taskId: task.id, contextId: task.contextId, role: 'ROLE_USER', parts: [{ text: 'order 42' }] });
  });

  it('answers SendMessage of a successful run with TASK_STATE_COMPLETED', async () => {
    const handler = handlerFor(scripted((origin) => [answer(origin, 'in stock')]));
    const body = await call(handler, 'SendMessage', { message: v1Message }, V1);
    expect(body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(body.result.task.status.message.parts).toEqual([{ text: 'in stock' }]);
    expect(body.result.task.artifacts[0].parts).toEqual([{ text: 'in stock' }]);
  });

  it('streams SendStreamingMessage as {task} then {statusUpdate} without final', async () => {
    const handler = handlerFor(scripted((origin) => [taskFailedEvent(origin)]));
    const events = await sseResults(await post(handler, rpc('SendStreamingMessage', { message: v1Message }), V1));
    expect(events.map((event) => Object.keys(event))).toEqual([['task'], ['statusUpdate']]);
    expect(events[0]?.task.status.state).toBe('TASK_STATE_SUBMITTED');
    expect(events[1]?.statusUpdate.status.state).toBe('TASK_STATE_FAILED');
    expect(events[1]?.statusUpdate).not.toHaveProperty('final');
    expect(events[1]?.statusUpdate).not.toHaveProperty('kind');
    expect(events[1]?.statusUpdate.metadata.error_code).toBe('A2A_500');
  });

  it('answers GetTask and CancelTask of an unknown task with -32001 carrying a google.rpc.ErrorInfo', async () => {
    const handler = handlerFor(scripted(() => []));
    for (const method of ['GetTask', 'CancelTask']) {
      const body = await call(handler, method, { id: 'task-unknown' }, V1);
      expect(body.error).toEqual({
        code: -32001,
        message: 'Task not found: task-unknown',
        data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }],
      });
    }
  });

  it('answers an invalid 1.0 request with -32602 whose data lists the issues (a JSON-RPC code, so no ErrorInfo)', async () => {
    const handler = handlerFor(scripted(() => []));
    const body = await call(handler, 'SendMessage', { message: { messageId: 'm-1', role: 'ROLE_ROBOT', parts: [{ text: 'x' }] } }, V1);
    expect(body.error.code).toBe(-32602);
    // -32602 is a JSON-RPC code, not an A2A one: its data keeps the issues as for 0.3.
    expect(body.error.data.issues.map((issue: JSONObject) => issue.path)).toEqual(['params.message.role']);
  });

  it('answers GetExtendedAgentCard with -32007 and reason EXTENDED_AGENT_CARD_NOT_CONFIGURED', async () => {
    const handler = handlerFor(scripted(() => []));
    const body = await call(handler, 'GetExtendedAgentCard', {}, V1);
    expect(body.error.code).toBe(-32007);
    expect(body.error.data[0].reason).toBe('EXTENDED_AGENT_CARD_NOT_CONFIGURED');
  });

  it('answers GetTask with the task in 1.0 shape, unwrapped', async () => {
    const handler = handlerFor(scripted((origin) => [answer(origin, 'ok')]));
    const sent = (await call(handler, 'message/send', { message: userMessage() })).result as JSONObject;
    const body = await call(handler, 'GetTask', { id: sent.id }, V1);
    expect(body.result.id).toBe(sent.id);
    expect(body.result.status.state).toBe('TASK_STATE_COMPLETED');
    expect(body.result).not.toHaveProperty('kind');
  });

  it('refuses 1.0 with -32009 when the handler serves only 0.3', async () => {
    const handler = handlerFor(scripted((origin) => [answer(origin, 'ok')]), { protocolVersions: ['0.3'] });
    const body = await call(handler, 'SendMessage', { message: v1Message }, V1);
    expect(body.id).toBe(1);
    expect(body.error).toEqual({
      code: -32009,
      message: 'A2A 1.0 is not served here; supported: 0.3',
      data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'VERSION_NOT_SUPPORTED', domain: 'a2a-protocol.org' }],
    });
    const legacy = await call(handler, 'message/send', { message: userMessage() });
    expect(legacy.result.status.state).toBe('completed');
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Serverless platforms: waitUntil, keep-alive (the workerd behaviour itself is proven in test/conformance/)

describe('createA2AHandler: platforms (waitUntil, keep-alive)', () => {
  const sendRequest = (body: unknown) => new Request(`${ORIGIN}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it("registers a non-blocking task's run with a Worker's ctx.waitUntil (third argument, called bound)", async () => {
    const { agent, reached, gate } = gatedAgent((origin) => [chunk(origin, 'checking ')], (origin) => [answer(origin, 'order 42 is in stock')]);
    const handler = handlerFor(agent);
    const registered: Array<Promise<unknown>> = [];
    const ctx = {
      kept: registered,
      waitUntil(this: { kept: Array<Promise<unknown>> }, promise: Promise<unknown>) {
        this.kept.push(promise);
      },
    };
    const response = await handler(sendRequest(rpc('message/send', { message: userMessage(), configuration: { blocking: false } })), {}, ctx);
    const task = ((await response.json()) as JSONObject).result as JSONObject;
    expect(task.status.state).toBe('submitted');
    expect(registered).toHaveLength(1);
    let settled = false;
    void registered[0]?.then(() => (settled = true));
    await within(reached.promise, 5_000, 'the agent start');
    expect(settled).toBe(false); // still running after its response was sent
    gate.resolve();
    await within(registered[0] as Promise<unknown>, 5_000, 'the registered run');
    expect((await waitForState(handler, task.id, 'completed')).artifacts[0].parts).toEqual([{ kind: 'text', text: 'order 42 is in stock' }]);
  });

  it('finds waitUntil on a second-argument context (Vercel/Next.js) and ignores arguments without one', async () => {
    const handler = handlerFor(scripted((origin) => [answer(origin, 'done')]));
    const waitUntil = vi.fn();
    const response = await handler(sendRequest(rpc('message/stream', { message: userMessage() })), { waitUntil });
    expect((await sseResults(response)).at(-1)?.status.state).toBe('completed');
    expect(waitUntil).toHaveBeenCalledTimes(1);
    const plain = await handler(sendRequest(rpc('message/send', { message: userMessage() })), { remoteAddr: { hostname: '127.0.0.1' } }, null, 42);
    expect((((await plain.json()) as JSONObject).result as JSONObject).status.state).toBe('completed');
  });

  it('sends keep-alive comments while a stream waits, and loses no event when one fires', async () => {
    const { agent, reached, gate } = gatedAgent((origin) => [chunk(origin, 'checking ')], (origin) => [chunk(origin, 'stock '), answer(origin, 'order 42 is in stock')]);
    const handler = handlerFor(agent, { keepAliveMs: 15 });
    const response = await post(handler, rpc('message/stream', { message: userMessage() }));
    const reading = response.text(); // a client reading while the agent is quiet
    await within(reached.promise, 5_000, 'the agent start');
    await new Promise((resolve) => setTimeout(resolve, 80));
    gate.resolve();
    const text = await within(reading, 5_000, 'the SSE stream');
    const frames = text.split('\n\n').filter((frame) => frame !== '');
    const comments = frames.filter((frame) => frame === ': keep-alive');
    expect(comments.length).toBeGreaterThanOrEqual(2);
    expect(frames.filter((frame) => frame !== ': keep-alive').every((frame) => frame.startsWith('data: '))).toBe(true);
    const results = frames.filter((frame) => frame.startsWith('data: ')).map((frame) => (JSON.parse(frame.slice(6)) as JSONObject).result as JSONObject);
    const streamed = results.filter((result) => result.kind === 'artifact-update').flatMap((result) => result.artifact.parts.map((part: JSONObject) => part.text));
    expect(streamed.join('')).toBe('checking stock ');
    expect(results.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
  });

  it('keep-alive comments are invisible to our client: it yields only the events', async () => {
    const { agent, reached, gate } = gatedAgent((origin) => [chunk(origin, 'checking ')], (origin) => [answer(origin, 'done')]);
    const handler = handlerFor(agent, { keepAliveMs: 10 });
    const client = createA2AClient({ agentCardUrl: ORIGIN, retry: false, fetch: (input, init) => handler(new Request(input, init)) });
    const events: JSONObject[] = [];
    const consumed = (async () => {
      for await (const event of client.streamMessage('order 42')) events.push(event as JSONObject);
    })();
    await within(reached.promise, 5_000, 'the agent start');
    await new Promise((resolve) => setTimeout(resolve, 60));
    gate.resolve();
    await within(consumed, 5_000, 'the client stream');
    expect(events.map((event) => event.kind)).toEqual(['task', 'artifact-update', 'artifact-update', 'status-update']);
    expect(events.at(-1)).toMatchObject({ final: true, status: { state: 'completed' } });
  });

  it('sends no keep-alive comment with keepAliveMs: false', async () => {
    const { agent, reached, gate } = gatedAgent((origin) => [chunk(origin, 'checking ')], (origin) => [answer(origin, 'done')]);
    const handler = handlerFor(agent, { keepAliveMs: false });
    const response = await post(handler, rpc('message/stream', { message: userMessage() }));
    await within(reached.promise, 5_000, 'the agent start');
    await new Promise((resolve) => setTimeout(resolve, 50));
    gate.resolve();
    expect((await sseResults(response)).at(-1)).toMatchObject({ kind: 'status-update', final: true });
  });

  it.each([0, -5, Number.POSITIVE_INFINITY, '1000', true])('rejects keepAliveMs %s with a ConfigError', (keepAliveMs) => {
    const create = () => handlerFor(scripted(() => []), { keepAliveMs: keepAliveMs as never });
    expect(create).toThrow(ConfigError);
    expect(create).toThrow(/keepAliveMs must be a finite number > 0 or false/);
  });
});
