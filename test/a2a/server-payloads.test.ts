// The structured task-error payload of our A2A server: seed-systems.md §4.2–4.3 and scenarios 54–58 (tRPC-Agent-Go's
// server/a2a/server_test.go: TestBuildTaskErrorMetadata, TestBuildTaskErrorMessage), plus our `state_delta` envelope.
import { describe, expect, it } from 'vitest';
import {
  buildTaskErrorMessage,
  buildTaskErrorMetadata,
  encodeStateDeltaMetadata,
  errorMetadata,
  failureState,
} from '../../src/a2a/index.js';
import { createErrorEvent, createEvent, type RunEvent } from '../../src/runner/index.js';

const origin = { invocationId: 'invocation-1', author: 'agent' };

/** A terminal error event, as tRPC's tests build it: `{ID, Done: true, Error}`. */
function errorEvent(error: { type: string; message: string; code?: string; param?: string }, id?: string): RunEvent {
  return createErrorEvent(origin, error, id);
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('buildTaskErrorMetadata', () => {
  // Scenario 54.
  it('returns undefined without an event, without a response, or without an error', () => {
    expect(buildTaskErrorMetadata(undefined)).toBeUndefined();
    expect(buildTaskErrorMetadata(createEvent(origin, {}))).toBeUndefined();
    expect(buildTaskErrorMetadata(createEvent(origin, { response: { object: 'chat.completion', done: true, id: 'resp-1' } }))).toBeUndefined();
  });

  // Scenario 55.
  it('maps a flow_error to object_type, error_type, error_message and task_state failed, without llm_response_id when the response has no id', () => {
    const metadata = buildTaskErrorMetadata(errorEvent({ type: 'flow_error', message: 'task failed' }));
    expect(metadata).toEqual({ object_type: 'error', error_type: 'flow_error', error_message: 'task failed', task_state: 'failed' });
    expect(metadata).not.toHaveProperty('llm_response_id');
  });

  // Scenario 56.
  it('maps a stop_agent_error to task_state canceled and carries the response id as llm_response_id', () => {
    const metadata = buildTaskErrorMetadata(errorEvent({ type: 'stop_agent_error', message: 'task canceled' }, 'resp-1'));
    expect(metadata).toEqual({
      object_type: 'error',
      error_type: 'stop_agent_error',
      error_message: 'task canceled',
      task_state: 'canceled',
      llm_response_id: 'resp-1',
    });
  });

  it('includes error_code and error_param when the error has them', () => {
    const metadata = buildTaskErrorMetadata(errorEvent({ type: 'api_error', message: 'bad field', code: 'A2A_400', param: 'order_id' }, 'resp-9'));
    expect(metadata).toEqual({
      object_type: 'error',
      error_type: 'api_error',
      error_message: 'bad field',
      error_code: 'A2A_400',
      error_param: 'order_id',
      task_state: 'failed',
      llm_response_id: 'resp-9',
    });
  });

  it('builds the map for a non-terminal response that carries an error too (the caller decides what is terminal)', () => {
    const event = createEvent(origin, { response: { object: 'graph.node.error', done: false, error: { type: 'flow_error', message: 'node failed' } } });
    expect(buildTaskErrorMetadata(event)).toEqual({ object_type: 'error', error_type: 'flow_error', error_message: 'node failed', task_state: 'failed' });
  });
});

describe('buildTaskErrorMessage', () => {
  // Scenario 57.
  it('uses the response id as messageId, mirrors the metadata and carries the error message as one text part', () => {
    const event = errorEvent({ type: 'flow_error', message: 'task failed', code: 'A2A_500' }, 'resp-2');
    const metadata = buildTaskErrorMetadata(event) as Record<string, unknown>;
    const message = buildTaskErrorMessage(event, 'task-1', 'ctx-1', metadata);
    expect(message).toEqual({
      kind: 'message',
      role: 'agent',
      messageId: 'resp-2',
      taskId: 'task-1',
      contextId: 'ctx-1',
      metadata: {
        object_type: 'error',
        error_type: 'flow_error',
        error_message: 'task failed',
        error_code: 'A2A_500',
        task_state: 'failed',
        llm_response_id: 'resp-2',
      },
      parts: [{ kind: 'text', text: 'task failed' }],
    });
  });

  it('keeps an independent copy: mutating the outer map does not change the message metadata, nor the reverse', () => {
    const event = errorEvent({ type: 'flow_error', message: 'task failed' }, 'resp-2');
    const metadata = buildTaskErrorMetadata(event) as Record<string, unknown>;
    const message = buildTaskErrorMessage(event, 'task-1', 'ctx-1', metadata);
    expect(message.metadata).not.toBe(metadata);
    metadata.error_type = 'mutated';
    metadata.extra = 'added later';
    expect(message.metadata?.error_type).toBe('flow_error');
    expect(message.metadata).not.toHaveProperty('extra');
    (message.metadata as Record<string, unknown>).task_state = 'rejected';
    expect(metadata.task_state).toBe('failed');
  });

  it('deep-copies nested metadata values too', () => {
    const event = errorEvent({ type: 'flow_error', message: 'task failed' }, 'resp-3');
    const metadata: Record<string, unknown> = { ...buildTaskErrorMetadata(event), nested: { records: ['a'] } };
    const message = buildTaskErrorMessage(event, 'task-1', 'ctx-1', metadata);
    ((metadata.nested as { records: string[] }).records).push('b');
    expect(message.metadata?.nested).toEqual({ records: ['a'] });
  });

  // Scenario 58.
  it('has no parts for an empty error message and generates a msg-<uuid> messageId when the response has no id', () => {
    const event = errorEvent({ type: 'flow_error', message: '' });
    const metadata = buildTaskErrorMetadata(event) as Record<string, unknown>;
    const message = buildTaskErrorMessage(event, 'task-1', 'ctx-1', metadata);
    expect(message.parts).toEqual([]);
    expect(message.messageId).toMatch(/^msg-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(message.metadata).toEqual({ object_type: 'error', error_type: 'flow_error', task_state: 'failed' });
  });

  it('generates a different messageId for each message without a response id', () => {
    const event = errorEvent({ type: 'flow_error', message: 'x' });
    const metadata = buildTaskErrorMetadata(event) as Record<string, unknown>;
    const first = buildTaskErrorMessage(event, 't', 'c', metadata).messageId;
    const second = buildTaskErrorMessage(event, 't', 'c', metadata).messageId;
    expect(first).not.toBe(second);
    expect(first.startsWith('msg-')).toBe(true);
    expect(second.startsWith('msg-')).toBe(true);
  });
});

describe('errorMetadata', () => {
  it('always has object_type error and leaves out empty fields', () => {
    expect(errorMetadata({ type: '', message: '' })).toEqual({ object_type: 'error' });
    expect(errorMetadata({ type: 'flow_error', message: 'x', code: '', param: '' })).toEqual({ object_type: 'error', error_type: 'flow_error', error_message: 'x' });
  });

  it('maps type, message, code and param to their keys and never adds task_state or llm_response_id', () => {
    expect(errorMetadata({ type: 'flow_error', message: 'x', code: 'E1', param: 'p' })).toEqual({
      object_type: 'error',
      error_type: 'flow_error',
      error_message: 'x',
      error_code: 'E1',
      error_param: 'p',
    });
  });
});

describe('failureState', () => {
  it('is canceled for stop_agent_error and failed for every other type (the server never emits rejected)', () => {
    expect(failureState({ type: 'stop_agent_error', message: 'stop' })).toBe('canceled');
    expect(failureState({ type: 'flow_error', message: 'x' })).toBe('failed');
    expect(failureState({ type: 'cancelled', message: 'x' })).toBe('failed');
    expect(failureState({ type: 'rejected', message: 'x' })).toBe('failed');
  });
});

describe('encodeStateDeltaMetadata', () => {
  it('returns undefined for no delta and for an empty one', () => {
    expect(encodeStateDeltaMetadata(undefined)).toBeUndefined();
    expect(encodeStateDeltaMetadata({})).toBeUndefined();
  });

  it('wraps each value as base64 of its JSON bytes, and a nil value as encoding nil', () => {
    const envelope = encodeStateDeltaMetadata({ last_response: '"final"', count: '3', gone: null });
    expect(envelope).toEqual({
      last_response: { encoding: 'bytes', payload: base64('"final"') },
      count: { encoding: 'bytes', payload: 'Mw==' },
      gone: { encoding: 'nil' },
    });
    expect(Buffer.from((envelope?.last_response as { payload: string }).payload, 'base64').toString('utf8')).toBe('"final"');
  });

  it('encodes non-ASCII text as UTF-8 bytes', () => {
    const text = JSON.stringify({ note: 'Bestellung über 42 € — 注文 🚚' });
    const envelope = encodeStateDeltaMetadata({ note: text });
    const payload = (envelope?.note as { payload: string }).payload;
    expect(payload).toBe(base64(text));
    expect(Buffer.from(payload, 'base64').toString('utf8')).toBe(text);
  });

  it('encodes a value larger than one 32 KiB chunk completely', () => {
    const text = JSON.stringify('x'.repeat(100_000));
    const envelope = encodeStateDeltaMetadata({ big: text });
    expect(Buffer.from((envelope?.big as { payload: string }).payload, 'base64').toString('utf8')).toBe(text);
  });

  it('keeps a __proto__ key as an own data property without touching Object.prototype', () => {
    const delta = JSON.parse('{"__proto__": "{\\"polluted\\":true}"}') as Record<string, string>;
    const envelope = encodeStateDeltaMetadata(delta) as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(envelope, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(envelope, '__proto__')?.value).toEqual({ encoding: 'bytes', payload: base64('{"polluted":true}') });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).encoding).toBeUndefined();
  });
});
