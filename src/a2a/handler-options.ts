import type { Agent } from '../agent/agent.js';
import { isAgent } from '../agent/agent-brand.js';
import { ConfigError } from '../errors/config-error.js';
import { callerSettings, type CallerSettings } from '../internal/caller-check.js';
import { isPlainObject, positiveIntegerProblems, refusedValue } from '../internal/json.js';
import type { Runner } from '../runner/runner.js';
import type { RunnableAgent } from '../runner/runnable-agent.js';
import type { AgentCardInput } from './agent-card.js';
import type { A2AProtocolVersion } from './constants.js';
import type { A2ATaskStore } from './task-store.js';
import { telemetryProblems } from '../telemetry/no-telemetry.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import { secretsProblem } from '../internal/secret-forms.js';

/** Options of {@link createA2AHandler}. Give `agent` or `runner`. */
export interface A2AHandlerOptions {
  /** The agent to serve (a graph agent, an LLM `Agent`, any `RunnableAgent`). */
  agent?: RunnableAgent | Agent | undefined;
  /** A runner to use instead (its app name, session store…). */
  runner?: Runner | undefined;
  /** The agent card; `url` defaults to the request's origin + `basePath`. */
  card: AgentCardInput;
  /** Terminal errors become failed (or canceled) tasks with structured metadata. @default true (decisions.md point 14) */
  structuredTaskErrors?: boolean | undefined;
  /** @default a new `InMemoryA2ATaskStore` */
  taskStore?: A2ATaskStore | undefined;
  /**
   * How long one `taskStore` call may take. A task's own saves past it (or that throw) are gone without: the task goes
   * on, so a store that hangs or fails never holds a task or its streams. A read, or a cancel's save, past it fails
   * its request with -32603 (`TimeoutError`), the task as it was. @default 10000
   */
  storeTimeoutMs?: number | undefined;
  /** Path of the JSON-RPC endpoint. @default '/' */
  basePath?: string | undefined;
  /** Largest request body accepted; a larger one gets HTTP 413 and JSON-RPC -32600. @default 1048576 */
  maxBodyBytes?: number | undefined;
  /** Time for the request body to arrive; a client that trickles it gets HTTP 408 and JSON-RPC -32600. @default 30000 */
  bodyTimeoutMs?: number | undefined;
  /** Deepest nesting accepted in `params`; deeper gets JSON-RPC -32602 naming the path. @default 100 */
  maxDepth?: number | undefined;
  /**
   * Tasks running at once in this handler (its live-run map); a new `message/send` or `message/stream` beyond it gets
   * HTTP 503 with `Retry-After` and JSON-RPC -32603. @default 1000
   */
  maxLiveTasks?: number | undefined;
  /**
   * Events an SSE answer holds for a client that does not read; past it the stream ends with a JSON-RPC error frame
   * (the task goes on: `tasks/get` or `tasks/resubscribe` pick it up). @default 10000
   */
  maxQueuedEvents?: number | undefined;
  /**
   * While an SSE stream waits for the task, a `: keep-alive` comment is sent this often (proxies drop idle streams,
   * and Cloudflare Workers cancel a request that waits only on another request's events). `false` turns it off.
   * @default 15000
   */
  keepAliveMs?: number | false | undefined;
  /** Protocol versions served. @default ['0.3', '1.0'] */
  protocolVersions?: readonly A2AProtocolVersion[] | undefined;
  /**
   * Strings that must never reach a remote client (your agent's API keys): removed, in every form (as is, base64,
   * URL-encoded…), from every task, event and error the handler sends, as the agent's own `.secrets()` are (however
   * it is wrapped: `toRunnableAgent`, a graph's agent nodes, a `Runner`). Credential-shaped values in errors are
   * masked either way.
   */
  secrets?: readonly string[] | undefined;
  /**
   * `Host` names this server answers to besides loopback ones (`localhost`, `127.0.0.1`, `[::1]`, any port, always
   * accepted): `'agent.example.com'` (any port) or `'agent.example.com:8443'`, matched case-insensitively, a
   * trailing dot ignored. A request to another name — the agent card included — gets HTTP 421 and JSON-RPC -32600:
   * the defence against DNS rebinding, where a web page points its own name at this machine. Not set, a caller on a
   * public address (as `toNodeListener`, `Deno.serve` or a Worker report it) may use any name, and every other
   * caller — on loopback, a private network, or unknown (no platform arguments) — only loopback names: behind a
   * reverse proxy, list the public name. `'*'` accepts every name. See docs/security.md. @default not set
   */
  allowedHosts?: readonly string[] | '*' | undefined;
  /**
   * Origins of browser apps allowed to call besides the server's own. A request whose `Origin` header is neither the
   * request's own origin (its Host checked first), nor a loopback origin of the same scheme and port on a loopback
   * Host, nor listed here gets HTTP 403 and JSON-RPC -32600; requests without `Origin` (server-side clients) always
   * pass. List origins as browsers send them (`https://app.example`: no path). `'*'` accepts every origin, `null`
   * included. @default [] (the server's own origin only)
   */
  allowedOrigins?: readonly string[] | '*' | undefined;
  /** The user id passed to the runner. @default 'a2a-user' */
  userId?: ((request: Request) => string) | undefined;
  /**
   * Where spans go (`openTelemetry(otel)`): a `server` span per request, a child of the request's W3C `traceparent`
   * (an A2A client's span), and the task's run — the runner's and the agent's spans — under it. @default nothing
   */
  telemetry?: Telemetry | undefined;
}

