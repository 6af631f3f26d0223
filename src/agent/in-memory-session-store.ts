import type { ChatMessage } from '../chat/types.js';
import { ConfigError } from '../errors/config-error.js';
import { cloneJSONLike, isPlainObject, positiveIntegerProblems } from '../internal/json.js';
import type { SessionStore } from './session-store.js';

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

function sizeOf(message: ChatMessage): number {
  try {
    return JSON.stringify(message)?.length ?? 0;
  } catch {
    return 0;
  }
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
    const settings: InMemorySessionStoreOptions = isPlainObject(options) ? options : {};
    const problems = positiveIntegerProblems(settings, ['maxSessions', 'maxBytes']);
    if (problems.length > 0) throw ConfigError.fromProblems('InMemorySessionStore options', problems);
    this.maxSessions = settings.maxSessions ?? 10_000;
    this.maxBytes = settings.maxBytes ?? 16 * 1024 * 1024;
  }

  async load(sessionId: string): Promise<ChatMessage[]> {
    const entry = this.touch(sessionId);
    return entry ? cloneJSONLike(entry.messages) : [];
  }

  /** Adds one run's messages, in one step (nothing else runs in between). */
  async append(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    const entry = this.touch(sessionId) ?? { messages: [], bytes: 0 };
    for (const message of messages) {
      const copy = cloneJSONLike({ ...message });
      const bytes = sizeOf(copy);
      entry.messages.push(copy);
      entry.bytes += bytes;
      this.totalBytes += bytes;
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

  /**
   * A session over a quarter of the budget loses its oldest messages until it fits, the cut moved to the next user
   * message (so whole turns go), or where there is none to the next message that is not a tool answer — a transcript
   * never starts with a tool message, so it stays a valid request. The bound holds even for one endless turn.
   */
  private trim(entry: Entry): void {
    const limit = Math.floor(this.maxBytes / 4);
    if (entry.bytes <= limit) return;
    const messages = entry.messages;
    let fits = 0; // the first index from which the rest fits
    let rest = entry.bytes;
    while (fits < messages.length - 1 && rest > limit) rest -= sizeOf(messages[fits++] as ChatMessage);
    let cut = messages.findIndex((message, index) => index >= fits && message.role === 'user');
    if (cut === -1) cut = messages.findIndex((message, index) => index >= fits && message.role !== 'tool');
    if (cut === -1) {
      cut = fits; // only tool answers fit: keep from the call that asked for them
      while (cut > 0 && messages[cut]?.role === 'tool') cut--;
    }
    if (cut <= 0) return;
    let removed = 0;
    for (let index = 0; index < cut; index++) removed += sizeOf(messages[index] as ChatMessage);
    messages.splice(0, cut);
    entry.bytes -= removed;
    this.totalBytes -= removed;
  }

  private evict(): void {
    while (this.sessions.size > this.maxSessions || (this.totalBytes > this.maxBytes && this.sessions.size > 1)) {
      this.delete(this.sessions.keys().next().value as string);
    }
  }
}
