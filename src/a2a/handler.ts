import type { Agent } from '../agent/agent.js';
import { SerializeError } from '../errors/serialize-error.js';
import { read } from '../internal/error-chain.js';
import { MAX_JSON_DEPTH } from '../wire/safe-json.js';
import { Runner } from '../runner/runner.js';
import type { RunnableAgent } from '../runner/runnable-agent.js';
import { buildAgentCard } from './agent-card.js';
import { A2A_VERSION_HEADER, A2AErrorCode, A2AMethod, A2AMethodV1, AGENT_CARD_PATH, LEGACY_AGENT_CARD_PATH, PUSH_NOTIFICATION_METHODS, type A2AProtocolVersion } from './constants.js';
import { decodeMessageSendParams, decodeTaskQueryParams } from './decode.js';
import { findWaitUntil, normalizePath, parseVersion, type WaitUntil } from './handler-http.js';
import { readRPCRequest } from './handler-request.js';
import { validateHandlerOptions, type A2AHandlerOptions } from './handler-options.js';
import { errorBody, jsonResponse, resultBody, rpcError, SSE_HEADERS, sseFrame, type RequestId } from './jsonrpc.js';
import { streamResponse } from './sse-response.js';
import { TaskExecution } from './task-execution.js';
import { InMemoryA2ATaskStore } from './task-store.js';
import type { A2AStreamEvent, MessageSendParams, Task } from './types.js';
import { streamEventToV1, taskToV1 } from './v1-codec.js';

export type { A2AHandlerOptions } from './handler-options.js';

/**
 * The fetch handler {@link createA2AHandler} returns. The extra arguments are whatever the platform passes after the
 * request (a Worker's `env, ctx`; a Next.js/Vercel `context`): when one of them has `waitUntil`, every task's run is
 * registered with it, so a non-blocking `message/send` keeps running after its response is sent.
 *
 * @example
 * ```ts
 * const handler: A2AHandler = createA2AHandler({ agent, card: { name: 'inventory' } });
 * export default { fetch: handler }; // Workers call fetch(request, env, ctx)
 * ```
 */
export type A2AHandler = (request: Request, ...platform: unknown[]) => Promise<Response>;

type Operation = keyof typeof A2AMethod;
/** Method name → operation and the protocol version the name belongs to (a Map: no name reaches Object.prototype). */
const METHODS = new Map<string, { operation: Operation; version: A2AProtocolVersion }>([
  ...Object.entries(A2AMethod).map(([key, value]) => [value, { operation: key as Operation, version: '0.3' as const }] as const),
  ...Object.entries(A2AMethodV1).map(([key, value]) => [value, { operation: key as Operation, version: '1.0' as const }] as const),
]);

/**
 * The A2A server as a plain fetch handler, `(request: Request) => Promise<Response>`: it runs unchanged as a
 * Cloudflare Worker, in `Deno.serve`, in a Service Worker, and behind Node's `http` with a tiny adapter. It serves
 * the agent card at both well-known paths and JSON-RPC (A2A 0.3 and 1.0): `message/send`, `message/stream` (SSE),
 * `tasks/get`, `tasks/cancel`, `tasks/resubscribe`. Terminal errors become structured failed tasks exactly as
 * seed-systems §4 describes; malformed requests get the right JSON-RPC error codes, never a 500 with a stack.
 *
 * Requests never touch each other's I/O objects: a task's run, its abort and its stream writes stay in the request
 * that started it, other requests (`tasks/cancel`, `tasks/resubscribe`) only exchange plain values and promises with
 * it, which is what Cloudflare Workers require. On Workers pass the platform's arguments through (`fetch: handler`)
 * so runs are kept alive with `ctx.waitUntil`.
 *
 * @example
 * ```ts
 * const handler = createA2AHandler({ agent: createGraphAgent('inventory', compiled), card: { name: 'inventory' } });
 * export default { fetch: handler };          // Cloudflare Workers
 * Deno.serve(handler);                         // Deno
 * ```
 */
