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
import { SESSION_KEY_PREFIX } from './session-storage.js';
import { DamagedValueError, deleteAllExcept, deleteKeys, encodeEntries, getJSON, keysOf, parseStored, putEntries, readJSONText } from './storage-codec.js';
import { serial } from './serial-writes.js';
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
  /** How many times its run was resumed after its object restarted. */
  resumes?: number | undefined;
  /** `message` is a follow-up whose decisions resumed the run: a restart continues that resume, never runs it as a new turn. */
  answered?: true | undefined;
}

/** What a journal keeps in the record besides the task. */
export type TaskMeta = Pick<TaskRecord, 'invocationId' | 'userId' | 'message' | 'resumes' | 'answered'>;

/** Chunks written between two folds into the record: a long stream keeps a bounded number of chunk keys. */
export const CHUNKS_PER_FOLD = 256;
/** Writes of a terminal task tried before it is kept in memory only (then retried on every later write). */
const FINAL_WRITE_ATTEMPTS = 3;

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

/**
 * @internal A task record written by a later version of this module (its `v` above ours): not damaged, and not ours
 * to delete — after a rollback, the task is the later version's when it comes back.
 */
export class LaterRecordError extends DamagedValueError {}

/** @internal The task store and journal of one object. */
export class DurableTaskStore implements A2ATaskStore {
  private seq = 0;
  /** Chunks written since the last fold. */
  private unfolded = 0;
  /** What this instance wrote last (the keys its record and chunks occupy), once it has written: no reads needed then. */
  private written: { keys: string[] } | undefined;
  /** A terminal record whose write failed: what this instance answers, and writes again with the next write. */
  private unsaved: TaskRecord | undefined;

  constructor(private readonly storage: DurableObjectStorageLike) {}

  /**
   * The record, or `undefined` (none); a `DamagedValueError` (a `TypeError`) saying it is damaged for one this module
   * did not write (a parts header that is not an integer from 2 to 16,384, a missing part, text that is not JSON, not
   * a task record of this version).
   */
  record(): Promise<TaskRecord | undefined> {
    return serial(this.storage, () => this.readRecord());
  }

  /** The task with the chunks streamed since its record was written: both read in one turn, between writes. */
  async get(taskId: string): Promise<Task | undefined> {
    return serial(this.storage, async () => {
      const record = await this.readRecord();
      if (!record || record.task.id !== taskId) return undefined;
      return this.unsaved ? record.task : this.withChunks(record.task);
    });
  }

  /** See {@link record}; only inside the storage's `serial` queue (a read between a write's calls is torn). */
  private async readRecord(): Promise<TaskRecord | undefined> {
    if (this.unsaved) return this.unsaved;
    const value = await getJSON(this.storage, RECORD_KEY);
    if (value === undefined) return undefined;
    if (isPlainObject(value) && Number.isInteger(value.v) && (value.v as number) > 1) throw new LaterRecordError(RECORD_KEY, `it is a task record of version ${value.v}, written by a later version of faultline`);
    if (!isRecord(value)) throw new DamagedValueError(RECORD_KEY, 'it is not a task record (of version 1)');
    return value;
  }

  /** Writes the task, the rest of its record as it is (`tasks/cancel` of a task waiting for input). */
  save(task: Task): Promise<void> {
    return serial(this.storage, async () => {
      const record = await this.readRecord();
      if (record) await this.writeNow({ ...record, task });
    });
  }

  /** The journal of the task this object runs, with what its record keeps besides the task. */
  journal(of: TaskMeta): TaskJournal {
    const meta: TaskMeta = { invocationId: of.invocationId, userId: of.userId, message: of.message, resumes: of.resumes, answered: of.answered }; // nothing else of `of` (a whole record) rides along
    return {
      status: (task) => (TERMINAL_STATES.has(task.status.state) ? this.writeFinal({ v: 1, task, ...meta, endedAt: Date.now() }) : this.write({ v: 1, task, ...meta })),
      chunk: async (task, event) => {
        // `task` already holds this chunk: a fold writes it in the record and no chunk key (else it would be read twice)
        if (event.lastChunk || this.unfolded >= CHUNKS_PER_FOLD) await this.write({ v: 1, task, ...meta });
        else await this.appendChunk(event);
      },
    };
  }

