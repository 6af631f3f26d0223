// Decoding A2A results and stream events into runner events: seed-systems.md §5 (tRPC-Agent-Go's a2aagent
// converter) and its scenarios 68–85 (§8.9), with decisions.md point 8 where we deliberately differ:
// `status.message.metadata` IS read (per key, after the outer metadata) and a numeric `error_code` is accepted and
// stringified. Scenarios 78–79 run through createA2AAgent and live in a2a-agent.test.ts.
import { describe, expect, it } from 'vitest';
import {
  base64ToText,
  buildTaskErrorMessage,
  buildTaskErrorMetadata,
  createA2AAgent,
  defaultA2AEventConverter,
  errorMetadata,
  partsText,
  responseErrorFromMetadata,
  stateDeltaFromMetadata,
  statusResponseError,
  type A2AClient,
  type A2AConverterContext,
  type A2AEventStream,
  type A2AMessage,
  type A2AMetadata,
  type A2AStreamEvent,
  type Task,
  type TaskArtifactUpdateEvent,
  type TaskStatus,
  type TaskStatusUpdateEvent,
} from '../../src/a2a/index.js';
import { A2ATransportError, type ResponseError } from '../../src/errors/index.js';
import { createEvent, isErrorEvent, isTerminalError, type RunEvent } from '../../src/runner/index.js';

// ---------------------------------------------------------------------------------------------------------------
// Builders: A2A 0.3 JSON as a tRPC-Agent-Go peer sends it (seed-systems §4.2–4.5, §7.2)

const context: A2AConverterContext = { invocationId: 'inv-1', author: 'remote' };

/** tRPC's structured task-error metadata for "task failed" / A2A_500 (seed-systems §8.9 scenario 68). */
const FAILURE_METADATA: A2AMetadata = { object_type: 'error', error_type: 'flow_error', error_message: 'task failed', error_code: 'A2A_500' };

function agentMessage(text: string | undefined, fields: Partial<A2AMessage> = {}): A2AMessage {
  return { kind: 'message', messageId: 'msg-1', role: 'agent', parts: text === undefined ? [] : [{ kind: 'text', text }], ...fields };
}

function statusUpdate(state: string, fields: { final?: boolean; metadata?: A2AMetadata; message?: A2AMessage } = {}): TaskStatusUpdateEvent {
  const status: TaskStatus = { state, timestamp: '2025-06-01T12:00:00Z', ...(fields.message ? { message: fields.message } : {}) };
  return { kind: 'status-update', taskId: 'task-1', contextId: 'ctx-1', status, final: fields.final ?? false, ...(fields.metadata ? { metadata: fields.metadata } : {}) };
}

function artifactUpdate(text: string, fields: { artifactId?: string; lastChunk?: boolean; metadata?: A2AMetadata; artifactMetadata?: A2AMetadata } = {}): TaskArtifactUpdateEvent {
  return {
    kind: 'artifact-update',
    taskId: 'task-1',
    contextId: 'ctx-1',
    artifact: { artifactId: fields.artifactId ?? 'artifact-1', parts: text === '' ? [] : [{ kind: 'text', text }], ...(fields.artifactMetadata ? { metadata: fields.artifactMetadata } : {}) },
    ...(fields.lastChunk !== undefined ? { lastChunk: fields.lastChunk } : {}),
    ...(fields.metadata ? { metadata: fields.metadata } : {}),
  };
}

function task(state: string, fields: Partial<Omit<Task, 'status'>> & { message?: A2AMessage } = {}): Task {
  const { message, ...rest } = fields;
  return { kind: 'task', id: 'task-1', contextId: 'ctx-1', status: { state, ...(message ? { message } : {}) }, ...rest };
}

/** base64 of the UTF-8 bytes of `text`, as tRPC's `EncodeStateDeltaMetadata` writes a JSON value. */
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

const stream = (event: A2AStreamEvent, extra: Partial<A2AConverterContext> = {}) => defaultA2AEventConverter.convertStreamEvent(event, { ...context, ...extra });

/** The only event of `events` (fails if there is not exactly one). */
function only(events: RunEvent[]): RunEvent {
  expect(events).toHaveLength(1);
  return events[0] as RunEvent;
}

