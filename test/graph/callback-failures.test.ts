/**
 * What the caller sees when a user callback throws: every callback of the graph and its collector — the execution-
 * error policy and `recoverable`, `beforeNode`, `afterNode`, `onNodeError`, a field's reducer and default, a router
 * (throwing or rejecting), a state schema's check, an agent node's input and output mappers, an `onEvent` listener —
 * is a table row; its throw (a planted marker) must be visible in the outcome: in the run's error (message or cause
 * chain) and, for a node's callbacks, in the node's execution-error record too. Never dropped, never a crash.
 */
import { describe, expect, it } from 'vitest';
import { createGraphAgent, ExecutionErrorCollector, messagesStateSchema, StateGraph, StateSchema, type GraphOutcome, type NodeCallbacks, type State } from '../../src/graph/index.js';
import { WorkflowError } from '../../src/errors/index.js';

const MARK = 'BOOM-from-the-callback';
const boom = () => {
  throw new Error(MARK);
};

interface Row {
  /** The graph: a node `work` whose behaviour the row sets, with a collector. */
  build: () => { run: () => Promise<GraphOutcome> };
  /** Where the throw must show: the run's error, and the record of node `work` (a node's callbacks). */
  record: boolean;
}

/** `work → done`, a collector with `collector` options, `work` with `callbacks` (the node fails when `fails`). */
function graph(options: { collector?: ConstructorParameters<typeof ExecutionErrorCollector>[0]; callbacks?: NodeCallbacks; fails?: boolean; retry?: boolean; retryOn?: () => boolean; schema?: StateSchema<any, any>; router?: () => unknown } = {}) {
  const collector = new ExecutionErrorCollector(options.collector);
  const built = new StateGraph(options.schema ?? messagesStateSchema())
    .use(collector)
    .addNode(
      'work',
      () => {
        if (options.fails) throw Object.assign(new Error('the node failed'), { code: 'WORK_DOWN', retryable: true });
        return { last_response: 'worked' };
      },
      { callbacks: options.callbacks, retry: options.retry ? { maxAttempts: 2, initialDelayMs: 0, retryOn: options.retryOn } : undefined },
    )
    .addNode('done', () => ({ last_response: 'done' }))
    .setEntryPoint('work')
    .setFinishPoint('done');
  if (options.router) built.addConditionalEdges('work', options.router as () => 'done');
  else built.addEdge('work', 'done');
  const compiled = built.compile();
  return { run: () => compiled.run({}) };
}

const rows: Array<[string, Row]> = [
  ['the execution-error policy', { build: () => graph({ fails: true, collector: { policy: boom } }), record: true }],
  ['an async execution-error policy', { build: () => graph({ fails: true, collector: { policy: async () => boom() } }), record: true }],
  ['the collector’s recoverable predicate', { build: () => graph({ fails: true, collector: { recoverable: boom } }), record: true }],
  ['beforeNode', { build: () => graph({ callbacks: { beforeNode: boom } }), record: true }],
  ['afterNode on a node that succeeded', { build: () => graph({ callbacks: { afterNode: boom } }), record: true }],
  ['afterNode on a node that failed', { build: () => graph({ fails: true, callbacks: { afterNode: boom } }), record: true }],
  ['onNodeError', { build: () => graph({ fails: true, retry: true, callbacks: { onNodeError: boom } }), record: true }],
  ['a retry policy’s retryOn', { build: () => graph({ fails: true, retry: true, retryOn: boom }), record: true }],
  ['a field reducer', { build: () => graph({ schema: messagesStateSchema().addField('last_response', { reducer: boom }) }), record: true }],
  ['a router', { build: () => graph({ router: boom }), record: false }],
  ['a router’s promise', { build: () => graph({ router: async () => boom() }), record: false }],
  ['a field default', { build: () => graph({ schema: messagesStateSchema().addField('broken', { default: boom }) }), record: false }],
  [
    'a state schema’s check',
    { build: () => graph({ schema: new StateSchema({ '~standard': { version: 1, vendor: 'test', validate: boom } }).addField('execution_errors', new ExecutionErrorCollector().stateField()) }), record: false },
  ],
];

function mapperGraph(options: { inputMapper?: () => State; outputMapper?: () => State }) {
  const child = new StateGraph(messagesStateSchema()).addNode('inner', () => ({})).setEntryPoint('inner').setFinishPoint('inner').compile();
  const compiled = new StateGraph(messagesStateSchema())
    .use(new ExecutionErrorCollector())
    .addAgentNode('work', createGraphAgent('child', child), options)
    .setEntryPoint('work')
    .setFinishPoint('work')
    .compile();
  return { run: () => compiled.run({}) };
}
rows.push(['an agent node’s inputMapper', { build: () => mapperGraph({ inputMapper: boom }), record: true }]);
rows.push(['an agent node’s outputMapper', { build: () => mapperGraph({ outputMapper: boom }), record: true }]);

/** Every message along an error's cause chain. */
function chain(error: unknown): string {
  const messages: string[] = [];
  for (let link = error, depth = 0; link !== undefined && link !== null && depth < 10; link = (link as { cause?: unknown }).cause, depth++) messages.push(String((link as { message?: unknown }).message ?? link));
  return messages.join(' <- ');
}

describe('a user callback that throws', () => {
  for (const [name, row] of rows) {
    it(`shows in the outcome: ${name}`, async () => {
      const outcome = await row.build().run();
      expect(outcome.status).toBe('failed');
      if (outcome.status !== 'failed') return;
      expect(WorkflowError.isInstance(outcome.error)).toBe(true);
      expect(chain(outcome.error)).toContain(MARK);
      if (!row.record) return;
      const records = (outcome.fallbackState.execution_errors ?? []) as Array<{ nodeId: string; error: { message: string } }>;
      expect(records.filter((record) => record.nodeId === 'work').map((record) => record.error.message).join(' | ')).toContain(MARK);
    });
  }

  it('keeps the node’s own failure in view too when a callback throws over it (its message and code)', async () => {
    for (const build of [
      () => graph({ fails: true, collector: { policy: boom } }),
      () => graph({ fails: true, callbacks: { afterNode: boom } }),
      () => graph({ fails: true, retry: true, callbacks: { onNodeError: boom } }),
      () => graph({ fails: true, retry: true, retryOn: boom }),
    ]) {
      const outcome = await build().run();
      expect(outcome.status === 'failed' && outcome.error.message).toContain('the node failed');
      expect(outcome.status === 'failed' && outcome.error.code).toBe('WORK_DOWN');
    }
  });

  it('shows in the outcome’s listenerErrors: an onEvent listener', async () => {
    const compiled = new StateGraph(messagesStateSchema()).addNode('work', () => ({})).setEntryPoint('work').setFinishPoint('work').compile();
    const outcome = await compiled.run({}, { onEvent: boom });
    expect(outcome.status).toBe('completed');
    expect(outcome.listenerErrors?.[0]?.message).toContain(MARK);
  });
});
