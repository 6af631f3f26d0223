/**
 * @internal Whose a task is, and reading it from the task store. A task is its starter's: another user holding its
 * id reads, follows, cancels and answers nothing of it — it is not there for them. A store of the app's keeps each
 * task's owner with it (`ownersSaved`); a task whose owner is not known is anyone's only there (saved before owners
 * were); with the default store it is nobody's.
 */
import { startTimer } from '../internal/delay.js';
import { splitOwner, type A2ATaskStore } from './task-store.js';
import type { Task } from './types.js';

/** Task owners an in-memory backend remembers (more than its default store keeps: 1,000 tasks). */
export const MAX_OWNERS_KEPT = 10_000;

/** @internal What `TaskOwners` reads from the backend's settings (see `TaskOperationsSettings`). */
export interface TaskOwnerSettings {
  store: A2ATaskStore;
  ownerOf?: ((taskId: string) => Promise<string | undefined>) | undefined;
  ownersComplete?: boolean | undefined;
  ownersSaved?: boolean | undefined;
  maxOwners?: number | undefined;
  journalTimeoutMs?: number | undefined;
}

/** @internal */
export class TaskOwners {
  private readonly owners = new Map<string, string>();
  private readonly maxOwners: number;
  private readonly storeMs: number;

  constructor(
    private readonly settings: TaskOwnerSettings,
    private readonly live: ReadonlyMap<string, unknown>,
  ) {
    this.maxOwners = Math.max(MAX_OWNERS_KEPT, settings.maxOwners ?? 0);
    this.storeMs = settings.journalTimeoutMs ?? 10_000;
  }

  /** The owner this process knows of `taskId`, if any. */
  of(taskId: string): string | undefined {
    return this.owners.get(taskId);
  }

  /** Whether `taskId` is someone else's than `userId`'s: then it is not there for them. */
  othersTask = async (taskId: string, userId: string): Promise<boolean> => {
    const { settings, live } = this;
    let owner = settings.ownerOf ? await settings.ownerOf(taskId) : this.owners.get(taskId);
    if (owner === undefined && settings.ownersSaved && !live.has(taskId)) owner = (await this.read(taskId))?.owner;
    return owner === undefined ? settings.ownersComplete === true && (live.has(taskId) || (await this.bounded(() => settings.store.get(taskId))) !== undefined) : owner !== userId;
  };

  /** A stored task as the handler answers with it (without its owner). */
  stored = async (taskId: string): Promise<Task | undefined> => (await this.read(taskId))?.task;

  /** Remembers `taskId`'s owner; past the bound, forgets the oldest owner of a task no longer running (a live one's never). */
  remember(taskId: string, userId: string): void {
    this.owners.set(taskId, userId);
    if (this.owners.size <= this.maxOwners) return;
    for (const id of this.owners.keys()) {
      if (this.live.has(id) || id === taskId) continue;
      this.owners.delete(id);
      return;
    }
  }

  /**
   * A task store call, bounded like a journal write: one that does not answer in time fails its request (-32603,
   * `TimeoutError`), so a hanging store never holds a request, nor a task's turn (a follow-up or a cancel waits on it).
   */
  bounded = <T>(call: () => Promise<T>): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => (timer = startTimer(() => reject(new DOMException(`The task store did not answer within ${this.storeMs} ms`, 'TimeoutError')), this.storeMs)));
    return Promise.race([Promise.resolve().then(call), late]).finally(() => clearTimeout(timer));
  };

  /** A stored task, and its owner when it was saved with one (`ownersSaved`: then learned). */
  private async read(taskId: string): Promise<{ task: Task; owner?: string } | undefined> {
    const saved = await this.bounded(() => this.settings.store.get(taskId));
    if (saved === undefined || !this.settings.ownersSaved) return saved && { task: saved };
    const found = splitOwner(saved);
    if (found.owner !== undefined) this.remember(taskId, found.owner);
    return found;
  }
}
