/**
 * @internal Where a task object's runner finds a conversation's session. A conversation the server began (its first
 * message had no `contextId`) is kept in the object of the task that began it: that task's object mints the
 * `contextId` as `ctx-<its own 64 hex digits>` and claims the session key (`<app>/<user>/<contextId>`) in its
 * storage, so a new conversation creates one object, not two, and its first turn's load and append are local calls.
 * Later turns (new tasks in objects of their own) reach it there, as they would reach a session object.
 *
 * A `contextId` comes from the client, so its form proves nothing. It addresses the object it names only when the id
 * is one of this namespace's (`idFromString` accepts it) AND that object claimed exactly this session key — same
 * app, same user, same `contextId` — which it checks before reading or writing anything. Any other `contextId` of
 * that form (forged, of another user, or whose session ended with its retention) is treated like every other
 * client-supplied `contextId`: its session is the object named by its key, a fresh conversation the first time.
 */
import type { ChatMessage } from '../chat/core/types.js';
import type { SessionStore } from '../agent/session-store.js';
import { callSessionObject, DurableObjectSessionStore } from './durable-session-store.js';
import type { SessionStorage } from './session-storage.js';
import type { DurableObjectIdLike, DurableObjectNamespaceLike } from './types.js';

/** A `contextId` of the form this deployment mints: the task object's id that holds its session. */
const MINTED = /\/ctx-([0-9a-f]{64})$/;

/**
 * @internal The id of a task's object, as the hex digits of the task id (`task-<hex>`); `undefined` for an id of
 * another form.
 * @example `objectHexOf('task-' + hex) // hex`
 */
export function objectHexOf(taskId: string): string | undefined {
  return /^task-([0-9a-f]{64})$/.exec(taskId)?.[1];
}

/**
 * @internal The `contextId` a task object mints for a conversation it begins: `ctx-` and its own id (the task id's hex
 * digits).
 * @example `mintedContextId('task-' + hex) // 'ctx-' + hex`
 */
export function mintedContextId(taskId: string): string | undefined {
  const hex = objectHexOf(taskId);
  return hex === undefined ? undefined : `ctx-${hex}`;
}

/**
 * @internal The runner's session store in a task object: the session this object claimed is read and written here;
 * a key naming another object's claim goes to that object, which answers only for its own claim; every other key
 * (and a claim the named object does not hold) lives in its own named object, as with `DurableObjectSessionStore`.
 * @example `new Runner({ appName, agent, sessionStore: new TaskSessionStore(namespace, sessions, retainSessionMs, () => hex) })`
 */
export class TaskSessionStore implements SessionStore {
  private readonly named: DurableObjectSessionStore;

  constructor(
    private readonly namespace: DurableObjectNamespaceLike,
    private readonly local: SessionStorage,
    private readonly retainMs: number,
    /** This object's id when known (the hex digits of its task's id): never called as another object. */
    private readonly ownHex: () => string | undefined,
  ) {
    this.named = new DurableObjectSessionStore(namespace);
  }

  async load(key: string): Promise<ChatMessage[]> {
    if ((await this.local.owner()) === key) return this.local.load();
    const remote = this.claimant(key);
    if (remote) {
      const answer = await callSessionObject(this.namespace, remote, { op: 'load', key }, key);
      if (answer) {
        if (!Array.isArray(answer.messages)) throw new TypeError('the object of this conversation answered without messages');
        return answer.messages as ChatMessage[];
      }
    }
    return this.named.load(key);
  }

  async append(key: string, messages: readonly ChatMessage[]): Promise<void> {
    if ((await this.local.owner()) === key) {
      await this.local.append(messages);
      await this.local.keepFor(this.retainMs);
      return;
    }
    const remote = this.claimant(key);
    if (remote && (await callSessionObject(this.namespace, remote, { op: 'append', messages, key }, key))) return;
    await this.named.append(key, messages);
  }

  /** The object a minted `contextId` at the end of `key` names, when it is one of this namespace's and not this one. */
  private claimant(key: string): DurableObjectIdLike | undefined {
    const hex = MINTED.exec(key)?.[1];
    if (hex === undefined || hex === this.ownHex()) return undefined;
    try {
      return this.namespace.idFromString(hex);
    } catch {
      return undefined; // not an id of this namespace: nothing to ask
    }
  }
}
