/**
 * @internal One task's storage in its Durable Object. The object that runs a task owns it and holds nothing else of
 * it: a record (`a2a:task`: the task as of its last status transition, its invocation id and user, when it ended) and
 * the chunks streamed since (`a2a:chunk:<seq>`). Each status write folds the chunks into the record's artifact and
 * deletes them in the same atomic write, so a long stream costs one small write per chunk, not a growing rewrite.
 */
import type { A2ATaskStore } from '../a2a/task-store.js';
import type { TaskJournal } from '../a2a/task-journal.js';
import { TERMINAL_STATES } from '../a2a/constants.js';
import type { A2AMessage, Task, TaskArtifactUpdateEvent } from '../a2a/types.js';
import { isPlainObject } from '../internal/json.js';
import { deleteKeys, encodeEntries, getJSON, keysOf, putEntries, readJSONText } from './storage-codec.js';
import type { DurableObjectStorageLike } from './types.js';

const RECORD_KEY = 'a2a:task';
const CHUNK_PREFIX = 'a2a:chunk:';

/** @internal What an object keeps of its task. */
export interface TaskRecord {
  v: 1;
  task: Task;
  /** The run's invocation id: a checkpointed graph run is resumed under it. */
  invocationId: string;
  userId: string;
  /** The user's message that started the task. */
  message: A2AMessage;
  /** When the task reached a terminal state (ms since the epoch). */
  endedAt?: number | undefined;
}

interface Chunk {
  artifactId: string;
  text: string;
}

function chunkKey(seq: number): string {
  return `${CHUNK_PREFIX}${String(seq).padStart(10, '0')}`;
}

function isRecord(value: unknown): value is TaskRecord {
  if (!isPlainObject(value) || value.v !== 1 || typeof value.invocationId !== 'string' || typeof value.userId !== 'string') return false;
  const task = value.task as Partial<Task> | undefined;
  return isPlainObject(task) && typeof task.id === 'string' && isPlainObject(task.status) && typeof task.status.state === 'string' && isPlainObject(value.message);
}

/** @internal The task store and journal of one object. */
export class DurableTaskStore implements A2ATaskStore {
  private seq = 0;
  /** What this instance wrote last (the keys its record and chunks occupy), once it has written: no reads needed then. */
  private written: { keys: string[] } | undefined;

  constructor(private readonly storage: DurableObjectStorageLike) {}

  /** The record, or `undefined` (none, or not one this module wrote: a `TypeError` is thrown for a damaged one). */
  async record(): Promise<TaskRecord | undefined> {
    const value = await getJSON(this.storage, RECORD_KEY);
    if (value === undefined) return undefined;
    if (!isRecord(value)) throw new TypeError(`the task record of this object is damaged (${RECORD_KEY} is not a task record)`);
    return value;
  }

  async get(taskId: string): Promise<Task | undefined> {
    const record = await this.record();
    if (!record || record.task.id !== taskId) return undefined;
    return this.withChunks(record.task);
  }

  /** Writes the task (a `tasks/*` answer never calls it; kept for the `A2ATaskStore` contract). */
  async save(task: Task): Promise<void> {
    const record = await this.record();
    if (record) await this.write({ ...record, task });
  }

  /** The journal of the task this object runs, with what its record keeps besides the task. */
  journal(of: Pick<TaskRecord, 'invocationId' | 'userId' | 'message'>): TaskJournal {
    const meta = { invocationId: of.invocationId, userId: of.userId, message: of.message }; // nothing else of `of` (a whole record) rides along
    return {
      status: (task) => this.write({ v: 1, task, ...meta, ...(TERMINAL_STATES.has(task.status.state) ? { endedAt: Date.now() } : {}) }),
      chunk: async (task, event) => {
        if (event.lastChunk) return this.write({ v: 1, task, ...meta });
        await this.appendChunk(event);
      },
    };
  }

  /** The record with `task` as it is now: written together with the deletion of every chunk it now includes. */
  async write(record: TaskRecord): Promise<void> {
    const entries = encodeEntries(RECORD_KEY, record);
    const held = this.written?.keys ?? [...(await this.storage.list({ prefix: CHUNK_PREFIX })).keys(), ...(await keysOf(this.storage, RECORD_KEY))];
    const stale = held.filter((key) => !Object.hasOwn(entries, key));
    this.written = { keys: Object.keys(entries) };
    await Promise.all([putEntries(this.storage, entries), deleteKeys(this.storage, stale)]);
  }

  /** Forgets the task entirely (its retention ended). */
  async clear(): Promise<void> {
    this.written = undefined;
    await this.storage.deleteAll();
  }

  private async appendChunk(event: TaskArtifactUpdateEvent): Promise<void> {
    const text = event.artifact.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
    const chunk: Chunk = { artifactId: event.artifact.artifactId, text };
    const entries = encodeEntries(chunkKey(this.seq++), chunk);
    this.written?.keys.push(...Object.keys(entries));
    await putEntries(this.storage, entries);
  }

  /** The task with the chunks streamed since its last status write appended to its artifact. */
  private async withChunks(task: Task): Promise<Task> {
    const stored = await this.storage.list({ prefix: CHUNK_PREFIX });
    if (stored.size === 0) return task;
    let artifactId = task.artifacts?.[0]?.artifactId;
    let text = (task.artifacts?.[0]?.parts ?? []).map((part) => (part.kind === 'text' ? part.text : '')).join('');
    for (const [key, value] of stored) {
      if (key.includes('#')) continue; // a part of a large chunk, read with its header
      const json = await readJSONText(this.storage, key, value);
      if (json === undefined) continue;
      const chunk = JSON.parse(json) as Chunk;
      artifactId ??= chunk.artifactId;
      text += chunk.text;
    }
    return { ...task, artifacts: [{ artifactId: artifactId ?? 'artifact', name: 'response', parts: [{ kind: 'text', text }] }] };
  }
}
