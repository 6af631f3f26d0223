// The zod/mini schemas and decoders the A2A validators replaced (the first src/a2a/decode.ts), kept as the
// oracle of test/a2a/validators.test.ts: the hand-written validators must accept, refuse, copy and describe exactly
// as these did.
import * as z from 'zod/mini';
import type { A2AProtocolVersion } from '../../src/a2a/constants.js';
import type { A2AStreamEvent, AgentCard, MessageSendParams, SendMessageResult, Task } from '../../src/a2a/types.js';
import { messageFromV1, sendResultFromV1, streamEventFromV1, taskFromV1 } from '../../src/a2a/v1-codec.js';
import { SerializeError, type SerializeIssue } from '../../src/errors/serialize-error.js';
import { truncate } from '../../src/internal/json.js';
import { formatPath } from '../../src/tools/tool-arguments.js';

const metadata = z.optional(z.record(z.string(), z.unknown()));

const partSchema = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('text'), text: z.string(), metadata }),
  z.looseObject({
    kind: z.literal('file'),
    file: z.union([
      z.looseObject({ bytes: z.string(), name: z.optional(z.string()), mimeType: z.optional(z.string()) }),
      z.looseObject({ uri: z.string(), name: z.optional(z.string()), mimeType: z.optional(z.string()) }),
    ]),
    metadata,
  }),
  z.looseObject({ kind: z.literal('data'), data: z.record(z.string(), z.unknown()), metadata }),
]);

const messageSchema = z.looseObject({
  kind: z.literal('message'),
  messageId: z.string(),
  role: z.enum(['user', 'agent']),
  parts: z.array(partSchema),
  taskId: z.optional(z.string()),
  contextId: z.optional(z.string()),
  metadata,
  extensions: z.optional(z.array(z.string())),
  referenceTaskIds: z.optional(z.array(z.string())),
});

const taskStateSchema = z.enum(['submitted', 'working', 'input-required', 'completed', 'canceled', 'failed', 'rejected', 'auth-required', 'unknown']);

const taskStatusSchema = z.looseObject({
  state: taskStateSchema,
  message: z.optional(messageSchema),
  timestamp: z.optional(z.string()),
});

const artifactSchema = z.looseObject({
  artifactId: z.string(),
  name: z.optional(z.string()),
  description: z.optional(z.string()),
  parts: z.array(partSchema),
  metadata,
});

const taskSchema = z.looseObject({
  kind: z.literal('task'),
  id: z.string(),
  contextId: z.string(),
  status: taskStatusSchema,
  history: z.optional(z.array(messageSchema)),
  artifacts: z.optional(z.array(artifactSchema)),
  metadata,
});

const statusUpdateSchema = z.looseObject({
  kind: z.literal('status-update'),
  taskId: z.string(),
  contextId: z.string(),
  status: taskStatusSchema,
  final: z.boolean(),
  metadata,
});

const artifactUpdateSchema = z.looseObject({
  kind: z.literal('artifact-update'),
  taskId: z.string(),
  contextId: z.string(),
  artifact: artifactSchema,
  append: z.optional(z.boolean()),
  lastChunk: z.optional(z.boolean()),
  metadata,
});

const sendResultSchema = z.discriminatedUnion('kind', [taskSchema, messageSchema]);
const streamEventSchema = z.discriminatedUnion('kind', [taskSchema, messageSchema, statusUpdateSchema, artifactUpdateSchema]);

const messageSendParamsSchema = z.looseObject({
  message: messageSchema,
  configuration: z.optional(
    z.looseObject({
      acceptedOutputModes: z.optional(z.array(z.string())),
      historyLength: z.optional(z.number()),
      blocking: z.optional(z.boolean()),
    }),
  ),
  metadata,
});

const taskQueryParamsSchema = z.looseObject({ id: z.string(), historyLength: z.optional(z.number()), metadata });

const agentCardSchema = z.looseObject({
  name: z.string(),
  description: z.optional(z.string()),
  url: z.optional(z.string()),
  protocolVersion: z.optional(z.string()),
  preferredTransport: z.optional(z.string()),
  version: z.optional(z.string()),
  capabilities: z.optional(z.looseObject({ streaming: z.optional(z.boolean()) })),
  supportedInterfaces: z.optional(
    z.array(z.looseObject({ url: z.string(), protocolBinding: z.string(), protocolVersion: z.optional(z.string()) })),
  ),
});

function describe(issue: z.core.$ZodIssue): string {
  const details = issue as unknown as { expected?: unknown; values?: unknown[]; options?: unknown[]; note?: string };
  if (issue.code === 'invalid_value' && Array.isArray(details.values)) return `expected one of ${details.values.map(String).join('|')}`;
  if (issue.code === 'invalid_type' && details.expected !== undefined) return `expected ${String(details.expected)}`;
  if (issue.code === 'invalid_union' && Array.isArray(details.options)) return `expected one of ${details.options.map(String).join('|')}`;
  return details.note ?? issue.message;
}

/** Validates `value` against `schema`; failures become a `SerializeError` naming `where` + each issue's path. */
function validate<T>(schema: z.ZodMiniType, value: unknown, where: string, subject: string): T {
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
