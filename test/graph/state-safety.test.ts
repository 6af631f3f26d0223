/**
 * What a graph does with state it cannot encode, updates it cannot read or reduce, listeners that throw, policies
 * that throw, and a collector wired in half: every failure is attributed, recorded and reported; no record is lost and
 * no run looks successful when it is not.
 */
import { describe, expect, it } from 'vitest';
import { markRecoverable, WorkflowError } from '../../src/errors/index.js';
import {
  createGraphAgent,
  decodeStateDelta,
  ExecutionErrorCollector,
  executionErrorsFromStateDelta,
  StateGraph,
  StateSchema,
  STATE_NOT_SERIALIZABLE,
  type GraphOutcome,
  type Reducer,
} from '../../src/graph/index.js';
import { isRunnerCompletion, Runner, type RunEvent } from '../../src/runner/index.js';

async function runUnderRunner(graph: StateGraph): Promise<{ events: RunEvent[]; completion: RunEvent }> {
  const runner = new Runner({ appName: 'shop', agent: createGraphAgent('shop-graph', graph.compile()) });
  const events: RunEvent[] = [];
  for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'go' })) events.push(event);
  const completions = events.filter(isRunnerCompletion);
  expect(completions).toHaveLength(1);
  return { events, completion: completions[0] as RunEvent };
}

/** A graph with an earlier recoverable failure, then a node that puts a BigInt and a cycle into the state. */
function graphWithUnencodableState(collector: ExecutionErrorCollector, fatalAtEnd: boolean): StateGraph {
  const cycle: Record<string, unknown> = { name: 'loop' };
  cycle.self = cycle;
  return new StateGraph(new StateSchema().addField('status', {}))
    .use(collector)
    .addNode('lookup', () => {
      throw markRecoverable(Object.assign(new Error('cache miss'), { code: 'CACHE_MISS' }));
    })
    .addNode('total', () => ({ status: 'priced', total: 10n, loop: cycle }))
    .addNode('ship', () => {
      if (fatalAtEnd) throw Object.assign(new Error('carrier down'), { code: 'CARRIER_DOWN' });
      return { shipped: true };
    })
    .addEdge('lookup', 'total')
    .addEdge('total', 'ship')
    .setEntryPoint('lookup')
    .setFinishPoint('ship');
}

describe('state that cannot be JSON', () => {
  it('keeps every key that encodes, reports each bad key as a typed error, and the completion does not look successful', async () => {
    const { events, completion } = await runUnderRunner(graphWithUnencodableState(new ExecutionErrorCollector(), false));
    const badKeys = events.filter((event) => !isRunnerCompletion(event) && event.response?.error?.code === STATE_NOT_SERIALIZABLE);
    expect(badKeys.map((event) => event.response?.error?.message)).toEqual([
      expect.stringMatching(/^marshal state delta key "total": total is a BigInt/),
      expect.stringMatching(/^marshal state delta key "loop": loop\.self refers back/),
    ]);
    expect(completion.response?.error).toMatchObject({ type: 'flow_error', code: STATE_NOT_SERIALIZABLE });
    const state = decodeStateDelta(completion.stateDelta);
    expect(state).toMatchObject({ status: 'priced', shipped: true });
    expect(state).not.toHaveProperty('total');
    expect(executionErrorsFromStateDelta(completion.stateDelta)?.map((record) => [record.severity, record.nodeId, record.error?.code])).toEqual([['recoverable', 'lookup', 'CACHE_MISS']]);
  });

  it('on the fatal path, the fallback state keeps the earlier recoverable record, the fatal one and every encodable key', async () => {
    const { events, completion } = await runUnderRunner(graphWithUnencodableState(new ExecutionErrorCollector(), true));
    expect(events.some((event) => event.response?.error?.code === STATE_NOT_SERIALIZABLE)).toBe(true);
    expect(completion.response?.error).toMatchObject({ code: 'CARRIER_DOWN' });
    expect(decodeStateDelta(completion.stateDelta)).toMatchObject({ status: 'priced' });
    expect(executionErrorsFromStateDelta(completion.stateDelta)?.map((record) => [record.severity, record.nodeId])).toEqual([
      ['recoverable', 'lookup'],
      ['fatal', 'ship'],
    ]);
  });
});

