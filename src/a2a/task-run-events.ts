/** @internal What a task run makes of the runner's events: scrubbing, state values, and the A2A events it builds. */
import type { ResponseError } from '../errors/response-error.js';
import { redactText, removeSecrets } from '../internal/redact.js';
import type { RunEvent } from '../runner/event.js';
import { createId } from '../internal/ids.js';
import { cloneJSONLike } from '../internal/json.js';
import { withoutMetadata } from '../runner/state-delta.js';
import { ErrorMetadataKey } from './constants.js';
import { encodeStateDeltaMetadata, errorMetadata } from './server-payloads.js';
import type { A2AMessage, A2AMetadata, Task, TaskArtifactUpdateEvent } from './types.js';

/**
 * What leaves for a remote client: the handler's configured secrets removed from every string of the event (in every
 * form), and credential-shaped values masked in its error (a provider that echoed a key into an error code must not
 * hand it on to our A2A client as `error_code`). Answer text keeps its content: only configured secrets leave it.
 */
export function scrubEvent(event: RunEvent, secrets: readonly string[]): RunEvent {
  const clean = removeSecrets(event, secrets);
  const error = clean.response?.error;
  if (!error) return clean;
  const scrubbed: ResponseError = { type: redactText(error.type), message: redactText(error.message) };
  if (error.code !== undefined) scrubbed.code = redactText(error.code);
  if (error.param !== undefined) scrubbed.param = redactText(error.param);
  return { ...clean, response: { ...clean.response, error: scrubbed } } as RunEvent;
}

/** A string state value from its JSON text (`'"resp-1"'` → `resp-1`). */
export function stateString(text: string | null | undefined): string | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' && value !== '' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** An artifact update of `task`'s response artifact. */
export function artifactUpdate(task: Task, artifactId: string, parts: TaskArtifactUpdateEvent['artifact']['parts'], append: boolean, lastChunk: boolean, metadata?: A2AMetadata): TaskArtifactUpdateEvent {
  const update: TaskArtifactUpdateEvent = { kind: 'artifact-update', taskId: task.id, contextId: task.contextId, artifact: { artifactId, name: 'response', parts }, append, lastChunk };
  if (metadata && Object.keys(metadata).length > 0) update.metadata = metadata;
  return update;
}

/** The status message of a task ended by `tasks/cancel`, running or waiting for input. */
export const CANCELED_TEXT = 'The task was canceled by request.';

/** An agent message of `task` (its metadata an independent copy). */
export function agentMessage(task: Task, text: string, metadata?: A2AMetadata): A2AMessage {
  const message: A2AMessage = { kind: 'message', role: 'agent', messageId: createId('msg'), taskId: task.id, contextId: task.contextId, parts: text === '' ? [] : [{ kind: 'text', text }] };
  if (metadata) message.metadata = cloneJSONLike(metadata);
  return message;
}

/**
 * @internal The metadata of a completed task's last chunk: the response id, the error a completion carried without
 * being terminal (or an unstructured one), and the final state delta.
 */
export function completedMetadata(completion: RunEvent | undefined, responseId: string | undefined, unstructuredError: ResponseError | undefined): A2AMetadata {
  const metadata: A2AMetadata = {};
  const id = responseId ?? stateString(completion?.stateDelta?.last_response_id) ?? completion?.response?.id;
  if (id) metadata[ErrorMetadataKey.ResponseId] = id;
  const completionError = unstructuredError ?? completion?.response?.error;
  if (completionError) Object.assign(metadata, errorMetadata(completionError));
  const stateDelta = encodeStateDeltaMetadata(withoutMetadata(completion?.stateDelta));
  if (stateDelta) metadata[ErrorMetadataKey.StateDelta] = stateDelta;
  return metadata;
}