/** @internal Checks the options of `createA2AHandler`, listing every problem in one `ConfigError`; resolves who may call. */
export function validateHandlerOptions(options: A2AHandlerOptions): A2AHandlerOptions & { caller: CallerSettings } {
  if (!isPlainObject(options)) throw ConfigError.fromProblems('A2A handler options', ['options must be an object']);
  const problems: string[] = unknownOptionProblems(options, ['agent', 'runner', 'card', 'structuredTaskErrors', 'taskStore', 'storeTimeoutMs', 'basePath', 'maxBodyBytes', 'bodyTimeoutMs', 'maxDepth', 'maxLiveTasks', 'maxQueuedEvents', 'keepAliveMs', 'protocolVersions', 'secrets', 'allowedHosts', 'allowedOrigins', 'userId', 'telemetry']);
  if (!options.agent && !options.runner) problems.push('give agent or runner');
  if (options.agent && !isAgent(options.agent) && typeof (options.agent as RunnableAgent).runEvents !== 'function') problems.push('agent must be an Agent or a RunnableAgent');
  if (!isPlainObject(options.card) || typeof options.card.name !== 'string' || options.card.name.trim() === '') problems.push('card.name is required');
  const secrets = secretsProblem(options.secrets);
  if (secrets) problems.push(secrets);
  const store = options.taskStore as Partial<A2ATaskStore> | null | undefined;
  if (store !== undefined && (typeof store?.get !== 'function' || typeof store.save !== 'function')) problems.push('taskStore must have get(taskId) and save(task) (an A2ATaskStore)'); // else every task would be lost
  if (options.structuredTaskErrors !== undefined && typeof options.structuredTaskErrors !== 'boolean') problems.push('structuredTaskErrors must be a boolean');
  problems.push(...frontProblems(options), ...positiveIntegerProblems(options, ['maxLiveTasks', 'maxQueuedEvents', 'storeTimeoutMs']));
  if (options.keepAliveMs !== undefined && options.keepAliveMs !== false && !(typeof options.keepAliveMs === 'number' && options.keepAliveMs > 0 && Number.isFinite(options.keepAliveMs))) problems.push('keepAliveMs must be a finite number > 0 or false');
  problems.push(...telemetryProblems(options.telemetry));
  const caller = callerSettings(options, problems);
  if (problems.length > 0) throw ConfigError.fromProblems('A2A handler options', problems);
  return { ...options, caller };
}

/**
 * @internal The problems of the options every A2A server front takes — `createA2AHandler`'s and `createA2AWorker`'s:
 * who a caller is, where it is served, and what a request may be.
 */
export function frontProblems(options: Pick<A2AHandlerOptions, 'userId' | 'basePath' | 'maxBodyBytes' | 'bodyTimeoutMs' | 'maxDepth' | 'protocolVersions'>): string[] {
  const problems: string[] = [];
  if (options.userId !== undefined && typeof options.userId !== 'function') problems.push('userId must be a function (request) => string'); // else every request fails with -32603
  if (options.basePath !== undefined && typeof options.basePath !== 'string') problems.push(`basePath must be a string (got ${refusedValue(options.basePath)})`);
  if (options.maxBodyBytes !== undefined && !(typeof options.maxBodyBytes === 'number' && options.maxBodyBytes > 0)) problems.push('maxBodyBytes must be a number > 0');
  if (options.bodyTimeoutMs !== undefined && !(typeof options.bodyTimeoutMs === 'number' && options.bodyTimeoutMs > 0)) problems.push('bodyTimeoutMs must be a number > 0 or Infinity');
  problems.push(...positiveIntegerProblems(options, ['maxDepth']));
  if (options.protocolVersions !== undefined && (!Array.isArray(options.protocolVersions) || options.protocolVersions.length === 0 || options.protocolVersions.some((version) => version !== '0.3' && version !== '1.0'))) {
    problems.push(`protocolVersions must list '0.3' and/or '1.0'`);
  }
  return problems;
}
