/**
 * The structured task-error payload our handler emits (seed-systems §4.2–4.3, decisions.md point 3): the metadata
 * map (`object_type`, `error_type`, `error_message`, `error_code`, `error_param`, `task_state`, `llm_response_id`)
 * mirrored as an independent copy into the status message, with the message text as a text part.
 */
import { ErrorType } from '../errors/constants.js';
import type { ResponseError } from '../errors/response-error.js';
import { createId } from '../internal/ids.js';
import { cloneJSONLike, defineData } from '../internal/json.js';
import type { RunEvent } from '../runner/event.js';
import type { StateDelta } from '../runner/state-delta.js';
import { ErrorMetadataKey, TaskState } from './constants.js';
import type { A2AMessage, A2AMetadata } from './types.js';

/**
 * `canceled` for `stop_agent_error`, else `failed` (the server never emits `rejected`).
 * @example `failureState({ type: 'stop_agent_error', message: 'stopped' }) // 'canceled'`
 */
export function failureState(error: ResponseError): 'failed' | 'canceled' {
  return error.type === ErrorType.StopAgentError ? TaskState.Canceled : TaskState.Failed;
}

/**
 * The error fields of a `ResponseError` as metadata (empty values left out).
 * @example `errorMetadata({ type: 'flow_error', message: 'x', code: 'E1' }) // { object_type: 'error', error_type: 'flow_error', error_message: 'x', error_code: 'E1' }`
 */
export function errorMetadata(error: ResponseError): A2AMetadata {
  const metadata: A2AMetadata = { [ErrorMetadataKey.ObjectType]: 'error' };
  if (error.type) metadata[ErrorMetadataKey.ErrorType] = error.type;
  if (error.message) metadata[ErrorMetadataKey.ErrorMessage] = error.message;
  if (error.code) metadata[ErrorMetadataKey.ErrorCode] = error.code;
  if (error.param) metadata[ErrorMetadataKey.ErrorParam] = error.param;
  return metadata;
}

/**
 * The task-error metadata of a terminal event (tRPC's `buildTaskErrorMetadata`): `undefined` without an event, a
 * response or an error; else the error fields plus `task_state` and `llm_response_id` (when the response has an id).
 * @example `buildTaskErrorMetadata(event)?.task_state // 'failed'`
 */
export function buildTaskErrorMetadata(event: RunEvent | undefined): A2AMetadata | undefined {
  const error = event?.response?.error;
  if (!event?.response || !error) return undefined;
  const metadata = errorMetadata(error);
  metadata[ErrorMetadataKey.TaskState] = failureState(error);
  if (event.response.id) metadata[ErrorMetadataKey.ResponseId] = event.response.id;
  return metadata;
}

/**
 * The status message of a failed task (tRPC's `buildTaskErrorMessage`): `messageId` = the response id or a new
 * `msg-<uuid>`, metadata = an independent copy, one text part with the error message (none when it is empty).
 * @example `buildTaskErrorMessage(event, task.id, task.contextId, buildTaskErrorMetadata(event) ?? {})`
 */
export function buildTaskErrorMessage(event: RunEvent, taskId: string, contextId: string, metadata: A2AMetadata): A2AMessage {
  const text = event.response?.error?.message ?? '';
  return {
    kind: 'message',
    role: 'agent',
    messageId: event.response?.id || createId('msg'),
    taskId,
    contextId,
    metadata: cloneJSONLike(metadata),
    parts: text === '' ? [] : [{ kind: 'text', text }],
  };
}

/**
 * The `state_delta` envelope: each value's JSON bytes as base64, or `{encoding: 'nil'}`.
 * @example `encodeStateDeltaMetadata(completion.stateDelta)`
 */
export function encodeStateDeltaMetadata(delta: StateDelta | undefined): A2AMetadata | undefined {
  if (!delta || Object.keys(delta).length === 0) return undefined;
  const envelope: A2AMetadata = {};
  for (const [key, value] of Object.entries(delta)) {
    defineData(envelope, key, value === null ? { encoding: 'nil' } : { encoding: 'bytes', payload: textToBase64(value) });
  }
  return envelope;
}

function textToBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary);
}
