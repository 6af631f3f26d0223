/**
 * Sessions in Durable Objects: a conversation's messages under one key each (`session:m:<seq>`) in one object — its
 * own (named `session:<key>`), or the object of the task that began it (see `session-routing.ts`) — so an append
 * writes only what it adds. The object runs one append at a time and each append is one atomic write, so concurrent
 * turns from any number of isolates keep every message. Bounded per session: past `maxSessionBytes` the oldest whole
 * turns go (the same cut as `InMemorySessionStore`), and a session is deleted `retainSessionMs` after its last turn
 * (its object's alarm). Every session key starts `session:`: a task's retention deletes everything else. A damaged
 * meta value (counters that are not integers ≥ 0) is recomputed from the messages stored, so the bound holds and no
 * message is overwritten; a damaged message (a parts header that is not an integer from 2 to 16,384, a missing part,
 * text that is not JSON) fails the call with a `TypeError` saying so.
 */
import type { ChatMessage } from '../chat/core/types.js';
import type { SessionStore } from '../agent/session-store.js';
import { messageSize, trimCut } from '../agent/session-trim.js';
import { ConfigError } from '../errors/config-error.js';
import { isPlainObject, preview, refusedValue } from '../internal/json.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import { bindingProblems } from './binding-checks.js';
import { DamagedValueError, deleteKeys, encodeEntries, parseStored, putEntries, readJSONText } from './storage-codec.js';
import type { DurableObjectIdLike, DurableObjectNamespaceLike, DurableObjectStorageLike } from './types.js';

const META_KEY = 'session:meta';
const MESSAGE_PREFIX = 'session:m:';
/** The session key of the one session an object holds besides its task (its owner's claim). */
const OWNER_KEY = 'session:owner';
/** @internal The prefix of every key a session occupies in its object. @example `storage.list({ prefix: SESSION_KEY_PREFIX })` */
export const SESSION_KEY_PREFIX = 'session:';
/** @internal The path of session calls to an object. */
export const SESSION_PATH = '/faultline/session';
/** Session names longer than this are hashed (SHA-256) into the object's name. */
const MAX_NAME_CHARS = 512;

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

  /** Adds `messages` after everything stored, in one atomic write; trims the oldest turns past the bound. */
  append(messages: readonly ChatMessage[]): Promise<void> {
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
 * @internal Answers a session call (`{op: 'load' | 'append', messages?, key?}`) on an object's storage; an append
 * makes sure the object's alarm fires by the end of the session's retention. A call with `key` is for the session a
 * task of this object claimed: answered only when `key` is exactly that claim, else HTTP 404 `{ owned: false }`
 * (nothing read or written) — an id that names this object proves nothing by itself.
 */
export async function answerSessionCall(sessions: SessionStorage, request: Request, retainMs: number): Promise<Response> {
  let call: unknown;
  try {
    call = await request.json();
  } catch {
    return Response.json({ error: 'the session call is not JSON' }, { status: 400 });
  }
  if (!isPlainObject(call)) return Response.json({ error: 'the session call must be an object' }, { status: 400 });
  try {
    if (call.key !== undefined && (typeof call.key !== 'string' || call.key !== (await sessions.owner()))) return Response.json({ owned: false }, { status: 404 });
    if (call.op === 'load') return Response.json({ messages: await sessions.load() });
    if (call.op === 'append' && Array.isArray(call.messages)) {
      await sessions.append(call.messages as ChatMessage[]);
      await sessions.keepFor(retainMs);
      return Response.json({ ok: true });
    }
    return Response.json({ error: 'the session call must be {op: "load"} or {op: "append", messages: [...]}' }, { status: 400 });
  } catch (error) {
    if (error instanceof DamagedValueError) return Response.json({ error: error.message }, { status: 500 }); // our own words: a key, no stored text
    return Response.json({ error: `the session storage failed (${error instanceof Error ? error.name : typeof error})` }, { status: 500 });
  }
}

/** Options of {@link DurableObjectSessionStore}. */
export interface DurableObjectSessionStoreOptions {
  /** Prefix of the objects' names. @default 'session:' */
  prefix?: string | undefined;
}

/**
 * A `SessionStore` whose every session is a Durable Object of a `createA2ADurableObject` class: `load` and `append` go to
 * the session's object, which applies appends one at a time, each as one atomic write — so concurrent turns on one
 * session from any number of isolates never drop a message. `createA2AWorker` deployments use it for every A2A
 * `contextId` on their own; use it for a `Runner` of yours in the same Worker. A `namespace` without `idFromName` and
 * `get`, options that are not an object, an option name it does not take (a mistyped `prefix` would put tenants meant
 * apart in the same objects) or a `prefix` that is not a string is a `ConfigError` listing every problem.
 *
 * @example
 * ```ts
 * const runner = new Runner({ appName: 'shop', agent, sessionStore: new DurableObjectSessionStore(env.A2A_TASKS) });
 * ```
 */
export class DurableObjectSessionStore implements SessionStore {
  private readonly prefix: string;

  constructor(
    private readonly namespace: DurableObjectNamespaceLike,
    options?: DurableObjectSessionStoreOptions,
  ) {
    const problems = bindingProblems(namespace, 'namespace', 'a Durable Object namespace binding', ['idFromName', 'get']);
    if (options !== undefined && !isPlainObject(options)) problems.push(`options must be an object (got ${refusedValue(options)})`);
    else if (options !== undefined) {
      problems.push(...unknownOptionProblems(options, ['prefix']));
      if (options.prefix !== undefined && typeof options.prefix !== 'string') problems.push(`prefix must be a string (got ${refusedValue(options.prefix)})`);
    }
    if (problems.length > 0) throw ConfigError.fromProblems('DurableObjectSessionStore', problems);
    this.prefix = (options?.prefix as string | undefined) ?? 'session:';
  }

  async load(sessionId: string): Promise<ChatMessage[]> {
    const answer = (await this.call(sessionId, { op: 'load' })) as { messages?: unknown };
    if (!Array.isArray(answer.messages)) throw new TypeError(`the session object of ${preview(sessionId, 100)} answered without messages`);
    return answer.messages as ChatMessage[];
  }

  async append(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    await this.call(sessionId, { op: 'append', messages });
  }

  private async call(sessionId: string, body: unknown): Promise<unknown> {
    return (await callSessionObject(this.namespace, this.namespace.idFromName(await objectName(this.prefix, sessionId)), body)) ?? {};
  }
}

/**
 * @internal One session call to the object `id`: its answer, `undefined` when it holds no such session (HTTP 404
 * `{ owned: false }`), an `Error` naming the HTTP status otherwise.
 * @example `await callSessionObject(namespace, namespace.idFromString(hex), { op: 'load', key })`
 */
export async function callSessionObject(namespace: DurableObjectNamespaceLike, id: DurableObjectIdLike, body: unknown): Promise<Record<string, unknown> | undefined> {
  const response = await namespace.get(id).fetch(`https://faultline.internal${SESSION_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.status === 404 && answer.owned === false) return undefined;
  if (!response.ok) throw new Error(`the session object answered HTTP ${response.status}${typeof answer.error === 'string' ? `: ${answer.error}` : ''}`);
  return answer;
}

/** The object name of a session: the prefix and the key, hashed when the key is long. */
async function objectName(prefix: string, sessionId: string): Promise<string> {
  if (sessionId.length <= MAX_NAME_CHARS) return `${prefix}${sessionId}`;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(sessionId)));
  return `${prefix}sha256:${Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