/** The stable fields of an event (no generated id or timestamp). */
function shape(event: RunEvent) {
  const { id: _id, timestamp: _timestamp, ...rest } = event;
  const { created: _created, ...response } = rest.response ?? { object: '', done: false };
  return rest.response ? { ...rest, response } : rest;
}

// ---------------------------------------------------------------------------------------------------------------

describe('defaultA2AEventConverter.convertStreamEvent: failures and structured errors', () => {
  it('turns a failed status-update with outer metadata into exactly one terminal error event carrying the code (scenario 68)', () => {
    const event = only(stream(statusUpdate('failed', { final: true, metadata: FAILURE_METADATA })));
    expect(shape(event)).toEqual({
      invocationId: 'inv-1',
      author: 'remote',
      response: { object: 'error', done: true, error: { type: 'flow_error', message: 'task failed', code: 'A2A_500' } },
    });
    expect(isTerminalError(event)).toBe(true);
    expect(event.id).toMatch(/^event-/);
    expect(typeof event.response?.created).toBe('number');
  });

  it('turns a streamed Message with only error_code into a non-terminal chat.completion error whose message is the text (scenario 69)', () => {
    const message = agentMessage("Tool 'upload_to_cos' not found", { messageId: 'msg-structured-error', metadata: { error_code: 'tool_not_found' } });
    const event = only(stream(message));
    expect(event.response).toEqual({
      id: 'msg-structured-error',
      object: 'chat.completion',
      done: false,
      partial: false,
      error: { type: 'flow_error', message: "Tool 'upload_to_cos' not found", code: 'tool_not_found' },
      choices: [{ index: 0, message: { role: 'assistant', content: "Tool 'upload_to_cos' not found" } }],
    });
    expect(isErrorEvent(event)).toBe(true);
    expect(isTerminalError(event)).toBe(false);
  });

  it('keeps a non-error object_type of the metadata as the object of a recoverable error', () => {
    const event = only(stream(agentMessage('retrying', { metadata: { object_type: 'tool.response', error_code: 'SOFT' } })));
    expect(event.response?.object).toBe('tool.response');
    expect(event.response?.done).toBe(false);
    expect(event.response?.error).toEqual({ type: 'flow_error', message: 'retrying', code: 'SOFT' });
  });

  it('makes a completed final status-update with error metadata a terminal error event (scenario 70)', () => {
    const event = only(stream(statusUpdate('completed', { final: true, metadata: FAILURE_METADATA })));
    expect(event.response).toMatchObject({ object: 'error', done: true, error: { type: 'flow_error', message: 'task failed', code: 'A2A_500' } });
    expect(isTerminalError(event)).toBe(true);
  });

  it('makes a non-final working status-update with error metadata a non-terminal error, its content the error message', () => {
    const event = only(stream(statusUpdate('working', { metadata: { error_code: 'SLOW', error_message: 'upstream is slow' } })));
    expect(event.response).toMatchObject({
      object: 'chat.completion',
      done: false,
      partial: false,
      error: { type: 'flow_error', message: 'upstream is slow', code: 'SLOW' },
      choices: [{ index: 0, message: { role: 'assistant', content: 'upstream is slow' } }],
    });
    expect(isTerminalError(event)).toBe(false);
  });

  it('makes a lastChunk artifact-update with error metadata a terminal error whose response id is the artifact id (scenario 71)', () => {
    const event = only(stream(artifactUpdate('', { artifactId: 'artifact-error', lastChunk: true, metadata: FAILURE_METADATA })));
    expect(event.response).toMatchObject({ id: 'artifact-error', object: 'error', done: true, error: { code: 'A2A_500', message: 'task failed' } });
    expect(isTerminalError(event)).toBe(true);
  });

  it('prefers llm_response_id over the artifact id for a lastChunk artifact-update with error metadata (§5.4)', () => {
    const event = only(stream(artifactUpdate('', { artifactId: 'artifact-final', lastChunk: true, metadata: { ...FAILURE_METADATA, llm_response_id: 'resp-42' } })));
    expect(event.response).toMatchObject({ id: 'resp-42', object: 'error', done: true });
  });

  it('makes a non-final artifact-update with error metadata a recoverable error, reading artifact.metadata after the event metadata', () => {
    const event = only(
      stream(artifactUpdate('partial result', { artifactId: 'artifact-2', metadata: { error_code: 'OUTER' }, artifactMetadata: { error_code: 'INNER', error_param: 'sku' } })),
    );
    expect(event.response).toMatchObject({ id: 'artifact-2', object: 'chat.completion', done: false, error: { type: 'flow_error', message: 'partial result', code: 'OUTER', param: 'sku' } });
  });

  it.each([
    ['failed', 'remote task failed'],
    ['rejected', 'remote task rejected'],
    ['canceled', 'remote task canceled'],
  ])('gives a %s status-update without text or metadata the default message %j and type flow_error (scenario 74)', (state, message) => {
    const event = only(stream(statusUpdate(state, { final: true })));
    expect(event.response?.error).toEqual({ type: 'flow_error', message });
    expect(event.response?.object).toBe('error');
    expect(event.response?.done).toBe(true);
  });

  it('reads status.message.metadata when the outer metadata is absent (scenario 82: OUR outcome, decisions.md point 8)', () => {
    // tRPC's v0 client ignores status.message.metadata and would give {flow_error, "t"} without a code; we read it.
    const message = agentMessage('t', { messageId: 'resp-7', metadata: { error_code: 'X' } });
    const event = only(stream(statusUpdate('failed', { final: true, message })));
    expect(event.response).toMatchObject({ id: 'resp-7', object: 'error', done: true, error: { type: 'flow_error', message: 't', code: 'X' } });
  });

  it('reads the keys per key: the outer metadata wins, status.message.metadata fills the gaps, the parts give the message (scenario 83)', () => {
    const message = agentMessage('display text', { metadata: { error_code: 'INNER', error_type: 'inner_type', error_param: 'order_id' } });
    const event = only(stream(statusUpdate('failed', { final: true, message, metadata: { error_code: 'OUTER', task_state: 'completed' } })));
    // task_state in the metadata never overrides the actual status.state: the task failed, so this is an error.
    expect(event.response?.error).toEqual({ type: 'inner_type', message: 'display text', code: 'OUTER', param: 'order_id' });
    expect(isTerminalError(event)).toBe(true);
  });

  it('prefers the outer llm_response_id, then the status message metadata, then the message id as the response id', () => {
    const message = agentMessage('x', { messageId: 'msg-9', metadata: { llm_response_id: 'resp-inner' } });
    expect(only(stream(statusUpdate('failed', { final: true, message, metadata: { llm_response_id: 'resp-outer' } }))).response?.id).toBe('resp-outer');
    expect(only(stream(statusUpdate('failed', { final: true, message }))).response?.id).toBe('resp-inner');
    expect(only(stream(statusUpdate('failed', { final: true, message: agentMessage('x', { messageId: 'msg-9' }) }))).response?.id).toBe('msg-9');
  });

  it('takes the message of a failed task snapshot from its status message text (scenario 84)', () => {
    const event = only(stream(task('failed', { message: agentMessage('failed details') })));
    expect(event.response).toMatchObject({ object: 'error', done: true, error: { type: 'flow_error', message: 'failed details' } });
  });

  it('streams the status message text of a completed task snapshot as a content delta (scenario 84)', () => {
    const event = only(stream(task('completed', { message: agentMessage('completed details', { messageId: 'msg-done' }) })));
    expect(event.response).toEqual({ id: 'msg-done', object: 'chat.completion.chunk', done: false, partial: true, choices: [{ index: 0, delta: { content: 'completed details' } }] });
  });

  it('stringifies a numeric error_code (scenario 85: OUR outcome, decisions.md point 8 — tRPC drops it)', () => {
    const event = only(stream(statusUpdate('failed', { final: true, metadata: { error_code: 500 } })));
    expect(event.response?.error).toEqual({ type: 'flow_error', message: 'remote task failed', code: '500' });
  });

  it('never reads text of an error response as content: it is not a partial delta (scenario 81)', () => {
    const event = only(stream(agentMessage('tool failed', { metadata: { error_code: 'E' } })));
    expect(event.response?.partial).toBe(false);
    expect(event.response?.choices?.[0]?.delta).toBeUndefined();
  });
});

