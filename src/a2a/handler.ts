import { Agent } from '../agent/agent.js';
import { ConfigError } from '../errors/config-error.js';
import { SerializeError } from '../errors/serialize-error.js';
import { AsyncQueue } from '../internal/async-queue.js';
import { isPlainObject } from '../internal/json.js';
import { Runner } from '../runner/runner.js';
import type { RunnableAgent } from '../runner/runnable-agent.js';
import { buildAgentCard, type AgentCardInput } from './agent-card.js';
import { A2A_VERSION_HEADER, A2AErrorCode, A2AMethod, A2AMethodV1, AGENT_CARD_PATH, LEGACY_AGENT_CARD_PATH, PUSH_NOTIFICATION_METHODS, type A2AProtocolVersion } from './constants.js';
import { decodeMessageSendParams, decodeTaskQueryParams } from './decode.js';
import { errorBody, jsonResponse, resultBody, rpcError, SSE_HEADERS, sseFrame, type RequestId } from './jsonrpc.js';
import { TaskExecution } from './task-execution.js';
import { InMemoryA2ATaskStore, type A2ATaskStore } from './task-store.js';
import type { A2AStreamEvent, Task } from './types.js';
import { messageToV1, streamEventToV1, taskToV1 } from './v1-codec.js';

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
  /** Path of the JSON-RPC endpoint. @default '/' */
  basePath?: string | undefined;
  /** Largest request body accepted; a larger one gets HTTP 413 and JSON-RPC -32600. @default 1048576 */
  maxBodyBytes?: number | undefined;
  /**
   * While an SSE stream waits for the task, a `: keep-alive` comment is sent this often (proxies drop idle streams,
   * and Cloudflare Workers cancel a request that waits only on another request's events). `false` turns it off.
   * @default 15000
   */
  keepAliveMs?: number | false | undefined;
  /** Protocol versions served. @default ['0.3', '1.0'] */
  protocolVersions?: readonly A2AProtocolVersion[] | undefined;
  /** The user id passed to the runner. @default 'a2a-user' */
  userId?: ((request: Request) => string) | undefined;
}

