/**
 * A task whose run stopped to ask: it ends `input-required` (not failed), its status message naming what it
 * waits on; a follow-up message on the same task carrying `{ decisions }` in a data part answers it through the
 * Runner's resume. The names live under one metadata key of faultline's own (`faultline`), beside `task_state` (the
 * tRPC-Agent-Go key every reader knows); the tool calls' arguments never leave. The handler writes and reads these;
 * a client reads them back with `taskInterrupts` and answers with `decisionsMessage`.
 */
import { ErrorMetadataKey, TaskState } from './constants.js';
import { ConfigError } from '../errors/config-error.js';
import { SerializeError, type SerializeIssue } from '../errors/serialize-error.js';
import { createId } from '../internal/ids.js';
import { isPlainObject } from '../internal/json.js';
import { MAX_NAMED_INTERRUPTS, summarizeInterrupts, type InterruptSummary } from '../runner/interrupt-summary.js';
import type { ResponseError } from '../errors/response-error.js';
import type { ResumeDecision } from '../interrupts/interrupt.js';
import type { A2AMessage, A2AMetadata, A2AStreamEvent, Task } from './types.js';

/**
 * The metadata key of faultline's own fields on a task's status, message and update (an `input-required` task's
 * `{ runId, interrupts, interruptCount }`).
 * @example `const waiting = task.metadata?.[FAULTLINE_METADATA_KEY]?.interrupts`
 */
export const FAULTLINE_METADATA_KEY = 'faultline';

/** @internal What an input-required task's metadata carries under {@link FAULTLINE_METADATA_KEY}. */
export interface TaskInterrupts {
  /** The run to resume (the Runner's invocation id). */
  runId: string;
  /** At most 50 named. */
  interrupts: InterruptSummary[];
  interruptCount: number;
}

/** @internal The metadata of a task that waits on `raw` (a completion's `response.interrupts`), or undefined. */
export function interruptMetadata(raw: unknown, runId: string, secrets: readonly string[]): A2AMetadata | undefined {
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  const { interrupts, count } = summarizeInterrupts(raw, secrets);
  const own: TaskInterrupts = { runId: interrupts.find((each) => each.runId !== '')?.runId ?? runId, interrupts, interruptCount: count };
  return { [ErrorMetadataKey.TaskState]: TaskState.InputRequired, [FAULTLINE_METADATA_KEY]: own };
}

/** @internal The display text of an input-required status: what the task waits on, by tool or node. */
export function interruptText(metadata: A2AMetadata): string {
  const own = metadata[FAULTLINE_METADATA_KEY] as TaskInterrupts;
  const named = own.interrupts.slice(0, 5).map((each) => (each.kind === 'approval' ? `an approval of ${each.toolName ?? 'a tool call'} (${each.id})` : `an answer for ${each.nodeId ?? 'a node'} (${each.id})`));
  const more = own.interruptCount > named.length ? ` and ${own.interruptCount - named.length} more` : '';
  return `The task waits on ${named.join(', ')}${more}. Answer with a message on this task holding a data part { "decisions": [...] }.`;
}

/** @internal The run an input-required task waits to resume, from its metadata. */
export function pendingRunId(task: Task): string | undefined {
  const own = task.metadata?.[FAULTLINE_METADATA_KEY];
  return isPlainObject(own) && typeof own.runId === 'string' && own.runId !== '' ? own.runId : undefined;
}

/**
 * @internal The decisions a follow-up message carries: `undefined` when no data part has a `decisions` key, an
 * `Error`-like problem text when it is malformed, else the array (its contents are the agent's to check).
 */
export function decisionsOf(message: A2AMessage): { decisions: unknown[] } | { problem: string } | undefined {
  const holders = message.parts.filter((part) => part.kind === 'data' && isPlainObject(part.data) && Object.prototype.hasOwnProperty.call(part.data, 'decisions'));
  if (holders.length === 0) return undefined;
  if (holders.length > 1) return { problem: `the message has ${holders.length} data parts with decisions; send all decisions in one { "decisions": [...] }` };
  const decisions = (holders[0] as { data: Record<string, unknown> }).data.decisions;
  if (!Array.isArray(decisions)) return { problem: 'the data part’s decisions must be an array of { id, approved } / { id, approved: false, reason } / { id, value }' };
  if (decisions.length > 1_000) return { problem: `the data part holds ${decisions.length} decisions; at most 1000 are accepted` };
  return { decisions };
}

/** @internal The JSON-RPC error data of a refused resume: its type, code, and that the task still waits. */
export function refusalData(error: ResponseError): Record<string, unknown> {
  return { type: error.type, ...(error.code !== undefined ? { code: error.code } : {}), taskState: TaskState.InputRequired };
}

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

/**
 * The follow-up message that answers an `input-required` task: on the same task (`taskId`, `contextId`), one data part
 * `{ decisions }`. Send it with `sendMessage` or `streamMessage`; a refused answer is a `JSONRPCError` (-32602, `data:
 * { type: 'resume', code }`) and the task keeps waiting. Bad arguments are a `ConfigError`.
 * @example `await client.sendMessage({ message: decisionsMessage(waiting, [{ id: 'int_1', approved: false, reason: 'Too large' }]) })`
 */
export function decisionsMessage(task: { taskId: string; contextId?: string | undefined }, decisions: readonly ResumeDecision[]): A2AMessage {
  const problems: string[] = [];
  const taskId: unknown = isPlainObject(task) ? task.taskId : undefined;
  const contextId: unknown = isPlainObject(task) ? task.contextId : undefined;
  if (typeof taskId !== 'string' || taskId === '') problems.push('task.taskId must be a non-empty string');
  if (contextId !== undefined && (typeof contextId !== 'string' || contextId === '')) problems.push('task.contextId must be a non-empty string when given');
  if (!Array.isArray(decisions) || decisions.length === 0 || decisions.length > 1_000) problems.push('decisions must be an array of 1 to 1000 decisions');
  else decisions.forEach((each: unknown, index) => {
    if (!isPlainObject(each) || typeof each.id !== 'string' || each.id === '') problems.push(`decisions[${index}] must be { id, approved } / { id, approved: false, reason } / { id, value }`);
  });
  if (problems.length > 0) throw ConfigError.fromProblems('decisions message', problems);
  const data = { decisions: decisions.map((each) => ({ ...each })) };
  return { kind: 'message', messageId: createId('msg'), role: 'user', taskId: taskId as string, ...(contextId ? { contextId: contextId as string } : {}), parts: [{ kind: 'data', data }] };
}
