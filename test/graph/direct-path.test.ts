/**
 * What the executor's direct path (nodes without callbacks or a time limit, runs without telemetry) and its lazy
 * work keep: the node context as it was (its keys, a signal that a `{ ...context }` copy carries, made only for runs
 * that have none), a node's fallback state through its hooks, and the work that no longer happens without a listener
 * (no event built, so a state that cannot be JSON still completes) — while a listener still gets every event.
 */
import { describe, expect, it } from 'vitest';
import { emitCustomStateDelta, END, StateGraph, StateSchema, type NodeContext } from '../../src/graph/index.js';
import type { RunEvent } from '../../src/runner/index.js';

function chain(run: (context: NodeContext) => unknown, nodes = 2) {
  const graph = new StateGraph(new StateSchema().addField('count', { default: () => 0 }));
  for (let index = 0; index < nodes; index++) graph.addNode(`n${index}`, (_state, context) => run(context));
  for (let index = 1; index < nodes; index++) graph.addEdge(`n${index - 1}`, `n${index}`);
  return graph.setEntryPoint('n0').addEdge(`n${nodes - 1}`, END).compile();
}

describe('the direct path', () => {
  it('gives nodes the context they always had: the same keys in the same order, an own enumerable signal', async () => {
    const contexts: NodeContext[] = [];
    await chain((context) => void contexts.push(context)).run({}, { invocationId: 'run-1' });
    const [first, second] = contexts as [NodeContext, NodeContext];
    expect(Object.keys(first)).toEqual(['nodeId', 'nodeName', 'nodeType', 'stepNumber', 'invocationId', 'signal', 'attempt']);
    expect(first).toMatchObject({ nodeId: 'n0', nodeName: 'n0', nodeType: 'function', stepNumber: 0, invocationId: 'run-1', attempt: 1 });
    expect(second).toMatchObject({ nodeId: 'n1', stepNumber: 1 });
    const copy = { ...first };
    expect(copy.signal).toBeInstanceOf(AbortSignal);
    expect(copy.signal.aborted).toBe(false);
    expect(second.signal).toBe(first.signal); // one never-firing signal per run
  });

  it('makes a run its own signal only when a node looks, never shared with another run', async () => {
    const signals: AbortSignal[] = [];
    const compiled = chain((context) => void signals.push(context.signal), 1);
    await compiled.run();
    await compiled.run();
    expect(signals).toHaveLength(2);
    expect(signals[0]).not.toBe(signals[1]);
  });

  it("passes the caller's signal to every node", async () => {
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    await chain((context) => void signals.push(context.signal), 3).run({}, { signal: controller.signal });
    expect(signals).toEqual([controller.signal, controller.signal, controller.signal]);
  });

  it('keeps a context assignment to signal an error, as a getter-only property is', async () => {
    const outcome = await chain((context) => {
      (context as { signal: AbortSignal }).signal = new AbortController().signal;
    }, 1).run();
    expect(outcome.status).toBe('failed');
  });

  it('adds what a failing node emitted with emitCustomStateDelta to the fallback state, with or without a listener', async () => {
    const compiled = new StateGraph(new StateSchema())
      .addNode('write', (_state, context) => {
        emitCustomStateDelta(context, { order_status: 'pending_retry' });
        throw new Error('database write failed');
      })
      .setEntryPoint('write')
      .setFinishPoint('write')
      .compile();
    const events: RunEvent[] = [];
    const quiet = await compiled.run();
    const listened = await compiled.run({}, { onEvent: (event) => events.push(event) });
    for (const outcome of [quiet, listened]) {
      expect(outcome.status).toBe('failed');
      if (outcome.status === 'failed') expect(outcome.fallbackState).toEqual({ order_status: 'pending_retry' });
    }
    expect(events.map((event) => event.response?.object)).toEqual(['graph.node.start', 'graph.node.custom', 'graph.node.error', 'graph.node.custom', 'graph.pregel.step']);
  });

  it('builds no event without a listener: a state that cannot be JSON completes; a listener still hears of each bad key', async () => {
    const compiled = new StateGraph(new StateSchema())
      .addNode('count', () => ({ total: 10n }))
      .setEntryPoint('count')
      .setFinishPoint('count')
      .compile();
    const quiet = await compiled.run();
    expect(quiet).toMatchObject({ status: 'completed', state: { total: 10n } });
    const events: RunEvent[] = [];
    await compiled.run({}, { onEvent: (event) => events.push(event) });
    expect(events.filter((event) => event.response?.error?.code === 'STATE_NOT_SERIALIZABLE')).toHaveLength(1);
  });

  it('routes a node with duplicate edges to each target once, in declaration order', async () => {
    const order: string[] = [];
    const graph = new StateGraph(new StateSchema());
    for (const id of ['a', 'b', 'c']) graph.addNode(id, () => void order.push(id));
    const compiled = graph.addEdge('a', 'c').addEdge('a', 'b').addEdge('a', 'c').addEdge('b', END).addEdge('c', END).setEntryPoint('a').compile();
    const outcome = await compiled.run();
    expect(outcome).toMatchObject({ status: 'completed', steps: 2 });
    expect(order).toEqual(['a', 'c', 'b']);
  });
});
