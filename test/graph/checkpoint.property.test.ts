/**
 * Resume equals an uninterrupted run (property, fast-check, fixed seeds): for random graphs (fan-out, loops, failing
 * nodes, the step limit), a run interrupted at a random step — aborted, or its process "killed" right after its k-th
 * checkpoint (the checkpointer throws, and the run is dropped) — and then resumed from its checkpoint on a fresh run
 * ends with the same final (or fallback) state, the same execution-error records and the same error as a run that
 * was never interrupted; under the `Runner`, with the same `runner.completion`. A "killed" run leaves its claim on the
 * checkpoint behind, as a dead process does: the resume takes it over at once — on `InMemoryCheckpointer` because the
 * store is exclusive (its owner is not live in this process), on the documented Map store with `takeOver: true`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markRecoverable } from '../../src/errors/index.js';
import { END, ExecutionErrorCollector, InMemoryCheckpointer, messagesStateSchema, reducers, StateGraph, type Checkpointer, type CompiledGraph, type GraphOutcome, type Reducer, type State } from '../../src/graph/index.js';
import { comparable, comparableCompletion, dyingCheckpointer, mapCheckpointer, runOnce } from './checkpoint-fixtures.js';
import { specArbitrary, type GraphSpec } from './random-graph-spec.js';

interface Interruption {
  mode: 'abort' | 'kill';
  /** abort: when a node starts at this step; kill: after this many running/completed checkpoints (+1). */
  at: number;
}

const interruptionArbitrary: fc.Arbitrary<Interruption> = fc.record({ mode: fc.constantFrom<'abort' | 'kill'>('abort', 'kill'), at: fc.integer({ min: 0, max: 5 }) });

/**
 * The graph of a spec, deterministic so that a node run again behaves the same: a `sometimes` node fails
 * (recoverably) when the visits so far are odd. `onStart` sees every node start (to abort the run).
 */
function buildGraph(spec: GraphSpec, onStart: (step: number) => void = () => {}): CompiledGraph {
  const collector = new ExecutionErrorCollector();
  const schema = messagesStateSchema()
    .addField('visits', { reducer: (existing: number | undefined, update: number) => (existing ?? 0) + update })
    .addField('trail', { reducer: reducers.append as Reducer, default: () => [] });
  const graph = new StateGraph(schema).use(collector);
  spec.behaviours.forEach((behaviour, index) => {
    graph.addNode(`n${index}`, async (state: State, context) => {
      onStart(context.stepNumber);
      if (spec.delays[index]) await new Promise((resolve) => setTimeout(resolve, spec.delays[index]));
      context.signal.throwIfAborted();
      const visits = typeof state.visits === 'number' ? state.visits : 0;
      const fails = behaviour === 'recoverable' || behaviour === 'fatal' || (behaviour === 'sometimes' && visits % 2 === 1);
      if (!fails) return { visits: 1, trail: [`n${index}@${context.stepNumber}`] };
      const error = new Error(`n${index} failed at step ${context.stepNumber} after ${visits} visits`);
      throw behaviour === 'fatal' ? error : markRecoverable(error);
    });
  });
  const last = spec.behaviours.length - 1;
  for (let index = 0; index < last; index++) graph.addEdge(`n${index}`, `n${index + 1}`);
  for (const [from, to] of spec.extraEdges) if (from !== to) graph.addEdge(`n${from}`, `n${to}`);
  return graph.setEntryPoint('n0').addEdge(`n${last}`, END).compile({ stepLimit: spec.stepLimit });
}

/** The parts of an outcome two equal runs share: status, steps, state (record timestamps left out), error. */
function summary(outcome: GraphOutcome): unknown {
  return { ...comparable(outcome), message: outcome.status === 'failed' ? outcome.error.message : undefined };
}

/** A store, and how a resume after a dead process takes its claim over. */
interface Store {
  make: () => Checkpointer;
  takeOver: boolean;
}

const EXCLUSIVE: Store = { make: () => new InMemoryCheckpointer(), takeOver: false };
const SHARED: Store = { make: () => mapCheckpointer(), takeOver: true };

/** Interrupts a run of `spec` as `interruption` says, then resumes it on a fresh graph; the resumed outcome. */
async function interruptedThenResumed(spec: GraphSpec, interruption: Interruption, kind: Store = EXCLUSIVE): Promise<{ outcome: GraphOutcome; interrupted: boolean }> {
  const store = kind.make();
  const controller = new AbortController();
  const abortAt = interruption.mode === 'abort' ? interruption.at : -1;
  const dying = dyingCheckpointer(store, interruption.mode === 'kill' ? interruption.at + 1 : Number.POSITIVE_INFINITY);
  const first = await buildGraph(spec, (step) => step === abortAt && controller.abort(new Error('interrupted'))).run({}, { checkpointer: dying, runId: 'run', signal: controller.signal });
  const interrupted = first.status === 'aborted' || dying.dead;
  if (!interrupted) return { outcome: first, interrupted };
  await new Promise((resolve) => setTimeout(resolve, 3)); // the aborted step's other nodes settle
  return { outcome: await buildGraph(spec).resume('run', { checkpointer: store, takeOver: kind.takeOver }), interrupted };
}

function bounded<T>(promise: Promise<T>): Promise<T | 'hung'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([promise, new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), 5_000)))]).finally(() => clearTimeout(timer));
}

describe('checkpointed random graphs (property)', () => {
  for (const [name, kind, numRuns] of [
    ['InMemoryCheckpointer', EXCLUSIVE, 200],
    ['the documented Map store, resumed with takeOver', SHARED, 100],
  ] as const) {
    it(`end the same when interrupted at a random step and resumed as when never interrupted (${name})`, async () => {
      let interruptions = 0;
      await fc.assert(
        fc.asyncProperty(specArbitrary, interruptionArbitrary, async (spec, interruption) => {
          const reference = await buildGraph(spec).run({});
          const resumed = await bounded(interruptedThenResumed(spec, interruption, kind));
          expect(resumed).not.toBe('hung');
          const { outcome, interrupted } = resumed as Awaited<ReturnType<typeof interruptedThenResumed>>;
          if (interrupted) interruptions++;
          expect(summary(outcome)).toEqual(summary(reference));
        }),
        { seed: 2026, numRuns },
      );
      expect(interruptions).toBeGreaterThan(numRuns / 2); // most runs were interrupted: the property is not vacuous
    });
  }

  it('give the runner.completion of an uninterrupted run when a graph agent is resumed with the same invocation id', async () => {
    await fc.assert(
      fc.asyncProperty(specArbitrary, interruptionArbitrary, async (spec, interruption) => {
        const reference = await runOnce(buildGraph(spec), new InMemoryCheckpointer(), 'reference');
        const store = new InMemoryCheckpointer();
        const controller = new AbortController();
        const abortAt = interruption.mode === 'abort' ? interruption.at : -1;
        const checkpointer = interruption.mode === 'kill' ? dyingCheckpointer(store, interruption.at + 1) : store;
        const graph = buildGraph(spec, (step) => step === abortAt && controller.abort(new Error('interrupted')));
        const first = await runOnce(graph, checkpointer, 'invocation-1', controller.signal);
        // Not interrupted: it is the run (run again, a failed one would resume and retry its failed step).
        const interrupted = controller.signal.aborted || ('dead' in checkpointer && checkpointer.dead);
        const resumed = interrupted ? await runOnce(buildGraph(spec), store, 'invocation-1') : first;
        expect(comparableCompletion(resumed.completion)).toEqual(comparableCompletion(reference.completion));
      }),
      { seed: 7, numRuns: 60 },
    );
  });
});
