import { validateHandlerOptions, type A2AHandlerOptions } from './handler-options.js';

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
  let server: Promise<A2AHandler> | undefined;
  const load = (): Promise<A2AHandler> => {
    if (server === undefined) {
      const loading = import('./handler-server.js').then((module) => module.serveA2A(settings));
      server = loading;
      loading.catch(() => {
        if (server === loading) server = undefined; // the next request tries again (a chunk that failed to load)
      });
    }
    return server;
  };
  return async (request, ...platform) => {
    let serve: A2AHandler;
    try {
      serve = await load();
    } catch {
      return serverUnavailable();
    }
    return serve(request, ...platform);
  };
}


/** What a request gets when the server part could not be loaded: a JSON-RPC error, 503 with `Retry-After`. */
function serverUnavailable(): Response {
  const body = { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'The A2A server could not be loaded; try again.' } };
  return new Response(JSON.stringify(body), { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '1' } });
}
