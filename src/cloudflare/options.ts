/** Options of the Durable Object deployment of an A2A agent, and their checks. */
import type { Agent } from '../agent/agent.js';
import { isAgent } from '../agent/agent-brand.js';
import type { AgentCardInput } from '../a2a/agent-card.js';
import type { A2AProtocolVersion } from '../a2a/constants.js';
import { frontProblems } from '../a2a/handler-options.js';
import { ConfigError } from '../errors/config-error.js';
import type { Checkpointer } from '../graph/core/checkpointer.js';
import { callerSettings, type CallerSettings } from '../internal/caller-check.js';
import { isPlainObject, positiveIntegerProblems, refusedValue } from '../internal/json.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import type { RunnableAgent } from '../runner/runnable-agent.js';
import type { DurableObjectNamespaceLike, DurableObjectStorageLike } from './types.js';
import { secretsProblem } from '../internal/secret-forms.js';
import { missingMethods } from './binding-checks.js';

/**
 * Where the objects live: the name of the Durable Object binding in the Worker's `env` (`'A2A_TASKS'`), or a function
 * that finds it in `env`.
 * @example `namespace: (env) => (env as { A2A_TASKS: DurableObjectNamespaceLike }).A2A_TASKS`
 */
export type NamespaceOption<Env = unknown> = string | ((env: Env) => DurableObjectNamespaceLike);

/** What an agent factory of {@link A2ADurableObjectOptions} receives: one per object. */
export interface A2AObjectContext<Env = unknown> {
  /** The Worker's bindings. */
  env: Env;
  /** Checkpoints in this object's storage: give it to `createGraphAgent(…, { checkpointer })` so a restart resumes. */
  checkpointer: Checkpointer;
  /** This object's storage. */
  storage: DurableObjectStorageLike;
}

/** Options of `createA2ADurableObject`. */
export interface A2ADurableObjectOptions<Env = unknown> {
  /** The agent, or a function building it for each object (from its env and checkpointer). */
  agent: RunnableAgent | Agent | ((context: A2AObjectContext<Env>) => RunnableAgent | Agent);
  /** The agent card (its `name` is the runner's app name, part of every session key). */
  card: AgentCardInput;
  /** This class's own binding: sessions live in objects of the same namespace. */
  namespace: NamespaceOption<Env>;
  /** Terminal errors become failed (or canceled) tasks with structured metadata. @default true */
  structuredTaskErrors?: boolean | undefined;
  /** See `A2AHandlerOptions.keepAliveMs`. @default 15000 */
  keepAliveMs?: number | false | undefined;
  /** See `A2AHandlerOptions.maxQueuedEvents`. @default 10000 */
  maxQueuedEvents?: number | undefined;
  /**
   * Strings that must never reach a remote client, removed in every form from everything a task sends (and from what
   * the object logs) — or a function of `env`, for keys that live in the Worker's secrets.
   */
  secrets?: readonly string[] | ((env: Env) => readonly string[]) | undefined;
  /** While its task runs, the object's alarm fires this often (and finds a run that died with the object). @default 30000 */
  heartbeatMs?: number | undefined;
  /** How long an ended task is kept; then its object's storage is deleted (tasks/get: not found). @default 604800000 (7 days) */
  retainTaskMs?: number | undefined;
  /** Size of one session (JSON length of its messages); past it the oldest whole turns go. @default 4194304 (4 MiB) */
  maxSessionBytes?: number | undefined;
  /** How long a session is kept after its last turn; then its object's storage is deleted. @default 2592000000 (30 days) */
  retainSessionMs?: number | undefined;
  /** A task whose run died with its object resumes from its graph checkpoint, when it has one. @default true */
  resume?: boolean | undefined;
  /**
   * Resumes of one task at most: a step that kills its object every time (a CPU or memory limit) ends `failed` with
   * `TASK_ABANDONED` instead of looping. @default 3
   */
  maxResumes?: number | undefined;
}

/** Options of `createA2AWorker`. */
export interface A2AWorkerOptions<Env = unknown> {
  /** The binding of the `createA2ADurableObject` class. */
  namespace: NamespaceOption<Env>;
  /** The agent card; `url` defaults to the request's origin + `basePath`. */
  card: AgentCardInput;
  /** @default '/' */
  basePath?: string | undefined;
  /** @default ['0.3', '1.0'] */
  protocolVersions?: readonly A2AProtocolVersion[] | undefined;
  /** See `A2AHandlerOptions.maxBodyBytes`. @default 1048576 */
  maxBodyBytes?: number | undefined;
  /** See `A2AHandlerOptions.bodyTimeoutMs`. @default 30000 */
  bodyTimeoutMs?: number | undefined;
  /** See `A2AHandlerOptions.maxDepth`. @default 100 */
  maxDepth?: number | undefined;
  /** The user id passed to the runner (part of the session key). @default 'a2a-user' */
  userId?: ((request: Request) => string) | undefined;
  /**
   * See `A2AHandlerOptions.allowedHosts`. The caller's address is the `CF-Connecting-IP` Cloudflare sets, so a deployed
   * Worker answers to its routes' names as they are; under `wrangler dev` (a loopback caller) it answers to loopback
   * names only. Listing your routes' names closes the door on every other name, in both. @default not set
   */
  allowedHosts?: readonly string[] | '*' | undefined;
  /** See `A2AHandlerOptions.allowedOrigins`. @default [] (the Worker's own origin only) */
  allowedOrigins?: readonly string[] | '*' | undefined;
}

