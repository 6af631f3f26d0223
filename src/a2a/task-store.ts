import { cloneJSONLike } from '../internal/json.js';
import type { Task } from './types.js';

/**
 * Where the A2A handler keeps tasks (`tasks/get`, `tasks/cancel`, `tasks/resubscribe`). Implement it over any
 * storage (KV, Durable Objects, a database).
 * @example `createA2AHandler({ agent, card, taskStore: new InMemoryA2ATaskStore({ maxTasks: 10_000 }) })`
 */
export interface A2ATaskStore {
  get(taskId: string): Promise<Task | undefined>;
  save(task: Task): Promise<void>;
}

/**
 * The default task store: in memory, bounded (the oldest tasks are forgotten first), copies in and out.
 * @example `new InMemoryA2ATaskStore({ maxTasks: 1000 })`
 */
export class InMemoryA2ATaskStore implements A2ATaskStore {
  private readonly tasks = new Map<string, Task>();
  private readonly maxTasks: number;

  constructor(options: { maxTasks?: number } = {}) {
    this.maxTasks = Math.max(1, options.maxTasks ?? 1000);
  }

  async get(taskId: string): Promise<Task | undefined> {
    const task = this.tasks.get(taskId);
    return task ? cloneJSONLike(task) : undefined;
  }

  async save(task: Task): Promise<void> {
    this.tasks.delete(task.id);
    this.tasks.set(task.id, cloneJSONLike(task));
    while (this.tasks.size > this.maxTasks) this.tasks.delete(this.tasks.keys().next().value as string);
  }
}
