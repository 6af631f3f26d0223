/**
 * A resume checks that the checkpoint fits: it is this graph's (every checkpoint carries the fingerprint of the graph
 * that wrote it — nodes, edges, routes, state fields — and another graph refuses it with `CHECKPOINT_INVALID`), and
 * its state matches a typed state's schema, as a fresh run's first state must (`STATE_INVALID`). Either way nothing
 * runs and nothing is written. The same graph compiled again, or built in another order, resumes.
 */
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import {
  CHECKPOINT_INVALID,
  ExecutionErrorCollector,
  InMemoryCheckpointer,
  STATE_INVALID,
  StateGraph,
  stateSchema,
  type CompiledGraph,
  type GraphCheckpoint,
} from '../../src/graph/index.js';
import { completed, countingNode, expectCode, failed, graphWith, switches, type Switches } from './checkpoint-fixtures.js';

/** A chain of counting nodes (the first `broken` ones fail), with extra edges, and extra state fields. */
function chain(on: Switches, ids: string[], options: { extraEdges?: Array<[string, string]>; fields?: string[]; reverse?: boolean } = {}): CompiledGraph {
  const { graph } = graphWith();
  for (const field of options.fields ?? []) graph.schema.addField(field, {});
  for (const id of options.reverse ? [...ids].reverse() : ids) graph.addNode(id, countingNode(id, on));
  for (let index = 0; index < ids.length - 1; index++) graph.addEdge(ids[index] as string, ids[index + 1] as string);
  for (const [from, to] of options.extraEdges ?? []) graph.addEdge(from, to);
  return graph.setEntryPoint(ids[0] as string).setFinishPoint(ids.at(-1) as string).compile();
}

/** A failed checkpoint of `a → b → c` (b broken), in a fresh store. */
async function failedAtB(on: Switches): Promise<InMemoryCheckpointer> {
  const checkpointer = new InMemoryCheckpointer();
  on.broken.add('b');
  failed(await chain(on, ['a', 'b', 'c']).run({}, { checkpointer, runId: 'r' }));
  on.broken.clear();
  return checkpointer;
}

describe('a checkpoint of another graph', () => {
  const changes: Array<[string, (on: Switches) => CompiledGraph]> = [
    ['a node added', (on) => chain(on, ['a', 'b', 'x', 'c'])],
    ['a node removed after the failed one', (on) => chain(on, ['a', 'b'])],
    ['an edge added', (on) => chain(on, ['a', 'b', 'c'], { extraEdges: [['a', 'c']] })],
    ['an edge changed', (on) => chain(on, ['b', 'a', 'c'])],
    ['a state field added', (on) => chain(on, ['a', 'b', 'c'], { fields: ['note'] })],
  ];
  for (const [change, build] of changes) {
    it(`is refused with CHECKPOINT_INVALID, running nothing: ${change}`, async () => {
      const on = switches();
      const checkpointer = await failedAtB(on);
      const before = await checkpointer.get('r');
      const calls = { ...on.calls };
      const refused = expectCode(await build(on).resume('r', { checkpointer }), CHECKPOINT_INVALID);
      expect(refused.error.message).toContain('it was written by another graph');
      expect(refused.error.problems[0]).toMatch(/^it was written by another graph \(fingerprint "[0-9a-f]{16}"; this one's is [0-9a-f]{16}\)/);
      expect(on.calls).toEqual(calls);
      expect(await checkpointer.get('r')).toEqual(before); // not claimed either
    });
  }

  it('is resumed by the same graph compiled again, or built in another order', async () => {
    for (const reverse of [false, true]) {
      const on = switches();
      const checkpointer = await failedAtB(on);
      expect(completed(await chain(on, ['a', 'b', 'c'], { reverse }).resume('r', { checkpointer })).state.trail).toEqual(['a', 'b', 'c']);
      expect(on.calls).toEqual({ a: 1, b: 2, c: 1 });
    }
  });

  it('is checked as before when it carries no fingerprint (written before fingerprints existed)', async () => {
    const on = switches();
    const checkpointer = await failedAtB(on);
    const { graph: _graph, revision: _revision, ...old } = (await checkpointer.get('r')) as GraphCheckpoint;
    const older = new InMemoryCheckpointer();
    await older.put(old);
    completed(await chain(on, ['a', 'b', 'x', 'c']).resume('r', { checkpointer: older }));
    expect(on.calls).toEqual({ a: 1, b: 2, x: 1, c: 1 });
  });
});

describe('a resume of a typed state', () => {
  const before = z.object({ order: z.string(), total: z.number().nullable() });
  const after = z.object({ order: z.string(), total: z.number() });

  function priced(schema: typeof before | typeof after, on: Switches) {
    const collector = new ExecutionErrorCollector();
    return new StateGraph(stateSchema(schema))
      .use(collector)
      .addNode('price', () => {
        on.calls.price = (on.calls.price ?? 0) + 1;
        if (on.broken.has('price')) throw new Error('the price service is down');
        return {};
      })
      .addNode('bill', (state) => {
        on.calls.bill = (on.calls.bill ?? 0) + 1;
        return { order: `${state.order} billed ${String(state.total)}` };
      })
      .setEntryPoint('price')
      .addEdge('price', 'bill')
      .setFinishPoint('bill')
      .compile();
  }

  it('fails with STATE_INVALID before any node when the state no longer matches the schema', async () => {
    const on = switches();
    on.broken.add('price');
    const checkpointer = new InMemoryCheckpointer();
    failed(await priced(before, on).run({ order: 'o-1', total: null }, { checkpointer, runId: 'r' }));
    on.broken.clear();
    const stored = await checkpointer.get('r');
    const refused = expectCode(await priced(after, on).resume('r', { checkpointer }), STATE_INVALID);
    expect(refused.error.message).toMatch(/^the state of run "r"'s checkpoint does not match the state schema: total: /);
    expect(refused.error.stepNumber).toBe(0);
    expect(on.calls).toEqual({ price: 1 });
    expect(await checkpointer.get('r')).toEqual(stored);
    expect(completed(await priced(before, on).resume('r', { checkpointer })).state.order).toBe('o-1 billed null'); // the schema it was written under
  });
});