describe('defaultA2AEventConverter.convertStreamEvent: control signals and content', () => {
  it.each(['submitted', 'working', 'input-required', 'auth-required', 'completed'])('drops a %s status-update without error metadata', (state) => {
    expect(stream(statusUpdate(state, { final: state === 'completed', message: agentMessage('status text') }))).toEqual([]);
  });

  it('turns a Message with text into one partial chat.completion.chunk with the message id', () => {
    const event = only(stream(agentMessage('Hello', { messageId: 'msg-hello' })));
    expect(shape(event)).toEqual({
      invocationId: 'inv-1',
      author: 'remote',
      response: { id: 'msg-hello', object: 'chat.completion.chunk', done: false, partial: true, choices: [{ index: 0, delta: { content: 'Hello' } }] },
    });
  });

  it('joins the text parts only, skipping data and file parts', () => {
    const message = agentMessage(undefined, {
      parts: [
        { kind: 'text', text: 'a' },
        { kind: 'data', data: { x: 1 } },
        { kind: 'file', file: { uri: 'https://files.example/b.png' } },
        { kind: 'text', text: 'b' },
      ],
    });
    expect(partsText(message.parts)).toBe('ab');
    expect(only(stream(message)).response?.choices?.[0]?.delta?.content).toBe('ab');
  });

  it('drops a Message without text and without error metadata', () => {
    expect(stream(agentMessage(undefined, { parts: [{ kind: 'data', data: { x: 1 } }] }))).toEqual([]);
  });

  it('turns a non-final artifact-update with text into a partial delta whose id is the artifact id', () => {
    const event = only(stream(artifactUpdate('chunk one', { artifactId: 'artifact-7' })));
    expect(event.response).toEqual({ id: 'artifact-7', object: 'chat.completion.chunk', done: false, partial: true, choices: [{ index: 0, delta: { content: 'chunk one' } }] });
  });

  it('treats a lastChunk artifact with text as content when no deltas were streamed for it (a whole answer, as @a2a-js/sdk sends it)', () => {
    const event = only(stream(artifactUpdate('whole answer', { artifactId: 'artifact-1', lastChunk: true }), { hasStreamed: () => false }));
    expect(event.response).toEqual({ id: 'artifact-1', object: 'chat.completion.chunk', done: false, partial: true, choices: [{ index: 0, delta: { content: 'whole answer' } }] });
    // Without a hasStreamed callback nothing was streamed either.
    expect(only(stream(artifactUpdate('whole answer', { lastChunk: true }))).response?.choices?.[0]?.delta?.content).toBe('whole answer');
  });

  it('drops a lastChunk artifact with text as an aggregate when deltas were streamed for that artifact', () => {
    const asked: string[] = [];
    const events = stream(artifactUpdate('Hello world', { artifactId: 'artifact-1', lastChunk: true }), {
      hasStreamed: (artifactId) => {
        asked.push(artifactId);
        return artifactId === 'artifact-1';
      },
    });
    expect(events).toEqual([]);
    expect(asked).toEqual(['artifact-1']);
  });

  it('drops an empty lastChunk artifact without metadata', () => {
    expect(stream(artifactUpdate('', { lastChunk: true }))).toEqual([]);
  });

  it('splits a completed task snapshot into one delta per artifact text; the status text, which repeats the answer, is not added', () => {
    const snapshot = task('completed', {
      artifacts: [
        { artifactId: 'a1', parts: [{ kind: 'text', text: 'first' }] },
        { artifactId: 'a2', parts: [] },
        { artifactId: 'a3', parts: [{ kind: 'text', text: 'second' }] },
      ],
      message: agentMessage('status'),
    });
    expect(stream(snapshot).map((event) => event.response?.choices?.[0]?.delta?.content)).toEqual(['first', 'second']);
  });

  it('reads the status text of a completed task snapshot without artifact text', () => {
    const snapshot = task('completed', { artifacts: [{ artifactId: 'a1', parts: [] }], message: agentMessage('status') });
    expect(stream(snapshot).map((event) => event.response?.choices?.[0]?.delta?.content)).toEqual(['status']);
  });

  it('drops a working task snapshot without text', () => {
    expect(stream(task('working'))).toEqual([]);
  });
});