/**
 * Every name each factory takes, as a record of its options type: an option added to the type and not here (or here
 * and not in the type) fails to compile, so a name the factory reads is never refused as unknown.
 */
const OBJECT_KEYS = [
  'agent', 'card', 'namespace', 'structuredTaskErrors', 'keepAliveMs', 'maxQueuedEvents', 'secrets',
  'heartbeatMs', 'retainTaskMs', 'maxSessionBytes', 'retainSessionMs', 'resume', 'maxResumes',
] as const satisfies ReadonlyArray<keyof A2ADurableObjectOptions>;
const WORKER_KEYS = [
  'namespace', 'card', 'basePath', 'protocolVersions', 'maxBodyBytes', 'bodyTimeoutMs', 'maxDepth',
  'userId', 'allowedHosts', 'allowedOrigins',
] as const satisfies ReadonlyArray<keyof A2AWorkerOptions>;
type Listed<Options, Keys extends readonly PropertyKey[]> = Exclude<keyof Options, Keys[number]> extends never ? true : false;
type Holds<T extends true> = T;
/** @internal Compiles only while each list names every option of its type (plain arrays: nothing a bundler keeps). */
export type OptionListsComplete = [Holds<Listed<A2ADurableObjectOptions, typeof OBJECT_KEYS>>, Holds<Listed<A2AWorkerOptions, typeof WORKER_KEYS>>];

function commonProblems(options: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const card = options.card as Record<string, unknown> | undefined;
  if (!isPlainObject(card) || typeof card.name !== 'string' || card.name.trim() === '') problems.push('card.name is required');
  if (!(typeof options.namespace === 'string' && options.namespace !== '') && typeof options.namespace !== 'function') {
    problems.push('namespace must be the name of the Durable Object binding or a function of env returning it');
  }
  return problems;
}

/** @internal Checks the options of `createA2ADurableObject`, listing every problem in one `ConfigError`. */
export function validateObjectOptions<Env>(options: A2ADurableObjectOptions<Env>): A2ADurableObjectOptions<Env> {
  if (!isPlainObject(options)) throw ConfigError.fromProblems('A2A Durable Object options', ['options must be an object']);
  const problems = [...unknownOptionProblems(options, OBJECT_KEYS), ...commonProblems(options)];
  const agent = options.agent as unknown;
  if (typeof agent !== 'function' && !isAgent(agent) && typeof (agent as RunnableAgent | undefined)?.runEvents !== 'function') {
    problems.push('agent must be an Agent, a RunnableAgent, or a function returning one');
  }
  const secrets = options.secrets as unknown;
  const secretsRefused = typeof secrets === 'function' ? undefined : secretsProblem(secrets);
  if (secretsRefused) problems.push(`${secretsRefused} (or a function of env returning them)`);
  problems.push(...positiveIntegerProblems(options, ['maxQueuedEvents', 'heartbeatMs', 'retainTaskMs', 'maxSessionBytes', 'retainSessionMs']));
  if (options.maxResumes !== undefined && !(Number.isInteger(options.maxResumes) && options.maxResumes >= 0)) problems.push(`maxResumes must be an integer ≥ 0 (got ${refusedValue(options.maxResumes)})`);
  if (options.keepAliveMs !== undefined && options.keepAliveMs !== false && !(typeof options.keepAliveMs === 'number' && options.keepAliveMs > 0 && Number.isFinite(options.keepAliveMs))) {
    problems.push('keepAliveMs must be a finite number > 0 or false');
  }
  if (problems.length > 0) throw ConfigError.fromProblems('A2A Durable Object options', problems);
  return options;
}

/** @internal Checks the options of `createA2AWorker`; resolves who may call. */
export function validateWorkerOptions<Env>(options: A2AWorkerOptions<Env>): A2AWorkerOptions<Env> & { caller: CallerSettings } {
  if (!isPlainObject(options)) throw ConfigError.fromProblems('A2A Worker options', ['options must be an object']);
  const problems = [...unknownOptionProblems(options, WORKER_KEYS), ...commonProblems(options)];
  problems.push(...frontProblems(options)); // the handler's own checks: the Worker is its front
  const caller = callerSettings(options, problems);
  if (problems.length > 0) throw ConfigError.fromProblems('A2A Worker options', problems);
  return { ...options, caller };
}

/**
 * @internal The namespace from `env`; a `ConfigError` naming the binding when it is not there (a deployment without the
 * `[[durable_objects.bindings]]` entry).
 */
export function resolveNamespace<Env>(option: NamespaceOption<Env>, env: Env): DurableObjectNamespaceLike {
  const found = typeof option === 'function' ? option(env) : (env as Record<string, unknown> | undefined)?.[option];
  if (missingMethods(found, ['idFromName', 'get', 'newUniqueId', 'idFromString']).length > 0) {
    const what = typeof option === 'string' ? `env.${option}` : 'the namespace function';
    throw ConfigError.fromProblems('A2A Durable Object deployment', [`${what} is not a Durable Object namespace: add the binding to wrangler.toml ([[durable_objects.bindings]])`]);
  }
  return found as DurableObjectNamespaceLike;
}