const V1_METHODS: Readonly<Record<string, keyof typeof A2AMethod>> = Object.fromEntries(Object.entries(A2AMethodV1).map(([key, value]) => [value, key as keyof typeof A2AMethod]));
const V03_METHODS: Readonly<Record<string, keyof typeof A2AMethod>> = Object.fromEntries(Object.entries(A2AMethod).map(([key, value]) => [value, key as keyof typeof A2AMethod]));

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
  const settings = validate(options);
  const runner = settings.runner ?? new Runner({ appName: settings.card.name, agent: settings.agent as RunnableAgent | Agent });
  const store = settings.taskStore ?? new InMemoryA2ATaskStore();
  const structured = settings.structuredTaskErrors ?? true;
  const versions = settings.protocolVersions ?? ['0.3', '1.0'];
  const basePath = normalizePath(settings.basePath ?? '/');
  const maxBodyBytes = settings.maxBodyBytes ?? 1_048_576;
  const keepAliveMs = settings.keepAliveMs ?? 15_000;
  const live = new Map<string, TaskExecution>();

  const start = (message: Parameters<typeof decodeMessageSendParams>[0] & object, request: Request, waitUntil: WaitUntil | undefined): TaskExecution => {
    const execution = new TaskExecution((message as { message: never }).message, { runner, store, structured, userId: settings.userId?.(request) ?? 'a2a-user' });
    live.set(execution.task.id, execution);
    const settled = execution.done.finally(() => live.delete(execution.task.id)).catch(() => {});
    waitUntil?.(settled);
    return execution;
  };

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
    const fail = (id: RequestId, code: number, message?: string, data?: unknown, status = 200, version = declared) => jsonResponse(errorBody(id, rpcError(code, message, version, data)), status);

    if (!(request.headers.get('content-type') ?? '').toLowerCase().includes('application/json')) {
      return fail(null, A2AErrorCode.ContentTypeNotSupported, `Content-Type must be application/json (got ${request.headers.get('content-type') ?? 'none'})`, undefined, 415);
    }
    const declaredLength = Number(request.headers.get('content-length') ?? '0');
    if (declaredLength > maxBodyBytes) return fail(null, A2AErrorCode.InvalidRequest, `The request body exceeds ${maxBodyBytes} bytes`, undefined, 413);
    const text = await readLimited(request, maxBodyBytes);
    if (text === undefined) return fail(null, A2AErrorCode.InvalidRequest, `The request body exceeds ${maxBodyBytes} bytes`, undefined, 413);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fail(null, A2AErrorCode.ParseError);
    }
    if (Array.isArray(body)) return fail(null, A2AErrorCode.InvalidRequest, 'Batch requests are not supported');
    if (!isPlainObject(body)) return fail(null, A2AErrorCode.InvalidRequest, 'The request must be a JSON-RPC 2.0 object');
    const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
    if (body.jsonrpc !== '2.0' || typeof body.method !== 'string') return fail(id, A2AErrorCode.InvalidRequest, 'The request must have jsonrpc "2.0" and a method');
    const method = body.method;
    const version: A2AProtocolVersion = V1_METHODS[method] ? '1.0' : V03_METHODS[method] ? '0.3' : declared;
    if (parsedVersion === undefined) {
      return fail(id, A2AErrorCode.VersionNotSupported, `A2A version ${headerVersion} is not supported; supported: ${versions.join(', ')}`);
    }
    if (!versions.includes(version)) return fail(id, A2AErrorCode.VersionNotSupported, `A2A ${version} is not served here; supported: ${versions.join(', ')}`, undefined, 200, version);
    if (PUSH_NOTIFICATION_METHODS.has(method)) return fail(id, A2AErrorCode.PushNotificationNotSupported, undefined, undefined, 200, version);
    const operation = V1_METHODS[method] ?? V03_METHODS[method];
    if (!operation) return fail(id, A2AErrorCode.MethodNotFound, `Method not found: ${method.slice(0, 100)}`, undefined, 200, version);
    const encodeEvent = (event: A2AStreamEvent) => (version === '1.0' ? streamEventToV1(event as never) : event);
    const encodeTask = (task: Task) => (version === '1.0' ? taskToV1(task as never) : task);

    try {
      switch (operation) {
        case 'SendMessage': {
          const params = decodeMessageSendParams(body.params, version);
          const execution = start(params, request, waitUntil);
          const configuration = params.configuration as { blocking?: boolean; returnImmediately?: boolean } | undefined;
          if (configuration?.blocking === false || configuration?.returnImmediately === true) return jsonResponse(resultBody(id, version === '1.0' ? { task: encodeTask(execution.task) } : execution.task));
          await execution.done;
          const result = execution.result;
          return jsonResponse(resultBody(id, version === '1.0' ? (result.kind === 'task' ? { task: encodeTask(result) } : { message: messageToV1(result as never) }) : result));
        }
        case 'StreamMessage': {
          const params = decodeMessageSendParams(body.params, version);
          const execution = start(params, request, waitUntil);
          return streamResponse(id, execution, encodeEvent, undefined, keepAliveMs);
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
            await Promise.race([execution.done, new Promise((resolve) => setTimeout(resolve, 5_000))]);
            return jsonResponse(resultBody(id, encodeTask(execution.task)));
          }
          const task = execution?.task ?? (await store.get(params.id));
          if (!task) return fail(id, A2AErrorCode.TaskNotFound, `Task not found: ${params.id}`, undefined, 200, version);
          return fail(id, A2AErrorCode.TaskNotCancelable, `Task ${params.id} is ${task.status.state} and cannot be canceled`, undefined, 200, version);
        }
        case 'Resubscribe': {
          const params = decodeTaskQueryParams(body.params);
          const execution = live.get(params.id);
          if (execution && !execution.terminal) return streamResponse(id, execution, encodeEvent, execution.task, keepAliveMs);
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
      return fail(id, A2AErrorCode.InternalError, undefined, undefined, 200, version);
    }
  };
}

/**
 * An SSE answer: the events of `execution` from now on (after `snapshot`, for a resubscription), until the final one.
 * Events cross from the task's request to this one through a queue and are written by this stream's own `pull`; while
 * it waits, a keep-alive comment goes out every `keepAliveMs`.
 */
