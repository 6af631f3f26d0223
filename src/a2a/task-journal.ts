/**
 * @internal Where a running task's progress is written before it is sent: every status transition, and every
 * streamed artifact chunk. A task execution awaits the write, then publishes, so what any client saw is what storage
 * holds. The in-memory handler's journal saves status transitions to its `A2ATaskStore` (chunks live in the running
 * task); the Durable Object journal (`faultline/cloudflare`) writes chunks too, so a restart loses nothing sent.
 */
import { withOwner, type A2ATaskStore } from './task-store.js';
import type { Task, TaskArtifactUpdateEvent } from './types.js';

/** @internal */
export interface TaskJournal {
  /** The task after a status transition (submitted, working, a recoverable error, the end); resolves once written. */
  status(task: Task): Promise<void>;
  /** One streamed chunk (the task's artifact already includes it); resolves once written. */
  chunk(task: Task, event: TaskArtifactUpdateEvent): Promise<void>;
}

/**
 * @internal The journal over a plain task store: status transitions saved (with `owner`, for a store of the app's:
 * see `withOwner`), chunks kept with the running task only.
 */
export function storeJournal(store: A2ATaskStore, owner?: string): TaskJournal {
  return { status: (task) => store.save(owner === undefined ? task : withOwner(task, owner)), chunk: async () => {} };
}
