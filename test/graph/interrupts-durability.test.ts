/**
 * What keeps a resume's answers: the claim that accepts a resume writes them into the checkpoint before a node runs,
 * so a resume interrupted mid-step (a crash, an abort) continues with them — the same decisions sent again, or a plain
 * resume — and a step that fails after a node got its answer keeps it for the resume that retries the step. The
 * checkpoint's interrupt fields are checked like the rest (version 2, each problem listed).
 */
import { describe, expect, it } from 'vitest';
import {
  type Checkpointer,
  CHECKPOINT_INVALID,
  END,
  InMemoryCheckpointer,
  interrupt,
  parseGraphCheckpoint,
  START,
  StateGraph,
  StateSchema,
  type GraphCheckpoint,
} from '../../src/graph/index.js';
import { interruptsOf } from './interrupt-fixtures.js';

/** A store whose `get` returns `value` (whatever user storage may hold). */
function holding(value: unknown): Checkpointer {
  return { get: async () => value as GraphCheckpoint, put: async () => {}, delete: async () => {} };
}

/** `approve` asks, then (past its `interrupt()`) waits on `gate` and may fail: the side effect after the answer. */
function gatedGraph(on: { asked: number; charged: number; broken: boolean; gate?: Promise<void>; past?: () => void }) {
  return new StateGraph(new StateSchema().addField('approved'))
    .addNode('approve', async (_state, context) => {
      on.asked++;
      const answer = interrupt<boolean>(context, 'charge?');
      on.past?.();
      await on.gate;
      if (on.broken) throw new Error('the payment service is down');
      on.charged++;
      return { approved: answer };
    })
    .addEdge(START, 'approve')
    .addEdge('approve', END)
    .compile();
}

describe('the answers of an accepted resume', () => {
  it.each([
    ['the same decisions sent again', true],
    ['a resume without decisions', false],
  ])('survive a resume cut off mid-step: %s continues with the stored answer, asking nothing', async (_name, again) => {
    const on = { asked: 0, charged: 0, broken: false, gate: undefined as Promise<void> | undefined, past: undefined as (() => void) | undefined };
    const graph = gatedGraph(on);
    const checkpointer = new InMemoryCheckpointer();
    const [question] = interruptsOf(await graph.run({}, { checkpointer, runId: 'r' }));
    const controller = new AbortController();
    on.gate = new Promise(() => {}); // the node never gets past its answer: the process is as good as dead
    const decisions = [{ id: question!.id, value: true }];
    const past = new Promise<void>((resolve) => (on.past = resolve));
    const cut = graph.resume('r', { checkpointer, decisions, signal: controller.signal });
    await past; // the node got its answer
    controller.abort(new Error('the process died'));
    expect((await cut).status).toBe('aborted');
    const stored = (await checkpointer.get('r')) as GraphCheckpoint;
    expect(stored).toMatchObject({ version: 2, status: 'running', step: 0, answers: [{ index: 0, nodeId: 'approve', answers: [{ id: question!.id, value: 'true' }] }], resumed: { ids: [question!.id] } });
    expect(stored.interrupts).toBeUndefined();
    on.gate = undefined;
    const outcome = await graph.resume('r', again ? { checkpointer, decisions } : { checkpointer });
    expect(outcome).toMatchObject({ status: 'completed', state: { approved: true } });
    expect(outcome.replay).toBe(again ? true : undefined);
    expect(on).toMatchObject({ asked: 3, charged: 1 });
  });

  it('are kept by a step that fails after the node got its answer, for the resume that retries it', async () => {
    const on = { asked: 0, charged: 0, broken: true };
    const graph = gatedGraph(on);
    const checkpointer = new InMemoryCheckpointer();
    const [question] = interruptsOf(await graph.run({}, { checkpointer, runId: 'r' }));
    const failed = await graph.resume('r', { checkpointer, decisions: [{ id: question!.id, value: true }] });
    expect(failed.status).toBe('failed');
    expect(await checkpointer.get('r')).toMatchObject({ status: 'failed', answers: [{ nodeId: 'approve', answers: [{ id: question!.id, value: 'true' }] }] });
    on.broken = false;
    expect(await graph.resume('r', { checkpointer })).toMatchObject({ status: 'completed', state: { approved: true } });
    expect(on).toMatchObject({ asked: 3, charged: 1 });
  });
});

