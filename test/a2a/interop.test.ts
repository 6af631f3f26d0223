/**
 * Interop with the independent implementation @a2a-js/sdk 1.3.0 (express 5), over real loopback HTTP both ways.
 * The SDK speaks A2A 1.0 natively and A2A 0.3 only when opted in (`legacyCompat: {enabled: true}`).
 *
 * | direction                                   | setup                                                   | wire | result |
 * |---------------------------------------------|---------------------------------------------------------|------|--------|
 * | our client (protocolVersion '0.3') → its server | legacyCompat on, card with 0.3 + 1.0 interfaces     | 0.3  | interoperates (failed, canceled, streamed, thrown, not-found) |
 * | our client (no pin) → same                  | legacyCompat on, card with 0.3 + 1.0 interfaces         | 1.0  | picks 1.0 as the SDK's own client does (checked with a streamed run) |
 * | our client/createA2AAgent → its server      | 1.0 only (card has only 1.0 supportedInterfaces)         | 1.0  | interoperates (incl. a non-blocking send: returnImmediately) |
 * | its client → our handler                    | default protocolVersions (0.3 + 1.0), no legacyCompat   | 1.0  | interoperates (incl. a non-blocking send: returnImmediately) |
 * | its client (legacyCompat) → our handler     | protocolVersions ['0.3']                                 | 0.3  | interoperates (incl. non-blocking send) |
 * | its client (legacyCompat) → our handler     | default protocolVersions                                 | 1.0  | the SDK prefers the 1.0 interface; works like row 4 |
 * | its client (no legacyCompat) → our handler  | protocolVersions ['0.3']                                 | —    | no: by design the SDK needs legacyCompat for 0.3. It still picks our 0.3-only interface, sends 1.0 (`SendMessage`) and gets our -32009 as its typed VersionNotSupportedError |
 *
 * A2A 1.0 spells a non-blocking send `configuration: {returnImmediately: true}` (0.3: `blocking: false`); both
 * directions map it (these two tests found that they did not).
 *
 * Metadata: our structured task-error metadata (`error_code`, `error_message`, …, `state_delta`) reaches the SDK's
 * client unchanged in both 1.0 and 0.3 (it is a google.protobuf.Struct there), and the SDK server's status-message
 * metadata reaches ours unchanged too (its update `metadata` is merged into the task's).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TaskState as JsTaskState, type StreamResponse, type Task as JsTask } from '@a2a-js/sdk';
import { TaskNotCancelableError, TaskNotFoundError, VersionNotSupportedError } from '@a2a-js/sdk/errors';
import { createA2AAgent, createA2AClient, createA2AHandler, stateDeltaFromMetadata, textMessage, type A2AStreamEvent, type Task } from '../../src/a2a/index.js';
import { JSONRPCError } from '../../src/errors/index.js';
import { createGraphAgent, ExecutionErrorCollector, executionErrorsFromStateDelta, messagesStateSchema, StateGraph } from '../../src/graph/index.js';
import { createEvent, isTerminalError, type RunEvent, type RunnableAgent } from '../../src/runner/index.js';
import { a2aJsText, a2aJsUserMessage, createA2AJsClient, serveHandler, type ServedHandler } from '../helpers/a2a-js-client.js';
import { A2A_JS_FAILURE, a2aJsEcho, startA2AJsServer, type A2AJsServer } from '../helpers/a2a-js-server.js';
import { fatalWriteGraph } from '../helpers/graphs.js';

// ---------------------------------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------------------------------

/** What our client put on the wire: JSON-RPC method, `A2A-Version` header and params of each POST. */
interface Sent {
  method: string;
  version: string | null;
  params: Record<string, unknown>;
}

function recordingFetch(sent: Sent[]): typeof fetch {
  return async (input, init) => {
    if (init?.method === 'POST' && typeof init.body === 'string') {
      const body = JSON.parse(init.body) as { method: string; params: Record<string, unknown> };
      sent.push({ method: body.method, version: new Headers(init.headers).get('a2a-version'), params: body.params });
    }
    return fetch(input, init);
  };
}

