import type { ChatMessage } from '../chat/core/types.js';
import { ConfigError } from '../errors/config-error.js';
import { cloneJSONLike } from '../internal/json.js';
import { boundOptionProblems } from '../internal/option-names.js';
import type { SessionStore } from './session-store.js';
import { messageSize, messageText, trimCut } from './session-trim.js';

/** Options of {@link InMemorySessionStore}. */
export interface InMemorySessionStoreOptions {
  /** Sessions kept; past it the least recently used one is forgotten. @default 10000 */
  maxSessions?: number | undefined;
  /**
   * Size of everything kept, measured as the length of the messages' JSON text; past it the least recently used
   * sessions are forgotten, and a single session larger than a quarter of it loses its oldest turns. @default 16777216 (16 MiB)
   */
  maxBytes?: number | undefined;
}

interface Entry {
  messages: ChatMessage[];
  bytes: number;
}

/**
 * The default session store: in memory, one conversation per session id, copies in and out (no aliasing), with an
 * atomic `append` (concurrent turns on one session keep every message) and documented bounds — at most `maxSessions`
 * sessions and `maxBytes` of messages, least recently used first out. For one process (a dev server, a test, a single
 * Worker isolate); use a durable store across processes.
 *
 * @example `new AgentBuilder('helper').chatClient(model).sessionStore(new InMemorySessionStore({ maxBytes: 4 * 1024 * 1024 })).build()`
 */
export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, Entry>();
  private totalBytes = 0;
  readonly maxSessions: number;
  readonly maxBytes: number;

  constructor(options: InMemorySessionStoreOptions = {}) {
    const problems = boundOptionProblems(options, ['maxSessions', 'maxBytes']);
    if (problems.length > 0) throw ConfigError.fromProblems('InMemorySessionStore options', problems);
    const settings: InMemorySessionStoreOptions = options ?? {};
    this.maxSessions = settings.maxSessions ?? 10_000;
    this.maxBytes = settings.maxBytes ?? 16 * 1024 * 1024;
  }

  async load(sessionId: string): Promise<ChatMessage[]> {
    const entry = this.touch(sessionId);
    return entry ? cloneJSONLike(entry.messages) : [];
  }

  /** Adds one run's messages, in one step (nothing else runs in between). */
  async append(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    const texts = messages.map(messageText); // every message written before any is kept: one turn, whole or not at all
    const entry = this.touch(sessionId) ?? { messages: [], bytes: 0 };
    for (const text of texts) {
      entry.messages.push(JSON.parse(text) as ChatMessage);
      entry.bytes += text.length;
      this.totalBytes += text.length;
    }
    this.sessions.set(sessionId, entry);
    this.trim(entry);
    this.evict();
  }

  /** Replaces a conversation (last writer wins; `append` is the safe write). */
  async save(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    this.delete(sessionId);
    await this.append(sessionId, messages);
  }

  /** Forgets a session. */
  delete(sessionId: string): void {
    const entry = this.sessions.get(sessionId);
    if (!entry) return;
    this.totalBytes -= entry.bytes;
    this.sessions.delete(sessionId);
  }

  /** The ids of the sessions held, least recently used first. */
  get sessionIds(): string[] {
    return [...this.sessions.keys()];
  }

  /** What the store holds now, against its bounds. */
  get size(): { sessions: number; bytes: number } {
    return { sessions: this.sessions.size, bytes: this.totalBytes };
  }

  private touch(sessionId: string): Entry | undefined {
    const entry = this.sessions.get(sessionId);
    if (entry) {
      this.sessions.delete(sessionId);
      this.sessions.set(sessionId, entry);
    }
    return entry;
  }

  /** A session over a quarter of the budget loses its oldest turns until it fits (see `trimCut`). */
  private trim(entry: Entry): void {
    const limit = Math.floor(this.maxBytes / 4);
    if (entry.bytes <= limit) return;
    const sizes = entry.messages.map(messageSize);
    const cut = trimCut(entry.messages, sizes, entry.bytes, limit);
    if (cut <= 0) return;
    let removed = 0;
    for (let index = 0; index < cut; index++) removed += sizes[index] ?? 0;
    entry.messages.splice(0, cut);
    entry.bytes -= removed;
    this.totalBytes -= removed;
  }

  private evict(): void {
    while (this.sessions.size > this.maxSessions || (this.totalBytes > this.maxBytes && this.sessions.size > 1)) {
      this.delete(this.sessions.keys().next().value as string);
    }
  }
}
