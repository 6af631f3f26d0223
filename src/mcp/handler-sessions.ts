/**
 * @internal The MCP handler's sessions: created by `initialize`, found by their `mcp-session-id`, bounded in number
 * (past `maxSessions` the least recently used is dropped) and in idle time (checked lazily when a session is used
 * or another is created: no timer ever runs). A session owns the abort controllers of its calls in flight, so
 * `notifications/cancelled` can reach one of them and DELETE (or eviction, or expiry) aborts them all.
 */
import { now } from '../internal/clock.js';
import { randomUUID } from '../internal/ids.js';
import type { MCPRequestId } from './protocol.js';

/** @internal One client's session. */
export interface MCPSession {
  /** The `mcp-session-id`: a random UUID (visible ASCII, from the platform's CSPRNG). */
  readonly id: string;
  /** The protocol revision negotiated by `initialize`. */
  readonly protocolVersion: string;
  /** Last use (wall clock, ms). */
  lastUsed: number;
  /** The calls in flight, by {@link requestKey}. */
  readonly calls: Map<string, AbortController>;
}

/** @internal Why calls were aborted: the session ended (DELETE, eviction, expiry). */
export class SessionEnded extends Error {
  override readonly name = 'SessionEnded';
}

/** @internal A request id as a map key that keeps `1` and `"1"` apart. */
export function requestKey(id: MCPRequestId): string {
  return `${typeof id === 'number' ? 'n' : 's'}:${id}`;
}

/** @internal The sessions of one handler. */
export class MCPSessionStore {
  /** In least-recently-used order: a session is moved to the end each time it is used. */
  private readonly sessions = new Map<string, MCPSession>();

  constructor(
    private readonly maxSessions: number,
    private readonly idleMs: number,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** A new session (dropping expired ones, then the least recently used one when the store is full). */
  create(protocolVersion: string): MCPSession {
    const time = now();
    for (const session of this.sessions.values()) {
      if (!this.expired(session, time)) break; // the rest were used more recently
      this.end(session.id);
    }
    while (this.sessions.size >= this.maxSessions) {
      const oldest = this.sessions.keys().next().value as string;
      this.end(oldest);
    }
    const session: MCPSession = { id: randomUUID(), protocolVersion, lastUsed: time, calls: new Map() };
    this.sessions.set(session.id, session);
    return session;
  }

  /** The session with this id, marked as used; `undefined` when it is unknown, ended or expired. */
  use(id: string): MCPSession | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    const time = now();
    if (this.expired(session, time)) {
      this.end(id);
      return undefined;
    }
    this.touch(session, time);
    return session;
  }

  /** Marks a session used (a call that ends counts as use), when it still exists. */
  touch(session: MCPSession, time: number = now()): void {
    if (this.sessions.get(session.id) !== session) return;
    session.lastUsed = time;
    this.sessions.delete(session.id);
    this.sessions.set(session.id, session);
  }

  /** Ends a session: it is forgotten and its calls in flight are aborted. False when it was not known. */
  end(id: string): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    const reason = new SessionEnded('The MCP session ended');
    for (const controller of [...session.calls.values()]) controller.abort(reason);
    session.calls.clear();
    return true;
  }

  /** A session with a call in flight is never idle. */
  private expired(session: MCPSession, time: number): boolean {
    return session.calls.size === 0 && time - session.lastUsed > this.idleMs;
  }
}