describe('defaultA2AEventConverter: the state_delta envelope', () => {
  const envelope = {
    state_delta: {
      execution_errors: { encoding: 'bytes', payload: base64('[{"severity":"fatal","nodeId":"write"}]') },
      note: { encoding: 'bytes', payload: base64('"café 🎉"') },
      cleared: { encoding: 'nil' },
    },
  };
  const decoded = { execution_errors: '[{"severity":"fatal","nodeId":"write"}]', note: '"café 🎉"', cleared: null };

  it('decodes base64 UTF-8 JSON payloads and {encoding: nil} as null', () => {
    expect(stateDeltaFromMetadata(envelope)).toEqual(decoded);
  });

  it('skips entries that are not valid base64 or UTF-8, or have an unknown encoding, and gives undefined when nothing is left', () => {
    expect(stateDeltaFromMetadata({ state_delta: { bad: { encoding: 'bytes', payload: '%%%' }, latin: { encoding: 'bytes', payload: '/w==' }, odd: { encoding: 'gzip', payload: 'eA==' } } })).toBeUndefined();
    expect(stateDeltaFromMetadata({ state_delta: { ok: { encoding: 'bytes', payload: base64('1') }, bad: { encoding: 'bytes', payload: '%%%' } } })).toEqual({ ok: '1' });
    expect(stateDeltaFromMetadata(undefined)).toBeUndefined();
    expect(stateDeltaFromMetadata({ state_delta: 'not an object' })).toBeUndefined();
  });

  it('decodes base64 without Buffer, refusing invalid UTF-8', () => {
    expect(base64ToText('aGk=')).toBe('hi');
    expect(base64ToText(base64('naïve 🎉'))).toBe('naïve 🎉');
    expect(base64ToText('/w==')).toBeUndefined();
  });

  it('puts the envelope of a failed status-update on the terminal error event as its stateDelta', () => {
    const event = only(stream(statusUpdate('failed', { final: true, metadata: { ...FAILURE_METADATA, ...envelope } })));
    expect(event.stateDelta).toEqual(decoded);
    expect(event.response?.error?.code).toBe('A2A_500');
  });

  it('turns the envelope of a completed final status-update into a state-only event', () => {
    const event = only(stream(statusUpdate('completed', { final: true, metadata: envelope })));
    expect(event.stateDelta).toEqual(decoded);
    expect(event.response).toBeUndefined();
  });

  it('ignores the envelope of a non-final status-update', () => {
    expect(stream(statusUpdate('working', { metadata: envelope }))).toEqual([]);
  });

  it('emits the content of a lastChunk artifact, then a state-only event with its envelope', () => {
    const events = stream(artifactUpdate('answer', { lastChunk: true, metadata: envelope }));
    expect(events.map((event) => [event.response?.choices?.[0]?.delta?.content, event.stateDelta])).toEqual([
      ['answer', undefined],
      [undefined, decoded],
    ]);
  });

  it('puts the envelope of a unary completed task on its done event', () => {
    const event = only(defaultA2AEventConverter.convertResult(task('completed', { artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text: 'ok' }] }], metadata: envelope }), context));
    expect(event.stateDelta).toEqual(decoded);
  });
});

