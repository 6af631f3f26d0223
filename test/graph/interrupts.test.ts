/**
 * `interrupt()` in a graph node: the run ends `interrupted` with a checkpoint holding the question; a resume re-runs
 * the node from its start and its `interrupt()` call returns the answer (the n-th call the n-th answer), so what the
 * node does before the call runs again; the step's other nodes keep their results. An interrupt is not a failure: no
 * record, no error event, no retry, no failed span.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, SerializeError } from '../../src/errors/index.js';
import {
  END,
  executionErrorsFromStateDelta,
  InMemoryCheckpointer,
  INTERRUPT_NEEDS_CHECKPOINTER,
  interrupt,
  reducers,
  RUN_INTERRUPTED,
  START,
  StateGraph,
  StateSchema,
  type GraphCheckpoint,
  type Reducer,
} from '../../src/graph/index.js';
import type { RunEvent } from '../../src/runner/index.js';
import { otel, record } from '../telemetry/otel-sdk.js';
import { ANSWER_SCHEMA, counters, interruptsOf, refundGraph } from './interrupt-fixtures.js';

describe('a node that calls interrupt()', () => {
  it('ends the run interrupted, its checkpoint holding the question, the step’s other node kept', async () => {
    const count = counters();
    const checkpointer = new InMemoryCheckpointer();
    const outcome = await refundGraph(count).run({ amount: 30 }, { checkpointer, runId: 'order-42' });
    const [question] = interruptsOf(outcome);
    expect(question).toMatchObject({ runId: 'order-42', kind: 'input', nodeId: 'approve', value: { refund: 30 }, responseSchema: ANSWER_SCHEMA });
    expect(question!.id).toMatch(/^interrupt-/);
    expect(outcome).toMatchObject({ state: { amount: 30, trail: [] }, steps: 0 });
    const stored = (await checkpointer.get('order-42')) as GraphCheckpoint;
    expect(stored).toMatchObject({ version: 2, status: 'interrupted', step: 0, pending: ['approve', 'note'], interrupts: [question], succeeded: [{ index: 1, nodeId: 'note' }] });
    expect(stored.owner).toBeUndefined(); // the run let its claim go: a resume may claim it at once
    expect(count).toEqual({ before: 1, after: 0, refunds: 0, notes: 1 });
  });

  it('re-runs from its start on resume: the counter before interrupt() counts twice, the one after once, the finished node not again', async () => {
    const count = counters();
    const checkpointer = new InMemoryCheckpointer();
    const graph = refundGraph(count);
    const [question] = interruptsOf(await graph.run({}, { checkpointer, runId: 'order-42' }));
    const outcome = await graph.resume('order-42', { checkpointer, decisions: [{ id: question!.id, value: { ok: true, by: 'ana' } }] });
    expect(outcome).toMatchObject({ status: 'completed', state: { approved: true, trail: ['approve', 'note', 'refund'] } }); // the step reduced in trigger order
    expect(outcome.replay).toBeUndefined();
    expect(count).toEqual({ before: 2, after: 1, refunds: 1, notes: 1 });
  });

  it('gives the n-th interrupt() call of a node the n-th answer, asking one question per resume', async () => {
    const seen: unknown[] = [];
    const graph = new StateGraph(new StateSchema().addField('answers'))
      .addNode('ask', (_state, context) => {
        const first = interrupt(context, 'first?');
        const second = interrupt(context, 'second?');
        seen.push([first, second]);
        return { answers: [first, second] };
      })
      .addEdge(START, 'ask')
      .addEdge('ask', END)
      .compile();
    const checkpointer = new InMemoryCheckpointer();
    const [first] = interruptsOf(await graph.run({}, { checkpointer, runId: 'r' }));
    expect(first!.value).toBe('first?');
    const [second] = interruptsOf(await graph.resume('r', { checkpointer, decisions: [{ id: first!.id, value: 'one' }] }));
    expect(second!.value).toBe('second?');
    expect(((await checkpointer.get('r')) as GraphCheckpoint).answers).toEqual([{ index: 0, nodeId: 'ask', answers: [{ id: first!.id, value: '"one"' }] }]);
    const outcome = await graph.resume('r', { checkpointer, decisions: [{ id: second!.id, value: 'two' }] });
    expect(outcome).toMatchObject({ status: 'completed', state: { answers: ['one', 'two'] } });
    expect(seen).toEqual([['one', 'two']]);
  });

  it('lets several nodes of one step ask: the run waits on every question, in trigger order', async () => {
    const runs: Record<string, number> = {};
    const asker = (id: string) => (_state: unknown, context: Parameters<typeof interrupt>[0]) => {
      runs[id] = (runs[id] ?? 0) + 1;
      return { trail: [`${id}:${interrupt<string>(context, id)}`] };
    };
    const graph = new StateGraph(new StateSchema().addField('trail', { reducer: reducers.append as Reducer, default: () => [] }))
      .addNode('a', asker('a'))
      .addNode('b', asker('b'))
      .addNode('c', () => {
        runs.c = (runs.c ?? 0) + 1;
        return { trail: ['c'] };
      })
      .addEdge(START, 'a')
      .addEdge(START, 'b')
      .addEdge(START, 'c')
      .addEdge('c', END)
      .compile();
    const checkpointer = new InMemoryCheckpointer();
    const questions = interruptsOf(await graph.run({}, { checkpointer, runId: 'r' }));
    expect(questions.map((question) => question.nodeId)).toEqual(['a', 'b']);
    const outcome = await graph.resume('r', { checkpointer, decisions: questions.map((question) => ({ id: question.id, value: 'yes' })) });
    expect(outcome).toMatchObject({ status: 'completed', state: { trail: ['a:yes', 'b:yes', 'c'] } });
    expect(runs).toEqual({ a: 2, b: 2, c: 1 });
  });

  it('is no failure: no record, no error event, no retry, no afterNode error, no failed span — on the direct and the general path', async () => {
    // The direct path: no node options and no telemetry; the general path: a retry, a time limit, callbacks, spans.
    for (const [general, traced] of [[false, false], [false, true], [true, true]]) {
      const recorder = record();
      const events: RunEvent[] = [];
      const errorsSeen: unknown[] = [];
      let attempts = 0;
      const graph = new StateGraph(new StateSchema().addField('done'))
        .addNode(
          'ask',
          (_state, context) => {
            attempts++;
            return { done: interrupt(context, 'go?') };
          },
          general ? { retry: { maxAttempts: 3, initialDelayMs: 0, retryOn: () => true }, timeoutMs: 5_000, callbacks: { afterNode: (_c, _s, _r, error) => void errorsSeen.push(error) } } : {},
        )
        .addEdge(START, 'ask')
        .addEdge('ask', END)
        .compile();
      const outcome = await graph.run({}, { checkpointer: new InMemoryCheckpointer(), runId: 'r', onEvent: (event) => events.push(event), ...(traced ? { telemetry: recorder.telemetry } : {}) });
      interruptsOf(outcome);
      expect(attempts).toBe(1);
      expect(errorsSeen).toEqual([]);
      expect(events.filter((event) => event.response?.error !== undefined)).toEqual([]);
      expect(events.map((event) => event.response?.object)).toEqual(['graph.node.start', 'graph.interrupt']);
      for (const event of events) expect(executionErrorsFromStateDelta(event.stateDelta) ?? []).toEqual([]);
      if (!traced) continue;
      const node = recorder.span('graph.node ask');
      expect(node.status.code).not.toBe(otel.SpanStatusCode.ERROR);
      expect(node.events.map((event) => event.name)).toEqual(['faultline.interrupt']);
      const run = recorder.span('invoke_workflow graph');
      expect(run.status.code).not.toBe(otel.SpanStatusCode.ERROR);
      expect(run.events[0]).toMatchObject({ name: 'faultline.interrupt', attributes: { 'faultline.interrupt.count': 1 } });
    }
  });

  it('still stops the run when the node catches the throw and returns: what it returned is discarded', async () => {
    const graph = new StateGraph(new StateSchema().addField('done'))
      .addNode('ask', (_state, context) => {
        try {
          return { done: interrupt(context, 'go?') };
        } catch {
          return { done: 'swallowed' };
        }
      })
      .addEdge(START, 'ask')
      .addEdge('ask', END)
      .compile();
    const checkpointer = new InMemoryCheckpointer();
    const [question] = interruptsOf(await graph.run({}, { checkpointer, runId: 'r' }));
    expect(await graph.resume('r', { checkpointer, decisions: [{ id: question!.id, value: 'yes' }] })).toMatchObject({ status: 'completed', state: { done: 'yes' } });
  });

  it('fails the node with INTERRUPT_NEEDS_CHECKPOINTER in a run without a checkpointer', async () => {
    const outcome = await refundGraph(counters()).run({});
    expect(outcome.status).toBe('failed');
    if (outcome.status === 'failed') expect(outcome.error).toMatchObject({ code: INTERRUPT_NEEDS_CHECKPOINTER, nodeId: 'approve', message: expect.stringContaining('checkpointer') });
  });

  it('fails the node with a typed error for a bad question: options, a value JSON cannot hold, a schema that is none', async () => {
    const cases: Array<[string, (context: Parameters<typeof interrupt>[0]) => unknown, (error: unknown) => void]> = [
      ['expiresInMs 0', (context) => interrupt(context, 'x', { expiresInMs: 0 }), (error) => expect(ConfigError.isInstance(error) && error.message).toContain('expiresInMs')],
      ['expiresInMs past a year', (context) => interrupt(context, 'x', { expiresInMs: 31_536_000_001 }), (error) => expect(ConfigError.isInstance(error) && error.message).toContain('31536000000')],
      ['a value over 1 MiB of JSON', (context) => interrupt(context, 'x'.repeat(1_048_575)), (error) => expect((error as Error).message).toContain('at most 1048576')],
      ['options not an object', (context) => interrupt(context, 'x', 'soon' as never), (error) => expect(ConfigError.isInstance(error)).toBe(true)],
      ['a BigInt value', (context) => interrupt(context, { total: 10n }), (error) => expect(SerializeError.isInstance(error) && error.message).toContain('value.total')],
      ['a schema that is a string', (context) => interrupt(context, 'x', { responseSchema: 'object' as never }), (error) => expect(ConfigError.isInstance(error) && error.message).toContain('responseSchema')],
    ];
    for (const [name, ask, check] of cases) {
      const graph = new StateGraph(new StateSchema()).addNode('ask', (_state, context) => void ask(context)).addEdge(START, 'ask').addEdge('ask', END).compile();
      const outcome = await graph.run({}, { checkpointer: new InMemoryCheckpointer(), runId: 'r' });
      expect(outcome.status, name).toBe('failed');
      if (outcome.status === 'failed') check(outcome.error.cause);
    }
  });

  it('makes invoke() reject with RUN_INTERRUPTED naming the interrupt ids', async () => {
    const error = await refundGraph(counters())
      .invoke({}, { checkpointer: new InMemoryCheckpointer(), runId: 'r' })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'WorkflowError', code: RUN_INTERRUPTED, problems: [expect.stringMatching(/^interrupt-/)] });
  });
});
