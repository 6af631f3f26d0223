// A Durable Object of the user's own that runs a checkpointed refund graph over DurableObjectCheckpointer, whose
// `approve` node asks a person (interrupt()) before the refund, as a Worker module bundled from dist/ (no
// nodejs_compat). Miniflare runs it as three scripts: `owner` defines the Refunds class, `front1` and `front2` are
// separate isolates bound to it, each forwarding every request to the object. The node reports to PROBE: `node/before`
// each time it runs up to its interrupt() call, `node/after` for the refund past it (the side effect).
//   POST /run      { expiresInMs? }        a run: its summary (the interrupts it waits on)
//   POST /resume   { decisions? }          a resume: its summary, or the refusal's { refused: code, name }
import * as F from '../../../dist/index.js';
import * as CF from '../../../dist/cloudflare/index.js';

const RUN_ID = 'refund-42';

async function probe(env, what) {
  if (env.PROBE) await fetch(`${env.PROBE}/${what}`).catch(() => {});
}

function refunds(env, expiresInMs) {
  return new F.StateGraph(new F.StateSchema().addField('approved'))
    .addNode('approve', async (_state, context) => {
      await probe(env, 'node/before');
      const answer = F.interrupt(context, { refund: 30 }, {
        responseSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        ...(expiresInMs ? { expiresInMs } : {}),
      });
      await new Promise((resolve) => setTimeout(resolve, 100)); // concurrent resumes arrive mid-step
      await probe(env, 'node/after');
      return { approved: answer.ok };
    })
    .addEdge(F.START, 'approve')
    .addEdge('approve', F.END)
    .compile();
}

function summary(outcome) {
  return {
    status: outcome.status,
    code: outcome.status === 'failed' ? outcome.error.code : undefined,
    interrupts: outcome.status === 'interrupted' ? outcome.interrupts : undefined,
    approved: outcome.status === 'completed' ? outcome.state.approved : undefined,
    replay: outcome.replay,
  };
}

export class Refunds {
  constructor(state, env) {
    this.env = env;
    this.checkpointer = new CF.DurableObjectCheckpointer(state.storage);
  }

  async fetch(request) {
    const url = new URL(request.url);
    const body = request.method === 'POST' ? await request.json() : {};
    const checkpointer = this.checkpointer;
    if (url.pathname === '/run') return Response.json(summary(await refunds(this.env, body.expiresInMs).run({}, { checkpointer, runId: RUN_ID })));
    if (url.pathname === '/resume') {
      try {
        return Response.json(summary(await refunds(this.env).resume(RUN_ID, { checkpointer, decisions: body.decisions })));
      } catch (error) {
        if (!F.ResumeError.isInstance(error)) throw error;
        return Response.json({ refused: error.code, name: error.name, status: error.httpStatus, pendingIds: error.pendingIds });
      }
    }
    return Response.json({ error: 'not found' }, { status: 404 });
  }
}

export default {
  fetch(request, env) {
    return env.REFUNDS.get(env.REFUNDS.idFromName('refunds')).fetch(request);
  },
};