function streamResponse(id: RequestId, execution: TaskExecution, encode: (event: A2AStreamEvent) => unknown, snapshot: Task | undefined, keepAliveMs: number | false): Response {
  const encoder = new TextEncoder();
  const queue = new AsyncQueue<A2AStreamEvent>();
  if (snapshot) queue.push(structuredClone(snapshot));
  const unsubscribe = execution.subscribe((event) => {
    queue.push(event);
    if (event.kind === 'status-update' && event.final) queue.close();
  });
  let pending: Promise<IteratorResult<A2AStreamEvent>> | undefined; // kept across pulls: a keep-alive must not drop an event
  let timer: ReturnType<typeof setTimeout> | undefined;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      pending ??= queue.next();
      const next = keepAliveMs === false ? await pending : await Promise.race([pending, new Promise<'keep-alive'>((resolve) => (timer = setTimeout(resolve, keepAliveMs, 'keep-alive')))]);
      clearTimeout(timer);
      if (next === 'keep-alive') {
        controller.enqueue(encoder.encode(': keep-alive\n\n'));
        return;
      }
      pending = undefined;
      if (next.done) {
        unsubscribe();
        controller.close();
      } else {
        controller.enqueue(encoder.encode(sseFrame(resultBody(id, encode(next.value)))));
      }
    },
    cancel() {
      clearTimeout(timer);
      unsubscribe();
      queue.close();
      if (!snapshot) execution.cancel();
    },
  });
  return new Response(body, { headers: SSE_HEADERS });
}

type WaitUntil = (promise: Promise<unknown>) => void;

/** The platform's `waitUntil` (a Worker's `ctx`, a Vercel/Next.js `context`), bound, when one was passed. */
function findWaitUntil(platform: readonly unknown[]): WaitUntil | undefined {
  for (const argument of platform) {
    const candidate = typeof argument === 'object' && argument !== null ? (argument as { waitUntil?: unknown }).waitUntil : undefined;
    if (typeof candidate === 'function') return (promise) => (candidate as WaitUntil).call(argument, promise);
  }
  return undefined;
}

async function readLimited(request: Request, limit: number): Promise<string | undefined> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/** `1`, `1.0`, `1.1` → 1.0; `0.3`, `0.3.0` → 0.3; anything else is unsupported. */
function parseVersion(header: string): A2AProtocolVersion | undefined {
  if (/^1(\.\d+){0,2}$/.test(header)) return '1.0';
  if (/^0\.3(\.\d+)?$/.test(header)) return '0.3';
  return undefined;
}

function normalizePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

function validate(options: A2AHandlerOptions): A2AHandlerOptions {
  if (!isPlainObject(options)) throw ConfigError.fromProblems('A2A handler options', ['options must be an object']);
  const problems: string[] = [];
  if (!options.agent && !options.runner) problems.push('give agent or runner');
  if (options.agent && !(options.agent instanceof Agent) && typeof (options.agent as RunnableAgent).runEvents !== 'function') problems.push('agent must be an Agent or a RunnableAgent');
  if (!isPlainObject(options.card) || typeof options.card.name !== 'string' || options.card.name.trim() === '') problems.push('card.name is required');
  if (options.maxBodyBytes !== undefined && !(typeof options.maxBodyBytes === 'number' && options.maxBodyBytes > 0)) problems.push('maxBodyBytes must be a number > 0');
  if (options.keepAliveMs !== undefined && options.keepAliveMs !== false && !(typeof options.keepAliveMs === 'number' && options.keepAliveMs > 0 && Number.isFinite(options.keepAliveMs))) problems.push('keepAliveMs must be a finite number > 0 or false');
  if (options.protocolVersions !== undefined && (!Array.isArray(options.protocolVersions) || options.protocolVersions.length === 0 || options.protocolVersions.some((version) => version !== '0.3' && version !== '1.0'))) {
    problems.push(`protocolVersions must list '0.3' and/or '1.0'`);
  }
  if (problems.length > 0) throw ConfigError.fromProblems('A2A handler options', problems);
  return options;
}