export function createA2AHandler(options: A2AHandlerOptions): A2AHandler {
  const settings = validateHandlerOptions(options);
  const runner = settings.runner ?? new Runner({ appName: settings.card.name, agent: settings.agent as RunnableAgent | Agent });
  const store = settings.taskStore ?? new InMemoryA2ATaskStore();
  const structured = settings.structuredTaskErrors ?? true;
  const versions = settings.protocolVersions ?? ['0.3', '1.0'];
  const basePath = normalizePath(settings.basePath ?? '/');
  const limits = { maxBodyBytes: settings.maxBodyBytes ?? 1_048_576, bodyTimeoutMs: settings.bodyTimeoutMs ?? 30_000, maxDepth: settings.maxDepth ?? MAX_JSON_DEPTH };
  const keepAliveMs = settings.keepAliveMs ?? 15_000;
  const maxLiveTasks = settings.maxLiveTasks ?? 1_000;
  const maxQueuedEvents = settings.maxQueuedEvents ?? 10_000;
  const live = new Map<string, TaskExecution>();
  const secrets = [...(settings.secrets ?? [])];

  const start = (params: MessageSendParams, request: Request, waitUntil: WaitUntil | undefined): TaskExecution => {
    const execution = new TaskExecution(params.message, { runner, store, structured, userId: settings.userId?.(request) ?? 'a2a-user', secrets });
    live.set(execution.task.id, execution);
    const settled = execution.done.finally(() => live.delete(execution.task.id)).catch(() => {});
    waitUntil?.(settled);
    return execution;
  };
  /** A new task is refused (HTTP 503, Retry-After) while `maxLiveTasks` run: the live-run map is bounded. */
  const atCapacity = () => live.size >= maxLiveTasks;

  return async (request: Request, ...platform: unknown[]): Promise<Response> => {
    const waitUntil = findWaitUntil(platform);
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return jsonResponse({ error: 'bad request URL' }, 400);
    }
    const path = normalizePath(url.pathname);
    if (request.method === 'GET' && (path.endsWith(AGENT_CARD_PATH) || path.endsWith(LEGACY_AGENT_CARD_PATH))) {
      return jsonResponse(buildAgentCard(settings.card, `${url.origin}${basePath === '/' ? '/' : basePath}`, versions));
    }
    if (path !== basePath) return jsonResponse({ error: `not found: ${url.pathname}` }, 404);
    if (request.method !== 'POST') return jsonResponse({ error: 'method not allowed: use POST for JSON-RPC' }, 405, { allow: 'POST' });

    const headerVersion = request.headers.get(A2A_VERSION_HEADER)?.trim() || undefined;
    const parsedVersion = headerVersion === undefined ? '0.3' : parseVersion(headerVersion);
    const declared: A2AProtocolVersion = parsedVersion ?? '0.3';
    const fail = (id: RequestId, code: number, message?: string, data?: unknown, status = 200, version = declared, headers: Record<string, string> = {}) =>
      jsonResponse(errorBody(id, rpcError(code, message, version, data)), status, headers);

    const checked = await readRPCRequest(request, limits, fail);
    if (checked instanceof Response) return checked;
    const { id, method } = checked;
    const body = { params: checked.params };
    const known = METHODS.get(method);
    const version: A2AProtocolVersion = known?.version ?? declared;
    if (parsedVersion === undefined) {
      return fail(id, A2AErrorCode.VersionNotSupported, `A2A version ${headerVersion} is not supported; supported: ${versions.join(', ')}`);
    }
    if (!versions.includes(version)) return fail(id, A2AErrorCode.VersionNotSupported, `A2A ${version} is not served here; supported: ${versions.join(', ')}`, undefined, 200, version);
    if (PUSH_NOTIFICATION_METHODS.has(method)) return fail(id, A2AErrorCode.PushNotificationNotSupported, undefined, undefined, 200, version);
    const operation = known?.operation;
    if (!operation) return fail(id, A2AErrorCode.MethodNotFound, `Method not found: ${method.slice(0, 100)}`, undefined, 200, version);
    const encodeEvent = (event: A2AStreamEvent) => (version === '1.0' ? streamEventToV1(event as never) : event);
    const encodeTask = (task: Task) => (version === '1.0' ? taskToV1(task as never) : task);

    try {
      switch (operation) {
        case 'SendMessage': {
          const params = decodeMessageSendParams(body.params, version);
          if (atCapacity()) return busy(id, version);
          const execution = start(params, request, waitUntil);
          const configuration = params.configuration as { blocking?: boolean; returnImmediately?: boolean } | undefined;
          if (configuration?.blocking === false || configuration?.returnImmediately === true) return jsonResponse(resultBody(id, encodeEvent(execution.task)));
          await execution.done;
          return jsonResponse(resultBody(id, encodeEvent(execution.result)));
        }
        case 'StreamMessage': {
          const params = decodeMessageSendParams(body.params, version);
          if (atCapacity()) return busy(id, version);
          const execution = start(params, request, waitUntil);
          return streamResponse(id, execution, encodeEvent, undefined, { keepAliveMs, maxQueuedEvents });
        }
        case 'GetTask': {
          const params = decodeTaskQueryParams(body.params);
          const task = live.get(params.id)?.task ?? (await store.get(params.id));
          if (!task) return fail(id, A2AErrorCode.TaskNotFound, `Task not found: ${params.id}`, undefined, 200, version);
          const keep = params.historyLength === undefined ? undefined : Math.max(0, Math.floor(params.historyLength));
          const trimmed = keep !== undefined && task.history ? { ...task, history: keep === 0 ? [] : task.history.slice(-keep) } : task;
          return jsonResponse(resultBody(id, encodeTask(trimmed)));
        }
        case 'CancelTask': {
          const params = decodeTaskQueryParams(body.params);
          const execution = live.get(params.id);
          if (execution && !execution.terminal) {
            execution.cancel();
            let timer: ReturnType<typeof setTimeout> | undefined;
            await Promise.race([execution.done, new Promise((resolve) => (timer = setTimeout(resolve, 5_000)))]); // answer by 5 s at the latest
            clearTimeout(timer);
            return jsonResponse(resultBody(id, encodeTask(execution.task)));
          }
          const task = execution?.task ?? (await store.get(params.id));
          if (!task) return fail(id, A2AErrorCode.TaskNotFound, `Task not found: ${params.id}`, undefined, 200, version);
          return fail(id, A2AErrorCode.TaskNotCancelable, `Task ${params.id} is ${task.status.state} and cannot be canceled`, undefined, 200, version);
        }
        case 'Resubscribe': {
          const params = decodeTaskQueryParams(body.params);
          const execution = live.get(params.id);
          if (execution && !execution.terminal) return streamResponse(id, execution, encodeEvent, execution.task, { keepAliveMs, maxQueuedEvents });
          const task = execution?.task ?? (await store.get(params.id));
          if (!task) return fail(id, A2AErrorCode.TaskNotFound, `Task not found: ${params.id}`, undefined, 200, version);
          return new Response(sseFrame(resultBody(id, encodeEvent(task))), { headers: SSE_HEADERS });
        }
        case 'GetExtendedCard':
          return fail(id, A2AErrorCode.AuthenticatedExtendedCardNotConfigured, undefined, undefined, 200, version);
        default:
          return fail(id, A2AErrorCode.MethodNotFound, undefined, undefined, 200, version);
      }
    } catch (error) {
      if (SerializeError.isInstance(error)) return fail(id, A2AErrorCode.InvalidParams, error.message, error.issues.length > 0 ? { issues: [...error.issues] } : undefined, 200, version);
      // Never a bare -32603, never a stack, never a dependency's own text (a store's "db-internal:5432 refused"): the
      // method and the kind of failure.
      return fail(id, A2AErrorCode.InternalError, `Internal error while handling ${method.slice(0, 100)} (${errorKind(error)})`, undefined, 200, version);
    }
  };

  function busy(id: RequestId, version: A2AProtocolVersion): Response {
    return jsonResponse(
      errorBody(id, rpcError(A2AErrorCode.InternalError, `The agent is running its limit of ${maxLiveTasks} tasks; retry shortly`, version)),
      503,
      { 'retry-after': '1' },
    );
  }
}

/** `SerializeError`, `TypeError`…: what kind of failure, without its text. */
function errorKind(error: unknown): string {
  const name = read(error, 'name');
  return typeof name === 'string' && /^[A-Za-z][\w.]{0,60}$/.test(name) ? name : typeof error;
}
