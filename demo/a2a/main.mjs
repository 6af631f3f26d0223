// The A2A demo: our fetch handler served on loopback (behind Node's http), our client against it, and each failure
// kind decoded back into a structured error. Run: `npm run demo:a2a`.
import * as F from 'faultline';
import {
  createA2AAgent,
  createA2AClient,
  createA2AHandler,
  createGraphAgent,
  ExecutionErrorCollector,
  executionErrorsFromStateDelta,
  isRunnerCompletion,
  isTerminalError,
  messagesStateSchema,
  Runner,
  StateGraph,
} from 'faultline';
import { serve } from '../node/serve.mjs';
import { INVENTORY_CARD, inventoryAgent } from './inventory.mjs';

const server = await serve(createA2AHandler({ agent: inventoryAgent(F), card: INVENTORY_CARD }));
const client = createA2AClient({ agentCardUrl: server.url, retry: false });
const show = (title, value) => console.log(`\n${title}\n   ${JSON.stringify(value)}`);
try {
  console.log(`A2A handler on ${server.url}; card: ${JSON.stringify((await client.getAgentCard())?.supportedInterfaces)}`);

  const ok = await client.sendMessage('widgets');
  show('A normal task (unary): completed, answer in an artifact', { state: ok.status.state, artifact: ok.artifacts?.[0]?.parts });

  const failed = await client.sendMessage('write order 42');
  show('A fatal graph node (unary): a failed Task with structured metadata', { state: failed.status.state, metadata: { ...failed.metadata, state_delta: '(base64 envelope)' } });

  console.log('\nThe same, streamed: a submitted Task, then exactly one final failed status-update');
  for await (const event of client.streamMessage('write order 43')) console.log(`   ${event.kind}: ${event.status?.state ?? ''} ${event.metadata?.error_code ?? ''}`);

  const stopped = await client.sendMessage('stop now');
  show('stop_agent_error: a canceled Task', { state: stopped.status.state, error_code: stopped.metadata?.error_code, text: stopped.status.message?.parts });

  const pending = await client.sendMessage({ message: { kind: 'message', messageId: 'demo-slow', role: 'user', parts: [{ kind: 'text', text: 'slow count' }] }, configuration: { blocking: false } });
  const canceled = await client.cancelTask({ id: pending.id });
  show('tasks/cancel on a running task', { before: pending.status.state, after: canceled.status.state });

  for (const [title, call] of [
    ['tasks/get of an unknown task: a JSONRPCError', () => client.getTask({ id: 'no-such-task' })],
    ['tasks/cancel of a finished task', () => client.cancelTask({ id: failed.id })],
    ['An unreachable agent: an A2ATransportError', () => createA2AClient({ url: 'http://127.0.0.1:9/', retry: false }).getTask({ id: 'x' })],
  ]) {
    try {
      await call();
    } catch (error) {
      show(title, { name: error.name, rpcCode: error.rpcCode, status: error.status, reason: error.reason, message: error.message });
    }
  }

  console.log('\nA remote failure in a parent graph: the parent collector gets the remote record, with its path');
  const collector = new ExecutionErrorCollector();
  const parent = new StateGraph(messagesStateSchema())
    .use(collector)
    .addAgentNode('remote_inventory', createA2AAgent({ agentCardUrl: server.url }), { outputMapper: collector.subgraphOutputMapper() })
    .addNode('summarise', (state) => ({ last_response: `${state.execution_errors.length} remote failure(s) recorded` }))
    .addEdge('remote_inventory', 'summarise')
    .setEntryPoint('remote_inventory')
    .setFinishPoint('summarise')
    .compile();
  const terminalErrors = new Map(); // by invocation: a child's terminal error is its parent's business
  for await (const event of new Runner({ appName: 'shop', agent: createGraphAgent('shop', parent) }).run({ userId: 'u1', sessionId: 's1', message: 'write order 44' })) {
    if (isTerminalError(event)) terminalErrors.set(event.invocationId, event.response.error);
    if (!isRunnerCompletion(event)) continue;
    console.log(`   the remote child failed: ${JSON.stringify([...terminalErrors.values()][0])}`);
    console.log(`   the parent run: ${terminalErrors.has(event.invocationId) ? 'failed' : 'completed'}`);
    for (const record of executionErrorsFromStateDelta(event.stateDelta) ?? []) {
      console.log(`   execution error: severity=${record.severity} node=${record.nodeId} path=${record.path?.join('/')} code=${record.error?.code} message=${record.error?.message}`);
    }
    console.log(`   answer: ${event.response.choices?.[0]?.message?.content}`);
  }
} finally {
  await server.close();
}
