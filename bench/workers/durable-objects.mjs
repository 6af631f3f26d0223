// The Worker the Durable Object benchmark runs in workerd: the same agent — one that fails at once with a structured
// error (a unary failed task, the error path) — behind createA2AWorker + createA2ADurableObject at / and behind the
// in-memory createA2AHandler at /memory; and the floor: a bare new object per request that writes one value and
// answers (/floor), the least any one-object-per-task design pays.
import { createA2AHandler, createErrorEvent } from '../../dist/index.js';
import { createA2ADurableObject, createA2AWorker } from '../../dist/cloudflare/index.js';

const CARD = { name: 'bench-agent' };
const agent = {
  name: 'bench-agent',
  async *runEvents(invocation) {
    yield createErrorEvent({ invocationId: invocation.invocationId, author: 'bench-agent' }, { type: 'flow_error', code: 'LOOKUP_DOWN', message: 'inventory lookup failed' });
  },
};

export const A2ATasks = createA2ADurableObject({ agent, card: CARD, namespace: 'A2A_TASKS' });

export class Floor {
  constructor(state) {
    this.state = state;
  }
  async fetch() {
    await this.state.storage.put('task', 'failed');
    return Response.json({ jsonrpc: '2.0', id: 1, result: { status: { state: 'failed' } } });
  }
}
const worker = createA2AWorker({ namespace: 'A2A_TASKS', card: CARD });
let memory;

export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname === '/floor') return env.FLOOR.get(env.FLOOR.newUniqueId()).fetch(request);
    if (new URL(request.url).pathname.startsWith('/memory')) {
      memory ??= createA2AHandler({ agent, card: CARD, basePath: '/memory' });
      return memory(request, env, ctx);
    }
    return worker.fetch(request, env, ctx);
  },
};
