/**
 * The Durable Object that owns one A2A task (or one session): it runs the task through the same task backend as
 * `createA2AHandler`, writes every transition and chunk to its storage before sending it, answers `tasks/*` for its
 * task from whichever isolate asks, and after a restart either resumes the run from its graph checkpoint or ends the
 * task `failed` with `TASK_ABANDONED` — a task `input-required` stays waiting for the message that answers it. A
 * heartbeat alarm keeps watch while the task runs; an ended or waiting task is deleted after `retainTaskMs` (the
 * conversation it began stays), an idle session after `retainSessionMs`.
 */
import { A2AErrorCode, TaskState } from '../a2a/constants.js';
import { decodeMessageSendParams, decodeTaskQueryParams } from '../a2a/decode.js';
import { callFailure, failure, type A2ACall } from '../a2a/handler-front.js';
import { decisionsOf } from '../a2a/task-interrupts.js';
import { isPlainObject } from '../internal/json.js';
import { messageOf } from '../internal/error-chain.js';
import { DurableObjectCheckpointer } from './durable-checkpointer.js';
import { answerSessionCall, SESSION_PATH } from './durable-session-store.js';
import { SessionStorage } from './session-storage.js';
import { DurableTaskStore, LaterRecordError } from './durable-task-store.js';
import { DamagedValueError } from './storage-codec.js';
import { prepareObject, recoverTask, type ObjectParts, type ObjectSettings, type Setup } from './object-setup.js';
import { mintedContextId, objectHexOf } from './session-routing.js';
import { sessionKeyOf } from '../runner/run-options.js';
import { validateObjectOptions, type A2ADurableObjectOptions } from './options.js';
import { isAtRest } from './task-recovery.js';
import type { DurableObjectStateLike, DurableObjectStorageLike } from './types.js';

/** @internal The path of task calls from the Worker entry to an object. */
export const TASK_PATH = '/faultline/a2a';

const OPERATIONS = new Set(['SendMessage', 'StreamMessage', 'GetTask', 'CancelTask', 'Resubscribe']);

/** An instance of the class `createA2ADurableObject` returns, as the Workers runtime calls it. */
export interface A2ADurableObject {
  fetch(request: Request): Promise<Response>;
  alarm(): Promise<void>;
}

/** The class `createA2ADurableObject` returns: export it from your Worker under the `class_name` of its binding. */
export type A2ADurableObjectClass = new (state: DurableObjectStateLike, env: unknown) => A2ADurableObject;

/**
 * The Durable Object class of an A2A deployment: one object per task (its id is the task's), which also keeps the
 * conversation the task began (its `contextId` names the object), and one per session whose `contextId` the client
 * chose (named `session:<key>`), all of this class, reached through {@link createA2AWorker}. Uses only the classic Durable
 * Object API (`constructor(state, env)`, `fetch`, `alarm`): no `cloudflare:workers` import, no `nodejs_compat`.
 * Nothing runs at construction: the agent is built, and a task left by the object's last instance recovered, on the
 * first task call or alarm (an alarm set while the object is being built would cancel the one that woke it).
 *
 * @example
 * ```ts
 * // worker.ts — wrangler.toml binds A2A_TASKS to class_name "A2ATasks" (a new_sqlite_classes migration)
 * export const A2ATasks = createA2ADurableObject({
 *   agent: ({ checkpointer }) => createGraphAgent('inventory', compiled, { checkpointer }),
 *   card: { name: 'inventory' },
 *   namespace: 'A2A_TASKS',
 *   secrets: (env) => [(env as { OPENAI_API_KEY: string }).OPENAI_API_KEY],
 * });
 * export default createA2AWorker({ namespace: 'A2A_TASKS', card: { name: 'inventory' } });
 * ```
 */
