/**
 * @internal The MCP handler's sessions: created by `initialize`, found by their `mcp-session-id`, bounded in number
 * and in idle time (checked lazily when a session is used or another is created: no timer ever runs). Past
 * `maxSessions` the least recently used *idle* session (no call in flight) is dropped; when every session has a call
 * in flight, no session is created (the handler answers 503): another client's `initialize` flood never kills a
 * running call. A session owns the abort controllers of its calls in flight, so `notifications/cancelled` can reach
 * one of them, and a session that ends (DELETE, expiry, eviction) aborts them all with a {@link SessionEnded} that
 * says why — those calls are then answered with a JSON-RPC error, not left without an answer.
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

/** @internal Why a session ended, as its calls in flight are told (`The MCP session ended: <why>`). */
export const SessionEndReason = /* @__PURE__ */ Object.freeze({
  deleted: 'the client deleted it (HTTP DELETE)',
  expired: 'it was idle too long and expired',
  evicted: 'it was dropped to make room for a new session (maxSessions)',
});

/** @internal Why calls were aborted: the session ended (DELETE, eviction, expiry); the message says which. */
export class SessionEnded extends Error {
  override readonly name = 'SessionEnded';

  constructor(readonly why: string) {
    super(`The MCP session ended: ${why}`);
  }
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

  /**
   * A new session, after dropping expired ones and, when the store is full, the least recently used idle one;
   * `undefined` (nothing dropped, nothing created) when the store is full and every session has a call in flight.
   */
  create(protocolVersion: string): MCPSession | undefined {
    const time = now();
    // Deleting the entry being visited keeps a Map iteration valid.
    for (const session of this.sessions.values()) {
      if (session.calls.size > 0) continue; // busy: never expired, and an idle one behind it may be
      if (!this.expired(session, time)) break; // the idle ones after it were used more recently
      this.end(session.id, SessionEndReason.expired);
    }
    while (this.sessions.size >= this.maxSessions) {
      const victim = this.oldestIdle();
      if (victim === undefined) return undefined;
      this.end(victim.id, SessionEndReason.evicted);
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
      this.end(id, SessionEndReason.expired);
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

  /**
   * Ends a session: it is forgotten and its calls in flight are aborted with a {@link SessionEnded} saying `why`
   * (one of {@link SessionEndReason}). False when it was not known.
   */
  end(id: string, why: string): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    const reason = new SessionEnded(why);
    for (const controller of [...session.calls.values()]) controller.abort(reason);
    session.calls.clear();
    return true;
  }

  /** The least recently used session with no call in flight. */
  private oldestIdle(): MCPSession | undefined {
    for (const session of this.sessions.values()) if (session.calls.size === 0) return session;
    return undefined;
  }

  /** A session with a call in flight is never idle. */
  private expired(session: MCPSession, time: number): boolean {
    return session.calls.size === 0 && time - session.lastUsed > this.idleMs;
  }
}
