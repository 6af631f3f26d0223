// runner.run({ userId, sessionId, resume: { runId, decisions } }): the Runner answers a stopped run instead of
// starting one — a graph agent resumes its checkpointed run (the side effect after interrupt() runs once, the same
// resume sent again replays); every refused resume is a typed terminal error event (type resume, its code) and a
// completion, nothing changed; an agent that cannot resume gets RESUME_UNSUPPORTED, never a silent new run.
import { describe, expect, it } from 'vitest';
import { createGraphAgent, decodeStateDelta, InMemoryCheckpointer } from '../../src/graph/index.js';
import { createEvent, isRunnerCompletion, isTerminalError, Runner, RESUME_UNSUPPORTED, type RunEvent, type RunnableAgent } from '../../src/runner/index.js';
import { ConfigError } from '../../src/errors/index.js';
import { counters, refundGraph } from '../graph/interrupt-fixtures.js';

async function collect(stream: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function setup() {
  const count = counters();
  const checkpointer = new InMemoryCheckpointer();
  const runner = new Runner({ appName: 'shop', agent: createGraphAgent('refunds', refundGraph(count), { checkpointer }) });
  return { count, checkpointer, runner };
}

async function interrupted(runner: Runner, invocationId: string) {
  const events = await collect(runner.run({ userId: 'u', sessionId: 's', message: 'refund', state: { amount: 12 }, invocationId }));
  return events.at(-1)!.response!.interrupts!;
}

describe('a Runner resume of a graph agent', () => {
  it('answers the stopped run: the events carry its run id, the completion has the final state, the side effect ran once', async () => {
    const { count, runner } = setup();
    const [question] = await interrupted(runner, 'inv-r1');
    const events = await collect(runner.run({ userId: 'u', sessionId: 's', resume: { runId: 'inv-r1', decisions: [{ id: question!.id, value: { ok: true } }] } }));
    const completion = events.at(-1)!;
    expect(isRunnerCompletion(completion)).toBe(true);
    expect(completion.invocationId).toBe('inv-r1');
    expect(completion.response?.error).toBeUndefined();
    expect(completion.response?.interrupts).toBeUndefined();
    expect(decodeStateDelta(completion.stateDelta ?? {})).toMatchObject({ approved: true, trail: ['approve', 'note', 'refund'] });
    expect(count).toMatchObject({ after: 1, refunds: 1 });
    // The same resume again replays: nothing runs twice.
    const again = await collect(runner.run({ userId: 'u', sessionId: 's', resume: { runId: 'inv-r1', decisions: [{ id: question!.id, value: { ok: true } }] } }));
    expect(again.at(-1)!.response?.error).toBeUndefined();
    expect(count).toMatchObject({ after: 1, refunds: 1 });
  });

  it.each([
    ['an unknown interrupt id', (id: string) => [{ id: `${id}-forged`, value: { ok: true } }], 'INTERRUPT_NOT_FOUND'],
    ['no decision for the pending question', () => [], 'RESUME_INCOMPLETE'],
    ['a value failing the response schema', (id: string) => [{ id, value: { ok: 'yes' } }], 'RESUME_PAYLOAD_INVALID'],
  ])('refuses %s as a typed terminal error event of type resume (%s), and the run still waits', async (_name, decisions, code) => {
    const { count, runner } = setup();
    const [question] = await interrupted(runner, 'inv-r2');
    const events = await collect(runner.run({ userId: 'u', sessionId: 's', resume: { runId: 'inv-r2', decisions: decisions(question!.id) as never } }));
    const terminal = events.filter((event) => isTerminalError(event));
    expect(terminal).toHaveLength(1);
    expect(terminal[0]!.response?.error).toMatchObject({ type: 'resume', code });
    expect(isRunnerCompletion(events.at(-1)!)).toBe(true);
    expect(count).toMatchObject({ after: 0, refunds: 0 });
    // Nothing changed: the right answer still goes through.
    const fixed = await collect(runner.run({ userId: 'u', sessionId: 's', resume: { runId: 'inv-r2', decisions: [{ id: question!.id, value: { ok: true } }] } }));
    expect(fixed.at(-1)!.response?.error).toBeUndefined();
    expect(count).toMatchObject({ refunds: 1 });
  });

  it('refuses different decisions for a question another resume decided with RESUME_CONFLICT', async () => {
    const { runner } = setup();
    const [question] = await interrupted(runner, 'inv-r3');
    await collect(runner.run({ userId: 'u', sessionId: 's', resume: { runId: 'inv-r3', decisions: [{ id: question!.id, value: { ok: true } }] } }));
    const events = await collect(runner.run({ userId: 'u', sessionId: 's', resume: { runId: 'inv-r3', decisions: [{ id: question!.id, value: { ok: false } }] } }));
    expect(events.find((event) => isTerminalError(event))?.response?.error).toMatchObject({ type: 'resume', code: 'RESUME_CONFLICT' });
  });
});

describe('a Runner resume an agent cannot do', () => {
  it('ends with RESUME_UNSUPPORTED for an agent that keeps no stopped runs, without running it', async () => {
    let runs = 0;
    const plain: RunnableAgent = {
      name: 'plain',
      async *runEvents(invocation) {
        runs++;
        yield createEvent({ invocationId: invocation.invocationId, author: 'plain' }, { response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: 'hi' } }] } });
      },
    };
    const events = await collect(new Runner({ appName: 'a', agent: plain }).run({ userId: 'u', sessionId: 's', resume: { runId: 'r', decisions: [] } }));
    expect(runs).toBe(0);
    expect(events.find((event) => isTerminalError(event))?.response?.error).toMatchObject({ type: 'resume', code: RESUME_UNSUPPORTED });
    expect(isRunnerCompletion(events.at(-1)!)).toBe(true);
  });

  it('ends with RESUME_UNSUPPORTED for a graph agent without a checkpointer', async () => {
    const runner = new Runner({ appName: 'a', agent: createGraphAgent('refunds', refundGraph(counters())) });
    const events = await collect(runner.run({ userId: 'u', sessionId: 's', resume: { runId: 'r', decisions: [] } }));
    expect(events.find((event) => isTerminalError(event))?.response?.error).toMatchObject({ type: 'resume', code: RESUME_UNSUPPORTED });
  });

  it('throws a ConfigError for a malformed resume option or an invocationId that differs from its runId', () => {
    const runner = setup().runner;
    for (const resume of [null, 'x', { runId: '', decisions: [] }, { runId: 'r' }, { runId: 'r', decisions: Array.from({ length: 1_001 }, () => ({})) }]) {
      expect(() => runner.run({ userId: 'u', sessionId: 's', resume: resume as never })).toThrow(ConfigError);
    }
    expect(() => runner.run({ userId: 'u', sessionId: 's', invocationId: 'other', resume: { runId: 'r', decisions: [] } })).toThrow(/differs from resume.runId/);
  });
});
