/**
 * Decoding A2A results and stream events into runner events (seed-systems §5, decisions.md points 8 and 9): failed,
 * rejected and canceled tasks become terminal `error` events with a `ResponseError` rebuilt from the structured
 * metadata — per key: outer `metadata`, then `status.message.metadata`, then the text parts, then the default
 * message — and structured error metadata on any other event becomes a non-terminal error.
 */
import type { ResponseError } from '../errors/response-error.js';
import { defineData, isPlainObject } from '../internal/json.js';
import { ObjectType } from '../runner/constants.js';
import { chunkEvent, createErrorEvent, createEvent, type EventOrigin, type RunEvent } from '../runner/event.js';
import type { StateDelta } from '../runner/state-delta.js';
import { ErrorMetadataKey, FAILURE_STATES, FAULTLINE_METADATA_KEY, TaskState } from './constants.js';
import { SerializeError, type SerializeIssue } from '../errors/serialize-error.js';
import { MAX_NAMED_INTERRUPTS, summarizeInterrupts, type InterruptSummary } from '../runner/interrupt-summary.js';
import { partsText, pickMetadata as pick, responseErrorFromMetadata, statusResponseError } from '../errors/task-error.js';

export { partsText, responseErrorFromMetadata, statusResponseError };
import type { A2AMessage, A2AMetadata, A2AStreamEvent, SendMessageResult, Task } from './types.js';

/** What a converter knows about the run. */
export interface A2AConverterContext extends EventOrigin {
  /** True when text deltas were already streamed for this artifact (so its `lastChunk` is only an aggregate). */
  hasStreamed?: ((artifactId: string) => boolean) | undefined;
}

/**
 * Turns A2A results and stream events into runner events; supply your own for a provider with other metadata
 * conventions (keep `ResponseError` on `response.error` as the error model). Its failure is a terminal `run_error`.
 * @example `createA2AAgent({ agentCardUrl, converter: { ...defaultA2AEventConverter, convertStreamEvent: myStreamDecoder } })`
 */
export interface A2AEventConverter {
  convertResult(result: SendMessageResult, context: A2AConverterContext): RunEvent[];
  convertStreamEvent(event: A2AStreamEvent, context: A2AConverterContext): RunEvent[];
}

/**
 * Decodes the `state_delta` envelope (`{key: {encoding: 'bytes', payload: base64} | {encoding: 'nil'}}`).
 * @example `executionErrorsFromStateDelta(stateDeltaFromMetadata(task.metadata))`
 */
export function stateDeltaFromMetadata(metadata: A2AMetadata | undefined): StateDelta | undefined {
  const envelope = metadata?.[ErrorMetadataKey.StateDelta];
  if (!isPlainObject(envelope)) return undefined;
  const delta: StateDelta = {};
  for (const [key, entry] of Object.entries(envelope)) {
    if (!isPlainObject(entry)) continue;
    if (entry.encoding === 'nil') defineData(delta, key, null);
    else if (entry.encoding === 'bytes' && typeof entry.payload === 'string') {
      const text = base64ToText(entry.payload);
      if (text !== undefined) defineData(delta, key, text);
    }
  }
  return Object.keys(delta).length > 0 ? delta : undefined;
}

/**
 * UTF-8 text of a base64 payload (`atob` + a fatal `TextDecoder`, Web APIs only); `undefined` when it is not valid base64 or UTF-8.
 * @example `base64ToText('aGk=') // 'hi'`
 */
