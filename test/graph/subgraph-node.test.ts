/**
 * A compiled graph run directly as a node (`addSubgraph`) behaves exactly as the same graph wrapped in
 * `createGraphAgent` and added with `addAgentNode`: the same parent state, records (with `path`) and
 * `runner.completion`, the parent's signal, nested checkpoints, and the node options of any node.
 */
import { describe, expect, it, vi } from 'vitest';
import { markRecoverable } from '../../src/errors/index.js';
import {
  createGraphAgent,
  END,
  ExecutionErrorCollector,
  CHILD_RUN_SEPARATOR,
  InMemoryCheckpointer,
  messagesStateSchema,
  NODE_TIMEOUT,
  StateGraph,
  type CompiledGraph,
  type ExecutionError,
  type GraphOutcome,
  type NodeFunction,
  type State,
  type SubgraphNodeOptions,
} from '../../src/graph/index.js';
import { isRunnerCompletion, Runner, type RunEvent } from '../../src/runner/index.js';
import { comparable, comparableCompletion, withoutTimestamps } from './checkpoint-fixtures.js';

function coded(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/** A child graph with its own collector: `child_step` runs `run`, then `child_done` writes `child_value`. */
function childGraph(run: NodeFunction): CompiledGraph {
  const collector = new ExecutionErrorCollector();
  return new StateGraph(collector.addField(messagesStateSchema()).addField('child_value', {}))
    .withNodeCallbacks(collector.nodeCallbacks())
    .addNode('child_step', run)
    .addNode('child_done', () => ({ child_value: 'written' }))
    .setEntryPoint('child_step')
    .addEdge('child_step', 'child_done')
    .setFinishPoint('child_done')
    .compile();
}

const children = {
  success: () => childGraph(() => ({ child_value: 'looked up' })),
  recoverable: () =>
    childGraph(() => {
      throw markRecoverable(coded('child lookup timed out', 'CHILD_SOFT'));
    }),
  fatal: () =>
    childGraph(() => {
      throw coded('child agent database write failed', 'CHILD_AGENT_FATAL');
    }),
};

type Form = 'wrapped' | 'direct';

/** `parent_prepare` (a recoverable failure) → `child_agent` (the child, in either form) → `parent_finalize`. */
function parentGraph(form: Form, child: CompiledGraph, options: SubgraphNodeOptions = {}, collector = new ExecutionErrorCollector()): CompiledGraph {
  const graph = new StateGraph(collector.addField(messagesStateSchema()).addField('note', {}).addField('child_value', {}))
    .use(collector)
    .addNode('parent_prepare', () => {
      throw markRecoverable(coded('cache warmup timed out', 'PARENT_SOFT'));
    });
  const mapping: SubgraphNodeOptions = {
    outputMapper: (_parent, result) => ({ ...collector.subgraphStateUpdate(result), child_value: result.effectiveState()?.child_value ?? null }),
    ...options,
  };
  if (form === 'wrapped') graph.addAgentNode('child_agent', createGraphAgent('child_agent', child), mapping);
  else graph.addSubgraph('child_agent', child, mapping);
  return graph
    .addNode('parent_finalize', (state) => {
      const records = (state.execution_errors ?? []) as ExecutionError[];
      const fromChild = records.find((record) => record.path !== undefined);
      return { note: fromChild ? `parent received child error ${fromChild.error?.message}` : 'parent saw no child error' };
    })
    .setEntryPoint('parent_prepare')
    .addEdge('parent_prepare', 'child_agent')
    .addEdge('child_agent', 'parent_finalize')
    .addEdge('parent_finalize', END)
    .compile();
}

async function completionOf(graph: CompiledGraph): Promise<unknown> {
  const runner = new Runner({ appName: 'shop', agent: createGraphAgent('parent', graph) });
  const events: RunEvent[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'write the order' })) events.push(event);
  const completions = events.filter(isRunnerCompletion);
  expect(completions).toHaveLength(1);
  return comparableCompletion(completions[0] as RunEvent);
}

function summaries(outcome: GraphOutcome) {
  const state = outcome.status === 'failed' ? outcome.fallbackState : outcome.state;
  return ((state.execution_errors ?? []) as ExecutionError[]).map((record) => ({ nodeId: record.nodeId, severity: record.severity, path: record.path, code: record.error?.code }));
}

/** Runs `start` under fake timers, advancing them by `ms`. */
async function withFakeTimers<T>(start: () => Promise<T>, ms: number): Promise<T> {
  vi.useFakeTimers();
  try {
    const pending = start();
    await vi.advanceTimersByTimeAsync(ms);
    return await pending;
  } finally {
    vi.useRealTimers();
  }
}

const P = { nodeId: 'parent_prepare', severity: 'recoverable', path: undefined, code: 'PARENT_SOFT' };

