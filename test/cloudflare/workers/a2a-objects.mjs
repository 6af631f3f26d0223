// The Durable Object deployment under test, as a Worker module bundled from dist/ (no nodejs_compat). Miniflare runs
// it as three scripts: `owner` defines the A2ATasks class, `front1` and `front2` are separate isolates bound to it.
// Module exports are handlers and classes only (workerd's rule). The planted secret is SECRET below.
// What the agent does depends on the user's text:
//   "slow <ms>"    → streams a chunk every 50 ms for <ms> (then the whole text), honouring cancellation
//   "hang"         → streams one chunk, then waits until aborted (for restarts)
//   "turn <n>"     → answers after a short random wait (concurrent turns on one session)
//   "history"      → answers with the user messages of its session, as JSON
//   "fail"         → a typed, structured failure (error_code LOOKUP_DOWN) carrying the planted secret
//   "graph"        → a checkpointed graph: lookup (records a recoverable error) → wait → finish; in MODE "hang" the
//                    wait node reports to PROBE and never returns; every node reports each run to PROBE
import * as F from '../../../dist/index.js';
import * as CF from '../../../dist/cloudflare/index.js';

const SECRET = 'sk-live-planted-DO-0123456789abcdef';
const CARD = { name: 'do-agent', description: 'Durable Object deployment under test' };
let isolate; // made on first use: workerd allows no random values at module scope

const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

function chunk(origin, text) {
  return F.createEvent(origin, { response: { object: 'chat.completion.chunk', partial: true, done: false, choices: [{ index: 0, delta: { content: text } }] } });
}
function answer(origin, text) {
  return F.createEvent(origin, { response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: text } }] } });
}

async function probe(env, what) {
  if (env.PROBE) await fetch(`${env.PROBE}/${what}`).catch(() => {});
}

function graph(env) {
  const collector = new F.ExecutionErrorCollector();
  return new F.StateGraph(F.messagesStateSchema())
    .use(collector)
    .addNode('lookup', async () => {
      await probe(env, 'node/lookup');
      throw F.recoverableError('the price service timed out; using the cached price', { code: 'PRICE_STALE' });
    })
    .addNode('wait', async (state, context) => {
      await probe(env, 'node/wait');
      if (env.MODE === 'hang') await new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true }));
      return { last_response: 'stock checked' };
    })
    .addNode('finish', async (state) => {
      await probe(env, 'node/finish');
      return { last_response: `done: ${state.last_response}` };
    })
    .addEdge('lookup', 'wait')
    .addEdge('wait', 'finish')
    .setEntryPoint('lookup')
    .setFinishPoint('finish')
    .compile();
}

function agent({ env, checkpointer }) {
  const graphAgent = F.createGraphAgent('do-graph', graph(env), { checkpointer });
  return {
    name: 'do-agent',
    async *runEvents(invocation) {
      const text = invocation.message?.content ?? '';
      const origin = { invocationId: invocation.invocationId, author: 'do-agent' };
      if (text.startsWith('graph')) {
        yield* graphAgent.runEvents(invocation);
      } else if (text.startsWith('slow')) {
        const until = Date.now() + Number(text.split(' ')[1] ?? 1000);
        let n = 0;
        let streamed = '';
        while (Date.now() < until) {
          const text = `c${n++} `;
          streamed += text;
          yield chunk(origin, text);
          await sleep(50, invocation.signal);
        }
        yield answer(origin, streamed); // the complete message repeats what was streamed, as chat clients do
      } else if (text.startsWith('hang')) {
        yield chunk(origin, 'first words ');
        await probe(env, 'hang');
        await sleep(3_600_000, invocation.signal);
      } else if (text.startsWith('turn')) {
        await sleep(Math.floor(Math.random() * 30));
        yield answer(origin, `ok ${text}`);
      } else if (text.startsWith('history')) {
        yield answer(origin, JSON.stringify(invocation.history.map((message) => `${message.role}:${message.content}`)));
      } else if (text.startsWith('fail')) {
        yield F.createErrorEvent(origin, { type: F.ErrorType.FlowError, code: 'LOOKUP_DOWN', message: `inventory lookup failed (key ${SECRET})` });
      } else {
        yield answer(origin, `echo ${text}`);
      }
    },
  };
}

export const A2ATasks = CF.createA2ADurableObject({ agent, card: CARD, namespace: 'A2A_TASKS', secrets: [SECRET], heartbeatMs: 500 });

const worker = CF.createA2AWorker({ namespace: 'A2A_TASKS', card: CARD });

// The same agent behind the in-memory handler, at /memory: the parity tests compare the two deployments' answers.
let memory;

export default {
  fetch(request, env, ctx) {
    const path = new URL(request.url).pathname;
    if (path === '/__isolate') return Response.json({ isolate: (isolate ??= crypto.randomUUID()), script: env.SCRIPT });
    if (path.startsWith('/memory')) {
      memory ??= F.createA2AHandler({ agent: agent({ env, checkpointer: new F.InMemoryCheckpointer() }), card: CARD, basePath: '/memory', secrets: [SECRET] });
      return memory(request, env, ctx);
    }
    return worker.fetch(request, env, ctx);
  },
};
