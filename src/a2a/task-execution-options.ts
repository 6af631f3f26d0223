/** @internal What one task's execution needs (see `TaskExecution`). */
import type { RunEvent } from '../runner/event.js';
import type { RunnerResume } from '../runner/resume-run.js';
import type { RunnerRunOptions } from '../runner/run-options.js';
import type { TaskJournal } from './task-journal.js';

/** What a task runs on: a `Runner`, or the handler's runner made on first use. */
export interface TaskRunner {
  run(options: RunnerRunOptions): AsyncIterable<RunEvent>;
}

export interface TaskExecutionOptions {
  runner: TaskRunner;
  /** Where each transition and chunk is written before it is published. */
  journal: TaskJournal;
  structured: boolean;
  userId: string;
  /** Removed, in every form, from everything the task sends. */
  secrets: readonly string[];
  /** @default a new `task-<uuid>` (a Durable Object deployment mints ids that route to their object) */
  taskId?: string | undefined;
  /** The run's invocation id (kept with the task, so a restarted object can resume a checkpointed run). @default a new one */
  invocationId?: string | undefined;
  /** How long one journal (task store) write may take before the task goes on without it. @default 10000 */
  journalTimeoutMs?: number | undefined;
  /** The W3C `traceparent` the run's spans are children of (the request's server span). */
  traceparent?: string | undefined;
  /** Answer the task's stopped run (a follow-up message's decisions) instead of running the message. */
  resume?: RunnerResume | undefined;
  /**
   * The `resume` was accepted before the process that ran it ended (a restarted Durable Object continues it): the
   * agent replays its decisions, nothing is decided again and the follow-up is not added to the history a second time.
   */
  accepted?: boolean | undefined;
}