export function createA2ADurableObject<Env = unknown>(options: A2ADurableObjectOptions<Env>): A2ADurableObjectClass {
  const validated = validateObjectOptions(options);
  const settings: ObjectSettings<Env> = {
    options: validated,
    heartbeatMs: validated.heartbeatMs ?? 30_000,
    retainTaskMs: validated.retainTaskMs ?? 7 * 24 * 60 * 60 * 1000,
    retainSessionMs: validated.retainSessionMs ?? 30 * 24 * 60 * 60 * 1000,
    maxResumes: validated.maxResumes ?? 3,
  };

  return class A2ATaskObject implements A2ADurableObject {
    private readonly storage: DurableObjectStorageLike;
    private readonly store: DurableTaskStore;
    private readonly sessions: SessionStorage;
    private readonly checkpointer: DurableObjectCheckpointer;
    private setup: Setup | undefined;
    /** This object's id (its task id's hex digits), once a call or its record has named it. */
    private hex: string | undefined;
    /** The recovery under way, shared by concurrent calls; a failed one is tried again by the next call. */
    private recovering: Promise<void> | undefined;

    constructor(
      state: DurableObjectStateLike,
      private readonly env: unknown,
    ) {
      this.storage = state.storage;
      this.store = new DurableTaskStore(state.storage);
      this.sessions = new SessionStorage(state.storage, validated.maxSessionBytes ?? 4 * 1024 * 1024);
      this.checkpointer = new DurableObjectCheckpointer(state.storage);
    }

    async fetch(request: Request): Promise<Response> {
      const path = new URL(request.url).pathname;
      if (path === SESSION_PATH) return answerSessionCall(this.sessions, request, settings.retainSessionMs);
      if (path !== TASK_PATH) return Response.json({ error: `not found: ${path}` }, { status: 404 });
      let call: A2ACall;
      try {
        call = readCall(await request.json());
      } catch (error) {
        return failure(null, A2AErrorCode.InternalError, `The task call from the Worker entry could not be read: ${messageOf(error).slice(0, 200)}`, '0.3', undefined, 400);
      }
      const setup = this.prepared();
      try {
        await this.recover(setup);
      } catch (error) {
        return callFailure(call, error); // the storage failed: the next call tries again
      }
      if (call.operation === 'SendMessage' || call.operation === 'StreamMessage') {
        this.hex ??= objectHexOf(call.taskId ?? '');
        if (setup.problem) return failure(call.id, A2AErrorCode.InternalError, setup.problem, call.version);
        const refused = await this.refusedMessage(call, setup);
        if (refused) return refused;
        call = await this.begunHere(call);
      }
      return setup.operations.answer(call); // tasks/* are answered from storage even when the agent cannot be built
    }

    /**
     * A task object: recovery, then the heartbeat while its task runs, afterwards the end of its retention (an
     * `input-required` task's too: it is kept waiting `retainTaskMs`). A session object: the end of its retention.
     * The session's retention runs even when the task's side fails (its keys only: the task is kept); then the alarm
     * rejects, and the platform retries it.
     */
    async alarm(): Promise<void> {
      let failed: { error: unknown } | undefined;
      const task = await this.taskAlarm().catch((error: unknown) => {
        failed = { error };
        return { next: undefined, kept: true };
      });
      const session = await this.sessions.expire(settings.retainSessionMs, task.kept === false);
      const next = Math.min(task.next ?? Infinity, session ?? Infinity);
      if (next !== Infinity) await this.storage.setAlarm(next);
      if (failed) throw failed.error;
    }

    /**
     * The task's side of an alarm: recovery, and when the task is at rest the end of its retention (its storage
     * deleted, the conversation it began kept). A damaged record has no run to watch and no end to count from: it is
     * due, and cleared — else the object would be kept forever. One a later version wrote is left to it (after a
     * rollback the task is still that version's): looked at again `retainTaskMs` later, never deleted by this one.
     * Answers when it is next due and whether a task is still kept.
     */
    private async taskAlarm(): Promise<{ next?: number | undefined; kept: boolean }> {
      const record = await this.store.record().catch((error: unknown) => {
        if (error instanceof LaterRecordError) return 'later' as const;
        if (error instanceof DamagedValueError) return null;
        throw error;
      });
      if (record === 'later') return { next: Date.now() + settings.retainTaskMs, kept: true };
      if (record === null) {
        await this.store.clear();
        return { kept: false };
      }
      if (!record) return { kept: false };
      this.hex ??= objectHexOf(record.task.id);
      const setup = this.prepared();
      await this.recover(setup, true);
      if ([...setup.operations.live.values()].some((execution) => !execution.terminal)) return { next: Date.now() + settings.heartbeatMs, kept: true };
      const current = await this.store.record();
      if (!current) return { kept: false };
      // a task not resumed for an agent that could not be built (yet): the heartbeat tries again (see `recoverTask`)
      if (!isAtRest(current.task)) return { next: setup.runner ? undefined : Date.now() + settings.heartbeatMs, kept: true };
      // a task waiting for input is kept as long as an ended one, counted from when it began to wait
      const expires = (current.endedAt ?? (Date.parse(current.task.status.timestamp ?? '') || Date.now())) + settings.retainTaskMs;
      if (expires > Date.now()) return { next: expires, kept: true };
      await this.store.clear();
      return { kept: false };
    }

    /**
     * A new task's message without a `contextId` begins a conversation: its `contextId` names this object
     * (`ctx-<its id>`) and its session is claimed here, so the conversation costs one object and its first turn's
     * session calls are local. A claim that cannot be written leaves the `contextId` to the task (a random one, its
     * session in an object of its own).
     */
    private async begunHere(call: A2ACall & { operation: 'SendMessage' | 'StreamMessage' }): Promise<A2ACall> {
      const message = call.params.message;
      if (message.contextId !== undefined || message.taskId === call.taskId) return call;
      const contextId = mintedContextId(call.taskId ?? '');
      if (contextId === undefined) return call;
      try {
        await this.sessions.claim(sessionKeyOf(settings.options.card.name, call.userId, contextId));
      } catch {
        return call;
      }
      return { ...call, params: { ...call.params, message: { ...message, taskId: call.taskId, contextId } } }; // the keys in the in-memory handler's order
    }

    /**
     * Why a message cannot be taken here, if it cannot: a new task's message when this object holds a task already;
     * a message on this object's task (the Worker entry routes a message naming a task here) that does not answer it
     * — the task is not waiting for input and the message carries no decisions — which would start a second task
     * in this object; or one naming a task this object does not hold (ended and deleted after its retention), or
     * holds for another user.
     */
    private async refusedMessage(call: A2ACall & { operation: 'SendMessage' | 'StreamMessage' }, setup: Setup): Promise<Response | undefined> {
      const followUp = call.params.message.taskId === call.taskId;
      let record: Awaited<ReturnType<DurableTaskStore['record']>>;
      try {
        record = await this.store.record();
      } catch (error) {
        if (followUp) return callFailure(call, error); // a record that cannot be read is not a task that does not exist
      }
      if (!followUp) {
        if (setup.operations.live.size === 0 && record === undefined) return undefined;
        return failure(call.id, A2AErrorCode.InvalidRequest, `Task ${call.taskId} exists already; send a new message for a new task`, call.version);
      }
      // another user's task is not there for the caller: nothing of it (its state included) is told
      if (record === undefined || record.userId !== call.userId) return failure(call.id, A2AErrorCode.TaskNotFound, `Task not found: ${String(call.taskId).slice(0, 200)}`, call.version);
      const state = (setup.operations.live.get(record.task.id)?.task ?? record.task).status.state;
      if (state === TaskState.InputRequired || decisionsOf(call.params.message) !== undefined) return undefined;
      const text = `Task ${call.taskId} is ${state}, not waiting on interrupts: send a message without its taskId for a new task`;
      return failure(call.id, A2AErrorCode.InvalidParams, text, call.version, { type: 'resume', code: 'RUN_NOT_INTERRUPTED', taskState: state });
    }

    /**
     * The agent and the backend, built once (or why they cannot be, for new tasks' callers). A failed build is not
     * kept: the next request builds again (a binding not ready, a flaky read of env), as the docs promise.
     */
    private prepared(): Setup {
      if (this.setup) return this.setup;
      const setup = prepareObject(settings, this.env as Env, {
        ...this.parts(),
        watch: (execution) => {
          void this.storage.setAlarm(Date.now() + settings.heartbeatMs).catch(() => {});
          void execution.done.then(() => this.storage.setAlarm(Date.now() + settings.retainTaskMs)).catch(() => {});
        },
      });
      if (setup.problem === undefined) this.setup = setup;
      return setup;
    }

    /** See `recoverTask`: once at a time, and again on every call (a cheap read when there is nothing to do). */
    private recover(setup: Setup, fromAlarm = false): Promise<void> {
      this.recovering ??= recoverTask(settings, setup, this.parts(), fromAlarm).finally(() => {
        this.recovering = undefined;
      });
      return this.recovering;
    }

    private parts(): ObjectParts {
      return { storage: this.storage, store: this.store, checkpointer: this.checkpointer, sessions: this.sessions, ownHex: () => this.hex };
    }
  };
}

/** A task call as the Worker entry sends it; a `TypeError` naming what is wrong otherwise. */
function readCall(value: unknown): A2ACall {
  if (!isPlainObject(value)) throw new TypeError('the call must be an object');
  const { operation, id, version, method, userId, params, taskId } = value;
  if (typeof operation !== 'string' || !OPERATIONS.has(operation)) throw new TypeError('unknown operation');
  if (!(id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) throw new TypeError('bad id');
  if (version !== '0.3' && version !== '1.0') throw new TypeError('bad version');
  if (typeof method !== 'string' || typeof userId !== 'string') throw new TypeError('bad method or userId');
  const base = { id, version, method, userId } as const;
  if (operation === 'SendMessage' || operation === 'StreamMessage') {
    if (typeof taskId !== 'string' || taskId === '') throw new TypeError('a new task needs its id');
    return { ...base, operation, taskId, params: decodeMessageSendParams(params, '0.3') };
  }
  return { ...base, operation: operation as 'GetTask' | 'CancelTask' | 'Resubscribe', params: decodeTaskQueryParams(params) };
}
