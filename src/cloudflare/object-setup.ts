/**
 * @internal What a task object builds once (its agent, runner and task backend) and what it does with a task its last
 * instance left running: resume it from its graph checkpoint, or end it `failed` with `TASK_ABANDONED`.
 */
import type { Agent } from '../agent/agent.js';
import { isAgent } from '../agent/agent-brand.js';
import { errorKind } from '../a2a/handler-front.js';
import { decisionsOf } from '../a2a/task-interrupts.js';
import { createTaskOperations, type TaskOperations } from '../a2a/task-operations.js';
import { TaskExecution } from '../a2a/task-execution.js';
import { ConfigError } from '../errors/config-error.js';
import { messageOf } from '../internal/error-chain.js';
import { redactText } from '../internal/redact.js';
import { secretsProblem } from '../internal/secret-forms.js';
import { Runner } from '../runner/runner.js';
import type { RunnableAgent } from '../runner/runnable-agent.js';
import type { DurableObjectCheckpointer } from './durable-checkpointer.js';
import type { SessionStorage } from './session-storage.js';
import type { DurableTaskStore } from './durable-task-store.js';
import { resolveNamespace, type A2ADurableObjectOptions } from './options.js';
import { TaskSessionStore } from './session-routing.js';
import { abandonedTask, isAtRest } from './task-recovery.js';
import type { DurableObjectStorageLike } from './types.js';
import { runSecrets } from '../internal/streams.js';

/** @internal The class's settings, defaults filled in. */
export interface ObjectSettings<Env> {
  options: A2ADurableObjectOptions<Env>;
  heartbeatMs: number;
  retainTaskMs: number;
  retainSessionMs: number;
  maxResumes: number;
}

/** @internal What one object has built. */
export interface Setup {
  operations: TaskOperations;
  /** The runner, when the agent could be built. */
  runner?: Runner | undefined;
  /** Why it could not be: told to whoever sends a new message (reads are answered from storage all the same). */
  problem?: string | undefined;
  secrets: readonly string[];
  structured: boolean;
}

/** @internal The object's parts a setup uses. */
export interface ObjectParts {
  storage: DurableObjectStorageLike;
  store: DurableTaskStore;
  checkpointer: DurableObjectCheckpointer;
  /** The session a task of this object began, kept here. */
  sessions: SessionStorage;
  /** This object's id (its task id's hex digits), once known. */
  ownHex: () => string | undefined;
  /** Keeps watch over a run (heartbeat, then retention). */
  watch?: ((execution: TaskExecution) => void) | undefined;
}

/** Stands in for the runner when the agent cannot be built: only reads are answered then. */
const UNAVAILABLE = { run: () => Promise.reject(new Error('the agent is not available')) } as unknown as Runner;

/**
 * @internal Builds the agent (the factory gets env, the object's checkpointer and storage), the session store and the
 * task backend. A factory or binding that fails is reported to new tasks' callers by its kind only — its text may
 * quote configuration — and logged to the Worker's log with every secret removed.
 */
export function prepareObject<Env>(settings: ObjectSettings<Env>, env: Env, parts: ObjectParts): Setup {
  const { options } = settings;
  const structured = options.structuredTaskErrors ?? true;
  let secrets: readonly string[] = [];
  const operations = (runner: Runner) =>
    createTaskOperations({
      runner,
      store: parts.store,
      journal: (task) => parts.store.journal({ invocationId: task.invocationId, userId: task.userId, message: task.message, answered: task.answered }),
      structured,
      secrets,
      keepAliveMs: options.keepAliveMs ?? 15_000,
      maxQueuedEvents: options.maxQueuedEvents ?? 10_000,
      maxLiveTasks: 1,
      onStart: parts.watch,
      ownerOf: async () => (await parts.store.record())?.userId, // one task per object: its record says whose
    });
  try {
    const given: unknown = typeof options.secrets === 'function' ? options.secrets(env) : options.secrets;
    const problem = secretsProblem(given, typeof options.secrets === 'function' ? "the secrets function's result" : 'secrets');
    if (problem) throw ConfigError.fromProblems('A2A Durable Object', [problem]);
    secrets = [...((given as readonly string[] | undefined) ?? [])];
    const factory = options.agent;
    const agent = typeof factory === 'function' && !isAgent(factory) ? factory({ env, checkpointer: parts.checkpointer, storage: parts.storage }) : factory;
    const sessionStore = new TaskSessionStore(resolveNamespace(options.namespace, env), parts.sessions, settings.retainSessionMs, parts.ownHex);
    const runner = new Runner({ appName: options.card.name, agent: agent as RunnableAgent | Agent, sessionStore });
    // the agent's own secrets come with it (`runSecrets`, internal/streams.ts), on top of the deployment's
    secrets = [...runSecrets(runner), ...secrets];
    return { operations: operations(runner), runner, secrets, structured };
  } catch (error) {
    console.error(`[faultline] the A2A agent of this Durable Object could not be set up: ${redactText(messageOf(error), secrets)}`);
    return {
      operations: operations(UNAVAILABLE),
      secrets,
      structured,
      problem: `The agent of this A2A deployment could not be set up (${errorKind(error)}); the Worker's log has the details`,
    };
  }
}

