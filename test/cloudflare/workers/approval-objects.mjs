// A Durable Object of the user's own that runs a refund agent whose `refund` tool needs approval, its pending runs in
// DurableObjectRunStateStore, as a Worker module bundled from dist/ (no nodejs_compat). Miniflare runs it as three
// scripts: `owner` defines the Approvals class, `front1` and `front2` are separate isolates bound to it. The tool
// reports each refund to PROBE (`tool/refund`); the scripted model answers a round of tool messages with the error
// types it got (`ok` for a success), so the test reads what the model saw.
//   POST /run      { expiresInMs? }            a run: its summary (status, runId, interrupts)
//   POST /resume   { runId, decisions }        a resume: its summary, or the refusal's { refused: code, pendingIds }
//   POST /tamper   { runId }                   changes the stored call's arguments (as a store edited by hand would)
//   POST /crash    { runId, decisions }        plants what a process that died mid-execution leaves: the resume
//                                              claimed, the approved call marked started, no result
import * as F from '../../../dist/index.js';
import * as CF from '../../../dist/cloudflare/index.js';
import * as z from 'zod';

async function probe(env, what) {
  if (env.PROBE) await fetch(`${env.PROBE}/${what}`).catch(() => {});
}

function model() {
  return F.createScriptedChatClient(
    [
      (request) => {
        const last = request.messages.at(-1);
        if (last.role !== 'tool') return { toolCalls: [{ id: 'call_refund', name: 'refund', arguments: { orderId: '42', amount: 30 } }, { id: 'call_lookup', name: 'lookup', arguments: { orderId: '42' } }] };
        const seen = request.messages.filter((message) => message.role === 'tool').map((message) => JSON.parse(message.content).error?.type ?? 'ok');
        return { text: seen.join(',') };
      },
    ],
    { loop: true },
  );
}

function agent(env, storage, expiresInMs) {
  const refund = F.defineTool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: z.object({ orderId: z.string(), amount: z.number() }),
    needsApproval: true,
    ...(expiresInMs ? { approvalExpiresInMs: expiresInMs } : {}),
    execute: async ({ amount }) => {
      await new Promise((resolve) => setTimeout(resolve, 100)); // concurrent resumes arrive mid-execution
      await probe(env, 'tool/refund');
      return { refunded: amount };
    },
  });
  const lookup = F.defineTool({ name: 'lookup', description: 'Look an order up.', parameters: z.object({ orderId: z.string() }), execute: ({ orderId }) => ({ orderId }) });
  return new F.AgentBuilder('refunds').chatClient(model()).tools([refund, lookup]).toolLogger(false).approvals(F.toolApprovals({ store: new CF.DurableObjectRunStateStore(storage) })).build();
}

async function summary(stream) {
  try {
    const result = await F.collectAgentRun(stream);
    return { status: result.status, runId: result.runId, interrupts: result.interrupts, text: result.text, replay: result.replay, outcomes: result.toolResults.map((each) => each.outcome) };
  } catch (error) {
    if (!F.ResumeError.isInstance(error)) return { failed: String(error?.message ?? error) };
    return { refused: error.code, name: error.name, status: error.httpStatus, pendingIds: error.pendingIds };
  }
}

export class Approvals {
  constructor(state, env) {
    this.env = env;
    this.storage = state.storage;
  }

  async fetch(request) {
    const url = new URL(request.url);
    const body = request.method === 'POST' ? await request.json() : {};
    if (url.pathname === '/run') return Response.json(await summary(agent(this.env, this.storage, body.expiresInMs).run('Refund order 42')));
    if (url.pathname === '/resume') return Response.json(await summary(agent(this.env, this.storage).resume(body.runId, body.decisions)));
    if (url.pathname === '/tamper') {
      const store = new CF.DurableObjectRunStateStore(this.storage);
      const record = await store.get(body.runId);
      record.round.calls[0].arguments = JSON.stringify({ orderId: '42', amount: 3000 });
      return Response.json({ written: await store.put({ ...record, revision: record.revision + 1 }) });
    }
    if (url.pathname === '/crash') {
      const store = new CF.DurableObjectRunStateStore(this.storage);
      const record = await store.get(body.runId);
      const id = record.interrupts[0].id;
      const key = JSON.stringify([{ approved: true, id }]);
      const written = await store.put({ ...record, revision: record.revision + 1, status: 'resuming', interrupts: [], executions: { call_refund: { state: 'started' } }, resumes: [{ key, interruptIds: [id] }] });
      return Response.json({ written });
    }
    return Response.json({ error: 'not found' }, { status: 404 });
  }
}

export default {
  fetch(request, env) {
    return env.APPROVALS.get(env.APPROVALS.idFromName('approvals')).fetch(request);
  },
};
