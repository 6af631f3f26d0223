/**
 * Record order across a resume, on parallel fan-out graphs (property, fast-check, fixed seeds): branches of one step
 * finish in any order but their records are in trigger order. A run that ends on a fatal branch and is resumed once
 * the branch is fixed keeps the failed run's records in their order, each re-run node's new records following its
 * earlier ones, and without the fatal records equals a run that never failed; a run interrupted at a random step
 * (aborted, or its process killed after a checkpoint) and resumed gives exactly the records of an uninterrupted run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markRecoverable } from '../../src/errors/index.js';
import { END, InMemoryCheckpointer, type CompiledGraph, type GraphOutcome, type State } from '../../src/graph/index.js';
import { dyingCheckpointer, graphWith } from './checkpoint-fixtures.js';

type Behaviour = 'ok' | 'recoverable' | 'fatal-once';

/** `start`, then `layers` layers of parallel branches, each layer joined by a node before the next. */
interface FanSpec {
  layers: Array<Array<{ behaviour: Behaviour; delay: number }>>;
}

const fanArbitrary: fc.Arbitrary<FanSpec> = fc.record({
  layers: fc.array(fc.array(fc.record({ behaviour: fc.constantFrom<Behaviour>('ok', 'recoverable', 'recoverable', 'fatal-once'), delay: fc.integer({ min: 0, max: 2 }) }), { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 2 }),
});

/** The graph of a spec: a `fatal-once` branch fails fatally while `broken`; `onStart` sees each node start. */
function fanGraph(spec: FanSpec, switches: { broken: boolean }, onStart: (step: number) => void = () => {}): CompiledGraph {
  const { graph } = graphWith();
  const node = (id: string, behaviour: Behaviour = 'ok', delay = 0) =>
    graph.addNode(id, async (_state: State, context) => {
      onStart(context.stepNumber);
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      context.signal.throwIfAborted();
      if (behaviour === 'recoverable') throw markRecoverable(new Error(`${id} degraded at step ${context.stepNumber}`));
      if (behaviour === 'fatal-once' && switches.broken) throw new Error(`${id} down at step ${context.stepNumber}`);
      return { trail: [id] };
    });
  node('start');
  let from = 'start';
  spec.layers.forEach((layer, depth) => {
    const join = `join${depth}`;
    layer.forEach(({ behaviour, delay }, index) => {
      const id = `b${depth}_${index}`;
      node(id, behaviour, delay);
      graph.addEdge(from, id).addEdge(id, join);
    });
    node(join);
    from = join;
  });
  return graph.setEntryPoint('start').addEdge(from, END).compile();
}

interface Row {
  key: string;
  severity: string;
}

/** The records of an outcome, each as who failed how (timestamps aside). */
function records(outcome: GraphOutcome): Row[] {
  const state = outcome.status === 'failed' ? outcome.fallbackState : outcome.state;
  return ((state.execution_errors ?? []) as Array<{ nodeId: string; severity: string; stepNumber: number; error: { message: string } }>).map((record) => ({
    key: `${record.nodeId}@${record.stepNumber} ${record.severity}: ${record.error.message}`,
    severity: record.severity,
  }));
}

const keys = (rows: Row[]) => rows.map((row) => row.key);

describe('record order across a resume (property)', () => {
  it('keeps a failed run’s records in their order when it is resumed once fixed, and adds those of a run that never failed', async () => {
    let resumed = 0;
    await fc.assert(
      fc.asyncProperty(fanArbitrary, async (spec) => {
        const reference = await fanGraph(spec, { broken: false }).run({});
        const switches = { broken: true };
        const graph = fanGraph(spec, switches);
        const checkpointer = new InMemoryCheckpointer();
        const first = await graph.run({}, { checkpointer, runId: 'r' });
        if (first.status !== 'failed') return;
        resumed++;
        switches.broken = false;
        const after = await graph.resume('r', { checkpointer });
        expect(after.status).toBe('completed');
        const before = keys(records(first));
        const earlier = new Set(before);
        expect(keys(records(after)).filter((key) => earlier.has(key))).toEqual(before); // the failed run's records, in their order
        expect(keys(records(after).filter((row) => row.severity !== 'fatal'))).toEqual(keys(records(reference)));
        expect(after.status === 'completed' && after.state.trail).toEqual(reference.status === 'completed' && reference.state.trail);
      }),
      { seed: 4, numRuns: 150 },
    );
    expect(resumed).toBeGreaterThan(50); // most runs failed and were resumed: the property is not vacuous
  });

  it('gives exactly the records of an uninterrupted run when interrupted at a random step and resumed', async () => {
    await fc.assert(
      fc.asyncProperty(fanArbitrary, fc.constantFrom<'abort' | 'kill'>('abort', 'kill'), fc.integer({ min: 0, max: 4 }), async (spec, mode, at) => {
        const reference = await fanGraph(spec, { broken: false }).run({});
        const store = new InMemoryCheckpointer();
        const controller = new AbortController();
        const checkpointer = mode === 'kill' ? dyingCheckpointer(store, at + 1) : store;
        const onStart = (step: number) => mode === 'abort' && step === at && controller.abort(new Error('interrupted'));
        const first = await fanGraph(spec, { broken: false }, onStart).run({}, { checkpointer, runId: 'r', signal: controller.signal });
        if (first.status === 'completed') return;
        await new Promise((resolve) => setTimeout(resolve, 5)); // the aborted step's other branches settle
        const after = await fanGraph(spec, { broken: false }).resume('r', { checkpointer: store });
        expect(keys(records(after))).toEqual(keys(records(reference)));
      }),
      { seed: 5, numRuns: 100 },
    );
  });
});