/**
 * @internal A stored task that is neither terminal nor waiting for input (`input-required` stays as it is: its answer
 * resumes it) while no run is live here lost its run with the object's last instance.
 * It resumes from its graph checkpoint when there is one, `resume` is on, the agent can be built and it has been
 * resumed fewer than `maxResumes` times (a step that kills its object would otherwise loop forever); else it ends
 * `failed` with `TASK_ABANDONED`, saying which. An agent that cannot be built (a binding not ready, a flaky read of
 * env) is tried again — with every call, and with the heartbeat alarm, which the object keeps — before the task is
 * given up: each alarm (`fromAlarm`) that finds it still failing counts as one of `maxResumes`, and the task ends
 * `no-agent` once they are used (3 heartbeats by default); a call only makes sure an alarm is set. Its streamed chunks are folded into its record first, so nothing sent
 * is lost either way. A checkpoint that cannot be read counts as one: the resumed run reads it again and fails with
 * its typed `CHECKPOINT_*` error if it is damaged — a passing storage error never abandons a task that could resume.
 */
export async function recoverTask<Env>(settings: ObjectSettings<Env>, setup: Setup, parts: ObjectParts, fromAlarm = false): Promise<void> {
  const record = await parts.store.record();
  if (!record || setup.operations.live.size > 0) return;
  if (isAtRest(record.task)) return;
  const task = (await parts.store.get(record.task.id)) ?? record.task;
  const resumes = record.resumes ?? 0;
  let reason: 'no-checkpoint' | 'no-agent' | 'exhausted' | undefined;
  if (resumes >= settings.maxResumes) reason = setup.runner ? 'exhausted' : 'no-agent';
  else if (settings.options.resume === false || (await parts.checkpointer.get(record.invocationId).catch(() => 'unreadable')) === undefined) reason = 'no-checkpoint';
  else if (!setup.runner) {
    // the build may be passing: tried again later (the alarm: see `taskAlarm`), counted once per alarm
    if (fromAlarm) await parts.store.write({ ...record, task, resumes: resumes + 1 });
    else if ((await parts.storage.getAlarm()) === null) await parts.storage.setAlarm(Date.now() + settings.heartbeatMs);
    return;
  }
  if (reason === undefined && setup.runner) {
    const resumed = { ...record, task, resumes: resumes + 1 };
    await parts.store.write(resumed);
    // A run resumed by a follow-up's decisions goes on as that resume (the agent replays the same decisions), never
    // with the follow-up as a new user turn; any other run, with the message that started it.
    const carried = record.answered ? decisionsOf(record.message) : undefined;
    const resume = carried && 'decisions' in carried ? { runId: record.invocationId, decisions: carried.decisions as never } : undefined;
    const execution = new TaskExecution(
      record.message,
      { runner: setup.runner, journal: parts.store.journal(resumed), structured: setup.structured, userId: record.userId, secrets: setup.secrets, taskId: task.id, invocationId: record.invocationId, resume, accepted: true },
      task,
    );
    setup.operations.track(execution);
    return;
  }
  await parts.store.write({ ...record, task: abandonedTask(task, record.invocationId, reason ?? 'no-checkpoint', resumes), endedAt: Date.now() });
  await parts.storage.setAlarm(Date.now() + settings.retainTaskMs);
}