describe('StateGraph.addSubgraph', () => {
  const cases = [
    { name: 'a child that succeeds', child: children.success, records: [P], value: 'written', note: 'parent saw no child error' },
    {
      name: 'a child with a recoverable failure',
      child: children.recoverable,
      records: [P, { nodeId: 'child_step', severity: 'recoverable', path: ['child_agent'], code: 'CHILD_SOFT' }],
      value: 'written',
      note: 'parent received child error child lookup timed out',
    },
    {
      name: 'a child with a fatal failure',
      child: children.fatal,
      records: [P, { nodeId: 'child_step', severity: 'fatal', path: ['child_agent'], code: 'CHILD_AGENT_FATAL' }],
      value: null,
      note: 'parent received child error child agent database write failed',
    },
  ];

  for (const each of cases) {
    it(`gives the same parent state and records as the createGraphAgent form for ${each.name}`, async () => {
      const wrapped = await parentGraph('wrapped', each.child()).run({});
      const direct = await parentGraph('direct', each.child()).run({});
      expect(comparable(direct)).toEqual(comparable(wrapped));
      expect(direct.status).toBe('completed');
      expect(summaries(direct)).toEqual(each.records);
      if (direct.status !== 'completed') return;
      expect(direct.state.child_value).toBe(each.value);
      expect(direct.state.note).toBe(each.note);
    });

    it(`gives the same runner.completion as the createGraphAgent form for ${each.name}`, async () => {
      const wrapped = await completionOf(parentGraph('wrapped', each.child()));
      const direct = await completionOf(parentGraph('direct', each.child()));
      expect(direct).toEqual(wrapped);
      expect((direct as { response: { error?: unknown } }).response.error).toBeUndefined();
    });
  }

  it('fails the node like the createGraphAgent form with propagateChildErrors, the child code kept', async () => {
    const wrapped = await parentGraph('wrapped', children.fatal(), { propagateChildErrors: true }).run({});
    const direct = await parentGraph('direct', children.fatal(), { propagateChildErrors: true }).run({});
    expect(comparable(direct)).toEqual(comparable(wrapped));
    expect(direct.status).toBe('failed');
    expect(summaries(direct)).toEqual([P, { nodeId: 'child_agent', severity: 'fatal', path: undefined, code: 'CHILD_AGENT_FATAL' }]);
    const record = (direct.status === 'failed' ? (direct.fallbackState.execution_errors as ExecutionError[]) : [])[1];
    expect(record).toMatchObject({ nodeName: 'child_agent', nodeType: 'agent' });
  });

  it("runs the child with the parent's signal: an abort stops the child and the parent alike, in both forms", async () => {
    const abortedRun = async (form: Form) => {
      const controller = new AbortController();
      let childSaw: unknown;
      const child = childGraph(
        (_state, context) =>
          new Promise((_resolve, reject) => {
            context.signal.addEventListener('abort', () => {
              childSaw = context.signal.reason;
              reject(context.signal.reason);
            });
            controller.abort(new Error('customer hung up'));
          }),
      );
      const outcome = await parentGraph(form, child).run({}, { signal: controller.signal });
      return { outcome, childSaw };
    };
    const { outcome, childSaw } = await abortedRun('direct');
    expect(outcome.status).toBe('aborted');
    expect(outcome.status === 'aborted' && (outcome.reason as Error).message).toBe('customer hung up');
    expect((childSaw as Error).message).toBe('customer hung up');
    if (outcome.status === 'aborted') expect(outcome.state.child_value).toBeUndefined();
    expect(comparable(outcome)).toEqual(comparable((await abortedRun('wrapped')).outcome));
  });

  it('nests the child checkpoints under <parent run id>␟<node id>, as the createGraphAgent form does', async () => {
    const keysOf = async (form: Form) => {
      const checkpointer = new InMemoryCheckpointer();
      const seen = new Set<string>();
      const recording = { get: checkpointer.get.bind(checkpointer), delete: checkpointer.delete.bind(checkpointer), put: (checkpoint: Parameters<typeof checkpointer.put>[0]) => (seen.add(checkpoint.runId), checkpointer.put(checkpoint)) };
      const outcome = await parentGraph(form, children.recoverable()).run({}, { checkpointer: recording, runId: 'p' });
      return { keys: [...seen].sort(), outcome: comparable(outcome) };
    };
    const direct = await keysOf('direct');
    expect(direct.keys).toEqual(['p', `p${CHILD_RUN_SEPARATOR}child_agent`]);
    expect(direct).toEqual(await keysOf('wrapped'));
  });

  it('applies timeoutMs to the subgraph node like to any node: a fatal NODE_TIMEOUT record by default', async () => {
    const slowChild = () => childGraph((_state, context) => new Promise((_resolve, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason))));
    const wrapped = await withFakeTimers(() => parentGraph('wrapped', slowChild(), { timeoutMs: 20 }).run({}), 20);
    const direct = await withFakeTimers(() => parentGraph('direct', slowChild(), { timeoutMs: 20 }).run({}), 20);
    expect(comparable(direct)).toEqual(comparable(wrapped));
    expect(direct.status === 'failed' && direct.error.code).toBe(NODE_TIMEOUT);
    expect(summaries(direct)).toEqual([P, { nodeId: 'child_agent', severity: 'fatal', path: undefined, code: NODE_TIMEOUT }]);
  });

  it('applies the fallback to a recovered subgraph-node timeout like to any node', async () => {
    const child = childGraph((_state, context) => new Promise((_resolve, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason))));
    const collector = new ExecutionErrorCollector({ recoverable: () => true });
    const outcome = await withFakeTimers(() => parentGraph('direct', child, { timeoutMs: 20, fallback: { update: { child_value: 'unknown' } } }, collector).run({}), 20);
    expect(outcome.status).toBe('completed');
    expect(summaries(outcome)).toEqual([P, { nodeId: 'child_agent', severity: 'recoverable', path: undefined, code: NODE_TIMEOUT }]);
    if (outcome.status === 'completed') expect(outcome.state.child_value).toBe('unknown');
  });

  it('retries the subgraph node, running the child anew on each attempt', async () => {
    let runs = 0;
    const child = childGraph(() => {
      runs += 1;
      if (runs === 1) throw coded('child write failed once', 'CHILD_FLAKY');
      return { child_value: 'second try' };
    });
    const outcome = await parentGraph('direct', child, { propagateChildErrors: true, retry: { maxAttempts: 2, initialDelayMs: 0, retryOn: () => true } }).run({});
    expect(runs).toBe(2);
    expect(outcome.status).toBe('completed');
    expect(summaries(outcome)).toEqual([P]);
    if (outcome.status === 'completed') expect(outcome.state.child_value).toBe('written');
  });

  it('reports a child that is not a compiled graph as a compile() problem, each with its fix', () => {
    const builder = new StateGraph(messagesStateSchema());
    const uncompiled = new StateGraph(messagesStateSchema()).addNode('a', () => ({})).setEntryPoint('a').setFinishPoint('a');
    const agent = createGraphAgent('agent', children.success());
    builder
      .addSubgraph('uncompiled', uncompiled as unknown as CompiledGraph)
      .addSubgraph('agent', agent as unknown as CompiledGraph)
      .addSubgraph('nothing', null as unknown as CompiledGraph)
      .addNode('graph_as_function', children.success() as unknown as NodeFunction)
      .addNode('ok', () => ({}))
      .setEntryPoint('ok')
      .setFinishPoint('ok');
    let problems: unknown;
    try {
      builder.compile();
    } catch (error) {
      problems = (error as { problems?: unknown }).problems;
    }
    expect(problems).toEqual([
      'subgraph node "uncompiled" needs a compiled graph: call compile() on the child StateGraph first',
      'subgraph node "agent" needs a compiled graph: for an agent use addAgentNode()',
      'subgraph node "nothing" needs a compiled graph: build one with new StateGraph(schema)…compile()',
      'node "graph_as_function" needs a function, not a compiled graph: run a compiled graph as a node with addSubgraph("graph_as_function", graph)',
    ]);
  });

  it('keeps the SubgraphResult of the createGraphAgent form, final and fallback sides apart', async () => {
    const results: Array<{ form: Form; final: unknown; fallback: unknown; error: unknown; nodeId: string }> = [];
    for (const form of ['wrapped', 'direct'] as const) {
      for (const make of [children.success, children.fatal]) {
        await parentGraph(form, make(), {
          outputMapper: (_parent, result) => {
            results.push({ form, final: withoutTimestamps(result.finalState), fallback: withoutTimestamps(result.fallbackState), error: result.error?.code, nodeId: result.nodeId });
            return undefined;
          },
        }).run({});
      }
    }
    const strip = ({ form: _form, ...rest }: (typeof results)[number]) => rest;
    expect(results.filter((result) => result.form === 'direct').map(strip)).toEqual(results.filter((result) => result.form === 'wrapped').map(strip));
    expect(results[0]).toMatchObject({ nodeId: 'child_agent', fallback: null });
    expect(results[1]).toMatchObject({ final: null, error: 'CHILD_AGENT_FATAL' });
  });

  it('runs the README example: the child state comes home through the outputMapper', async () => {
    const childCollector = new ExecutionErrorCollector();
    const inventory = new StateGraph(childCollector.addField(messagesStateSchema()).addField('stock', {}))
      .use(childCollector)
      .addNode('count_stock', () => ({ stock: 12 }))
      .setEntryPoint('count_stock')
      .setFinishPoint('count_stock')
      .compile();
    const collector = new ExecutionErrorCollector();
    const orders = new StateGraph(collector.addField(messagesStateSchema()).addField('stock', {}))
      .use(collector)
      .addSubgraph('inventory', inventory, {
        outputMapper: (_parent, result) => ({ ...collector.subgraphStateUpdate(result), stock: result.finalState?.stock ?? null }),
        timeoutMs: 5_000,
      })
      .setEntryPoint('inventory')
      .setFinishPoint('inventory')
      .compile();
    const state: State = await orders.invoke({});
    expect(state.stock).toBe(12);
    expect(state.execution_errors).toEqual([]);
  });
});
