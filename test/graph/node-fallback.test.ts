/**
 * Per-node fallbacks (`addNode(id, fn, { fallback: { update, goto } })`): when the collector's policy recovers a
 * node's failure without a replacement of its own, the failure is recorded, the fallback update applied and the run
 * routed to `goto`. `compile()` names a `goto` that is not a node, and a fallback no collector would ever use.
 */
import { describe, expect, it } from 'vitest';
import { recoverableError, WorkflowError } from '../../src/errors/index.js';
import {
  END,
  ExecutionErrorCollector,
  messagesStateSchema,
  StateGraph,
  type ExecutionError,
  type ExecutionErrorCollectorOptions,
  type GraphOutcome,
  type NodeFallback,
  type State,
} from '../../src/graph/index.js';

/** `lookup` (fails with `error`, declares `fallback`) → `ship`; `ask` is where a fallback may route. */
function shop(error: unknown, fallback: NodeFallback, collectorOptions: ExecutionErrorCollectorOptions = {}) {
  const visited: string[] = [];
  const visit = (id: string, update: State) => () => {
    visited.push(id);
    return update;
  };
  const graph = new StateGraph(messagesStateSchema())
    .use(new ExecutionErrorCollector(collectorOptions))
    .addNode('lookup', () => {
      visited.push('lookup');
      throw error;
    }, { fallback })
    .addNode('ship', visit('ship', { shipped: true }))
    .addNode('ask', visit('ask', { asked: true }))
    .addEdge('lookup', 'ship')
    .setEntryPoint('lookup')
    .setFinishPoint('ship')
    .setFinishPoint('ask')
    .compile();
  return { graph, visited };
}

function completed(outcome: GraphOutcome): State {
  expect(outcome.status).toBe('completed');
  return outcome.status === 'completed' ? outcome.state : {};
}

const soft = () => recoverableError('inventory service slow', { code: 'INVENTORY_SOFT_TIMEOUT' });

function compileProblems(build: () => unknown): readonly string[] {
  try {
    build();
  } catch (error) {
    if (WorkflowError.isInstance(error)) return error.problems;
    throw error;
  }
  return [];
}

describe('addNode fallback', () => {
  it('records a recoverable failure, applies the fallback update and goes to its goto', async () => {
    const { graph, visited } = shop(soft(), { update: { inventory_status: 'unknown' }, goto: 'ask' });
    const state = completed(await graph.run());

    expect(visited).toEqual(['lookup', 'ask']);
    expect(state).toMatchObject({ inventory_status: 'unknown', asked: true });
    expect(state.shipped).toBeUndefined();
    expect(state.execution_errors as ExecutionError[]).toMatchObject([{ severity: 'recoverable', nodeId: 'lookup', error: { code: 'INVENTORY_SOFT_TIMEOUT' } }]);
  });

  it('follows the node’s own edges when the fallback has no goto, and may go to END', async () => {
    const noGoto = shop(soft(), { update: { inventory_status: 'unknown' } });
    expect(completed(await noGoto.graph.run())).toMatchObject({ inventory_status: 'unknown', shipped: true });
    expect(noGoto.visited).toEqual(['lookup', 'ship']);

    const toEnd = shop(soft(), { update: { inventory_status: 'unknown' }, goto: END });
    expect(completed(await toEnd.graph.run()).shipped).toBeUndefined();
    expect(toEnd.visited).toEqual(['lookup']);
  });

  it('is not used for a fatal failure: the run fails and its fallback state lacks the update', async () => {
    const { graph, visited } = shop(new Error('database gone'), { update: { inventory_status: 'unknown' }, goto: 'ask' });
    const outcome = await graph.run();

    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(visited).toEqual(['lookup']);
    expect(outcome.fallbackState.inventory_status).toBeUndefined();
    expect(outcome.fallbackState.execution_errors as ExecutionError[]).toMatchObject([{ severity: 'fatal', nodeId: 'lookup' }]);
  });

  it('is used when the collector’s recoverable option recovers the failure', async () => {
    const { graph, visited } = shop(Object.assign(new Error('rate limited'), { code: 'RATE_LIMITED' }), { update: { inventory_status: 'later' }, goto: 'ask' }, {
      recoverable: (error) => (error as { code?: string }).code === 'RATE_LIMITED',
    });
    expect(completed(await graph.run())).toMatchObject({ inventory_status: 'later', asked: true });
    expect(visited).toEqual(['lookup', 'ask']);
  });

  it('gives way to a policy’s own replacement', async () => {
    const { graph, visited } = shop(soft(), { update: { inventory_status: 'unknown' }, goto: 'ask' }, {
      policy: () => ({ recover: true, replacement: { inventory_status: 'from policy' } }),
    });
    const state = completed(await graph.run());
    expect(state.inventory_status).toBe('from policy');
    expect(visited).toEqual(['lookup', 'ship']);
  });

  it('applies a copy of its update: one run cannot change the next run’s fallback', async () => {
    const fallback = { update: { tags: ['fallback'] }, goto: 'ask' };
    const { graph } = shop(soft(), fallback);
    const first = completed(await graph.run());
    (first.tags as string[]).push('changed');
    expect(fallback.update.tags).toEqual(['fallback']);
    expect(completed(await graph.run()).tags).toEqual(['fallback']);
  });

  it('counts its goto as a path to the end at compile()', () => {
    const graph = () =>
      new StateGraph(messagesStateSchema())
        .use(new ExecutionErrorCollector())
        .addNode('lookup', () => ({}), { fallback: { goto: 'ask' } })
        .addNode('ask', () => ({}))
        .setEntryPoint('lookup')
        .setFinishPoint('ask')
        .compile();
    expect(compileProblems(graph)).toEqual([]);
  });
});

