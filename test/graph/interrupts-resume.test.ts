/**
 * Resuming an interrupted graph run: every wrong resume is a typed `ResumeError` and changes nothing (the checkpoint
 * as it was, one `graph.resume` event naming the refusal); the same decisions again replay the first outcome
 * (`replay: true`), other decisions of decided interrupts conflict; expiry from the clock (fake timers); 20 identical
 * and 20 conflicting resumes at once run the side effect after `interrupt()` once — in memory, on a store that is not
 * exclusive, and on the Durable Object checkpointer.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DurableObjectCheckpointer } from '../../src/cloudflare/index.js';
import { InterruptExpiredError, InterruptNotFoundError, ResumeError, ResumeIncompleteError, ResumePayloadError } from '../../src/errors/index.js';
import {
  CHECKPOINT_NOT_FOUND,
  END,
  InMemoryCheckpointer,
  interrupt,
  RESUME_IN_PROGRESS,
  START,
  StateGraph,
  StateSchema,
  type Checkpointer,
  type CompiledGraph,
  type GraphOutcome,
} from '../../src/graph/index.js';
import type { RunEvent } from '../../src/runner/index.js';
import { FakeStorage } from '../cloudflare/fake-platform.js';
import { mapCheckpointer } from './checkpoint-fixtures.js';
import { counters, interruptsOf, refundGraph, refusal } from './interrupt-fixtures.js';

afterEach(() => {
  vi.useRealTimers();
});

/** Two nodes that ask in one step (`a`, `b`), each answer a string. */
function twoQuestions(options: { a?: number; b?: number } = {}): CompiledGraph {
  return new StateGraph(new StateSchema().addField('a').addField('b'))
    .addNode('a', (_state, context) => ({ a: interrupt(context, 'a?', options.a === undefined ? {} : { expiresInMs: options.a }) }))
    .addNode('b', (_state, context) => ({ b: interrupt(context, 'b?', options.b === undefined ? {} : { expiresInMs: options.b }) }))
    .addEdge(START, 'a')
    .addEdge(START, 'b')
    .addEdge('a', END)
    .addEdge('b', END)
    .compile();
}

describe('a wrong resume of an interrupted run', () => {
  const cases: Array<[string, (id: string) => unknown, (error: any) => void]> = [
    ['an unknown id', () => [{ id: 'interrupt-nope', value: { ok: true } }], (error) => expect(InterruptNotFoundError.isInstance(error) && error.ids).toEqual(['interrupt-nope'])],
    ['a value failing the responseSchema', (id) => [{ id, value: { ok: 'yes' } }], (error) => expect(ResumePayloadError.isInstance(error) && error.issues.join()).toContain('value.ok')],
    ['a value with an unknown field', (id) => [{ id, value: { ok: true, extra: 1 } }], (error) => expect(ResumePayloadError.isInstance(error)).toBe(true)],
    ['an approval where a value is asked', (id) => [{ id, approved: true }], (error) => expect(ResumePayloadError.isInstance(error) && error.issues.join()).toContain('asks for a value')],
    ['a value JSON cannot hold', (id) => [{ id, value: { ok: true, by: 10n } }], (error) => expect(ResumePayloadError.isInstance(error) && error.message).toContain('JSON')],
    ['a value over 1 MiB of JSON', (id) => [{ id, value: { ok: true, by: 'x'.repeat(1_048_577) } }], (error) => expect(ResumePayloadError.isInstance(error) && error.message).toContain('at most 1048576')],
    ['decisions that are not a list', () => ({ ok: true }), (error) => expect(ResumePayloadError.isInstance(error)).toBe(true)],
    ['no decisions at all', () => undefined, (error) => expect(ResumeIncompleteError.isInstance(error)).toBe(true)],
    ['an empty list', () => [], (error) => expect(ResumeIncompleteError.isInstance(error)).toBe(true)],
  ];

  it.each(cases)('is refused with a typed error, changing nothing: %s', async (_name, decide, check) => {
    const count = counters();
    const checkpointer = new InMemoryCheckpointer();
    const graph = refundGraph(count);
    const [question] = interruptsOf(await graph.run({}, { checkpointer, runId: 'r' }));
    const before = await checkpointer.get('r');
    const events: RunEvent[] = [];
    const error = await refusal(graph.resume('r', { checkpointer, decisions: decide(question!.id) as never, onEvent: (event) => events.push(event) }));
    expect(ResumeError.isInstance(error)).toBe(true);
    expect(error.pendingIds).toEqual([question!.id]);
    expect(error.runId).toBe('r');
    check(error);
    expect(await checkpointer.get('r')).toEqual(before);
    expect(count).toEqual({ before: 1, after: 0, refunds: 0, notes: 1 });
    expect(events.map((event) => event.response?.object)).toEqual(['graph.resume']);
    expect(JSON.parse(events[0]!.stateDelta!._pregel_metadata!)).toMatchObject({ refused: error.code });
    // The same run, resumed right, goes on.
    expect(await graph.resume('r', { checkpointer, decisions: [{ id: question!.id, value: { ok: true } }] })).toMatchObject({ status: 'completed' });
  });

  it('is refused with RESUME_INCOMPLETE (409… 422) listing the question left undecided', async () => {
    const checkpointer = new InMemoryCheckpointer();
    const graph = twoQuestions();
    const [a, b] = interruptsOf(await graph.run({}, { checkpointer, runId: 'r' }));
    const error = await refusal(graph.resume('r', { checkpointer, decisions: [{ id: a!.id, value: 'x' }] }));
    expect(error).toMatchObject({ code: 'RESUME_INCOMPLETE', undecidedIds: [b!.id], httpStatus: 422 });
  });

  it('is refused with RUN_NOT_INTERRUPTED (404) for a run that never stopped to ask', async () => {
    const checkpointer = new InMemoryCheckpointer();
    const graph = new StateGraph(new StateSchema()).addNode('work', () => ({})).addEdge(START, 'work').addEdge('work', END).compile();
    await graph.run({}, { checkpointer, runId: 'r' });
    const before = await checkpointer.get('r');
    const error = await refusal(graph.resume('r', { checkpointer, decisions: [{ id: 'interrupt-1', value: 1 }] }));
    expect(error).toMatchObject({ name: 'ResumeError', code: 'RUN_NOT_INTERRUPTED', httpStatus: 404, pendingIds: [] });
    expect(error.message).toContain('completed');
    expect(await checkpointer.get('r')).toEqual(before);
  });

  it('is a failed CHECKPOINT_NOT_FOUND outcome for a run id without a checkpoint, as any resume is', async () => {
    const outcome = await refundGraph(counters()).resume('nobody', { checkpointer: new InMemoryCheckpointer(), decisions: [{ id: 'x', value: 1 }] });
    expect(outcome.status === 'failed' && outcome.error.code).toBe(CHECKPOINT_NOT_FOUND);
  });
});

