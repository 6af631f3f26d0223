// A Durable Object of the user's own over faultline's stores (bundled from dist/, no nodejs_compat), for what only
// workerd's SQLite-backed storage does: keys handed back as UTF-8 (a lone surrogate comes back as U+FFFD), and a
// read of a parted value interleaved with a write of it. POST {op, args, object} to the Worker; the object named
// `object` answers {ok, result} or {ok: false, name, code, message}. A2A_TASKS is a createA2ADurableObject class for
// session calls (its agent is never built: session calls do not need it).
import * as CF from '../../../dist/cloudflare/index.js';

const ticks = async (n) => {
  for (let i = 0; i < n; i++) await null;
};

export class Stores {
  constructor(state) {
    this.storage = state.storage;
    this.checkpointer = new CF.DurableObjectCheckpointer(state.storage);
    this.runs = new CF.DurableObjectRunStateStore(state.storage);
  }

  async fetch(request) {
    const { op, args = {} } = await request.json();
    try {
      const result = await this.run(op, args);
      return Response.json({ ok: true, result: result === undefined ? null : result });
    } catch (error) {
      return Response.json({ ok: false, name: error?.constructor?.name, code: error?.code, message: String(error?.message ?? error) });
    }
  }

  async run(op, args) {
    switch (op) {
      case 'keys': return [...(await this.storage.list()).keys()];
      case 'cp.put': return this.checkpointer.put(args.checkpoint);
      case 'cp.get': return (await this.checkpointer.get(args.runId)) ?? null;
      case 'cp.delete': return this.checkpointer.delete(args.runId);
      case 'rs.put': return this.runs.put(args.record);
      case 'rs.get': return (await this.runs.get(args.runId)) ?? null;
      case 'rs.delete': return this.runs.delete(args.runId);
      // a put and a get of the same run, concurrent in this object (as from two requests): the get starts `delay`
      // microtask turns after the put
      case 'cp.race':
      case 'rs.race': {
        const store = op === 'cp.race' ? this.checkpointer : this.runs;
        const [put, got] = await Promise.allSettled([store.put(args.next), ticks(args.delay).then(() => store.get(args.runId))]);
        return { put: put.status === 'fulfilled' ? put.value : String(put.reason), got: got.status === 'fulfilled' ? (got.value?.revision ?? null) : `${got.reason.code ?? ''}: ${got.reason.message}` };
      }
      default: throw new Error(`unknown op ${op}`);
    }
  }
}

export const A2ATasks = CF.createA2ADurableObject({ agent: () => { throw new Error('not used'); }, card: { name: 'stores' }, namespace: 'A2A_TASKS' });

export default {
  async fetch(request, env) {
    const body = await request.json();
    if (body.op === 'session.append') return Response.json(await new CF.DurableObjectSessionStore(env.A2A_TASKS).append(body.args.key, body.args.messages).then(() => ({ ok: true }), (error) => ({ ok: false, name: error?.constructor?.name, message: String(error?.message) })));
    if (body.op === 'session.load') return Response.json(await new CF.DurableObjectSessionStore(env.A2A_TASKS).load(body.args.key).then((result) => ({ ok: true, result }), (error) => ({ ok: false, name: error?.constructor?.name, message: String(error?.message) })));
    return env.STORES.get(env.STORES.idFromName(body.object ?? 'stores')).fetch('https://stores/', { method: 'POST', body: JSON.stringify(body) });
  },
};
