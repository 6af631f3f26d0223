// An A2A deployment on Durable Objects (createA2ADurableObject + createA2AWorker) whose runs stop to ask, as a Worker
// module bundled from dist/ (no nodejs_compat). Miniflare runs it as three scripts: `owner` defines the A2ATasks
// class, `front1` and `front2` are separate isolates bound to it. The binding MODE picks the agent:
//   "approval" → a refund agent whose `refund` tool needs approval (EXPIRES_MS: its approvals expire), its pending
//                runs in DurableObjectRunStateStore; the tool reports each refund to PROBE (`tool/refund`); the
//                scripted model answers the tool results with their error types (`ok` for a success)
//   "graph"    → a checkpointed graph (DurableObjectCheckpointer) whose `approve` node asks a person (interrupt());
//                it reports `node/before` each time it runs up to the interrupt() and `node/after` past it
import * as F from '../../../dist/index.js';
import * as CF from '../../../dist/cloudflare/index.js';
import * as z from 'zod';

const CARD = { name: 'refunds', description: 'A2A input-required on Durable Objects' };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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

function approvals(env, storage) {
  const refund = F.defineTool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: z.object({ orderId: z.string(), amount: z.number() }),
    needsApproval: true,
    ...(env.EXPIRES_MS ? { approvalExpiresInMs: Number(env.EXPIRES_MS) } : {}),
    execute: async ({ amount }) => {
      await sleep(100); // concurrent resumes arrive mid-execution
      await probe(env, 'tool/refund');
      return { refunded: amount };
    },
  });
  const lookup = F.defineTool({ name: 'lookup', description: 'Look an order up.', parameters: z.object({ orderId: z.string() }), execute: ({ orderId }) => ({ orderId }) });
  return new F.AgentBuilder('refunds').chatClient(model()).tools([refund, lookup]).toolLogger(false).approvals(F.toolApprovals({ store: new CF.DurableObjectRunStateStore(storage) })).build();
}

function graph(env, checkpointer) {
  const compiled = new F.StateGraph(F.messagesStateSchema().addField('approved'))
    .addNode('approve', async (_state, context) => {
      await probe(env, 'node/before');
      const answer = F.interrupt(context, { refund: 30 }, {
        responseSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        ...(env.EXPIRES_MS ? { expiresInMs: Number(env.EXPIRES_MS) } : {}),
      });
      await sleep(100); // concurrent resumes arrive mid-step
      await probe(env, 'node/after');
      return { approved: answer.ok, last_response: answer.ok ? 'refunded 30' : 'refund declined' };
    })
    .addEdge(F.START, 'approve')
    .addEdge('approve', F.END)
    .compile();
  return F.createGraphAgent('refunds', compiled, { checkpointer });
}

export const A2ATasks = CF.createA2ADurableObject({
  agent: ({ env, checkpointer, storage }) => (env.MODE === 'graph' ? graph(env, checkpointer) : approvals(env, storage)),
  card: CARD,
  namespace: 'A2A_TASKS',
  heartbeatMs: 500,
});

export default CF.createA2AWorker({ namespace: 'A2A_TASKS', card: CARD });
