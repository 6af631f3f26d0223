import { ConfigError } from '../errors/config-error.js';
import { cloneJSONLike } from '../internal/json.js';
import { boundOptionProblems } from '../internal/option-names.js';
import type { Task } from './types.js';

/**
 * Where the A2A handler keeps tasks (`tasks/get`, `tasks/cancel`, `tasks/resubscribe`). Implement it over any
 * storage (KV, Durable Objects, a database); keep `metadata` as it is saved: a task is saved with the `userId` that
 * started it under `metadata.faultline_owner` (removed from every task the handler answers with), so who may read it
 * outlives the process.
 * @example `createA2AHandler({ agent, card, taskStore: new InMemoryA2ATaskStore({ maxTasks: 10_000 }) })`
 */
export interface A2ATaskStore {
  get(taskId: string): Promise<Task | undefined>;
  save(task: Task): Promise<void>;
}

/**
 * @internal The `metadata` key under which a task is saved with its owner (the `userId` that started it) in a task
 * store of the app's, so who may read it outlives this process; removed from every task read back.
 */
export const TASK_OWNER_KEY = 'faultline_owner';

/** @internal `task` as a store of the app's keeps it: with its owner. */
export function withOwner(task: Task, owner: string): Task {
  return { ...task, metadata: { ...task.metadata, [TASK_OWNER_KEY]: owner } };
}

/** @internal A task read back from a store of the app's, without its owner, and that owner (none: saved before owners were). */
export function splitOwner(saved: Task): { task: Task; owner?: string } {
  if (!saved.metadata || !(TASK_OWNER_KEY in saved.metadata)) return { task: saved };
  const { [TASK_OWNER_KEY]: owner, ...metadata } = saved.metadata;
  const task: Task = { ...saved };
  if (Object.keys(metadata).length > 0) task.metadata = metadata;
  else delete task.metadata;
  return typeof owner === 'string' ? { task, owner } : { task };
}

/** Options of {@link InMemoryA2ATaskStore}. */
export interface InMemoryA2ATaskStoreOptions {
  /** Tasks kept; past it the oldest is forgotten. @default 1000 */
  maxTasks?: number | undefined;
  /** Size of everything kept, as the length of the tasks' JSON text; past it the oldest tasks go. @default 16777216 (16 MiB) */
  maxBytes?: number | undefined;
}

/**
 * The default task store: in memory, bounded by count and by size (the oldest tasks are forgotten first; a task is
 * kept even when it alone is over the size bound, so the newest task can always be read back), copies in and out.
 * @example `new InMemoryA2ATaskStore({ maxTasks: 1000, maxBytes: 8 * 1024 * 1024 })`
 */
export class InMemoryA2ATaskStore implements A2ATaskStore {
  private readonly tasks = new Map<string, { task: Task; bytes: number }>();
  private totalBytes = 0;
  readonly maxTasks: number;
  readonly maxBytes: number;

  constructor(options: InMemoryA2ATaskStoreOptions = {}) {
    const problems = boundOptionProblems(options, ['maxTasks', 'maxBytes']);
    if (problems.length > 0) throw ConfigError.fromProblems('InMemoryA2ATaskStore options', problems);
    const settings: InMemoryA2ATaskStoreOptions = options ?? {};
    this.maxTasks = settings.maxTasks ?? 1000;
    this.maxBytes = settings.maxBytes ?? 16 * 1024 * 1024;
  }

  async get(taskId: string): Promise<Task | undefined> {
    const entry = this.tasks.get(taskId);
    return entry ? cloneJSONLike(entry.task) : undefined;
  }

  async save(task: Task): Promise<void> {
    this.forget(task.id);
    let bytes = 0;
    try {
      bytes = JSON.stringify(task).length;
    } catch {
      bytes = 0; // inbound nesting is bounded, so this does not happen; a task is never refused for it
    }
    this.tasks.set(task.id, { task: cloneJSONLike(task), bytes });
    this.totalBytes += bytes;
    while (this.tasks.size > this.maxTasks || (this.totalBytes > this.maxBytes && this.tasks.size > 1)) this.forget(this.tasks.keys().next().value as string);
  }

  /** What the store holds now, against its bounds. */
  get size(): { tasks: number; bytes: number } {
    return { tasks: this.tasks.size, bytes: this.totalBytes };
  }

  private forget(taskId: string): void {
    const entry = this.tasks.get(taskId);
    if (!entry) return;
    this.totalBytes -= entry.bytes;
    this.tasks.delete(taskId);
  }
}
