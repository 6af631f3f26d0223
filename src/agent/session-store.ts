import { SessionError } from '../errors/session-error.js';
import { messageOf } from '../internal/error-chain.js';
import { cloneJSONLike } from '../internal/json.js';
import type { ChatMessage } from '../chat/types.js';

/**
 * Where conversations are kept between runs. Implement it over any storage (IndexedDB, KV, a database); methods may
 * throw — the agent reports failures as `SessionError`s.
 *
 * @example
 * ```ts
 * const store: SessionStore = {
 *   load: async (id) => JSON.parse((await env.KV.get(id)) ?? '[]'),
 *   save: async (id, messages) => env.KV.put(id, JSON.stringify(messages)),
 * };
 * ```
 */
export interface SessionStore {
  /** The conversation so far (empty for a new session). */
  load(sessionId: string): Promise<ChatMessage[]>;
  /** Replaces the stored conversation. */
  save(sessionId: string, messages: readonly ChatMessage[]): Promise<void>;
}

/**
 * The default in-memory session store: one conversation per session id, copies in and out (no aliasing).
 * @example `new AgentBuilder('helper').chatClient(model).sessionStore(new InMemorySessionStore()).build()`
 */
export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, ChatMessage[]>();

  async load(sessionId: string): Promise<ChatMessage[]> {
    return cloneJSONLike(this.sessions.get(sessionId) ?? []);
  }

  async save(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    this.sessions.set(sessionId, cloneJSONLike([...messages]));
  }

  /** Forgets a session. */
  delete(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  /** The ids of the sessions held. */
  get sessionIds(): string[] {
    return [...this.sessions.keys()];
  }
}

/** Loads a session, turning any failure into a `SessionError` (named by `sessionId`, stored under `key`). */
export async function loadSession(store: SessionStore, sessionId: string, key: string = sessionId): Promise<ChatMessage[]> {
  let messages: unknown;
  try {
    messages = await store.load(key);
  } catch (error) {
    throw new SessionError(`Could not load session ${JSON.stringify(sessionId)}: ${messageOf(error)}`, { sessionId, cause: error });
  }
  if (!Array.isArray(messages)) throw new SessionError(`The session store returned something other than a message list for ${JSON.stringify(sessionId)}`, { sessionId });
  return messages as ChatMessage[];
}

/** Saves a session; a failure comes back as a `SessionError` (named by `sessionId`, stored under `key`), never thrown. */
export async function saveSession(store: SessionStore, sessionId: string, messages: ChatMessage[], key: string = sessionId): Promise<SessionError | undefined> {
  try {
    await store.save(key, messages);
    return undefined;
  } catch (error) {
    return new SessionError(`Could not save session ${JSON.stringify(sessionId)}: ${messageOf(error)}`, { sessionId, cause: error });
  }
}
