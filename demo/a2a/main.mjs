// The A2A demo: our fetch handler served on loopback (behind Node's http), our client against it, and each failure
// kind decoded back into a structured error. Run: `npm run demo:a2a`.
import {
  ErrorType,
  createA2AAgent,
  createA2AClient,
  createA2AHandler,
  createErrorEvent,
  createEvent,
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

// The remote agent: what it does depends on the user's text.
const fatalGraph = (() => {
  const collector = new ExecutionErrorCollector();
  return new StateGraph(collector.addField(messagesStateSchema()))
    .withNodeCallbacks(collector.nodeCallbacks())
    .addNode('write', () => {
      throw Object.assign(new Error('database write failed'), { code: 'WRITE_FATAL' });
    })
    .setEntryPoint('write')
    .setFinishPoint('write')
    .compile();
})();
const remote = {
  name: 'inventory',
  async *runEvents(invocation) {
    const text = invocation.message?.content ?? '';
    const origin = { invocationId: invocation.invocationId, author: 'inventory' };
    if (text.startsWith('write')) {
      yield* createGraphAgent('inventory', fatalGraph).runEvents(invocation);
    } else if (text.startsWith('stop')) {
      yield createErrorEvent(origin, { type: ErrorType.StopAgentError, message: 'the operator stopped the agent', code: 'OPERATOR_STOP' });
    } else if (text.startsWith('slow')) {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, 10_000);
        invocation.signal.addEventListener('abort', () => (clearTimeout(timer), reject(invocation.signal.reason)), { once: true });
      });
    } else {
      yield createEvent(origin, { response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: `42 units of ${text}` } }] } });
    }
  },
};

const server = await serve(createA2AHandler({ agent: remote, card: { name: 'inventory', description: 'Stock levels; fails on purpose.' } }));
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
  const parent = new StateGraph(collector.addField(messagesStateSchema()))
    .withNodeCallbacks(collector.nodeCallbacks())
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