async function runAgent(agent: RunnableAgent, text: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  const invocation = { invocationId: 'inv-1', appName: 'interop', userId: 'u1', sessionId: 's1', message: { role: 'user' as const, content: text }, history: [], signal: AbortSignal.timeout(5_000) };
  for await (const event of agent.runEvents(invocation)) events.push(event);
  return events;
}

async function collect(stream: AsyncIterable<A2AStreamEvent>): Promise<A2AStreamEvent[]> {
  const events: A2AStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const shape = (event: A2AStreamEvent) => (event.kind === 'task' || event.kind === 'status-update' ? `${event.kind}:${event.status.state}` : event.kind);
const taskIdOf = (event: A2AStreamEvent | undefined) => (event?.kind === 'task' ? event.id : event?.taskId);

const WRITE_FAILURE = 'node write failed at step 0: database write failed';

function fatalGraphAgent() {
  return createGraphAgent('inventory', fatalWriteGraph());
}

const greeting = (text: string) => `hello from faultline: ${text}`;

/** Answers with one done `chat.completion`, after `delayMs` (or as soon as the run is cancelled). */
function textAgent(delayMs = 0): RunnableAgent {
  return {
    name: 'greeter',
    async *runEvents(invocation) {
      if (delayMs > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delayMs);
          invocation.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
        });
      }
      yield createEvent(
        { invocationId: invocation.invocationId, author: 'greeter' },
        { response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: greeting(invocation.message?.content ?? '') } }] } },
      );
    },
  };
}

const V03 = { send: 'message/send', stream: 'message/stream', get: 'tasks/get', cancel: 'tasks/cancel' };
const V10 = { send: 'SendMessage', stream: 'SendStreamingMessage', get: 'GetTask', cancel: 'CancelTask' };

// ---------------------------------------------------------------------------------------------------------------
// 1. our client → @a2a-js/sdk 1.3.0 server
// ---------------------------------------------------------------------------------------------------------------

