/**
 * A task whose run stopped to ask: it ends `input-required` (not failed), its status message naming what it
 * waits on; a follow-up message on the same task carrying `{ decisions }` in a data part answers it through the
 * Runner's resume. The names live under one metadata key of faultline's own (`faultline`), beside `task_state` (the
 * tRPC-Agent-Go key every reader knows); the tool calls' arguments never leave. The handler writes and reads these;
 * a client reads them back with `taskInterrupts` (event-converter.ts) and answers with `decisionsMessage` (client.ts).
 */
import { ErrorMetadataKey, FAULTLINE_METADATA_KEY, TaskState } from './constants.js';
import { argumentsKey } from '../interrupts/arguments-key.js';
import { isPlainObject } from '../internal/json.js';
import { summarizeInterrupts, type InterruptSummary } from '../runner/interrupt-summary.js';
import type { ResponseError } from '../errors/response-error.js';
import type { A2AMessage, A2AMetadata, Task } from './types.js';

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

/*
 * The follow-ups answering one waiting task take turns up to the agent's decision on each: the first with valid
 * decisions resumes the run; one that arrives while that resume runs joins it when its decisions are the same (its
 * answer is the resumed run's) and is refused `RESUME_CONFLICT` when they differ. Concurrent identical answers — a
 * client's retries, or the same answer through several isolates of a Durable Object deployment — so run the side
 * effect once and all read the one outcome, without racing the agent's own resume claim.
 */

/** @internal One task's accepted resume, with its decisions' key. */
export interface RunningResume<Run> {
  key: string;
  execution: Run;
}

/** @internal The turns and the running resumes of a task backend's tasks. */
export class TaskResumes<Run extends { readonly done: Promise<void> }> {
  private readonly turns = new Map<string, Promise<void>>();
  private readonly resumes = new Map<string, RunningResume<Run>>();

  /** Runs `work` for `taskId` once every earlier follow-up of that task has had its turn. */
  async inTurn<T>(taskId: string, work: () => Promise<T>): Promise<T> {
    const before = this.turns.get(taskId);
    let release: () => void = () => {};
    const mine = new Promise<void>((resolve) => (release = resolve));
    const turn = before ? before.then(() => mine) : mine;
    this.turns.set(taskId, turn);
    try {
      if (before) await before;
      return await work();
    } finally {
      release();
      if (this.turns.get(taskId) === turn) this.turns.delete(taskId);
    }
  }

  /** The accepted resume of `taskId` whose run has not ended, if any. */
  running(taskId: string): RunningResume<Run> | undefined {
    return this.resumes.get(taskId);
  }

  /** Keeps `execution` as its task's running resume until its run ends. */
  hold(taskId: string, key: string, execution: Run): void {
    const held: RunningResume<Run> = { key, execution };
    this.resumes.set(taskId, held);
    void execution.done
      .finally(() => {
        if (this.resumes.get(taskId) === held) this.resumes.delete(taskId);
      })
      .catch(() => {});
  }
}

/** @internal A task's metadata without what it said it waits on (its questions answered, or the task canceled). */
export function withoutQuestions(metadata: A2AMetadata): A2AMetadata {
  const { [FAULTLINE_METADATA_KEY]: _questions, [ErrorMetadataKey.TaskState]: _state, ...rest } = metadata;
  return rest;
}

/** @internal One string per set of decisions, whatever their order or the order of their keys. */
export function decisionsKey(decisions: readonly unknown[]): string {
  const idOf = (entry: unknown): string => (isPlainObject(entry) && typeof entry.id === 'string' ? entry.id : '');
  return argumentsKey([...decisions].sort((a, b) => (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0)));
}
