/**
 * The Worker side of the Durable Object deployment: any isolate serves the agent card and checks, decodes and
 * answers JSON-RPC exactly as `createA2AHandler` does (the same front), then hands each call to the object that owns
 * its task. A task's id is its object's id (`task-<64 hex digits>`, from `newUniqueId()`: a new object needs no
 * global coordination on first access), so every request for a task reaches the one object that runs it and holds
 * its record — no index to keep, and an id that is not one of this namespace's is refused without touching any object.
 */
import { MAX_JSON_DEPTH } from '../wire/safe-json.js';
import { A2AErrorCode } from '../a2a/constants.js';
import { createRPCFront, errorKind, failure, type A2ACall } from '../a2a/handler-front.js';
import { errorBody, rpcError, sseFrame, type RequestId } from '../a2a/jsonrpc.js';
import { messageOf } from '../internal/error-chain.js';
import { redactText } from '../internal/redact.js';
import { TASK_PATH } from './a2a-object.js';
import { resolveNamespace, validateWorkerOptions, type A2AWorkerOptions } from './options.js';
import type { DurableObjectIdLike, DurableObjectNamespaceLike } from './types.js';

/** Ids this entry mints (`task-` + the object's id); anything else names no task. */
const TASK_ID = /^task-([0-9a-f]{64})$/;

/** The Worker `createA2AWorker` returns: `export default` it, or call its `fetch` from yours. */
export interface A2AWorker {
  fetch(request: Request, env: unknown, ctx?: unknown): Promise<Response>;
}

/**
 * An A2A server on Durable Objects: `message/send`, `message/stream`, `tasks/get`, `tasks/cancel` and
 * `tasks/resubscribe` for any task from any isolate, tasks that outlive their isolate and, with a graph checkpoint,
 * their object. Pair it with the class from `createA2ADurableObject`, bound under `namespace`.
 *
 * @example
 * ```ts
 * export const A2ATasks = createA2ADurableObject({ agent, card: { name: 'inventory' }, namespace: 'A2A_TASKS' });
 * export default createA2AWorker({ namespace: 'A2A_TASKS', card: { name: 'inventory' } });
 * ```
 */
export function createA2AWorker<Env = unknown>(options: A2AWorkerOptions<Env>): A2AWorker {
  const settings = validateWorkerOptions(options);
  const front = createRPCFront(
    {
      card: settings.card,
      basePath: settings.basePath ?? '/',
      versions: settings.protocolVersions ?? ['0.3', '1.0'],
      limits: { maxBodyBytes: settings.maxBodyBytes ?? 1_048_576, bodyTimeoutMs: settings.bodyTimeoutMs ?? 30_000, maxDepth: settings.maxDepth ?? MAX_JSON_DEPTH },
      userId: settings.userId,
      caller: settings.caller,
    },
    async (call, platform) => {
      const namespace = resolveNamespace(settings.namespace, platform[0] as Env);
      let body: A2ACall;
      let taskId: string;
      let object: DurableObjectIdLike | undefined;
      if (call.operation === 'SendMessage' || call.operation === 'StreamMessage') {
        // A message on one of this namespace's tasks (a follow-up answering an input-required task) goes to that
        // task's object, which holds its record and pending run; a message naming no task starts one in a new object,
        // and one naming a task this namespace never minted is not found (never a new task in its place).
        const named = call.params.message.taskId || undefined; // '' (a 1.0 client's default) names no task, as in memory
        object = typeof named === 'string' ? objectOf(namespace, named) : undefined;
        if (object) taskId = named as string;
        else if (named !== undefined) return failure(call.id, A2AErrorCode.TaskNotFound, `Task not found: ${String(named).slice(0, 200)}`, call.version);
        else taskId = `task-${(object = namespace.newUniqueId()).toString()}`;
        body = { ...call, taskId };
      } else {
        taskId = (call.params as { id: string }).id;
        object = objectOf(namespace, taskId);
        if (!object) return failure(call.id, A2AErrorCode.TaskNotFound, `Task not found: ${taskId.slice(0, 200)}`, call.version);
        body = call;
      }
      let answer: Response;
      try {
        const stub = namespace.get(object);
        answer = await stub.fetch(`https://faultline.internal${TASK_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      } catch (error) {
        return unreachable(call, taskId, error);
      }
      return (answer.headers.get('content-type') ?? '').startsWith('text/event-stream') && answer.body ? guardStream(answer, call.id, taskId) : answer;
    },
  );
  return { fetch: (request, env, ctx) => front(request, env, ctx) };
}

/** The object of a task id, or `undefined` when the id is not one this entry minted for this namespace. */
function objectOf(namespace: DurableObjectNamespaceLike, taskId: string): DurableObjectIdLike | undefined {
  const hex = TASK_ID.exec(taskId)?.[1];
  if (hex === undefined) return undefined;
  try {
    return namespace.idFromString(hex);
  } catch {
    return undefined; // a well-formed id of another namespace, or none at all
  }
}

/**
 * The object could not be reached (overloaded, reset, a deploy): a JSON-RPC error, HTTP 503 with `Retry-After`, and the
 * task id in `data`. For a new message the object may have started the task before the failure, so the client is
 * told to look it up with `tasks/get` before sending again (a resend could run it twice).
 */
function unreachable(call: A2ACall, taskId: string, error: unknown): Response {
  const what = errorKind(error);
  const isNew = call.operation === 'SendMessage' || call.operation === 'StreamMessage';
  const next = isNew ? `read it with tasks/get (not found: it never started) before sending the message again` : `retry ${call.method.slice(0, 100)} shortly`;
  return failure(call.id, A2AErrorCode.InternalError, `The Durable Object of task ${taskId} could not be reached (${what}); ${next}`, call.version, { taskId }, 503, { 'retry-after': '1' });
}

/**
 * The object's SSE answer, passed through; should the object's stream break (its object reset mid-stream), the client
 * gets a JSON-RPC error frame saying so and a clean end, never a torn stream.
 */
function guardStream(answer: Response, id: RequestId, taskId: string): Response {
  const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        const message = `The stream from the Durable Object of task ${taskId} broke (${redactText(messageOf(error)).slice(0, 120)}); the task may go on: read it with tasks/get or tasks/resubscribe`;
        controller.enqueue(new TextEncoder().encode(`\n\n${sseFrame(errorBody(id, rpcError(A2AErrorCode.InternalError, message, '0.3')))}`));
        controller.close();
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: answer.status, headers: answer.headers });
}
