/**
 * @internal The sessions side of a Durable Object: a conversation's messages under one key each (`session:m:<seq>`),
 * one append at a time, each one atomic write. Bounded: past `maxSessionBytes` the oldest whole turns go (the same cut
 * as `InMemorySessionStore`), and `expire` deletes a session `retainSessionMs` after its last turn. Every key starts
 * `session:`: a task's retention deletes everything else. A damaged meta value (counters that are not integers ≥ 0)
 * is recomputed from the messages stored; a damaged message fails the call with a `TypeError` saying so. An append
 * holding anything but messages is refused whole (a `SessionError`), so one bad turn never makes the rest unreadable.
 */
import type { ChatMessage } from '../chat/core/types.js';
import { messageSize, trimCut } from '../agent/session-trim.js';
import { SessionError } from '../errors/session-error.js';
import { isPlainObject, refusedValue } from '../internal/json.js';
import { DamagedValueError, deleteKeys, encodeEntries, parseStored, putEntries, readJSONText } from './storage-codec.js';
import type { DurableObjectStorageLike } from './types.js';

const META_KEY = 'session:meta';
const MESSAGE_PREFIX = 'session:m:';
/** The session key of the one session an object holds besides its task (its owner's claim). */
const OWNER_KEY = 'session:owner';
/** @internal The prefix of every key a session occupies in its object. @example `storage.list({ prefix: SESSION_KEY_PREFIX })` */
export const SESSION_KEY_PREFIX = 'session:';

interface SessionMeta {
  v: 1;
  /** The sequence number of the next message. */
  next: number;
  /** The JSON length of the messages kept. */
  bytes: number;
  /** When the last turn was appended (ms since the epoch). */
  updatedAt?: number;
}

/** A stored counter that is sound: an integer ≥ 0. */
function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function messageKey(seq: number): string {
  return `${MESSAGE_PREFIX}${String(seq).padStart(12, '0')}`;
}

/** @internal The sessions side of an object: its storage, one append at a time. */
export class SessionStorage {
  private queue: Promise<unknown> = Promise.resolve();
  /** The claimed session key as last read or written (`null`: none); unread until the first question. */
  private claimed: string | null | undefined;

  constructor(
    private readonly storage: DurableObjectStorageLike,
    private readonly maxBytes: number,
  ) {}

  /** The conversation, oldest first. */
  load(): Promise<ChatMessage[]> {
    return this.serial(async () => (await this.entries()).map((entry) => entry.message));
  }

  /**
   * Adds `messages` after everything stored, in one atomic write; trims the oldest turns past the bound. A list
   * holding anything but messages is a `SessionError` naming it, with nothing written.
   */
  append(messages: readonly ChatMessage[]): Promise<void> {
    const problem = appendProblem(messages);
    if (problem) return Promise.reject(new SessionError(`The session cannot keep this turn: ${problem}`));
    return this.serial(async () => {
      const meta = await this.meta();
      const entries: Record<string, unknown> = {};
      let bytes = meta.bytes;
      let next = meta.next;
      for (const message of messages) {
        Object.assign(entries, encodeEntries(messageKey(next++), message));
        bytes += messageSize(message);
      }
      entries[META_KEY] = { v: 1, next, bytes, updatedAt: Date.now() } satisfies SessionMeta;
      await putEntries(this.storage, entries);
      if (bytes > this.maxBytes) await this.trim(next);
    });
  }

  /** The session key this object's task claimed for its conversation, if it did. */
  async owner(): Promise<string | undefined> {
    if (this.claimed === undefined) {
      const stored = await this.storage.get(OWNER_KEY);
      this.claimed = typeof stored === 'string' ? stored : null;
    }
    return this.claimed ?? undefined;
  }

  /** Makes `key` the session this object holds besides its task: from now on it answers that key's calls. */
  async claim(key: string): Promise<void> {
    await this.storage.put(OWNER_KEY, key);
    this.claimed = key;
  }

  /**
   * Deletes the session when its last turn is older than `retainMs` — the whole object's storage when `alone` (no
   * task kept beside it), else its `session:` keys only — and answers when it will be due otherwise (`undefined`:
   * nothing kept). A claim never followed by a turn is kept while its task is, and deleted with it.
   */
  expire(retainMs: number, alone: boolean): Promise<number | undefined> {
    return this.serial(async () => {
      const stored = await this.storage.get(META_KEY);
      if (stored === undefined && !alone) return undefined;
      const updatedAt = isPlainObject(stored) && Number.isFinite(stored.updatedAt) ? (stored.updatedAt as number) : 0; // a damaged time: due now
      if (updatedAt + retainMs > Date.now()) return updatedAt + retainMs;
      if (alone) await this.storage.deleteAll();
      else await deleteKeys(this.storage, [...(await this.storage.list({ prefix: SESSION_KEY_PREFIX })).keys()]);
      this.claimed = undefined;
      return undefined;
    });
  }

