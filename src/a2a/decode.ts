/**
 * Validating what arrives from the wire. Every decoder either returns a typed value or throws a `SerializeError`
 * whose `issues` name each path that failed (`result.status.state: expected one of …`) — never a crash.
 */
import * as z from 'zod/mini';
import { SerializeError, type SerializeIssue } from '../errors/serialize-error.js';
import { truncate } from '../internal/json.js';
import { formatPath } from '../tools/tool-arguments.js';
import type { A2AProtocolVersion } from './constants.js';
import {
  agentCardSchema,
  messageSendParamsSchema,
  sendResultSchema,
  streamEventSchema,
  taskQueryParamsSchema,
  taskSchema,
} from './schemas.js';
import type { A2AStreamEvent, AgentCard, MessageSendParams, SendMessageResult, Task } from './types.js';
import { messageFromV1, sendResultFromV1, streamEventFromV1, taskFromV1 } from './v1-codec.js';

function describe(issue: z.core.$ZodIssue): string {
  const details = issue as unknown as { expected?: unknown; values?: unknown[]; options?: unknown[]; note?: string };
  if (issue.code === 'invalid_value' && Array.isArray(details.values)) return `expected one of ${details.values.map(String).join('|')}`;
  if (issue.code === 'invalid_type' && details.expected !== undefined) return `expected ${String(details.expected)}`;
  if (issue.code === 'invalid_union' && Array.isArray(details.options)) return `expected one of ${details.options.map(String).join('|')}`;
  return details.note ?? issue.message;
}

/** Validates `value` against `schema`; failures become a `SerializeError` naming `where` + each issue's path. */
export function validate<T>(schema: z.ZodMiniType, value: unknown, where: string, subject: string): T {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data as T;
  const issues: SerializeIssue[] = result.error.issues.slice(0, 20).map((issue) => {
    const inner = formatPath(issue.path as PropertyKey[]);
    const path = inner === '(root)' ? where : inner.startsWith('[') ? `${where}${inner}` : `${where}.${inner}`;
    return { code: issue.code, path, message: describe(issue) };
  });
  const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  throw new SerializeError(`Invalid ${subject}: ${truncate(summary, 1000)}`, { subject, issues });
}

/**
 * A `message/send` result (Task or Message), 0.3 or 1.0 JSON; a `SerializeError` naming each bad path otherwise.
 * @example `decodeSendResult(json.result, '0.3')`
 */
export function decodeSendResult(value: unknown, version: A2AProtocolVersion, where = 'result'): SendMessageResult {
  return validate(sendResultSchema, version === '1.0' ? sendResultFromV1(value) : value, version === '1.0' ? wrapped(value, where) : where, 'A2A send result');
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
  return validate(streamEventSchema, normalized, version === '1.0' ? wrapped(value, where) : where, 'A2A stream event');
}

/**
 * A Task (tasks/get, tasks/cancel), 0.3 or 1.0 JSON.
 * @example `decodeTask(json.result, '0.3').status.state`
 */
export function decodeTask(value: unknown, version: A2AProtocolVersion, where = 'result'): Task {
  return validate(taskSchema, version === '1.0' ? taskFromV1(value) : value, where, 'A2A task');
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
  return validate(messageSendParamsSchema, normalized, 'params', 'message/send params');
}

/** `{id, historyLength?}` params of tasks/get, tasks/cancel, tasks/resubscribe. */
export function decodeTaskQueryParams(value: unknown): { id: string; historyLength?: number } {
  return validate(taskQueryParamsSchema, value, 'params', 'task params');
}

/**
 * An agent card (0.3 or 1.0).
 * @example `decodeAgentCard(await response.json()).name`
 */
export function decodeAgentCard(value: unknown, where = 'agent card'): AgentCard {
  return validate(agentCardSchema, value, where, 'agent card');
}
