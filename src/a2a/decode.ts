/**
 * Validating what arrives from the wire. Every decoder either returns a typed value or throws a `SerializeError`
 * whose `issues` name each path that failed (`result.status.state: expected one of …`) — never a crash.
 */
import { SerializeError, type SerializeIssue } from '../errors/serialize-error.js';
import { truncate } from '../internal/json.js';
import type { A2AProtocolVersion } from './constants.js';
import { agentCard, messageSendParams, sendResult, streamEvent, task, taskQueryParams } from './schemas.js';
import type { A2AStreamEvent, AgentCard, MessageSendParams, SendMessageResult, Task } from './types.js';
import { check, type Field, type PathKey, type Walk } from './validation.js';
import { messageFromV1, sendResultFromV1, streamEventFromV1, taskFromV1 } from './v1-codec.js';

/** `where` followed by the path: `result.parts[0].text`, `result["odd key"]`. */
function formatPath(where: string, path: readonly PathKey[]): string {
  let text = where;
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) text += `.${key}`;
    else text += `[${JSON.stringify(String(key))}]`;
  }
  return text;
}

/** Checks `value` against `field`; failures become a `SerializeError` naming `where` + each issue's path. */
export function validate<T>(field: Field, value: unknown, where: string, subject: string): T {
  const walk: Walk = { issues: [], path: [] };
  const result = check(walk, value, field);
  if (walk.issues.length === 0) return result as T;
  const issues: SerializeIssue[] = walk.issues.map((issue) => ({ code: issue.code, path: formatPath(where, issue.path), message: issue.message }));
  const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  throw new SerializeError(`Invalid ${subject}: ${truncate(summary, 1000)}`, { subject, issues });
}

/**
 * A `message/send` result (Task or Message), 0.3 or 1.0 JSON; a `SerializeError` naming each bad path otherwise.
 * @example `decodeSendResult(json.result, '0.3')`
 */
export function decodeSendResult(value: unknown, version: A2AProtocolVersion, where = 'result'): SendMessageResult {
  return validate(sendResult, version === '1.0' ? sendResultFromV1(value) : value, version === '1.0' ? wrapped(value, where) : where, 'A2A send result');
}

/** The 1.0 wire path of a wrapped value: `result.task` for `{task: …}`. */
function wrapped(value: unknown, where: string): string {
  if (value === null || typeof value !== 'object') return where;
  const key = ['task', 'message', 'statusUpdate', 'artifactUpdate'].find((name) => name in value);
  return key ? `${where}.${key}` : where;
}

/**
 * One streamed item (Message, Task, status or artifact update), 0.3 or 1.0 JSON.
 * @example `decodeStreamEvent({ statusUpdate: { … } }, '1.0').kind // 'status-update'`
 */
export function decodeStreamEvent(value: unknown, version: A2AProtocolVersion, where = 'result'): A2AStreamEvent {
  const normalized = version === '1.0' ? streamEventFromV1(value) : value;
  return validate(streamEvent, normalized, version === '1.0' ? wrapped(value, where) : where, 'A2A stream event');
}

/**
 * A Task (tasks/get, tasks/cancel), 0.3 or 1.0 JSON.
 * @example `decodeTask(json.result, '0.3').status.state`
 */
export function decodeTask(value: unknown, version: A2AProtocolVersion, where = 'result'): Task {
  return validate(task, version === '1.0' ? taskFromV1(value) : value, where, 'A2A task');
}

/**
 * `message/send` params as a server receives them, 0.3 or 1.0 JSON.
 * @example `decodeMessageSendParams(body.params, '0.3').message.parts`
 */
export function decodeMessageSendParams(value: unknown, version: A2AProtocolVersion): MessageSendParams {
  let normalized = value;
  if (version === '1.0' && value !== null && typeof value === 'object' && 'message' in value) {
    normalized = { ...(value as object), message: messageFromV1((value as { message: unknown }).message) };
  }
  return validate(messageSendParams, normalized, 'params', 'message/send params');
}

/** `{id, historyLength?}` params of tasks/get, tasks/cancel, tasks/resubscribe. */
export function decodeTaskQueryParams(value: unknown): { id: string; historyLength?: number } {
  return validate(taskQueryParams, value, 'params', 'task params');
}

/**
 * An agent card (0.3 or 1.0).
 * @example `decodeAgentCard(await response.json()).name`
 */
export function decodeAgentCard(value: unknown, where = 'agent card'): AgentCard {
  return validate(agentCard, value, where, 'agent card');
}