describe('a resume sent twice', () => {
  it('replays the first outcome when identical (replay: true), running nothing again', async () => {
    const count = counters();
    const checkpointer = new InMemoryCheckpointer();
    const graph = refundGraph(count);
    const [question] = interruptsOf(await graph.run({}, { checkpointer, runId: 'r' }));
    const decisions = [{ id: question!.id, value: { ok: true } }];
    const first = await graph.resume('r', { checkpointer, decisions });
    const events: RunEvent[] = [];
    const again = await graph.resume('r', { checkpointer, decisions: [{ value: { ok: true }, id: question!.id }], onEvent: (event) => events.push(event) });
    expect(again).toEqual({ ...first, replay: true });
    expect(count).toEqual({ before: 2, after: 1, refunds: 1, notes: 1 });
    expect(events.map((event) => [event.response?.object, JSON.parse(event.stateDelta?._pregel_metadata ?? '{}').replay])).toEqual([['graph.resume', true], ['graph.execution', undefined]]);
  });

  it('replays decisions given in another order, and an interrupted outcome as it was stored', async () => {
    const checkpointer = new InMemoryCheckpointer();
    const asks = new StateGraph(new StateSchema().addField('a').addField('b').addField('c'))
      .addNode('a', (_state, context) => ({ a: interrupt(context, 'a?') }))
      .addNode('b', (_state, context) => ({ b: interrupt(context, 'b?') }))
      .addNode('c', (_state, context) => ({ c: interrupt(context, 'c?') }))
      .addEdge(START, 'a')
      .addEdge(START, 'b')
      .addEdge('a', 'c')
      .addEdge('c', END)
      .compile();
    const [a, b] = interruptsOf(await asks.run({}, { checkpointer, runId: 'r' }));
    const next = await asks.resume('r', { checkpointer, decisions: [{ id: a!.id, value: 1 }, { id: b!.id, value: 2 }] });
    const [c] = interruptsOf(next);
    expect(c!.nodeId).toBe('c');
    expect(await asks.resume('r', { checkpointer, decisions: [{ id: b!.id, value: 2 }, { id: a!.id, value: 1 }] })).toEqual({ ...next, replay: true });
  });

  it('refuses other decisions for a decided interrupt with RESUME_CONFLICT (409), changing nothing', async () => {
    const checkpointer = new InMemoryCheckpointer();
    const graph = refundGraph(counters());
    const [question] = interruptsOf(await graph.run({}, { checkpointer, runId: 'r' }));
    await graph.resume('r', { checkpointer, decisions: [{ id: question!.id, value: { ok: true } }] });
    const before = await checkpointer.get('r');
    const error = await refusal(graph.resume('r', { checkpointer, decisions: [{ id: question!.id, value: { ok: false } }] }));
    expect(error).toMatchObject({ name: 'ResumeError', code: 'RESUME_CONFLICT', httpStatus: 409 });
    expect(await checkpointer.get('r')).toEqual(before);
  });
});