  /**
   * Makes sure the object's alarm fires by the end of the session's retention, `retainMs` from now. An earlier alarm
   * (a running task's heartbeat) is left as it is: the alarm handler sets the next one, the session's included.
   */
  async keepFor(retainMs: number): Promise<void> {
    const due = Date.now() + retainMs;
    const alarm = await this.storage.getAlarm();
    if (alarm === null || alarm > due) await this.storage.setAlarm(due);
  }

  private async trim(next: number): Promise<void> {
    const stored = await this.entries();
    const messages = stored.map((entry) => entry.message);
    const sizes = messages.map(messageSize);
    const total = sizes.reduce((sum, size) => sum + size, 0);
    const cut = trimCut(messages, sizes, total, this.maxBytes);
    if (cut <= 0) return;
    const removed = stored.slice(0, cut);
    const kept = total - sizes.slice(0, cut).reduce((sum, size) => sum + size, 0);
    await Promise.all([deleteKeys(this.storage, removed.flatMap((entry) => entry.keys)), this.storage.put(META_KEY, { v: 1, next, bytes: kept, updatedAt: Date.now() } satisfies SessionMeta)]);
  }

  /**
   * The counters as stored; when there are none or they are damaged (`next` or `bytes` not an integer ≥ 0: a NaN
   * `bytes` would turn the bound off for good, a lost `next` would overwrite the first messages), recomputed from the
   * messages stored: the next sequence number after the last one, the size of them all.
   */
  private async meta(): Promise<SessionMeta> {
    const stored = await this.storage.get(META_KEY);
    if (isPlainObject(stored) && stored.v === 1 && isCount(stored.next) && isCount(stored.bytes)) return stored as unknown as SessionMeta;
    const entries = await this.entries();
    const last = entries.at(-1);
    return { v: 1, next: last ? last.seq + 1 : 0, bytes: entries.reduce((sum, entry) => sum + messageSize(entry.message), 0) };
  }

  /** Every message with the keys it occupies, in order; a `TypeError` for a damaged one. */
  private async entries(): Promise<Array<{ message: ChatMessage; keys: string[]; seq: number }>> {
    const stored = await this.storage.list({ prefix: MESSAGE_PREFIX });
    const entries: Array<{ message: ChatMessage; keys: string[]; seq: number }> = [];
    const parts = new Map<string, string[]>();
    for (const key of stored.keys()) {
      const hash = key.indexOf('#');
      if (hash !== -1) parts.set(key.slice(0, hash), [...(parts.get(key.slice(0, hash)) ?? []), key]);
    }
    for (const [key, value] of stored) {
      if (key.includes('#')) continue;
      const seq = Number(key.slice(MESSAGE_PREFIX.length));
      if (!isCount(seq)) throw new DamagedValueError(key, 'it is not a message key of this session');
      const message = parseStored(key, await readJSONText(this.storage, key, value));
      if (!isPlainObject(message)) throw new DamagedValueError(key, 'it is not a message');
      entries.push({ message: message as unknown as ChatMessage, keys: [key, ...(parts.get(key) ?? [])], seq });
    }
    return entries;
  }

  private serial<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.queue.then(operation);
    this.queue = result.catch(() => {});
    return result;
  }
}

/**
 * @internal Why `messages` cannot be appended to a session: not an array, or the first entry that is not a message (a
 * plain object with a string `role`), named by its index; `undefined` when every one is a message. Checked before
 * anything is written: a stored non-message would make every later load of the session fail as damaged.
 * @example `const problem = appendProblem([{ role: 'user', content: 'hi' }, null]) // 'message 1 of the append is …'`
 */
export function appendProblem(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return `the messages to append must be an array (got ${refusedValue(messages)})`;
  const index = messages.findIndex((message) => !isPlainObject(message) || typeof message.role !== 'string');
  if (index === -1) return undefined;
  const bad: unknown = messages[index];
  return `message ${index} of the append is not a message (a plain object with a string role): it is ${isPlainObject(bad) ? `an object whose role is ${refusedValue(bad.role)}` : refusedValue(bad)}; nothing was appended`;
}