describe.each([
  { setup: "legacyCompat on, card with a 0.3 interface, our client pinned to '0.3'", legacy: true, version: '0.3' as const, methods: V03 },
  { setup: '1.0 only', legacy: false, version: '1.0' as const, methods: V10 },
])('our client → @a2a-js/sdk 1.3.0 server ($setup): A2A $version', ({ legacy, version, methods }) => {
  let server: A2AJsServer;
  beforeAll(async () => {
    server = await startA2AJsServer({ legacy });
  });
  afterAll(async () => server.close());

  const pin = legacy ? { protocolVersion: version } : {};
  const client = (sent: Sent[] = []) => createA2AClient({ agentCardUrl: server.url, ...pin, fetch: recordingFetch(sent), retry: false, timeoutMs: 5_000 });

  it(`picks A2A ${version} from the card and speaks it`, async () => {
    const sent: Sent[] = [];
    const ours = client(sent);
    const card = await ours.getAgentCard();
    expect(card?.name).toBe('a2a-js interop agent');
    if (legacy) expect(card).toMatchObject({ url: server.rpcUrl, protocolVersion: '0.3' }); // its translated 0.3 card
    else expect(card?.url).toBeUndefined(); // only supportedInterfaces
    expect((await ours.sendMessage('stream')).kind).toBe('task');
    expect(sent).toEqual([expect.objectContaining({ method: methods.send, version })]);
  });

  if (legacy) {
    it("without a pin our client picks the card's 1.0 interface, as the SDK's own client does", async () => {
      const sent: Sent[] = [];
      const events = await collect(createA2AClient({ agentCardUrl: server.url, fetch: recordingFetch(sent), retry: false }).streamMessage('stream'));
      expect(sent).toEqual([expect.objectContaining({ method: V10.stream, version: '1.0' })]);
      expect(events.map(shape)).toEqual(['task:submitted', 'status-update:working', 'artifact-update', 'status-update:completed']);
    });
  }

  it('a failing executor: unary sendMessage returns the failed task with its message and metadata', async () => {
    const result = await client().sendMessage('fail');
    expect(result.kind).toBe('task');
    const task = result as Task;
    expect(task.status.state).toBe('failed');
    expect(task.status.message?.parts).toEqual([{ kind: 'text', text: A2A_JS_FAILURE.text }]);
    expect(task.status.message?.metadata).toEqual(A2A_JS_FAILURE.messageMetadata);
    expect(task.metadata).toEqual(A2A_JS_FAILURE.taskMetadata);
    expect(task.history?.map((message) => message.role)).toEqual(['user', 'agent']);
  });

  it('a failing executor: createA2AAgent yields one terminal error with the remote message and code', async () => {
    const events = await runAgent(createA2AAgent({ agentCardUrl: server.url, ...pin, retry: false }), 'fail');
    const last = events.at(-1);
    expect(isTerminalError(last)).toBe(true);
    expect(events.filter(isTerminalError)).toHaveLength(1);
    expect(last?.response?.error).toEqual({ type: 'tool_error', message: A2A_JS_FAILURE.text, code: 'TOOL_FAILED' });
    expect(last?.author).toBe('a2a-js interop agent');
  });

  it('a canceled task: a non-blocking send, then our cancelTask → canceled', async () => {
    const sent: Sent[] = [];
    const ours = client(sent);
    const started = await ours.sendMessage({ message: textMessage('cancel'), configuration: { blocking: false } }, { signal: AbortSignal.timeout(1_500) });
    expect(started.kind).toBe('task');
    const id = (started as Task).id;
    expect(['submitted', 'working']).toContain((started as Task).status.state);
    const canceled = await ours.cancelTask({ id });
    expect(canceled.status.state).toBe('canceled');
    expect(canceled.status.message?.parts).toEqual([{ kind: 'text', text: 'canceled by request' }]);
    expect(server.executor.cancelRequests).toContain(id);
    expect((await ours.getTask({ id })).status.state).toBe('canceled');
    expect(sent.map((call) => call.method)).toEqual([methods.send, methods.cancel, methods.get]);
  });

  it('a canceled task: a streamed send, then our cancelTask → canceled, and the stream ends with it', async () => {
    const sent: Sent[] = [];
    const ours = client(sent);
    const iterator = ours.streamMessage('cancel')[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    const id = taskIdOf(first.value as A2AStreamEvent) as string;
    const rest: A2AStreamEvent[] = [];
    const draining = (async () => {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);
    })();
    const canceled = await ours.cancelTask({ id });
    await draining;
    expect(canceled).toMatchObject({ kind: 'task', id, status: { state: 'canceled' } });
    expect([first.value as A2AStreamEvent, ...rest].map(shape)).toEqual(['task:submitted', 'status-update:working', 'status-update:canceled']);
    expect(rest.at(-1)?.kind === 'status-update' && rest.at(-1)).toMatchObject({ final: true, taskId: id });
    expect(sent.map((call) => call.method)).toEqual([methods.stream, methods.cancel]);
  });

  it('a completed task whose status message repeats the artifact: unary and streamed runs give the answer once, the same', async () => {
    const answers: string[] = [];
    for (const streaming of [false, true]) {
      const events = await runAgent(createA2AAgent({ agentCardUrl: server.url, ...pin, retry: false, streaming }), 'answer');
      const done = events.filter((event) => event.response?.done === true && event.response.object === 'chat.completion');
      expect(done, `streaming: ${streaming}`).toHaveLength(1);
      answers.push(done[0]?.response?.choices?.[0]?.message?.content ?? '');
    }
    expect(answers).toEqual([a2aJsEcho('answer'), a2aJsEcho('answer')]);
  });

  it.each([false, true, undefined])('authors its events with the card name when streaming is %s', async (streaming) => {
    const events = await runAgent(createA2AAgent({ agentCardUrl: server.url, ...pin, retry: false, ...(streaming === undefined ? {} : { streaming }) }), 'answer');
    expect(new Set(events.map((event) => event.author))).toEqual(new Set(['a2a-js interop agent']));
  });

  it('a streaming run: streamMessage delivers submitted, working, the artifact and completed, in order', async () => {
    const sent: Sent[] = [];
    const events = await collect(client(sent).streamMessage('stream'));
    expect(sent.map((call) => call.method)).toEqual([methods.stream]);
    expect(events.map(shape)).toEqual(['task:submitted', 'status-update:working', 'artifact-update', 'status-update:completed']);
    const artifact = events[2];
    expect(artifact?.kind === 'artifact-update' && artifact).toMatchObject({ lastChunk: true, artifact: { artifactId: 'art-1', name: 'result', parts: [{ kind: 'text', text: a2aJsEcho('stream') }] } });
    expect(events.map((event) => (event.kind === 'status-update' ? event.final : undefined))).toEqual([undefined, false, undefined, true]);
    expect(new Set(events.map(taskIdOf)).size).toBe(1);
  });

  it('a streaming run: createA2AAgent yields the artifact text and a final done answer', async () => {
    const events = await runAgent(createA2AAgent({ agentCardUrl: server.url, ...pin, retry: false }), 'stream');
    expect(events.some(isTerminalError)).toBe(false);
    const deltas = events.filter((event) => event.response?.partial).map((event) => event.response?.choices?.[0]?.delta?.content);
    expect(deltas).toEqual([a2aJsEcho('stream')]);
    expect(events.at(-1)?.response).toMatchObject({ object: 'chat.completion', done: true, choices: [{ message: { role: 'assistant', content: a2aJsEcho('stream') } }] });
  });

  it('an executor that throws: a failed task (the SDK synthesizes its message)', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const result = await client().sendMessage('throw');
    expect(result.kind).toBe('task');
    const task = result as Task;
    expect(task.status.state).toBe('failed');
    expect(task.status.message?.parts).toEqual([expect.objectContaining({ kind: 'text', text: 'Agent execution error: boom: executor threw' })]);
    expect(task.history?.[0]?.taskId).toBe(task.id);
    expect(errors).toHaveBeenCalled(); // the SDK logs the executor's error
  });

  it('getTask of an unknown id: JSONRPCError -32001', async () => {
    const sent: Sent[] = [];
    const error = await client(sent)
      .getTask({ id: 'no-such-task' })
      .catch((caught: unknown) => caught);
    expect(JSONRPCError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ rpcCode: -32001, method: methods.get });
    expect((error as JSONRPCError).message).toContain('no-such-task');
    expect(sent).toHaveLength(1); // a JSON-RPC error is not retried
  });
});

