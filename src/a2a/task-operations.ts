/**
 * @internal The task backend of an A2A server: it starts runs, keeps the live ones, answers `tasks/*` from them or
 * from the task store. `createA2AHandler` uses it in memory; a Durable Object (`faultline/cloudflare`) runs the same
 * code over its own storage, so both answer every call identically.
 */
import { createId } from '../internal/ids.js';
import type { TaskRunner } from './task-execution-options.js';
import { A2AErrorCode, TaskState, type A2AProtocolVersion } from './constants.js';
import { callFailure, failure, type A2ACall } from './handler-front.js';
import type { WaitUntil } from './handler-http.js';
import { jsonResponse, resultBody, SSE_HEADERS, sseFrame, type RequestId } from './jsonrpc.js';
import { streamResponse, type StreamLimits } from './sse-response.js';
import { TaskExecution } from './task-execution.js';
import { decisionsKey, decisionsOf, pendingRunId, refusalData, TaskResumes, withoutQuestions } from './task-interrupts.js';
import { agentMessage, CANCELED_TEXT } from './task-run-events.js';
import { isoTimestamp } from '../internal/clock.js';
import type { TaskJournal } from './task-journal.js';
import { withOwner, type A2ATaskStore } from './task-store.js';
import { TaskOwners } from './task-owners.js';
import type { A2AMessage, A2AStreamEvent, Task } from './types.js';
import { streamEventToV1, taskToV1 } from './v1-codec.js';
import { startTimer } from '../internal/delay.js';

/** @internal */
export interface TaskOperationsSettings extends StreamLimits {
  runner: TaskRunner;
  /** Where finished (and, for other isolates, running) tasks are read. */
  store: A2ATaskStore;
  /** Where a new task's progress is written. */
  journal: (task: NewTask) => TaskJournal;
  structured: boolean;
  secrets: readonly string[];
  maxLiveTasks: number;
  /** See `TaskExecutionOptions.journalTimeoutMs`. */
  journalTimeoutMs?: number | undefined;
  /** The live runs (a Durable Object passes its own, to resume into it). @default a new map */
  live?: Map<string, TaskExecution> | undefined;
  /** Keeps a run alive past its request (a platform's `waitUntil`). */
  waitUntil?: ((platform: readonly unknown[]) => WaitUntil | undefined) | undefined;
  /** Called when a run starts (a Durable Object schedules its heartbeat). */
  onStart?: ((execution: TaskExecution) => void) | undefined;
  /**
   * The user who started a task (a Durable Object reads its record). @default who started it here, the last
   * `MAX_OWNERS_KEPT` tasks remembered
   */
  ownerOf?: ((taskId: string) => Promise<string | undefined>) | undefined;
  /**
   * No task outlives what this process remembers (the default in-memory store): a task whose owner is not known is
   * then nobody's to read, follow, cancel or answer — never anyone's. @default false (an app's store: a task saved
   * before owners were)
   */
  ownersComplete?: boolean | undefined;
  /**
   * Each task is saved with its owner (`withOwner`, a store of the app's): a task read back has it removed, and its
   * owner learned. @default false
   */
  ownersSaved?: boolean | undefined;
  /** How many owners to remember (at least `MAX_OWNERS_KEPT`: as many as the store keeps, and the live ones). */
  maxOwners?: number | undefined;
}

/** @internal What a task is started with (a Durable Object keeps it, to resume the run). */
export interface NewTask {
  taskId: string;
  invocationId: string;
  userId: string;
  message: A2AMessage;
  /** The message is a follow-up whose decisions the run was resumed with (a restarted object continues that resume). */
  answered?: true | undefined;
  /** Whose the task is, as a store of the app's keeps it (`ownersSaved`); none for a task saved before owners were. */
  owner?: string | undefined;
}

/** @internal The backend, and its live-run map. */
export interface TaskOperations {
  answer(call: A2ACall, platform?: readonly unknown[]): Promise<Response>;
  readonly live: Map<string, TaskExecution>;
  /** Keeps a run in the live map until it ends (a resumed one too). */
  track(execution: TaskExecution, platform?: readonly unknown[]): void;
}

