/** What becomes of a task whose run ended with its Durable Object's last instance. */
import { ErrorType } from '../errors/constants.js';
import { TaskState, TERMINAL_STATES } from '../a2a/constants.js';
import { buildTaskErrorMessage, buildTaskErrorMetadata } from '../a2a/server-payloads.js';
import type { A2AMetadata, Task } from '../a2a/types.js';
import { isoTimestamp } from '../internal/clock.js';
import { createErrorEvent } from '../runner/event.js';

/**
 * `error_code` of a task whose run died with its Durable Object (a restart, an eviction, a deploy) before the task
 * ended and that could not be resumed — no graph checkpoint, an agent that cannot be built, or `maxResumes` resumes
 * already: the task ends `failed` with `error_type` `run_error`, this code and a message saying which; what it
 * streamed before is kept in its artifact.
 * @example `if (task.status.state === 'failed' && task.metadata?.error_code === TASK_ABANDONED) await client.sendMessage(retry)`
 */
export const TASK_ABANDONED = 'TASK_ABANDONED';

/** @internal */
export function isTerminal(task: Task): boolean {
  return TERMINAL_STATES.has(task.status.state);
}

/**
 * @internal A task with no run to lose: ended, or `input-required` — its run stopped to ask and its pending interrupts
 * are stored (graph checkpoint, run state), so a restart leaves it waiting for the follow-up that resumes it.
 */
export function isAtRest(task: Task): boolean {
  return isTerminal(task) || task.status.state === TaskState.InputRequired;
}

/** @internal Why a task could not be resumed. */
export type AbandonReason = 'no-checkpoint' | 'no-agent' | 'exhausted';

const BECAUSE: Record<AbandonReason, (resumes: number) => string> = {
  'no-checkpoint': () => 'and it had no checkpoint to resume from',
  'no-agent': () => 'and the agent could not be set up to resume it',
  exhausted: (resumes) => `and it had already been resumed ${resumes} time${resumes === 1 ? '' : 's'} (each time its run stopped with its object)`,
};

/** @internal The task ended `failed` with `TASK_ABANDONED` metadata, its status message and history entry. */
export function abandonedTask(task: Task, invocationId: string, reason: AbandonReason = 'no-checkpoint', resumes = 0): Task {
  const since = task.status.timestamp ? ` (last recorded ${task.status.state} at ${task.status.timestamp})` : '';
  const event = createErrorEvent(
    { invocationId, author: 'a2a-durable-object' },
    {
      type: ErrorType.RunError,
      code: TASK_ABANDONED,
      message: `The task's run stopped when its Durable Object was restarted, evicted or redeployed${since}, ${BECAUSE[reason](resumes)}; send the message again to retry.`,
    },
  );
  const metadata = buildTaskErrorMetadata(event) as A2AMetadata;
  const message = buildTaskErrorMessage(event, task.id, task.contextId, metadata);
  return { ...task, status: { state: TaskState.Failed, message, timestamp: isoTimestamp() }, metadata, history: [...(task.history ?? []), message] };
}