describe('updates that cannot be read or reduced', () => {
  it('attributes an update with a throwing getter to its node and records it', async () => {
    const graph = new StateGraph(new StateSchema())
      .use(new ExecutionErrorCollector())
      .addNode('read', () => ({
        get total() {
          throw new Error('getter exploded');
        },
      }))
      .setEntryPoint('read')
      .setFinishPoint('read');
    const { completion } = await runUnderRunner(graph);
    const records = executionErrorsFromStateDelta(completion.stateDelta);
    expect(records?.map((record) => [record.severity, record.nodeId])).toEqual([['fatal', 'read']]);
    expect(records?.[0]?.error?.message).toMatch(/^the node returned an update whose key "total" cannot be read: getter exploded/);
    expect(completion.response?.error?.message).toMatch(/node read/);
  });

  it('attributes a reducer that throws to the node whose update it reduced, records it, and a policy may recover it', async () => {
    const exploding: Reducer = (_existing, update) => {
      if (update === 'bad') throw Object.assign(new Error('cannot merge "bad"'), { code: 'MERGE_FAILED' });
      return update;
    };
    const build = (collector: ExecutionErrorCollector) =>
      new StateGraph(new StateSchema().addField('value', { reducer: exploding }))
        .use(collector)
        .addNode('good', () => ({ value: 'fine' }))
        .addNode('bad', () => ({ value: 'bad' }))
        .addNode('after', () => ({ reached: true }))
        .addEdge('good', 'after')
        .addEdge('bad', 'after')
        .setEntryPoint('good')
        .setEntryPoint('bad')
        .setFinishPoint('after')
        .compile();

    const fatal = await build(new ExecutionErrorCollector()).run();
    expect(fatal.status).toBe('failed');
    const error = (fatal as Extract<GraphOutcome, { status: 'failed' }>).error;
    expect(error.nodeId).toBe('bad');
    expect(error.message).toMatch(/node bad failed at step \d+: the node's update could not be reduced into the state: the reducer of state key "value" threw: cannot merge "bad"/);
    const fallback = (fatal as Extract<GraphOutcome, { status: 'failed' }>).fallbackState;
    expect(fallback.value).toBe('fine'); // the good node's update stands
    expect((fallback.execution_errors as Array<{ nodeId: string; error: { code: string } }>).map((record) => [record.nodeId, record.error.code])).toEqual([['bad', 'MERGE_FAILED']]);

    const recovering = new ExecutionErrorCollector({ recoverable: () => true });
    const recovered = await build(recovering).run();
    expect(recovered.status).toBe('completed');
    const state = (recovered as Extract<GraphOutcome, { status: 'completed' }>).state;
    expect(state).toMatchObject({ value: 'fine', reached: true });
    expect((state.execution_errors as Array<{ severity: string; nodeId: string }>).map((record) => [record.severity, record.nodeId])).toEqual([['recoverable', 'bad']]);
  });

  it("keeps a recovered failure's record when the recovery's own update cannot be reduced, and records a second failure too", async () => {
    const reducer: Reducer = (_existing, update) => {
      if (update === 'bad') throw new Error('cannot take "bad"');
      return update;
    };
    const run = (replacementForTheReduceError: Record<string, unknown> | undefined) =>
      new StateGraph(new StateSchema().addField('x', { reducer }))
        .use(
          new ExecutionErrorCollector({
            policy: (_context, _state, _result, error) =>
              String((error as Error).message).includes('inventory service down') ? { recover: true, replacement: { x: 'bad' } } : { recover: true, replacement: replacementForTheReduceError },
          }),
        )
        .addNode('lookup', () => {
          throw new Error('inventory service down');
        })
        .setEntryPoint('lookup')
        .setFinishPoint('lookup')
        .compile()
        .run();
    const messagesOf = (outcome: GraphOutcome) => {
      const state = outcome.status === 'failed' ? outcome.fallbackState : outcome.state;
      return (state.execution_errors as Array<{ severity: string; error: { message: string } }>).map((record) => [record.severity, record.error.message.slice(0, 30)]);
    };
    const once = await run(undefined);
    expect(once.status).toBe('completed');
    expect(messagesOf(once)).toEqual([
      ['recoverable', 'inventory service down'],
      ['recoverable', "the node's update could not be"],
    ]);
    const twice = await run({ x: 'bad' });
    expect(twice.status).toBe('failed');
    expect(messagesOf(twice)).toEqual([
      ['recoverable', 'inventory service down'],
      ['recoverable', "the node's update could not be"],
      ['fatal', "the node's recovery update cou"],
    ]);
  });

  it('fails a run whose input cannot be reduced with a WorkflowError, instead of rejecting', async () => {
    const compiled = new StateGraph(new StateSchema()).addNode('a', () => undefined).setEntryPoint('a').setFinishPoint('a').compile();
    const outcome = await compiled.run({
      get poisoned() {
        throw new Error('input getter');
      },
    });
    expect(outcome.status).toBe('failed');
    expect((outcome as Extract<GraphOutcome, { status: 'failed' }>).error.message).toMatch(/input could not be reduced into the state: input getter/);
  });
});

describe('listeners and policies that throw', () => {
  it('goes on when the onEvent listener throws, and lists the failures in the outcome', async () => {
    const compiled = new StateGraph(new StateSchema()).addNode('a', () => ({ done: true })).setEntryPoint('a').setFinishPoint('a').compile();
    const outcome = await compiled.run({}, {
      onEvent: () => {
        throw new Error('listener bug');
      },
    });
    expect(outcome.status).toBe('completed');
    expect(outcome.listenerErrors?.length).toBeGreaterThanOrEqual(3);
    expect(outcome.listenerErrors?.[0]?.message).toMatch(/A graph onEvent listener threw on a graph\.node\.start event: listener bug/);
  });

  it('writes the failure as a fatal record when the user policy throws', async () => {
    const collector = new ExecutionErrorCollector({
      policy: () => {
        throw new Error('policy bug');
      },
    });
    const graph = new StateGraph(new StateSchema())
      .use(collector)
      .addNode('work', () => {
        throw Object.assign(new Error('work failed'), { code: 'WORK_FAILED' });
      })
      .setEntryPoint('work')
      .setFinishPoint('work');
    const { events, completion } = await runUnderRunner(graph);
    expect(executionErrorsFromStateDelta(completion.stateDelta)?.map((record) => [record.severity, record.nodeId, record.error?.code])).toEqual([['fatal', 'work', 'WORK_FAILED']]);
    const custom = events.find((event) => (event.stateDelta?._node_custom_metadata ?? '').includes('"eventType":"execution_error"'));
    expect(JSON.parse(custom?.stateDelta?._node_custom_metadata as string).message).toMatch(/the execution-error policy threw: policy bug/);
  });
});

describe('wiring the collector', () => {
  const node = () => ({ ok: true });

  it('graph.use(collector) installs the field and the callbacks in one step', async () => {
    const compiled = new StateGraph(new StateSchema())
      .use(new ExecutionErrorCollector())
      .addNode('a', () => {
        throw markRecoverable(new Error('soft'));
      })
      .addNode('b', node)
      .addEdge('a', 'b')
      .setEntryPoint('a')
      .setFinishPoint('b')
      .compile();
    const outcome = await compiled.run();
    expect(outcome.status).toBe('completed');
    expect((outcome as Extract<GraphOutcome, { status: 'completed' }>).state.execution_errors).toHaveLength(1);
  });

  it('refuses to compile callbacks without their record field', () => {
    const collector = new ExecutionErrorCollector();
    const graph = new StateGraph(new StateSchema()).withNodeCallbacks(collector.nodeCallbacks()).addNode('a', node).setEntryPoint('a').setFinishPoint('a');
    expect(() => graph.compile()).toThrow(WorkflowError);
    expect(() => graph.compile()).toThrow(/callbacks are installed but the state has no record field "execution_errors".*graph\.use\(collector\)/);
  });

  it('refuses to compile a record field without its callbacks', () => {
    const collector = new ExecutionErrorCollector();
    const graph = new StateGraph(collector.addField(new StateSchema())).addNode('a', node).setEntryPoint('a').setFinishPoint('a');
    expect(() => graph.compile()).toThrow(/"execution_errors" holds execution-error records but no ExecutionErrorCollector callbacks are installed/);
  });

  it('refuses to compile a collector installed twice, which would record each failure twice', () => {
    const collector = new ExecutionErrorCollector();
    const graph = new StateGraph(new StateSchema()).use(collector).use(collector).addNode('a', node).setEntryPoint('a').setFinishPoint('a');
    expect(() => graph.compile()).toThrow(/installed twice/);
  });

  it("recognises the collector's callbacks through a spread copy, and takes a wrapper of your own with collectorCheck: false", () => {
    const collector = new ExecutionErrorCollector();
    const spread = new StateGraph(collector.addField(new StateSchema())).withNodeCallbacks({ ...collector.nodeCallbacks() }).addNode('a', node).setEntryPoint('a').setFinishPoint('a');
    expect(() => spread.compile()).not.toThrow();
    const wrapped = new StateGraph(new ExecutionErrorCollector().addField(new StateSchema()))
      .withNodeCallbacks({ afterNode: (...args) => collector.afterNode(...args) })
      .addNode('a', node)
      .setEntryPoint('a')
      .setFinishPoint('a');
    expect(() => wrapped.compile()).toThrow(/compile\(\{ collectorCheck: false \}\)/);
    expect(() => wrapped.compile({ collectorCheck: false })).not.toThrow();
  });

  it('refuses a collector installed graph-wide and again on a node', () => {
    const collector = new ExecutionErrorCollector();
    const graph = new StateGraph(new StateSchema()).use(collector).addNode('a', node, { callbacks: collector.nodeCallbacks() }).setEntryPoint('a').setFinishPoint('a');
    expect(() => graph.compile()).toThrow(/installed graph-wide and again on "a": each failure there would be recorded twice/);
  });

  it('refuses a collector installed on some nodes only, naming the nodes it would not record', () => {
    const collector = new ExecutionErrorCollector();
    const graph = new StateGraph(collector.addField(new StateSchema()))
      .addNode('a', node, { callbacks: collector.nodeCallbacks() })
      .addNode('b', node)
      .addEdge('a', 'b')
      .setEntryPoint('a')
      .setFinishPoint('b');
    expect(() => graph.compile()).toThrow(/installed on some nodes only: a failure of "b" would end the run with no record/);
  });

  it('accepts the two-step form when both steps are there, and a collector per node', () => {
    const collector = new ExecutionErrorCollector();
    expect(() =>
      new StateGraph(collector.addField(new StateSchema())).withNodeCallbacks(collector.nodeCallbacks()).addNode('a', node).setEntryPoint('a').setFinishPoint('a').compile(),
    ).not.toThrow();
    const perNode = new ExecutionErrorCollector();
    expect(() =>
      new StateGraph(perNode.addField(new StateSchema())).addNode('a', node, { callbacks: perNode.nodeCallbacks() }).setEntryPoint('a').setFinishPoint('a').compile(),
    ).not.toThrow();
  });
});