/** @internal */
export function createTaskOperations(settings: TaskOperationsSettings): TaskOperations {
  const { runner, store, structured, secrets, maxLiveTasks } = settings;
  const live = settings.live ?? new Map<string, TaskExecution>();
  const resumes = new TaskResumes<TaskExecution>();
  const deciding = new Map<string, TaskExecution>(); // a task's resume until it is accepted (not yet in `live`)
  const cancels = new Map<string, number>(); // the cancels of a task waiting for its turn
  const owners = new TaskOwners(settings, live);
  const { bounded, stored } = owners;

  const track = (execution: TaskExecution, platform: readonly unknown[] = []) => {
    live.set(execution.task.id, execution);
    const settled = execution.done.finally(() => live.delete(execution.task.id)).catch(() => {});
    settings.waitUntil?.(platform)?.(settled);
    settings.onStart?.(execution);
  };
  const start = (message: A2AMessage, call: A2ACall & { operation: 'SendMessage' | 'StreamMessage' }, platform: readonly unknown[]): TaskExecution => {
    const task: NewTask = { taskId: call.taskId ?? createId('task'), invocationId: createId('invocation'), userId: call.userId, message, owner: call.userId };
    owners.remember(task.taskId, call.userId);
    const execution = new TaskExecution(message, { runner, journal: settings.journal(task), structured, userId: call.userId, secrets, taskId: task.taskId, invocationId: task.invocationId, journalTimeoutMs: settings.journalTimeoutMs, traceparent: call.traceparent });
    track(execution, platform);
    return execution;
  };
  /**
   * A follow-up message on a task: `undefined` when it is a new task's (no task id), else the answer — a JSON-RPC
   * error that changes nothing, or the resumed run (the task is the same).
   * Follow-ups of one task take turns up to the agent's decision (see `TaskResumes`).
   */
  const followUp = async (call: A2ACall & { operation: 'SendMessage' | 'StreamMessage' }, platform: readonly unknown[]): Promise<Response | undefined> => {
    const { id, version } = call;
    const taskId = call.params.message.taskId;
    if (typeof taskId !== 'string' || taskId === '') return undefined;
    // Before its turn, not in it: a follow-up's turn takes no step more than it did (identical concurrent answers
    // still find the run they join).
    if (await owners.othersTask(taskId, call.userId)) return failure(id, A2AErrorCode.TaskNotFound, `Task not found: ${taskId.slice(0, 200)}`, version);
    const outcome = await resumes.inTurn(taskId, () => decide(call, taskId, platform));
    if (outcome === undefined || outcome instanceof Response) return outcome;
    if (call.operation === 'StreamMessage') {
      if (outcome.terminal) return new Response(sseFrame(resultBody(id, encodeEvent(version)(outcome.task))), { headers: SSE_HEADERS });
      return streamResponse(id, outcome, encodeEvent(version), outcome.task, settings);
    }
    if (!returnsAtOnce(call)) await outcome.done;
    return jsonResponse(resultBody(id, encodeEvent(version)(returnsAtOnce(call) ? outcome.task : outcome.result)));
  };
  /** A follow-up's turn: a refusal, no resume at all (`undefined`), or the run that answers it (its own, or the one it joins). */
  const decide = async (call: A2ACall & { operation: 'SendMessage' | 'StreamMessage' }, taskId: string, platform: readonly unknown[]): Promise<Response | TaskExecution | undefined> => {
    const { id, version } = call;
    const message = call.params.message;
    const carried = decisionsOf(message);
    const task = live.get(taskId)?.task ?? (await stored(taskId));
    // A message naming a task answers that task, never starts another one in its place: an id nobody holds is not
    // found (but for a Durable Object's new task, whose id its Worker minted beside the message), and a task that
    // does not wait takes no text.
    if (!task) return taskId === call.taskId ? undefined : failure(id, A2AErrorCode.TaskNotFound, `Task not found: ${taskId.slice(0, 200)}`, version);
    const waiting = task.status.state === 'input-required';
    const refuse = (code: string, text: string) => failure(id, A2AErrorCode.InvalidParams, text, version, { type: 'resume', code, taskState: task.status.state });
    if (carried === undefined && !waiting) return refuse('RUN_NOT_INTERRUPTED', `Task ${taskId.slice(0, 200)} is ${task.status.state}, not waiting on interrupts: send a message without its taskId for a new task`);
    if (carried === undefined) return refuse('RESUME_PAYLOAD_INVALID', `Task ${taskId.slice(0, 200)} waits on interrupts: answer with a data part { "decisions": [...] }`);
    if ('problem' in carried) return refuse('RESUME_PAYLOAD_INVALID', `The decisions for task ${taskId.slice(0, 200)} were refused: ${carried.problem}`);
    const key = decisionsKey(carried.decisions);
    const running = resumes.running(taskId);
    if (running) {
      if (running.key === key) return running.execution;
      return refuse('RESUME_CONFLICT', `Task ${taskId.slice(0, 200)} is being resumed with other decisions; read it with tasks/get once it ends`);
    }
    const runId = waiting ? pendingRunId(task) : undefined;
    if (runId === undefined) return refuse('RUN_NOT_INTERRUPTED', `Task ${taskId.slice(0, 200)} is ${task.status.state}, not waiting on interrupts: nothing to resume`);
    if (live.size >= maxLiveTasks) return busy(id, version);
    // saved as the task's owner's (an answer never makes a task the answerer's)
    const journal = settings.journal({ taskId, invocationId: runId, userId: call.userId, message, answered: true, owner: owners.of(taskId) });
    const execution = new TaskExecution(message, { runner, journal, structured, userId: call.userId, secrets, taskId, resume: { runId, decisions: carried.decisions as never }, journalTimeoutMs: settings.journalTimeoutMs, traceparent: call.traceparent }, task);
    // Until it is accepted (for approved tools: once they ran) the resume holds the task's turn: a cancel reaches it here.
    deciding.set(taskId, execution);
    if (cancels.has(taskId)) execution.cancel(); // a cancel that came after this answer stops the run it starts
    const refusal = await execution.accepted.finally(() => deciding.delete(taskId));
    if (refusal) return failure(id, A2AErrorCode.InvalidParams, refusal.message, version, refusalData(refusal));
    track(execution, platform);
    resumes.hold(taskId, key, execution);
    return execution;
  };
  /**
   * Cancels a task, in its turn (a cancel and an answer never both win): a running one stops (answered with the task
   * as it is by 5 s at the latest), a waiting one (`input-required`, its run stopped to ask) is written `canceled`, so
   * no answer resumes it. An answer still deciding when the cancel comes is stopped at once, not waited for. A task
   * that ended is `ended` (the spec's not cancelable, a canceled one too); `undefined` when there is no task.
   */
  const cancel = async (taskId: string): Promise<{ canceled: Task } | { ended: Task } | undefined> => {
    cancels.set(taskId, (cancels.get(taskId) ?? 0) + 1);
    try {
      deciding.get(taskId)?.cancel();
      return await resumes.inTurn(taskId, () => cancelInTurn(taskId));
    } finally {
      const left = (cancels.get(taskId) ?? 1) - 1;
      if (left > 0) cancels.set(taskId, left);
      else cancels.delete(taskId);
    }
  };
  const cancelInTurn = async (taskId: string): Promise<{ canceled: Task } | { ended: Task } | undefined> => {
    const execution = live.get(taskId);
    if (execution && (!execution.terminal || execution.cancelRequested)) {
      // A run that stopped to ask while its end is being saved: it is canceled as a waiting task, once saved.
      const asking = execution.task.status.state === TaskState.InputRequired && !execution.cancelRequested;
      if (!asking) execution.cancel();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([execution.done, new Promise((resolve) => (timer = startTimer(() => resolve(undefined), 5_000)))]);
      clearTimeout(timer);
      if (!asking) return { canceled: execution.task };
    }
    const task = execution?.task ?? (await stored(taskId));
    if (!task) return undefined;
    if (task.status.state !== TaskState.InputRequired) return { ended: task };
    const message = agentMessage(task, CANCELED_TEXT);
    const canceled: Task = { ...task, status: { state: TaskState.Canceled, message, timestamp: isoTimestamp() }, history: [...(task.history ?? []), message] };
    if (task.metadata) canceled.metadata = withoutQuestions(task.metadata);
    const owner = owners.of(taskId);
    await bounded(() => store.save(settings.ownersSaved && owner !== undefined ? withOwner(canceled, owner) : canceled));
    return { canceled };
  };
  const encodeEvent = (version: A2AProtocolVersion) => (event: A2AStreamEvent) => (version === '1.0' ? streamEventToV1(event as never) : event);
  const busy = (id: RequestId, version: A2AProtocolVersion) =>
    failure(id, A2AErrorCode.InternalError, `The agent is running its limit of ${maxLiveTasks} tasks; retry shortly`, version, undefined, 503, { 'retry-after': '1' });

  async function answer(call: A2ACall, platform: readonly unknown[] = []): Promise<Response> {
    const { id, version } = call;
    const encodeEvent = (event: A2AStreamEvent) => (version === '1.0' ? streamEventToV1(event as never) : event);
    const encodeTask = (task: Task) => (version === '1.0' ? taskToV1(task as never) : task);
    const notFound = (taskId: string) => failure(id, A2AErrorCode.TaskNotFound, `Task not found: ${taskId.slice(0, 200)}`, version);
    switch (call.operation) {
      case 'SendMessage': {
        const resumed = await followUp(call, platform);
        if (resumed) return resumed;
        if (live.size >= maxLiveTasks) return busy(id, version);
        const execution = start(call.params.message, call, platform);
        if (returnsAtOnce(call)) return jsonResponse(resultBody(id, encodeEvent(execution.task)));
        await execution.done;
        return jsonResponse(resultBody(id, encodeEvent(execution.result)));
      }
      case 'StreamMessage': {
        const resumed = await followUp(call, platform);
        if (resumed) return resumed;
        if (live.size >= maxLiveTasks) return busy(id, version);
        const execution = start(call.params.message, call, platform);
        return streamResponse(id, execution, encodeEvent, undefined, settings);
      }
      case 'GetTask': {
        const { params } = call;
        if (await owners.othersTask(params.id, call.userId)) return notFound(params.id);
        const task = live.get(params.id)?.task ?? (await stored(params.id));
        if (!task) return notFound(params.id);
        const keep = params.historyLength === undefined ? undefined : Math.max(0, Math.floor(params.historyLength));
        const trimmed = keep !== undefined && task.history ? { ...task, history: keep === 0 ? [] : task.history.slice(-keep) } : task;
        return jsonResponse(resultBody(id, encodeTask(trimmed)));
      }
      case 'CancelTask': {
        const { params } = call;
        if (await owners.othersTask(params.id, call.userId)) return notFound(params.id);
        const outcome = await cancel(params.id);
        if (!outcome) return notFound(params.id);
        if ('ended' in outcome) return failure(id, A2AErrorCode.TaskNotCancelable, `Task ${params.id} is ${outcome.ended.status.state} and cannot be canceled`, version);
        return jsonResponse(resultBody(id, encodeTask(outcome.canceled)));
      }
      case 'Resubscribe': {
        const { params } = call;
        if (await owners.othersTask(params.id, call.userId)) return notFound(params.id);
        const execution = live.get(params.id);
        if (execution && !execution.terminal) return streamResponse(id, execution, encodeEvent, execution.task, settings);
        const task = execution?.task ?? (await stored(params.id));
        if (!task) return notFound(params.id);
        return new Response(sseFrame(resultBody(id, encodeEvent(task))), { headers: SSE_HEADERS });
      }
    }
  }

  return {
    live,
    track,
    answer: async (call, platform) => {
      try {
        return await answer(call, platform);
      } catch (error) {
        return callFailure(call, error);
      }
    },
  };
}

/** A `message/send` that asks not to wait for the run (0.3 `blocking: false`, 1.0 `returnImmediately`): answered with the task as it is. */
function returnsAtOnce(call: A2ACall & { operation: 'SendMessage' | 'StreamMessage' }): boolean {
  const configuration = call.params.configuration as { blocking?: boolean; returnImmediately?: boolean } | undefined;
  return configuration?.blocking === false || configuration?.returnImmediately === true;
}