describe('the questions of one node in one step', () => {
  it('are at most 1,000: the 1,001st interrupt() call fails the node instead of asking', async () => {
    const answers = Array.from({ length: 1_000 }, (_, index) => ({ id: `interrupt-${index}`, value: String(index) }));
    const stored = { version: 2, runId: 'r', status: 'running', step: 0, state: {}, pending: ['ask'], updatedAt: '2026-01-05T10:00:00.000Z', answers: [{ index: 0, nodeId: 'ask', answers }] };
    const store = new InMemoryCheckpointer();
    await store.put(stored as GraphCheckpoint);
    let got = 0;
    const graph = new StateGraph(new StateSchema())
      .addNode('ask', (_state, context) => {
        for (;;) {
          interrupt(context, 'again?');
          got++;
        }
      })
      .addEdge(START, 'ask')
      .addEdge('ask', END)
      .compile();
    const outcome = await graph.resume('r', { checkpointer: store });
    expect(got).toBe(1_000);
    expect(outcome.status === 'failed' && outcome.error.message).toContain('asked more than 1000 questions in one step');
  });
});

describe('an interrupted checkpoint read back', () => {
  const question = { id: 'interrupt-1', runId: 'r', kind: 'input', nodeId: 'approve', createdAt: '2026-01-05T10:00:00.000Z' };
  const valid = { version: 2, runId: 'r', status: 'interrupted', step: 0, state: {}, pending: ['approve'], updatedAt: '2026-01-05T10:00:00.000Z', interrupts: [question] };

  it('is accepted when well formed, and survives JSON', () => {
    expect(parseGraphCheckpoint(JSON.parse(JSON.stringify(valid)), 'r')).toEqual(valid);
  });

  it.each([
    ['version 1', { ...valid, version: 1 }, 'version must be 2'],
    ['no interrupts', { ...valid, interrupts: [] }, 'interrupts must be a non-empty list'],
    ['interrupts on a running one', { ...valid, status: 'running' }, 'interrupts must be absent unless'],
    ['an interrupt of a node not pending', { ...valid, interrupts: [{ ...question, nodeId: 'ship' }] }, 'interrupts[0].nodeId must be a pending node'],
    ['an approval interrupt', { ...valid, interrupts: [{ ...question, kind: 'approval' }] }, 'interrupts[0].kind must be input'],
    ['an interrupt id twice', { ...valid, interrupts: [question, question] }, 'is not unique'],
    ['a time that is none', { ...valid, interrupts: [{ ...question, expiresAt: 'soon' }] }, 'expiresAt must be an ISO 8601 time'],
    ['a schema that is none', { ...valid, interrupts: [{ ...question, responseSchema: 'object' }] }, 'responseSchema must be a JSON Schema object'],
    ['an answer without a value or expiry', { ...valid, answers: [{ index: 0, nodeId: 'approve', answers: [{ id: 'interrupt-0' }] }] }, 'answers[0].answers[0] must be'],
    ['answers of a node not pending', { ...valid, answers: [{ index: 3, nodeId: 'approve', answers: [] }] }, 'answers[0] must name a pending node'],
    ['a resume record that is none', { ...valid, resumed: 'yes' }, 'resumed must be'],
  ])('is refused with CHECKPOINT_INVALID naming the problem: %s', async (_name, stored, problem) => {
    expect(() => parseGraphCheckpoint(stored, 'r')).toThrow(problem);
    const graph = new StateGraph(new StateSchema()).addNode('approve', (_state, context) => void interrupt(context, 'x')).addEdge(START, 'approve').addEdge('approve', END).compile();
    const outcome = await graph.resume('r', { checkpointer: holding(stored), decisions: [{ id: 'interrupt-1', value: 1 }] });
    expect(outcome.status === 'failed' && outcome.error).toMatchObject({ code: CHECKPOINT_INVALID, problems: expect.arrayContaining([expect.stringContaining(problem)]) });
  });
});
