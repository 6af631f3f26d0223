import { SessionError } from '../errors/session-error.js';
import { messageOf } from '../internal/error-chain.js';
import { preview } from '../internal/json.js';
import type { ChatMessage } from '../chat/core/types.js';

/**
 * Where conversations are kept between runs. `append` is the versioned write: it adds one run's messages to the
 * session as one atomic step, so concurrent turns on one session never drop a message (each run appends what it
 * added; nothing is overwritten). Implement it over any storage with an atomic append (a Durable Object, a database
 * row lock, Redis `RPUSH`); methods may throw — the agent reports failures as `SessionError`s. A store that can only
 * load and save whole conversations fits through {@link lastWriterWinsSessionStore}.
 *
 * @example
 * ```ts
 * const store: SessionStore = {
 *   load: async (id) => (await db.query('select message from turns where session = ? order by seq', [id])).map((row) => row.message),
 *   append: async (id, messages) => db.insertMany('turns', messages.map((message) => ({ session: id, message }))),
 * };
 * ```
 */
export interface SessionStore {
  /** The conversation so far (empty for a new session). */
  load(sessionId: string): Promise<ChatMessage[]>;
  /** Adds one run's messages after everything stored, in one atomic step. */
  append(sessionId: string, messages: readonly ChatMessage[]): Promise<void>;
}

/** A store that can only replace a whole conversation (a KV value, a file). */
export interface LoadSaveSessionStore {
  load(sessionId: string): Promise<ChatMessage[]>;
  /** Replaces the stored conversation. */
  save(sessionId: string, messages: readonly ChatMessage[]): Promise<void>;
}

/**
 * A {@link SessionStore} over a load/save store: `append` loads, adds and saves. **Last writer wins**: two runs on one
 * session at the same time both load the same conversation, and the later save drops the other run's messages. Fine
 * for one user in one tab; use a store with an atomic append when turns can overlap. `AgentBuilder.sessionStore` and
 * `Runner` wrap a load/save store with this on their own.
 * @example `new AgentBuilder('helper').sessionStore(lastWriterWinsSessionStore({ load: kvLoad, save: kvSave }))`
 */
export function lastWriterWinsSessionStore(store: LoadSaveSessionStore): SessionStore {
  return {
    load: (sessionId) => store.load(sessionId),
    async append(sessionId, messages) {
      const stored = await store.load(sessionId);
      await store.save(sessionId, [...(Array.isArray(stored) ? stored : []), ...messages]);
    },
  };
}

/** @internal A session store from what a user configured: an appending store as is, a load/save one wrapped. */
export function toSessionStore(store: SessionStore | LoadSaveSessionStore): SessionStore {
  if (typeof (store as SessionStore).append === 'function') return store as SessionStore;
  return lastWriterWinsSessionStore(store as LoadSaveSessionStore);
}

/** @internal Problems with a configured store, as sentences. */
export function sessionStoreProblems(store: unknown, where: string): string[] {
  const candidate = store as Partial<SessionStore & LoadSaveSessionStore> | null | undefined;
  if (typeof candidate?.load !== 'function') return [`${where} must implement load()`];
  if (typeof candidate.append !== 'function' && typeof candidate.save !== 'function') return [`${where} must implement append() (or save(), last writer wins)`];
  return [];
}

/** Loads a session, turning any failure into a `SessionError` (named by `sessionId`, stored under `key`). */
export async function loadSession(store: SessionStore, sessionId: string, key: string = sessionId): Promise<ChatMessage[]> {
  let messages: unknown;
  try {
    messages = await store.load(key);
  } catch (error) {
    throw new SessionError(`Could not load session ${preview(sessionId, 200)}: ${messageOf(error)}`, { sessionId, cause: error });
  }
  if (!Array.isArray(messages)) throw new SessionError(`The session store returned something other than a message list for ${preview(sessionId, 200)}`, { sessionId });
  return messages as ChatMessage[];
}

/**
 * Appends one run's messages; a failure comes back as a `SessionError` (named by `sessionId`, stored under `key`),
 * never thrown.
 */
export async function appendSession(store: SessionStore, sessionId: string, messages: readonly ChatMessage[], key: string = sessionId): Promise<SessionError | undefined> {
  try {
    await store.append(key, messages);
    return undefined;
  } catch (error) {
    return new SessionError(`Could not save session ${preview(sessionId, 200)}: ${messageOf(error)}`, { sessionId, cause: error });
  }
}
