/**
 * The Durable Object that owns one A2A task (or one session): it runs the task through the same task backend as
 * `createA2AHandler`, writes every transition and chunk to its storage before sending it, answers `tasks/*` for its
 * task from whichever isolate asks, and after a restart either resumes the run from its graph checkpoint or ends the
 * task `failed` with `TASK_ABANDONED`. A heartbeat alarm keeps watch while the task runs; an ended task is deleted
 * after `retainTaskMs`.
 */
import { Agent } from '../agent/agent.js';
import { A2AErrorCode } from '../a2a/constants.js';
import { decodeMessageSendParams, decodeTaskQueryParams } from '../a2a/decode.js';
import { callFailure, failure, type A2ACall } from '../a2a/handler-front.js';
import { createTaskOperations, type TaskOperations } from '../a2a/task-operations.js';
import { TaskExecution } from '../a2a/task-execution.js';
import { messageOf } from '../internal/error-chain.js';
import { isPlainObject, truncate } from '../internal/json.js';
import { redactText } from '../internal/redact.js';
import { Runner } from '../runner/runner.js';
import type { RunnableAgent } from '../runner/runnable-agent.js';
import { DurableObjectCheckpointer } from './durable-checkpointer.js';
import { answerSessionCall, DurableObjectSessionStore, SESSION_PATH, SessionStorage } from './durable-session-store.js';
import { DurableTaskStore } from './durable-task-store.js';
import { resolveNamespace, validateObjectOptions, type A2ADurableObjectOptions } from './options.js';
import { abandonedTask, isTerminal } from './task-recovery.js';
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

/** What an object needs once it has its agent. */
interface Ready {
  operations: TaskOperations;
  runner: Runner;
}

/**
 * The Durable Object class of an A2A deployment: one object per task (named `task:<id>`) and one per session (named
 * `session:<key>`), all of this class, reached through {@link createA2AWorker}. Uses only the classic Durable Object
 * API (`constructor(state, env)`, `fetch`, `alarm`): no `cloudflare:workers` import, no `nodejs_compat`.
 *
 * @example
 * ```ts
 * // worker.ts — wrangler.toml binds A2A_TASKS to class_name "A2ATasks" (a new_sqlite_classes migration)
 * export const A2ATasks = createA2ADurableObject({
 *   agent: ({ checkpointer }) => createGraphAgent('inventory', compiled, { checkpointer }),
 *   card: { name: 'inventory' },
 *   namespace: 'A2A_TASKS',
 * });
 * export default createA2AWorker({ namespace: 'A2A_TASKS', card: { name: 'inventory' } });
 * ```
 */