describe('compile() and fallbacks', () => {
  const base = () => new StateGraph(messagesStateSchema()).use(new ExecutionErrorCollector()).addNode('ship', () => ({})).setEntryPoint('lookup').setFinishPoint('ship').addEdge('lookup', 'ship');

  it('rejects a fallback goto that is not a node, naming it', () => {
    const problems = compileProblems(() => base().addNode('lookup', () => ({}), { fallback: { goto: ['ship', 'nowhere'] } }).compile());
    expect(problems).toEqual(['node "lookup" has a fallback goto to unknown node "nowhere"']);
  });

  it('rejects a fallback that is not {update?, goto?}, and an update or goto of the wrong shape', () => {
    const problemsOf = (fallback: unknown) => compileProblems(() => base().addNode('lookup', () => ({}), { fallback: fallback as NodeFallback }).compile());
    expect(problemsOf('ask')).toEqual(['node "lookup" fallback must be an object {update?, goto?}']);
    expect(problemsOf({ update: ['x'] })).toEqual(['node "lookup" fallback.update must be a state update object']);
    expect(problemsOf({ goto: 42 })).toEqual(['node "lookup" fallback.goto must be a node id, END, or a list of them']);
    expect(problemsOf({ goto: [''] })).toEqual(['node "lookup" fallback.goto must be a node id, END, or a list of them']);
  });

  it('reports a fallback that no collector would use, unless the collector check is off', () => {
    const graph = () =>
      new StateGraph(messagesStateSchema())
        .addNode('lookup', () => ({}), { fallback: { update: { inventory_status: 'unknown' } } })
        .setEntryPoint('lookup')
        .setFinishPoint('lookup');
    const problems = compileProblems(() => graph().compile());
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('"lookup" declares a fallback but no ExecutionErrorCollector records its failures');
    expect(compileProblems(() => graph().compile({ collectorCheck: false }))).toEqual([]);
  });

  it('checks the fallback of an agent, LLM or tools node too', () => {
    const agent = { name: 'child', runEvents: () => (async function* () {})() };
    const problems = compileProblems(() =>
      base().addAgentNode('lookup', agent, { fallback: { goto: 'missing' } }).compile(),
    );
    expect(problems).toEqual(['node "lookup" has a fallback goto to unknown node "missing"']);
  });
});
