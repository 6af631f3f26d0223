// A Durable Object of the user's own that runs a checkpointed payment graph (reserve → charge → ship) over
// DurableObjectCheckpointer, as a Worker module bundled from dist/ (no nodejs_compat). Miniflare runs it as three
// scripts: `owner` defines the Payments class, `front1` and `front2` are separate isolates bound to it, each
// forwarding every request to the object named by `?object=`. Every node reports each run to PROBE.
//   /run?broken=yes   a run whose charge fails (the payment service is down): a failed checkpoint
//   /start?mode=hang  a run started without waiting, whose charge never returns (for a restart mid-step)
//   /resume           a manual resume (the charge works, and takes 150 ms: concurrent resumes arrive mid-step)
//   /alarm            sets the object's alarm for now; alarm() resumes with takeOver: true, as a restart recovery
//                     does (the previous instance is gone), and keeps its outcome under "alarm-outcome"
//   /alarm-outcome    that outcome, once there
import * as F from '../../../dist/index.js';
import * as CF from '../../../dist/cloudflare/index.js';

const RUN_ID = 'order-42';

async function probe(env, what) {
  if (env.PROBE) await fetch(`${env.PROBE}/${what}`).catch(() => {});
}

function payments(env, { broken = false, hang = false } = {}) {
  return new F.StateGraph(F.messagesStateSchema())
    .use(new F.ExecutionErrorCollector())
    .addNode('reserve', async () => {
      await probe(env, 'node/reserve');
      return { last_response: 'reserved' };
    })
    .addNode('charge', async (_state, context) => {
      await probe(env, 'node/charge');
      if (broken) throw new Error('the payment service is down');
      if (hang) await new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true }));
      await new Promise((resolve) => setTimeout(resolve, 150));
      return { last_response: 'charged' };
    })
    .addNode('ship', async () => {
      await probe(env, 'node/ship');
      return { last_response: 'shipped' };
    })
    .setEntryPoint('reserve')
    .addEdge('reserve', 'charge')
    .addEdge('charge', 'ship')
    .setFinishPoint('ship')
    .compile();
}

function summary(outcome) {
  return {
    status: outcome.status,
    code: outcome.status === 'failed' ? outcome.error.code : undefined,
    message: outcome.status === 'failed' ? outcome.error.message : undefined,
    last: outcome.status === 'completed' ? outcome.state.last_response : undefined,
  };
}

export class Payments {
  constructor(state, env) {
    this.storage = state.storage;
    this.env = env;
    this.checkpointer = new CF.DurableObjectCheckpointer(state.storage);
  }

  async fetch(request) {
    const url = new URL(request.url);
    const checkpointer = this.checkpointer;
    if (url.pathname === '/run') return Response.json(summary(await payments(this.env, { broken: url.searchParams.get('broken') === 'yes' }).run({}, { checkpointer, runId: RUN_ID })));
    if (url.pathname === '/start') {
      this.running = payments(this.env, { hang: url.searchParams.get('mode') === 'hang' }).run({}, { checkpointer, runId: RUN_ID });
      return Response.json({ started: true });
    }
    if (url.pathname === '/resume') return Response.json(summary(await payments(this.env).resume(RUN_ID, { checkpointer })));
    if (url.pathname === '/alarm') {
      await this.storage.setAlarm(Date.now());
      return Response.json({ set: true });
    }
    if (url.pathname === '/alarm-outcome') return Response.json((await this.storage.get('alarm-outcome')) ?? null);
    return Response.json({ error: 'not found' }, { status: 404 });
  }

  async alarm() {
    const outcome = await payments(this.env).resume(RUN_ID, { checkpointer: this.checkpointer, takeOver: true });
    await this.storage.put('alarm-outcome', summary(outcome));
  }
}

export default {
  fetch(request, env) {
    const url = new URL(request.url);
    return env.PAYMENTS.get(env.PAYMENTS.idFromName(url.searchParams.get('object') ?? 'payments')).fetch(request);
  },
};