export function createA2ADurableObject<Env = unknown>(options: A2ADurableObjectOptions<Env>): A2ADurableObjectClass {
  const settings = validateObjectOptions(options);
  const secrets = [...(settings.secrets ?? [])];
  const heartbeatMs = settings.heartbeatMs ?? 30_000;
  const retainTaskMs = settings.retainTaskMs ?? 7 * 24 * 60 * 60 * 1000;
  const structured = settings.structuredTaskErrors ?? true;

  return class A2ATaskObject implements A2ADurableObject {
    private readonly storage: DurableObjectStorageLike;
    private readonly store: DurableTaskStore;
    private readonly sessions: SessionStorage;
    private readonly checkpointer: DurableObjectCheckpointer;
    private readonly ready: Promise<Ready | { problem: string }>;
    /** A run this instance resumed, until an alarm handler has waited for it. */
    private resumed: Promise<void> | undefined;

    constructor(state: DurableObjectStateLike, env: unknown) {
      this.storage = state.storage;
      this.store = new DurableTaskStore(state.storage);
      this.sessions = new SessionStorage(state.storage, settings.maxSessionBytes ?? 4 * 1024 * 1024);
      this.checkpointer = new DurableObjectCheckpointer(state.storage);
      const ready = this.prepare(env as Env);
      this.ready = ready.then(async (prepared) => ('problem' in prepared ? prepared : (await this.recover(prepared), prepared)));
      void state.blockConcurrencyWhile(() => this.ready.catch(() => undefined));
    }

    async fetch(request: Request): Promise<Response> {
      const path = new URL(request.url).pathname;
      if (path === SESSION_PATH) return answerSessionCall(this.sessions, request);
      if (path !== TASK_PATH) return Response.json({ error: `not found: ${path}` }, { status: 404 });
      let call: A2ACall;
      try {
        call = readCall(await request.json());
      } catch (error) {
        return failure(null, A2AErrorCode.InternalError, `The task call from the Worker entry could not be read: ${messageOf(error).slice(0, 200)}`, '0.3', undefined, 400);
      }
      let ready: Ready | { problem: string };
      try {
        ready = await this.ready;
      } catch (error) {
        return callFailure(call, error);
      }
      if ('problem' in ready) return failure(call.id, A2AErrorCode.InternalError, ready.problem, call.version);
      if (call.operation === 'SendMessage' || call.operation === 'StreamMessage') {
        if (ready.operations.live.size > 0 || (await this.store.record().catch(() => undefined)) !== undefined) {
          return failure(call.id, A2AErrorCode.InvalidRequest, `Task ${call.taskId} exists already; send a new message for a new task`, call.version);
        }
      }
      return ready.operations.answer(call);
    }

    /** The heartbeat while the task runs; afterwards the end of its retention. */
    async alarm(): Promise<void> {
      const ready = await this.ready.catch(() => undefined);
      const resumed = this.resumed;
      this.resumed = undefined;
      // A run resumed when the alarm woke the object belongs to this handler's context: the handler stays open until
      // the run ends (work of an alarm does not outlive its handler).
      if (resumed) await resumed;
      if (ready && !('problem' in ready) && [...ready.operations.live.values()].some((execution) => !execution.terminal)) {
        await this.storage.setAlarm(Date.now() + heartbeatMs);
        return;
      }
      const record = await this.store.record().catch(() => undefined);
      if (!record || !isTerminal(record.task)) return;
      const expires = (record.endedAt ?? Date.now()) + retainTaskMs;
      if (expires <= Date.now()) await this.store.clear();
      else await this.storage.setAlarm(expires);
    }

    /** The agent and the backend, or why they cannot be built (told to every caller, never thrown at the runtime). */
    private async prepare(env: Env): Promise<Ready | { problem: string }> {
      try {
        const agent = typeof settings.agent === 'function' && !(settings.agent instanceof Agent) ? settings.agent({ env, checkpointer: this.checkpointer, storage: this.storage }) : settings.agent;
        const sessionStore = new DurableObjectSessionStore(resolveNamespace(settings.namespace, env));
        const runner = new Runner({ appName: settings.card.name, agent: agent as RunnableAgent | Agent, sessionStore });
        const operations = createTaskOperations({
          runner,
          store: this.store,
          journal: (task) => this.store.journal({ invocationId: task.invocationId, userId: task.userId, message: task.message }),
          structured,
          secrets,
          keepAliveMs: settings.keepAliveMs ?? 15_000,
          maxQueuedEvents: settings.maxQueuedEvents ?? 10_000,
          maxLiveTasks: 1,
          onStart: (execution) => this.watch(execution),
        });
        return { operations, runner };
      } catch (error) {
        return { problem: `The agent of this A2A deployment could not be set up: ${truncate(redactText(messageOf(error), secrets), 500)}` };
      }
    }

    /** Heartbeat while `execution` runs, retention once it ends. */
    private watch(execution: TaskExecution): void {
      void this.storage.setAlarm(Date.now() + heartbeatMs).catch(() => {});
      void execution.done.then(() => this.storage.setAlarm(Date.now() + retainTaskMs)).catch(() => {});
    }

    /**
     * A stored task that is not terminal while no run is live here lost its run with the object's last instance: it
     * resumes from its graph checkpoint when there is one (and `resume` is on), else it ends `failed` with
     * `TASK_ABANDONED`. Its streamed chunks are folded into its record first, so nothing sent is lost either way.
     */
    private async recover(ready: Ready): Promise<void> {
      let record;
      try {
        record = await this.store.record();
      } catch {
        return; // a damaged record: tasks/get reports it as an internal error; nothing to run
      }
      if (!record || isTerminal(record.task) || ready.operations.live.size > 0) return;
      const task = (await this.store.get(record.task.id)) ?? record.task;
      const checkpoint = settings.resume === false ? undefined : await this.checkpointer.get(record.invocationId).catch(() => undefined);
      if (checkpoint !== undefined) {
        await this.store.write({ ...record, task });
        const execution = new TaskExecution(
          record.message,
          { runner: ready.runner, journal: this.store.journal(record), structured, userId: record.userId, secrets, taskId: task.id, invocationId: record.invocationId },
          task,
        );
        ready.operations.track(execution);
        this.resumed = execution.done;
        return;
      }
      const ended = abandonedTask(task, record.invocationId);
      // Its heartbeat alarm is still set (or is what woke the object): when it fires, it schedules the retention.
      await this.store.write({ ...record, task: ended, endedAt: Date.now() });
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