// ---------------------------------------------------------------------------------------------------------------
// 2. @a2a-js/sdk 1.3.0 client → our handler
// ---------------------------------------------------------------------------------------------------------------

describe.each([
  { setup: 'default protocolVersions, its client without legacyCompat', protocolVersions: undefined, legacy: false, version: '1.0', methods: V10 },
  { setup: "protocolVersions ['0.3'], its client with legacyCompat", protocolVersions: ['0.3' as const], legacy: true, version: '0.3', methods: V03 },
])('@a2a-js/sdk 1.3.0 client → our handler ($setup): A2A $version', ({ protocolVersions, legacy, version, methods }) => {
  let failing: ServedHandler;
  let answering: ServedHandler;
  let slow: ServedHandler;
  beforeAll(async () => {
    failing = await serveHandler(createA2AHandler({ agent: fatalGraphAgent(), card: { name: 'inventory' }, protocolVersions }), { port: 0 });
    answering = await serveHandler(createA2AHandler({ agent: textAgent(), card: { name: 'greeter' }, protocolVersions }), { port: 0 });
    slow = await serveHandler(createA2AHandler({ agent: textAgent(1_500), card: { name: 'slow greeter' }, protocolVersions }), { port: 0 });
  });
  afterAll(async () => {
    await Promise.all([failing.close(), answering.close(), slow.close()]);
  });

  const send = (text: string) => ({ message: a2aJsUserMessage(text) }) as never; // ts-proto makes tenant/configuration/metadata required

  it(`speaks A2A ${version}`, async () => {
    const { client, exchanges } = await createA2AJsClient(answering.url, { legacy });
    expect(client.protocolVersion).toBe(version);
    await client.sendMessage(send('hi'));
    expect(exchanges.map((exchange) => exchange.method)).toEqual(['GET', 'POST']);
    expect(exchanges[0]?.url).toBe(`${answering.url}/.well-known/agent-card.json`);
    expect((exchanges[1]?.body as { method: string }).method).toBe(methods.send);
    expect(exchanges[1]?.headers['a2a-version']).toBe(version);
  });

  it('sendMessage: a FAILED task whose status message is the error and whose metadata carries error_code', async () => {
    const { client } = await createA2AJsClient(failing.url, { legacy });
    const result = await client.sendMessage(send('write order 42'));
    expect('status' in result).toBe(true);
    const task = result as JsTask;
    expect(task.status?.state).toBe(JsTaskState.TASK_STATE_FAILED);
    expect(a2aJsText(task.status?.message?.parts)).toBe(WRITE_FAILURE);
    const errorFields = { object_type: 'error', error_type: 'flow_error', error_message: WRITE_FAILURE, error_code: 'WRITE_FATAL', task_state: 'failed', llm_response_id: expect.any(String) };
    expect(task.status?.message?.metadata).toEqual(errorFields);
    expect(task.metadata).toEqual({ ...errorFields, state_delta: expect.any(Object) });
    // the state_delta envelope survives the SDK's Struct round trip: our collector's record decodes from it
    const records = executionErrorsFromStateDelta(stateDeltaFromMetadata(task.metadata as Record<string, unknown>));
    expect(records?.map((record) => [record.severity, record.nodeId, record.error?.code])).toEqual([['fatal', 'write', 'WRITE_FATAL']]);
    expect(task.history.map((message) => message.role)).toEqual([1, 2]); // ROLE_USER, ROLE_AGENT
  });

  it('sendMessageStream: the task, then a FAILED status update, then the end', async () => {
    const { client } = await createA2AJsClient(failing.url, { legacy });
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(send('write order 42'))) events.push(event);
    expect(events.map((event) => event.payload?.$case)).toEqual(['task', 'statusUpdate']);
    const [first, second] = events.map((event) => event.payload);
    expect(first?.$case === 'task' && first.value.status?.state).toBe(JsTaskState.TASK_STATE_SUBMITTED);
    if (second?.$case !== 'statusUpdate') throw new Error('expected a status update');
    expect(second.value.taskId).toBe(first?.$case === 'task' ? first.value.id : undefined);
    expect(second.value.status?.state).toBe(JsTaskState.TASK_STATE_FAILED);
    expect(a2aJsText(second.value.status?.message?.parts)).toBe(WRITE_FAILURE);
    expect(second.value.metadata).toMatchObject({ error_code: 'WRITE_FATAL', error_message: WRITE_FAILURE });
  });

  it('a successful run completes with the answer in an artifact (unary and streamed)', async () => {
    const { client } = await createA2AJsClient(answering.url, { legacy });
    const task = (await client.sendMessage(send('hi'))) as JsTask;
    expect(task.status?.state).toBe(JsTaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts.map((artifact) => a2aJsText(artifact.parts))).toEqual([greeting('hi')]);
    expect(a2aJsText(task.status?.message?.parts)).toBe(greeting('hi'));

    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(send('again'))) events.push(event);
    expect(events.map((event) => event.payload?.$case)).toEqual(['task', 'artifactUpdate', 'statusUpdate']);
    const [, artifact, status] = events.map((event) => event.payload);
    expect(artifact?.$case === 'artifactUpdate' && [a2aJsText(artifact.value.artifact?.parts), artifact.value.lastChunk]).toEqual([greeting('again'), true]);
    expect(status?.$case === 'statusUpdate' && status.value.status?.state).toBe(JsTaskState.TASK_STATE_COMPLETED);
  });

  it('getTask/cancelTask: known ids work, unknown ids throw its typed task-not-found error', async () => {
    const { client } = await createA2AJsClient(answering.url, { legacy });
    const done = (await client.sendMessage(send('hi'))) as JsTask;
    const fetched = await client.getTask({ id: done.id, tenant: '', historyLength: 1 });
    expect([fetched.id, fetched.status?.state, fetched.history.length]).toEqual([done.id, JsTaskState.TASK_STATE_COMPLETED, 1]);
    const notCancelable = await client.cancelTask({ id: done.id, tenant: '', metadata: undefined }).catch((caught: unknown) => caught);
    expect(notCancelable).toBeInstanceOf(TaskNotCancelableError);
    expect(notCancelable).toMatchObject({ envelopeCode: -32002 });

    for (const call of [() => client.getTask({ id: 'no-such-task', tenant: '' }), () => client.cancelTask({ id: 'no-such-task', tenant: '', metadata: undefined })]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TaskNotFoundError);
      expect(error).toMatchObject({ envelopeCode: -32001, reason: 'TASK_NOT_FOUND', transport: 'jsonrpc', message: 'Task not found: no-such-task' });
    }
  });

  it('a non-blocking send (returnImmediately) returns the task before it ends', async () => {
    const { client, exchanges } = await createA2AJsClient(slow.url, { legacy });
    const request = { message: a2aJsUserMessage('hi'), configuration: { returnImmediately: true, acceptedOutputModes: [], taskPushNotificationConfig: undefined } };
    const started = (await client.sendMessage(request as never, { signal: AbortSignal.timeout(750) })) as JsTask;
    expect([JsTaskState.TASK_STATE_SUBMITTED, JsTaskState.TASK_STATE_WORKING]).toContain(started.status?.state);
    expect((exchanges[1]?.body as { params: { configuration: unknown } }).params.configuration).toMatchObject(legacy ? { blocking: false } : { returnImmediately: true });
    const canceled = await client.cancelTask({ id: started.id, tenant: '', metadata: undefined });
    expect(canceled.status?.state).toBe(JsTaskState.TASK_STATE_CANCELED);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// 3. version negotiation across the two implementations
// ---------------------------------------------------------------------------------------------------------------

describe('@a2a-js/sdk 1.3.0 client → our handler: version negotiation', () => {
  let both: ServedHandler;
  let only03: ServedHandler;
  beforeAll(async () => {
    both = await serveHandler(createA2AHandler({ agent: textAgent(), card: { name: 'greeter' } }), { port: 0 });
    only03 = await serveHandler(createA2AHandler({ agent: textAgent(), card: { name: 'greeter' }, protocolVersions: ['0.3'] }), { port: 0 });
  });
  afterAll(async () => {
    await Promise.all([both.close(), only03.close()]);
  });

  it('with legacyCompat against our 0.3 + 1.0 card it prefers 1.0', async () => {
    const { client, exchanges } = await createA2AJsClient(both.url, { legacy: true });
    expect(client.protocolVersion).toBe('1.0');
    const task = (await client.sendMessage({ message: a2aJsUserMessage('hi') } as never)) as JsTask;
    expect(task.status?.state).toBe(JsTaskState.TASK_STATE_COMPLETED);
    expect((exchanges[1]?.body as { method: string }).method).toBe('SendMessage');
  });

  it('without legacyCompat against our 0.3-only handler it sends 1.0 anyway and gets our -32009 as VersionNotSupportedError', async () => {
    const { client, exchanges } = await createA2AJsClient(only03.url, { legacy: false });
    const error = await client.sendMessage({ message: a2aJsUserMessage('hi') } as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VersionNotSupportedError);
    expect(error).toMatchObject({ envelopeCode: -32009 });
    expect(exchanges[1]?.headers['a2a-version']).toBe('1.0');
  });
});