describe('defaultA2AEventConverter.convertResult (unary)', () => {
  it('turns a failed Task into one terminal error event with the metadata message (scenario 72)', () => {
    const event = only(defaultA2AEventConverter.convertResult(task('failed', { metadata: FAILURE_METADATA, message: agentMessage('display text', { messageId: 'resp-1' }) }), context));
    expect(shape(event)).toEqual({
      invocationId: 'inv-1',
      author: 'remote',
      response: { id: 'resp-1', object: 'error', done: true, error: { type: 'flow_error', message: 'task failed', code: 'A2A_500' } },
    });
  });

  it('turns a Message with only error_code into a terminal error whose message is the text (scenario 73)', () => {
    const event = only(defaultA2AEventConverter.convertResult(agentMessage('quota exceeded', { messageId: 'msg-q', metadata: { error_code: 'QUOTA' } }), context));
    expect(event.response).toMatchObject({ id: 'msg-q', object: 'error', done: true, error: { type: 'flow_error', message: 'quota exceeded', code: 'QUOTA' } });
    expect(isTerminalError(event)).toBe(true);
  });

  it.each([
    ['failed', 'remote task failed'],
    ['rejected', 'remote task rejected'],
    ['canceled', 'remote task canceled'],
  ])('gives a unary %s task without text or metadata the default message %j (scenario 74)', (state, message) => {
    const event = only(defaultA2AEventConverter.convertResult(task(state), context));
    expect(event.response?.error).toEqual({ type: 'flow_error', message });
    expect(isTerminalError(event)).toBe(true);
  });

  it('ignores the artifacts of a failed task', () => {
    const event = only(defaultA2AEventConverter.convertResult(task('failed', { artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text: 'partial work' }] }] }), context));
    expect(event.response?.choices).toBeUndefined();
    expect(event.response?.error?.message).toBe('remote task failed');
  });

  it('turns a completed Task into one done chat.completion joining the artifact texts and the status text', () => {
    const result = task('completed', {
      artifacts: [
        { artifactId: 'a1', parts: [{ kind: 'text', text: 'line one' }] },
        { artifactId: 'a2', parts: [{ kind: 'text', text: 'line two' }] },
      ],
    });
    const event = only(defaultA2AEventConverter.convertResult(result, context));
    expect(event.response).toEqual({ object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: 'line one\nline two' } }] });
  });

  it('turns a plain Message into one done chat.completion with its text', () => {
    const event = only(defaultA2AEventConverter.convertResult(agentMessage('pong', { messageId: 'msg-pong' }), context));
    expect(event.response).toEqual({ id: 'msg-pong', object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: 'pong' } }] });
    expect(isErrorEvent(event)).toBe(false);
  });
});