export function base64ToText(payload: string): string | undefined {
  try {
    const binary = atob(payload);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function responseIdOf(metadata: ReadonlyArray<A2AMetadata | undefined>, fallback: string | undefined): string | undefined {
  return pick(metadata, ErrorMetadataKey.ResponseId) ?? fallback;
}

function errorEvent(context: A2AConverterContext, error: ResponseError, id: string | undefined, metadata?: A2AMetadata): RunEvent {
  const event = createErrorEvent(context, error, id);
  const delta = stateDeltaFromMetadata(metadata);
  if (delta) event.stateDelta = delta;
  return event;
}

function delta(context: A2AConverterContext, text: string, id?: string): RunEvent {
  return chunkEvent(context, { content: text }, id);
}

function recoverableError(context: A2AConverterContext, error: ResponseError, metadata: ReadonlyArray<A2AMetadata | undefined>, text: string, id?: string): RunEvent {
  const objectType = pick(metadata, ErrorMetadataKey.ObjectType);
  return createEvent(context, {
    response: {
      ...(id ? { id } : {}),
      object: objectType && objectType !== 'error' ? objectType : ObjectType.ChatCompletion,
      done: false,
      partial: false,
      error,
      choices: [{ index: 0, message: { role: 'assistant', content: text || error.message } }],
    },
  });
}

function messageEvents(message: A2AMessage, context: A2AConverterContext, streaming: boolean): RunEvent[] {
  const text = partsText(message.parts);
  const sources = [message.metadata];
  const error = responseErrorFromMetadata(sources, text);
  const id = responseIdOf(sources, message.messageId);
  if (error) return [streaming ? recoverableError(context, error, sources, text, id) : errorEvent(context, error, id, message.metadata)];
  if (streaming) return text === '' ? [] : [delta(context, text, id)];
  const event = createEvent(context, { response: { ...(id ? { id } : {}), object: ObjectType.ChatCompletion, done: true, choices: [{ index: 0, message: { role: 'assistant', content: text } }] } });
  const stateDelta = stateDeltaFromMetadata(message.metadata);
  if (stateDelta) event.stateDelta = stateDelta;
  return [event];
}

function taskEvents(task: Task, context: A2AConverterContext, streaming: boolean): RunEvent[] {
  const sources = [task.metadata, task.status.message?.metadata];
  const id = responseIdOf(sources, task.status.message?.messageId);
  if (FAILURE_STATES.has(task.status.state)) return [errorEvent(context, statusResponseError(task.status, task.metadata) as ResponseError, id, task.metadata)];
  // The answer is the artifacts' text; the final status message usually repeats it, so it is read only when there is
  // no artifact text (streamed and unary answers agree: the text once).
  const artifactTexts = (task.artifacts ?? []).map((artifact) => partsText(artifact.parts)).filter((text) => text !== '');
  const statusText = partsText(task.status.message?.parts);
  const texts = artifactTexts.length > 0 ? artifactTexts : statusText === '' ? [] : [statusText];
  if (streaming) return texts.map((text) => delta(context, text, id));
  const text = texts.join('\n');
  const event = createEvent(context, { response: { ...(id ? { id } : {}), object: ObjectType.ChatCompletion, done: true, choices: [{ index: 0, message: { role: 'assistant', content: text } }] } });
  const stateDelta = stateDeltaFromMetadata(task.metadata) ?? stateDeltaFromMetadata(task.artifacts?.at(-1)?.metadata);
  if (stateDelta) event.stateDelta = stateDelta;
  return [event];
}

/**
 * The default converter: tRPC-Agent-Go's decoding with our precedence rules. Unary: a failed/rejected/canceled task
 * or a Message with structured error metadata is one terminal error event; otherwise one done `chat.completion`.
 * Streaming: control status updates and aggregate last chunks are dropped, text becomes partial deltas, failures and
 * final events with error metadata are terminal, other error metadata is a non-terminal error.
 * @example `defaultA2AEventConverter.convertResult(task, { invocationId, author: 'remote' })`
 */
export const defaultA2AEventConverter: A2AEventConverter = /* @__PURE__ */ Object.freeze({
  convertResult(result: SendMessageResult, context: A2AConverterContext): RunEvent[] {
    return result.kind === 'message' ? messageEvents(result, context, false) : taskEvents(result, context, false);
  },
  convertStreamEvent(event: A2AStreamEvent, context: A2AConverterContext): RunEvent[] {
    switch (event.kind) {
      case 'message':
        return messageEvents(event, context, true);
      case 'task':
        return taskEvents(event, context, true);
      case 'status-update': {
        const sources = [event.metadata, event.status.message?.metadata];
        const id = responseIdOf(sources, event.status.message?.messageId);
        if (FAILURE_STATES.has(event.status.state)) return [errorEvent(context, statusResponseError(event.status, event.metadata) as ResponseError, id, event.metadata)];
        const error = responseErrorFromMetadata(sources, partsText(event.status.message?.parts));
        if (!error) {
          const stateDelta = event.final ? stateDeltaFromMetadata(event.metadata) : undefined;
          return stateDelta ? [createEvent(context, { stateDelta })] : [];
        }
        return event.final ? [errorEvent(context, error, id, event.metadata)] : [recoverableError(context, error, sources, partsText(event.status.message?.parts), id)];
      }
      case 'artifact-update': {
        const sources = [event.metadata, event.artifact.metadata];
        const id = responseIdOf(sources, event.artifact.artifactId);
        const text = partsText(event.artifact.parts);
        const error = responseErrorFromMetadata(sources, text);
        if (event.lastChunk === true) {
          if (error) return [errorEvent(context, error, id, event.metadata)];
          const stateDelta = stateDeltaFromMetadata(event.metadata);
          const content = text !== '' && !context.hasStreamed?.(event.artifact.artifactId) ? [delta(context, text, id)] : [];
          return stateDelta ? [...content, createEvent(context, { stateDelta })] : content;
        }
        if (error) return [recoverableError(context, error, sources, text, id)];
        return text === '' ? [] : [delta(context, text, id)];
      }
      default:
        return [];
    }
  },
});

/**
 * What an `input-required` task of a faultline agent waits on, read from its metadata: the task to answer on, the
 * remote run, and its pending interrupts (summaries: never a tool call's arguments).
 * @example `{ taskId: 'task-1', contextId: 'ctx-1', runId: 'invocation-7', interruptCount: 1, interrupts: [{ id: 'int_1', runId: 'invocation-7', kind: 'approval', toolName: 'refund' }] }`
 */
export interface A2ATaskInterrupts {
  /** The task to answer on (the follow-up's `taskId`). */
  taskId: string;
  contextId: string;
  /** The remote run that waits (the remote resolves it from the task itself). */
  runId: string;
  /** At most 50 named, summarised. */
  interrupts: InterruptSummary[];
  /** All of them, named or not. */
  interruptCount: number;
}

const IDS_LIMIT = 200;
const TEXT_FIELDS = ['runId', 'toolCallId', 'toolName', 'nodeId', 'reason', 'createdAt', 'expiresAt'] as const;

/**
 * The pending interrupts of an `input-required` Task or status update (a `sendMessage` result or a stream event), or
 * `undefined` when it waits on nothing a decision can answer: another state, another kind of event, or a remote
 * that names no interrupts under {@link FAULTLINE_METADATA_KEY}. Metadata that is there but malformed (forged, or from
 * an incompatible version) is a `SerializeError` whose `issues` name each path — never a crash, never a guess.
 * @example
 * ```ts
 * const waiting = taskInterrupts(await client.sendMessage('Refund order 42'));
 * if (waiting) await client.sendMessage({ message: decisionsMessage(waiting, [{ id: waiting.interrupts[0]!.id, approved: true }]) });
 * ```
 */
export function taskInterrupts(event: A2AStreamEvent): A2ATaskInterrupts | undefined {
  const value: unknown = event;
  if (!isPlainObject(value) || (value.kind !== 'task' && value.kind !== 'status-update')) return undefined;
  const status = value.status;
  if (!isPlainObject(status) || status.state !== TaskState.InputRequired) return undefined;
  const statusMetadata = isPlainObject(status.message) ? status.message.metadata : undefined;
  const own = [value.metadata, statusMetadata].map((metadata) => (isPlainObject(metadata) ? metadata[FAULTLINE_METADATA_KEY] : undefined)).find((found) => found !== undefined);
  if (own === undefined) return undefined;
  const taskId = value.kind === 'task' ? value.id : value.taskId;
  const issues: SerializeIssue[] = [];
  const issue = (path: string, message: string) => issues.push({ code: 'invalid_interrupts', path, message });
  const id = (item: unknown, path: string) => {
    if (typeof item !== 'string' || item === '' || item.length > IDS_LIMIT) issue(path, `must be a non-empty string of at most ${IDS_LIMIT} characters`);
  };
  id(taskId, value.kind === 'task' ? 'id' : 'taskId');
  id(value.contextId, 'contextId');
  const raw = isPlainObject(own) ? own.interrupts : undefined;
  if (!isPlainObject(own)) issue(FAULTLINE_METADATA_KEY, 'must be an object { runId, interrupts, interruptCount }');
  else {
    id(own.runId, `${FAULTLINE_METADATA_KEY}.runId`);
    if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_NAMED_INTERRUPTS) issue(`${FAULTLINE_METADATA_KEY}.interrupts`, `must be an array of 1 to ${MAX_NAMED_INTERRUPTS} interrupts`);
    else raw.forEach((each: unknown, index) => interruptIssues(each, `${FAULTLINE_METADATA_KEY}.interrupts[${index}]`, id, issue));
    const count = own.interruptCount;
    if (!Number.isSafeInteger(count) || (count as number) < (Array.isArray(raw) ? raw.length : 1)) issue(`${FAULTLINE_METADATA_KEY}.interruptCount`, 'must be an integer counting at least the interrupts named');
  }
  if (issues.length > 0) {
    const listed = issues.slice(0, 5).map((each) => `${each.path} ${each.message}`).join('; ');
    throw new SerializeError(`The input-required task's ${FAULTLINE_METADATA_KEY} metadata is malformed (${issues.length} problem${issues.length === 1 ? '' : 's'}: ${listed}); it cannot be answered with decisions`, { subject: `${FAULTLINE_METADATA_KEY} interrupt metadata`, issues });
  }
  const valid = own as { runId: string; interruptCount: number };
  return { taskId: taskId as string, contextId: value.contextId as string, runId: valid.runId, interrupts: summarizeInterrupts(raw).interrupts, interruptCount: valid.interruptCount };
}

function interruptIssues(each: unknown, path: string, id: (item: unknown, path: string) => void, issue: (path: string, message: string) => void): void {
  if (!isPlainObject(each)) return void issue(path, 'must be an object');
  id(each.id, `${path}.id`);
  if (each.kind !== 'approval' && each.kind !== 'input') issue(`${path}.kind`, "must be 'approval' or 'input'");
  for (const key of TEXT_FIELDS) if (each[key] !== undefined && typeof each[key] !== 'string') issue(`${path}.${key}`, 'must be a string');
}
