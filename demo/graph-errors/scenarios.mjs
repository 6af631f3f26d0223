// The graph error-handling scenarios (a port of tRPC-Agent-Go's examples/graph/error_handling and its doc's inventory
// example), written against the SDK namespace `F` so the terminal demo and the browser page share them.

export function graphErrorScenarios(F) {
  const { createGraphAgent, defaultExecutionErrorPolicy, ErrorType, ExecutionErrorCollector, messagesStateSchema, StateGraph } = F;

  // A small domain error package, like the doc's `ordererrors` (stable string codes, a Recoverable() flag).
  const CODE_INVENTORY_SOFT_TIMEOUT = 'ORDER_INVENTORY_SOFT_TIMEOUT';
  class OrderError extends Error {
    constructor(code, message, recoverable) {
      super(message);
      this.code = code;
      this.isRecoverable = recoverable;
    }
    errorType() {
      return ErrorType.FlowError;
    }
    recoverable() {
      return this.isRecoverable;
    }
  }

  function collectorWithFallback() {
    return new ExecutionErrorCollector({
      policy: (context, state, result, error) => {
        const policy = defaultExecutionErrorPolicy(context, state, result, error);
        return policy.recover ? { ...policy, replacement: { inventory_status: 'fallback' } } : policy;
      },
    });
  }

  /** The inventory example: a recoverable lookup, a fallback status, a finalize node that notes it. */
  function recoverableGraph() {
    const collector = collectorWithFallback();
    return new StateGraph(messagesStateSchema().addField('inventory_status').addField('note').addField('done'))
      .use(collector)
      .addNode('lookup_inventory', () => {
        throw new OrderError(CODE_INVENTORY_SOFT_TIMEOUT, 'inventory lookup timed out', true);
      })
      .addNode('finalize', (state) => ({ done: true, note: `completed with ${state.inventory_status} after catalog lookup timed out` }))
      .addEdge('lookup_inventory', 'finalize')
      .setEntryPoint('lookup_inventory')
      .setFinishPoint('finalize')
      .compile();
  }

  /** A fatal local node: a recoverable catalog lookup first, then a write that fails for good. */
  function fatalLocalGraph() {
    const collector = collectorWithFallback();
    return new StateGraph(messagesStateSchema().addField('inventory_status').addField('order_status'))
      .use(collector)
      .addNode('lookup_inventory', () => {
        throw new OrderError(CODE_INVENTORY_SOFT_TIMEOUT, 'inventory lookup timed out', true);
      })
      .addNode('write', () => {
        throw Object.assign(new Error('database write failed'), { code: 'WRITE_FATAL' });
      })
      .addEdge('lookup_inventory', 'write')
      .setEntryPoint('lookup_inventory')
      .setFinishPoint('write')
      .compile();
  }

  /** A parent graph whose child agent graph fails fatally; the parent completes and keeps the child's record. */
  function fatalChildGraph() {
    const childCollector = new ExecutionErrorCollector();
    const child = new StateGraph(messagesStateSchema())
      .use(childCollector)
      .addNode('child_write', () => {
        throw Object.assign(new Error('child agent database write failed'), { code: 'CHILD_AGENT_FATAL' });
      })
      .setEntryPoint('child_write')
      .setFinishPoint('child_write')
      .compile();
    const collector = new ExecutionErrorCollector();
    return new StateGraph(messagesStateSchema().addField('note'))
      .use(collector)
      .addAgentNode('child-error-graph', createGraphAgent('child', child), { outputMapper: collector.subgraphOutputMapper() })
      .addNode('parent_finalize', (state) => {
        const [last] = (state.execution_errors ?? []).slice(-1);
        return { note: `parent received child error ${last?.error?.message ?? '(none)'}` };
      })
      .addEdge('child-error-graph', 'parent_finalize')
      .setEntryPoint('child-error-graph')
      .setFinishPoint('parent_finalize')
      .compile();
  }

  return {
    recoverable: recoverableGraph,
    fatal_local_node: fatalLocalGraph,
    fatal_child_subgraph: fatalChildGraph,
  };
}

/** The seed's ConsumeUntilCompletion: read to runner.completion, keep its transport error, records and state. */
export async function consumeUntilCompletion(F, events) {
  const summary = { transportError: undefined, executionErrors: [], state: {} };
  const terminal = new Map(); // by invocation: a child agent's terminal error is its parent's business
  for await (const event of events) {
    if (F.isTerminalError(event) && event.response) terminal.set(event.invocationId, event.response.error);
    if (!F.isRunnerCompletion(event)) continue;
    summary.transportError = terminal.get(event.invocationId);
    summary.executionErrors = F.executionErrorsFromStateDelta(event.stateDelta) ?? [];
    for (const [key, value] of Object.entries(event.stateDelta ?? {})) if (key !== 'execution_errors' && value !== null) summary.state[key] = JSON.parse(value);
    return summary;
  }
  return summary;
}

/** The seed's PrintSummary, as lines. */
export function summaryLines(summary) {
  const lines = [];
  if (summary.transportError) {
    const error = summary.transportError;
    lines.push(`transport error: type=${error.type} code=${error.code ?? ''} message=${error.message}`);
  }
  for (const record of summary.executionErrors) {
    if (!record.error) continue;
    const path = record.path ? ` path=${record.path.join('/')}` : '';
    lines.push(`execution error: severity=${record.severity} node=${record.nodeName}${path} code=${record.error.code ?? ''} message=${record.error.message}`);
  }
  const business = Object.entries(summary.state).filter(([key]) => ['note', 'inventory_status', 'done'].includes(key));
  if (business.length > 0) lines.push(`state: ${business.map(([key, value]) => `${key}=${JSON.stringify(value)}`).join(' ')}`);
  return lines;
}