describe('responseErrorFromMetadata and statusResponseError', () => {
  it('gives undefined for no metadata and no text, and for a submitted status without metadata (scenario 75)', () => {
    expect(responseErrorFromMetadata([undefined])).toBeUndefined();
    expect(responseErrorFromMetadata([])).toBeUndefined();
    expect(statusResponseError({ state: 'submitted' }, undefined)).toBeUndefined();
    expect(statusResponseError({ state: 'submitted', message: agentMessage('queued') }, undefined)).toBeUndefined();
  });

  it('reuses the structured error as it is even when the status carries other text (scenario 75)', () => {
    const error = statusResponseError({ state: 'failed', message: agentMessage('display text') }, { error_type: 'validation_error', error_message: 'order id missing', error_code: 'E_VALIDATION', error_param: 'order_id' });
    expect(error).toEqual({ type: 'validation_error', message: 'order id missing', code: 'E_VALIDATION', param: 'order_id' });
  });

  it('returns a structured error for a non-failure status that carries error metadata', () => {
    expect(statusResponseError({ state: 'working' }, { error_code: 'SLOW', error_message: 'slow' })).toEqual({ type: 'flow_error', message: 'slow', code: 'SLOW' });
  });

  it('falls back to the text of the parts when the metadata has only error_code (scenario 76)', () => {
    expect(responseErrorFromMetadata([{ error_code: 'A2A_500' }], 'task failed from content')).toEqual({ type: 'flow_error', message: 'task failed from content', code: 'A2A_500' });
    expect(statusResponseError({ state: 'failed', message: agentMessage('task failed from content') }, { error_code: 'A2A_500' })).toEqual({
      type: 'flow_error',
      message: 'task failed from content',
      code: 'A2A_500',
    });
  });

  it('never makes an error from plain text alone (scenario 77)', () => {
    expect(responseErrorFromMetadata([undefined], 'plain response')).toBeUndefined();
    expect(responseErrorFromMetadata([{ note: 'not an error field' }], 'plain response', 'flow_error')).toBeUndefined();
  });

  it('counts object_type error alone as structured, with the fallback message and type', () => {
    expect(responseErrorFromMetadata([{ object_type: 'error' }], 'fallback text', 'api_error')).toEqual({ type: 'api_error', message: 'fallback text' });
  });

  it('round-trips type, message, code and param through the server metadata (scenario 77)', () => {
    const original: ResponseError = { type: 'validation_error', message: 'order id missing', code: 'E_VALIDATION', param: 'order_id' };
    expect(responseErrorFromMetadata([errorMetadata(original)])).toEqual(original);
    const event = createEvent(context, { response: { id: 'resp-1', object: 'error', done: true, error: original } });
    const metadata = buildTaskErrorMetadata(event) as A2AMetadata;
    expect(metadata).toEqual({ object_type: 'error', error_type: 'validation_error', error_message: 'order id missing', error_code: 'E_VALIDATION', error_param: 'order_id', task_state: 'failed', llm_response_id: 'resp-1' });
    const message = buildTaskErrorMessage(event, 'task-1', 'ctx-1', metadata);
    const decoded = only(stream(statusUpdate('failed', { final: true, metadata, message })));
    expect(decoded.response).toMatchObject({ id: 'resp-1', object: 'error', done: true, error: original });
  });

  it('picks each key from the first source that has a usable value (scenario 83)', () => {
    const error = responseErrorFromMetadata([{ error_code: 'new', error_message: '' }, { error_code: 'old', error_message: 'from second', error_type: 'second_type' }]);
    expect(error).toEqual({ type: 'second_type', message: 'from second', code: 'new' });
  });

  it('accepts a numeric error_code as its base-10 string and ignores other non-string values (scenario 85: OUR outcome)', () => {
    expect(responseErrorFromMetadata([{ error_code: 500 }], 'boom')).toEqual({ type: 'flow_error', message: 'boom', code: '500' });
    expect(responseErrorFromMetadata([{ error_code: 0 }], 'zero')).toEqual({ type: 'flow_error', message: 'zero', code: '0' });
    expect(responseErrorFromMetadata([{ error_code: Number.NaN, error_message: 42, error_type: true }], 'text')).toBeUndefined();
  });
});

