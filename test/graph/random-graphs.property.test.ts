import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markRecoverable } from '../../src/errors/index.js';
import {
  createGraphAgent,
  END,
  ExecutionErrorCollector,
  executionErrorsFromStateDelta,
  messagesStateSchema,
  StateGraph,
} from '../../src/graph/index.js';
import { isRunnerCompletion, Runner, type RunEvent } from '../../src/runner/index.js';
import { specArbitrary, type GraphSpec } from './random-graph-spec.js';

async function runSpec(spec: GraphSpec): Promise<{ failures: string[]; events: RunEvent[] }> {
  const failures: string[] = [];
  let sequence = 0;
  const collector = new ExecutionErrorCollector();
  const graph = new StateGraph(collector.addField(messagesStateSchema()).addField('visits', { reducer: (existing: number | undefined, update: number) => (existing ?? 0) + update }))
    .withNodeCallbacks(collector.nodeCallbacks());
  spec.behaviours.forEach((behaviour, index) => {
    graph.addNode(`n${index}`, async () => {
      if (spec.delays[index]) await new Promise((resolve) => setTimeout(resolve, spec.delays[index]));
      const id = `failure-${++sequence}`;
      const fails = behaviour === 'recoverable' || behaviour === 'fatal' || (behaviour === 'sometimes' && sequence % 2 === 0);
      if (!fails) return { visits: 1 };
      failures.push(id);
      const error = new Error(id);
      throw behaviour === 'fatal' ? error : markRecoverable(error);
    });
  });
  const last = spec.behaviours.length - 1;
  for (let index = 0; index < last; index++) graph.addEdge(`n${index}`, `n${index + 1}`);
  for (const [from, to] of spec.extraEdges) if (from !== to) graph.addEdge(`n${from}`, `n${to}`);
  graph.setEntryPoint('n0').addEdge(`n${last}`, END);
  const compiled = graph.compile({ stepLimit: spec.stepLimit });
  const runner = new Runner({ appName: 'property', agent: createGraphAgent('random', compiled) });
  const events: RunEvent[] = [];
  for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'go' })) events.push(event);
  return { failures, events };
}

describe('random graphs with failing nodes (property)', () => {
  it('record every node failure exactly once, end with exactly one runner.completion, and never hang', async () => {
    await fc.assert(
      fc.asyncProperty(specArbitrary, async (spec) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const outcome = await Promise.race([
          runSpec(spec),
          new Promise<'hung'>((resolve) => {
            timer = setTimeout(() => resolve('hung'), 5_000);
          }),
        ]);
        clearTimeout(timer);
        expect(outcome).not.toBe('hung');
        const { failures, events } = outcome as Awaited<ReturnType<typeof runSpec>>;
        const completions = events.filter(isRunnerCompletion);
        expect(completions).toHaveLength(1);
        expect(events.at(-1)).toBe(completions[0]);
        const records = executionErrorsFromStateDelta(completions[0]?.stateDelta) ?? [];
        const recorded = records.map((record) => record.error?.message).sort();
        expect(recorded).toEqual([...failures].sort());
        const fatal = records.filter((record) => record.severity === 'fatal');
        if (fatal.length > 0) expect(completions[0]?.response?.error?.type).toBe('flow_error');
      }),
      { seed: 4242, numRuns: 150 },
    );
  });
});
