/**
 * Sessions in Durable Objects, over the wire: a session's calls (load, append) go to one object — its own (named
 * `session:<key>`), or the object of the task that began it (see `session-routing.ts`) — whose storage side
 * (`session-storage.ts`) runs one append at a time, each one atomic write, so concurrent turns from any number of
 * isolates keep every message. A damaged message (a parts header that is not an integer from 2 to 16,384, a missing
 * part, text that is not JSON) fails the call (HTTP 500) with a `TypeError` saying so; an append holding anything but
 * messages is refused before anything is sent or written (HTTP 400 from an object), a `SessionError` naming it.
 */
import type { ChatMessage } from '../chat/core/types.js';
import type { SessionStore } from '../agent/session-store.js';
import { ConfigError } from '../errors/config-error.js';
import { SessionError } from '../errors/session-error.js';
import { isPlainObject, preview, refusedValue } from '../internal/json.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import { bindingProblems } from './binding-checks.js';
import { appendProblem, type SessionStorage } from './session-storage.js';
import { DamagedValueError } from './storage-codec.js';
import { escapeKeyText } from './storage-keys.js';
import type { DurableObjectIdLike, DurableObjectNamespaceLike } from './types.js';

/** @internal The path of session calls to an object. */
export const SESSION_PATH = '/faultline/session';
/** Session names longer than this are hashed (SHA-256) into the object's name. */
const MAX_NAME_CHARS = 512;

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
      const problem = appendProblem(call.messages);
      if (problem) return Response.json({ error: problem }, { status: 400 });
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
 * apart in the same objects) or a `prefix` that is not a string is a `ConfigError` listing every problem. An `append`
 * holding anything but messages (plain objects with a string `role`) is a `SessionError` naming the first such entry
 * by its index, with nothing sent or written.
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

  /** Appends one turn; a list holding anything but messages is a `SessionError` naming it, with nothing sent. */
  async append(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    const problem = appendProblem(messages);
    if (problem) throw new SessionError(`The session ${preview(sessionId, 100)} cannot keep this turn: ${problem}`, { sessionId });
    await this.call(sessionId, { op: 'append', messages });
  }

  private async call(sessionId: string, body: unknown): Promise<unknown> {
    return (await callSessionObject(this.namespace, this.namespace.idFromName(await objectName(this.prefix, sessionId)), body, sessionId)) ?? {};
  }
}

/**
 * @internal One session call to the object `id`: its answer, `undefined` when it holds no such session (HTTP 404
 * `{ owned: false }`), a `SessionError` (of `sessionId`) for a call it refused (HTTP 400: messages that are not
 * messages), an `Error` naming the HTTP status otherwise.
 * @example `await callSessionObject(namespace, namespace.idFromString(hex), { op: 'load', key }, key)`
 */
export async function callSessionObject(namespace: DurableObjectNamespaceLike, id: DurableObjectIdLike, body: unknown, sessionId?: string): Promise<Record<string, unknown> | undefined> {
  const response = await namespace.get(id).fetch(`https://faultline.internal${SESSION_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.status === 404 && answer.owned === false) return undefined;
  if (response.status === 400) throw new SessionError(`The session object refused the call: ${typeof answer.error === 'string' ? answer.error : 'HTTP 400'}`, { sessionId });
  if (!response.ok) throw new Error(`the session object answered HTTP ${response.status}${typeof answer.error === 'string' ? `: ${answer.error}` : ''}`);
  return answer;
}

/** A lone UTF-16 surrogate: text with one has no UTF-8 of its own. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The object name of a session: the prefix and the key; a long key is hashed — a well-formed one over its UTF-8, as
 * every earlier version did (its conversation stays where it is), one with a lone surrogate (UTF-8 would turn each
 * into U+FFFD, and two keys into one object) over its text escaped by `escapeKeyText`, named `sha256u:` apart.
 */
async function objectName(prefix: string, sessionId: string): Promise<string> {
  if (sessionId.length <= MAX_NAME_CHARS) return `${prefix}${sessionId}`;
  const lone = LONE_SURROGATE.test(sessionId);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(lone ? escapeKeyText(sessionId) : sessionId)));
  return `${prefix}${lone ? 'sha256u' : 'sha256'}:${Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