describe('a transport failure as an event (scenario 80)', () => {
  function failingClient(error: unknown): A2AClient {
    return {
      getAgentCard: async () => undefined,
      sendMessage: async () => {
        throw error;
      },
      streamMessage: () =>
        (async function* () {
          throw error;
        })() as unknown as A2AEventStream,
      getTask: async () => {
        throw error;
      },
      cancelTask: async () => {
        throw error;
      },
      resubscribe: () => {
        throw error;
      },
    };
  }

  async function run(client: A2AClient, streaming: boolean): Promise<RunEvent[]> {
    const agent = createA2AAgent({ client, streaming, name: 'remote' });
    const events: RunEvent[] = [];
    const invocation = { invocationId: 'inv-1', appName: 'app', userId: 'u1', sessionId: 's1', message: { role: 'user' as const, content: 'hi' }, history: [], signal: new AbortController().signal };
    for await (const event of agent.runEvents(invocation)) events.push(event);
    return events;
  }

  it('reports a failed unary call as one terminal event of type run_error (tRPC: {run_error, "boom"}; we prefix where it failed)', async () => {
    const event = only(await run(failingClient(new Error('boom')), false));
    expect(shape(event)).toEqual({ invocationId: 'inv-1', author: 'remote', response: { object: 'error', done: true, error: { type: 'run_error', message: 'A2A request failed: boom' } } });
    expect(isTerminalError(event)).toBe(true);
  });

  it('keeps the type run_error of an A2ATransportError and names the streaming request', async () => {
    const event = only(await run(failingClient(new A2ATransportError('A2A request to https://agent.test/ failed with 503 Service Unavailable', { status: 503 })), true));
    expect(event.response?.error).toEqual({ type: 'run_error', message: 'A2A streaming request failed: A2A request to https://agent.test/ failed with 503 Service Unavailable' });
  });
});
