// A remote task's error from tRPC-Agent-Go's structured metadata (errors/task-error.ts): one implementation, shared by
// the A2A event converter (re-exported from faultline/a2a unchanged) and the A2A client's tracing (`taskFailure`).
import { describe, expect, it } from 'vitest';
import * as a2a from '../../src/a2a/index.js';
import { ErrorMetadataKey, FAILURE_STATES, partsText, responseErrorFromMetadata, statusResponseError, taskFailure } from '../../src/errors/task-error.js';

const text = (value: string) => ({ kind: 'text', text: value });

describe('task errors from structured metadata', () => {
  it('is what faultline/a2a exports, unchanged', () => {
    expect(a2a.statusResponseError).toBe(statusResponseError);
    expect(a2a.responseErrorFromMetadata).toBe(responseErrorFromMetadata);
    expect(a2a.partsText).toBe(partsText);
    expect(a2a.ErrorMetadataKey).toBe(ErrorMetadataKey);
    expect(a2a.FAILURE_STATES).toBe(FAILURE_STATES);
    expect([...FAILURE_STATES]).toEqual(['failed', 'rejected', 'canceled']);
    expect(ErrorMetadataKey).toEqual({
      ObjectType: 'object_type',
      ErrorType: 'error_type',
      ErrorCode: 'error_code',
      ErrorMessage: 'error_message',
      ErrorParam: 'error_param',
      TaskState: 'task_state',
      ResponseId: 'llm_response_id',
      StateDelta: 'state_delta',
    });
  });

  it.each([
    ['no metadata, no text', { state: 'failed' }, undefined, { type: 'flow_error', message: 'remote task failed' }],
    ['no metadata, the text of the message', { state: 'rejected', message: { parts: [text('over '), { kind: 'data' }, text('quota')] } }, undefined, { type: 'flow_error', message: 'over quota' }],
    ['a default message per state', { state: 'canceled' }, {}, { type: 'flow_error', message: 'remote task canceled' }],
    [
      'outer metadata before the message metadata, key by key; a numeric code stringified',
      { state: 'failed', message: { metadata: { error_type: 'inner', error_param: 'sku' }, parts: [text('text')] } },
      { error_type: 'api_error', error_code: 402, error_message: '' },
      { type: 'api_error', message: 'text', code: '402', param: 'sku' },
    ],
    ['object_type alone', { state: 'failed' }, { object_type: 'error' }, { type: 'flow_error', message: 'remote task failed' }],
  ])('a failed task: %s', (_title, status, outer, expected) => {
    const error = statusResponseError(status, outer);
    expect(error).toEqual(expected);
    expect(Object.keys(error ?? {})).toEqual(Object.keys(expected));
    expect(taskFailure(status, outer)).toEqual(expected); // what the client's span is failed with
  });

  it('a task in another state has an error only when its metadata is structured', () => {
    expect(statusResponseError({ state: 'working', message: { parts: [text('busy')] } }, undefined)).toBeUndefined();
    expect(statusResponseError({ state: 'working', message: { parts: [text('busy')] } }, { error_code: 'SLOW' })).toEqual({ type: 'flow_error', message: 'busy', code: 'SLOW' });
  });
});
