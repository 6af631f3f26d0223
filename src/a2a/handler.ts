import type { Agent } from '../agent/agent.js';
import { MAX_JSON_DEPTH } from '../wire/safe-json.js';
import { Runner } from '../runner/runner.js';
import type { RunnableAgent } from '../runner/runnable-agent.js';
import { createRPCFront } from './handler-front.js';
import { findWaitUntil } from './handler-http.js';
import { validateHandlerOptions, type A2AHandlerOptions } from './handler-options.js';
import { createTaskOperations } from './task-operations.js';
import { storeJournal } from './task-journal.js';
import { InMemoryA2ATaskStore } from './task-store.js';
import { runSecrets } from '../internal/streams.js';

export type { A2AHandlerOptions } from './handler-options.js';

/**
 * The fetch handler {@link createA2AHandler} returns. The extra arguments are whatever the platform passes after the
 * request (a Worker's `env, ctx`; a Next.js/Vercel `context`; `Deno.serve`'s and `toNodeListener`'s `{ remoteAddr }`,
 * which tell who is calling: see `allowedHosts`): when one of them has `waitUntil`, every task's run is registered
 * with it, so a non-blocking `message/send` keeps running after its response is sent.
 *
 * @example
 * ```ts
 * const handler: A2AHandler = createA2AHandler({ agent, card: { name: 'inventory' } });
 * export default { fetch: handler }; // Workers call fetch(request, env, ctx)
 * ```
 */
export type A2AHandler = (request: Request, ...platform: unknown[]) => Promise<Response>;

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
 * so runs are kept alive with `ctx.waitUntil`. Running tasks live in this handler's memory: for tasks that any
 * isolate can read, cancel and follow, and that survive a restart, use `createA2AWorker` from `faultline/cloudflare`.
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
  const runner = settings.runner ?? new Runner({ appName: settings.card.name, agent: settings.agent as RunnableAgent | Agent, telemetry: settings.telemetry });
  const store = settings.taskStore ?? new InMemoryA2ATaskStore();
  const maxLiveTasks = settings.maxLiveTasks ?? 1_000;
  // An in-memory store's tasks live no longer than this process's memory of who started them; a store of the app's
  // keeps each task's owner with it.
  const inMemory = store instanceof InMemoryA2ATaskStore;
  const journal = inMemory ? storeJournal(store) : undefined;
  const operations = createTaskOperations({
    runner,
    store,
    journal: (task) => journal ?? storeJournal(store, task.owner),
    ownersSaved: !inMemory,
    structured: settings.structuredTaskErrors ?? true,
    // the agent's own secrets come with it (`runSecrets`, internal/streams.ts), on top of the handler's
    secrets: [...runSecrets(runner), ...(settings.secrets ?? [])],
    keepAliveMs: settings.keepAliveMs ?? 15_000,
    maxQueuedEvents: settings.maxQueuedEvents ?? 10_000,
    maxLiveTasks,
    ownersComplete: inMemory,
    maxOwners: inMemory ? store.maxTasks + maxLiveTasks : undefined,
    journalTimeoutMs: settings.storeTimeoutMs ?? 10_000,
    waitUntil: findWaitUntil,
  });
  return createRPCFront(
    {
      card: settings.card,
      basePath: settings.basePath ?? '/',
      versions: settings.protocolVersions ?? ['0.3', '1.0'],
      limits: { maxBodyBytes: settings.maxBodyBytes ?? 1_048_576, bodyTimeoutMs: settings.bodyTimeoutMs ?? 30_000, maxDepth: settings.maxDepth ?? MAX_JSON_DEPTH },
      userId: settings.userId,
      telemetry: settings.telemetry,
      caller: settings.caller,
    },
    operations.answer,
  );
}
