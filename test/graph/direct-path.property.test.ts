/**
 * The executor's direct path (a step whose nodes have no callbacks and no time limit, in a run without telemetry)
 * behaves exactly like the general runner (property, fast-check, fixed seeds). Random graphs of nodes that succeed
 * synchronously or through a promise, return nothing, a Command, a bad result, throw (also `null`), fail into a retry,
 * or return an update their reducer rejects, with routers (synchronous or not), fan-out and loops that hit the step
 * limit, run four ways: direct without a listener; direct with one; the general runner (every node given a time limit
 * that never fires) with one; and with telemetry. All four end alike — status, state, error, steps — and the two
 * listened-to runs emit the same events in the same order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Command, END, StateGraph, StateSchema, type GraphOutcome, type GraphRunOptions, type NodeContext, type State } from '../../src/graph/index.js';
import type { RunEvent } from '../../src/runner/index.js';
import type { SpanHandle, Telemetry } from '../../src/telemetry/index.js';

type Behaviour = 'sync' | 'async' | 'none' | 'command' | 'array' | 'throw' | 'throw-null' | 'retry' | 'unlucky';

interface Spec {
  behaviours: Behaviour[];
  values: number[];
  extraEdges: Array<[number, number]>;
  /** A router after node `from`: to `to` while the total is below 20, then on along the chain. */
  routers: Array<{ from: number; to: number; async: boolean }>;
  stepLimit: number;
}

const specs: fc.Arbitrary<Spec> = fc.integer({ min: 2, max: 6 }).chain((count) =>
  fc.record({
    behaviours: fc.array(fc.constantFrom<Behaviour>('sync', 'sync', 'sync', 'async', 'none', 'command', 'array', 'throw', 'throw-null', 'retry', 'unlucky'), { minLength: count, maxLength: count }),
    values: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: count, maxLength: count }),
    extraEdges: fc.array(fc.tuple(fc.nat({ max: count - 1 }), fc.nat({ max: count - 1 })), { maxLength: count }),
    routers: fc.uniqueArray(fc.record({ from: fc.nat({ max: count - 1 }), to: fc.nat({ max: count - 1 }), async: fc.boolean() }), { maxLength: 2, selector: (router) => router.from }),
    stepLimit: fc.integer({ min: 3, max: 12 }),
  }),
);

/** Telemetry whose spans record nothing but are not `NO_TELEMETRY`: the run is traced, so the direct path is off. */
function inertTelemetry(): Telemetry {
  const span: SpanHandle = { setAttributes() {}, addEvent() {}, end() {}, fail() {}, traceparent: () => undefined, run: (fn) => fn() };
  return { recordContent: false, startSpan: () => span };
}

function build(spec: Spec, timed: boolean) {
  const last = spec.behaviours.length - 1;
  const graph = new StateGraph(
    new StateSchema().addField('total', {
      reducer: (existing: number | undefined, update: number) => {
        if (update === 13) throw new Error('13 is unlucky');
        return (existing ?? 0) + update;
      },
      default: () => 0,
    }),
  );
  spec.behaviours.forEach((behaviour, index) => {
    const value = spec.values[index] as number;
    const next = index === last ? END : `n${index + 1}`;
    const run = (state: State, context: NodeContext): unknown => {
      switch (behaviour) {
        case 'sync':
          return { total: value };
        case 'async':
          return Promise.resolve({ total: value });
        case 'none':
          return undefined;
        case 'command':
          return new Command({ update: { total: value }, goto: next });
        case 'array':
          return [value];
        case 'throw':
          throw new Error(`node ${index} failed at total ${String(state.total)}`);
        case 'throw-null':
          throw null;
        case 'retry':
          if (context.attempt === 1) throw Object.assign(new Error('transient'), { retryable: true });
          return { total: value };
        case 'unlucky':
          return { total: 13 };
      }
    };
    graph.addNode(`n${index}`, run, {
      ...(behaviour === 'retry' ? { retry: { maxAttempts: 2, initialDelayMs: 0, jitter: 'none' as const } } : {}),
      ...(behaviour === 'command' ? { ends: [next] } : {}),
      ...(timed ? { timeoutMs: 60_000 } : {}),
    });
  });
  for (let index = 0; index < last; index++) graph.addEdge(`n${index}`, `n${index + 1}`);
  for (const [from, to] of spec.extraEdges) graph.addEdge(`n${from}`, `n${to}`);
  for (const router of spec.routers) {
    const onward = router.from === last ? END : `n${router.from + 1}`;
    const choose = (state: State) => ((state.total as number) < 20 ? `n${router.to}` : onward);
    graph.addConditionalEdges(`n${router.from}`, router.async ? async (state: State) => choose(state) : choose);
  }
  return graph.setEntryPoint('n0').addEdge(`n${last}`, END).compile({ stepLimit: spec.stepLimit });
}

/** An outcome without what differs from run to run (the error's stack and class aside: its message, code, node). */
function summary(outcome: GraphOutcome) {
  if (outcome.status === 'completed') return { status: outcome.status, state: outcome.state, steps: outcome.steps };
  if (outcome.status === 'aborted' || outcome.status === 'interrupted') return { status: outcome.status, state: outcome.state, steps: outcome.steps };
  const { error } = outcome;
  return { status: outcome.status, fallbackState: outcome.fallbackState, steps: outcome.steps, error: { message: error.message, code: error.code, nodeId: error.nodeId, stepNumber: error.stepNumber } };
}

/** An event without its id and timestamps. */
function normalized(event: RunEvent) {
  const { id: _id, timestamp: _timestamp, ...rest } = event;
  const stateDelta = event.stateDelta && Object.fromEntries(Object.entries(event.stateDelta).map(([key, text]) => [key, text === null ? null : withoutTimestamp(JSON.parse(text))]));
  return { ...rest, ...(stateDelta ? { stateDelta } : {}) };
}

function withoutTimestamp(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const { timestamp: _timestamp, ...rest } = value as Record<string, unknown>;
  return rest;
}

async function run(spec: Spec, timed: boolean, options: GraphRunOptions) {
  const events: RunEvent[] = [];
  const outcome = await build(spec, timed).run({}, { invocationId: 'same', ...options, ...(options.onEvent ? { onEvent: (event) => events.push(event) } : {}) });
  return { outcome: summary(outcome), events: events.map(normalized) };
}

describe('the direct path (property)', () => {
  it('ends every random graph as the general runner does, and emits the same events in the same order', async () => {
    await fc.assert(
      fc.asyncProperty(specs, async (spec) => {
        const listen = { onEvent: () => {} };
        const direct = await run(spec, false, {});
        const directListened = await run(spec, false, listen);
        const general = await run(spec, true, listen);
        const traced = await run(spec, false, { telemetry: inertTelemetry() });
        expect(direct.outcome).toEqual(general.outcome);
        expect(directListened.outcome).toEqual(general.outcome);
        expect(traced.outcome).toEqual(general.outcome);
        expect(directListened.events).toEqual(general.events);
        expect(general.events.length).toBeGreaterThan(0);
      }),
      { seed: 1717, numRuns: 150 },
    );
  });
});