  /**
   * A terminal record: tried a few times; if every write fails, this instance keeps answering with it (tasks/get,
   * resubscribe, cancel agree with what was sent) and writes it again before anything else.
   */
  private async writeFinal(record: TaskRecord): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.write(record);
        return;
      } catch (error) {
        if (attempt >= FINAL_WRITE_ATTEMPTS) {
          this.unsaved = record;
          throw error;
        }
      }
    }
  }

  /** The record with `task` as it is now: written together with the deletion of every chunk it now includes. */
  write(record: TaskRecord): Promise<void> {
    return serial(this.storage, () => this.writeNow(record));
  }

  /** See {@link write}; only inside the storage's `serial` queue. */
  private async writeNow(record: TaskRecord): Promise<void> {
    if (this.unsaved && record !== this.unsaved && !TERMINAL_STATES.has(record.task.status.state)) record = this.unsaved; // never overwrite an end with less
    const entries = encodeEntries(RECORD_KEY, record);
    const held = this.written?.keys ?? [...(await this.storage.list({ prefix: CHUNK_PREFIX })).keys(), ...(await keysOf(this.storage, RECORD_KEY))];
    const stale = held.filter((key) => !Object.hasOwn(entries, key));
    await Promise.all([putEntries(this.storage, entries), deleteKeys(this.storage, stale)]);
    this.written = { keys: Object.keys(entries) };
    this.unfolded = 0;
    if (record === this.unsaved || TERMINAL_STATES.has(record.task.status.state)) this.unsaved = undefined;
  }

  /**
   * Forgets the task entirely (its retention ended): every key of the object but those of the conversation it holds
   * (`session:`), which has its own retention.
   */
  clear(): Promise<void> {
    return serial(this.storage, async () => {
      this.written = undefined;
      this.unsaved = undefined;
      await deleteAllExcept(this.storage, SESSION_KEY_PREFIX);
    });
  }

  private async appendChunk(event: TaskArtifactUpdateEvent): Promise<void> {
    const text = event.artifact.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
    const chunk: Chunk = { artifactId: event.artifact.artifactId, text };
    const entries = encodeEntries(chunkKey(this.seq++), chunk);
    this.unfolded++;
    await serial(this.storage, async () => {
      this.written?.keys.push(...Object.keys(entries));
      await putEntries(this.storage, entries);
    });
  }

  /**
   * The task with the chunks streamed since its last status write appended to its artifact; a damaged chunk is a
   * `TypeError` saying so (never left out).
   */
  private async withChunks(task: Task): Promise<Task> {
    const stored = await this.storage.list({ prefix: CHUNK_PREFIX });
    if (stored.size === 0) return task;
    let artifactId = task.artifacts?.[0]?.artifactId;
    let text = (task.artifacts?.[0]?.parts ?? []).map((part) => (part.kind === 'text' ? part.text : '')).join('');
    for (const [key, value] of stored) {
      if (key.includes('#')) continue; // a part of a large chunk, read with its header
      const chunk = parseStored(key, await readJSONText(this.storage, key, value)) as Partial<Chunk> | undefined;
      if (!isPlainObject(chunk) || typeof chunk.text !== 'string' || typeof chunk.artifactId !== 'string') throw new DamagedValueError(key, 'it is not a streamed chunk');
      artifactId ??= chunk.artifactId;
      text += chunk.text;
    }
    return { ...task, artifacts: [{ artifactId: artifactId ?? 'artifact', name: 'response', parts: [{ kind: 'text', text }] }] };
  }
}
