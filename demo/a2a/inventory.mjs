// The remote agent the A2A demos serve (Node, Cloudflare Worker, Deno): what it does depends on the user's text.
//   "write …" → a graph whose node fails fatally (a failed task with structured metadata)
//   "stop …"  → a stop_agent_error (a canceled task)
//   "slow …"  → waits up to 10 s, honouring cancellation (for tasks/cancel)
//   anything else → a normal answer (a completed task)
// It takes the SDK namespace so the same file runs with `import * as F from 'faultline'` or from `dist/`.

/** The agent card input the demos serve. */
export const INVENTORY_CARD = { name: 'inventory', description: 'Stock levels; fails on purpose.' };

/**
 * A graph whose one node fails fatally (code WRITE_FATAL), with the execution-error collector wired in.
 * @param {typeof import('faultline')} F the SDK namespace
 */
export function fatalWriteGraph(F) {
  const collector = new F.ExecutionErrorCollector();
  return new F.StateGraph(F.messagesStateSchema())
    .use(collector)
    .addNode('write', () => {
      throw Object.assign(new Error('database write failed'), { code: 'WRITE_FATAL' });
    })
    .setEntryPoint('write')
    .setFinishPoint('write')
    .compile();
}

/**
 * @param {typeof import('faultline')} F the SDK namespace
 * @param {{ checkpointer?: import('faultline').Checkpointer }} [options] where the graph checkpoints (a Durable Object's storage)
 * @returns {import('faultline').RunnableAgent}
 */
export function inventoryAgent(F, options = {}) {
  const writer = F.createGraphAgent('inventory', fatalWriteGraph(F), { checkpointer: options.checkpointer });
  return {
    name: 'inventory',
    async *runEvents(invocation) {
      const text = invocation.message?.content ?? '';
      const origin = { invocationId: invocation.invocationId, author: 'inventory' };
      if (text.startsWith('write')) {
        yield* writer.runEvents(invocation);
      } else if (text.startsWith('stop')) {
        yield F.createErrorEvent(origin, { type: F.ErrorType.StopAgentError, message: 'the operator stopped the agent', code: 'OPERATOR_STOP' });
      } else if (text.startsWith('slow')) {
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, 10_000);
          invocation.signal.addEventListener('abort', () => (clearTimeout(timer), reject(invocation.signal.reason)), { once: true });
        });
      } else {
        yield F.createEvent(origin, { response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: `42 units of ${text}` } }] } });
      }
    },
  };
}