describe('an interrupt with expiresInMs', () => {
  it('refuses a decision sent after expiresAt with INTERRUPT_EXPIRED (410), and the node’s interrupt() then throws it for the node to handle', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-01-05T10:00:00.000Z'), toFake: ['Date'] });
    const checkpointer = new InMemoryCheckpointer();
    const graph = new StateGraph(new StateSchema().addField('outcome'))
      .addNode('approve', (_state, context) => {
        try {
          return { outcome: interrupt<string>(context, 'refund?', { expiresInMs: 60_000 }) };
        } catch (error) {
          if (InterruptExpiredError.isInstance(error)) return { outcome: `nobody answered by ${error.expiredAt}` };
          throw error;
        }
      })
      .addEdge(START, 'approve')
      .addEdge('approve', END)
      .compile();
    const [question] = interruptsOf(await graph.run({}, { checkpointer, runId: 'r' }));
    expect(question!.expiresAt).toBe('2026-01-05T10:01:00.000Z');
    vi.setSystemTime(Date.parse('2026-01-05T10:01:00.001Z'));
    const before = await checkpointer.get('r');
    const error = await refusal(graph.resume('r', { checkpointer, decisions: [{ id: question!.id, value: 'yes' }] }));
    expect(error).toMatchObject({ code: 'INTERRUPT_EXPIRED', httpStatus: 410, ids: [question!.id], expiredAt: '2026-01-05T10:01:00.000Z' });
    expect(await checkpointer.get('r')).toEqual(before);
    expect(await graph.resume('r', { checkpointer })).toMatchObject({ status: 'completed', state: { outcome: 'nobody answered by 2026-01-05T10:01:00.000Z' } });
  });

  it('accepts a decision just before expiresAt, and needs none for an expired question beside a live one', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-01-05T10:00:00.000Z'), toFake: ['Date'] });
    const checkpointer = new InMemoryCheckpointer();
    const graph = twoQuestions({ a: 1_000, b: 60_000 });
    const [a, b] = interruptsOf(await graph.run({}, { checkpointer, runId: 'r' }));
    vi.setSystemTime(Date.parse('2026-01-05T10:00:59.999Z'));
    const outcome = await graph.resume('r', { checkpointer, decisions: [{ id: b!.id, value: 'b-yes' }] });
    // `a` did not catch its expiry: the node fails with the typed error, recorded like any failure.
    expect(outcome.status).toBe('failed');
    if (outcome.status === 'failed') expect(outcome.error).toMatchObject({ code: 'INTERRUPT_EXPIRED', nodeId: 'a', message: expect.stringContaining(a!.id) });
  });
});

const stores: Array<[string, () => Checkpointer]> = [
  ['InMemoryCheckpointer (exclusive)', () => new InMemoryCheckpointer()],
  ['the documented Map store (not exclusive)', () => mapCheckpointer()],
  ['DurableObjectCheckpointer over a fake storage (exclusive)', () => new DurableObjectCheckpointer(new FakeStorage())],
];

for (const [name, makeStore] of stores) {
  describe(`concurrent resumes over ${name}`, () => {
    it('run the side effect after interrupt() once for 20 identical and 20 conflicting resumes; the rest replay, wait or conflict', async () => {
      const effects: boolean[] = [];
      let before = 0;
      const graph = new StateGraph(new StateSchema().addField('approved'))
        .addNode('approve', async (_state, context) => {
          before++;
          const answer = interrupt<{ ok: boolean }>(context, 'refund?');
          await new Promise((resolve) => setTimeout(resolve, 20));
          effects.push(answer.ok);
          return { approved: answer.ok };
        })
        .addEdge(START, 'approve')
        .addEdge('approve', END)
        .compile();
      const checkpointer = makeStore();
      const [question] = interruptsOf(await graph.run({}, { checkpointer, runId: 'order-42' }));
      const send = (ok: boolean) => graph.resume('order-42', { checkpointer, decisions: [{ id: question!.id, value: { ok } }] }).then((outcome) => ({ ok, outcome }), (error: unknown) => ({ ok, error }));
      const results = await Promise.all(Array.from({ length: 40 }, (_, index) => send(index % 2 === 0)));
      expect(effects).toHaveLength(1);
      const winner = effects[0];
      expect(before).toBe(2);
      for (const result of results) {
        if (result.ok === winner) {
          const outcome = (result as { outcome: GraphOutcome }).outcome;
          expect(outcome, JSON.stringify(result)).toBeDefined();
          const code = outcome.status === 'failed' ? outcome.error.code : outcome.status;
          expect([RESUME_IN_PROGRESS, 'completed']).toContain(code);
          if (outcome.status === 'completed') expect(outcome.state.approved).toBe(winner);
        } else {
          expect((result as { error: unknown }).error).toMatchObject({ code: 'RESUME_CONFLICT' });
        }
      }
      expect(results.filter((result) => 'outcome' in result && result.outcome.status === 'completed' && result.outcome.replay !== true)).toHaveLength(1);
      expect(await graph.resume('order-42', { checkpointer, decisions: [{ id: question!.id, value: { ok: winner } }] })).toMatchObject({ status: 'completed', replay: true });
      expect(effects).toHaveLength(1);
    });
  });
}
