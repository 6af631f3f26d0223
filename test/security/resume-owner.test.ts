// A run that stopped to ask belongs to whoever started it. Its run id travels to that user's screen (the interrupt
// frame) — and a run id is all a resume needs, so before `owner` a second user holding it could approve the first
// one's refund, read the answer, and replay the first user's own resume to read its outcome. Now the record keeps
// its owner (the Runner's session key), and a resume from any other owner is refused exactly as a run that is not
// there (RUN_NOT_INTERRUPTED): no tool runs, nothing is told, the owner's resume still works.
import { describe, expect, it } from 'vitest';
import { AgentBuilder, collectAgentRun, toolApprovals, type Agent } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { InMemoryRunStateStore } from '../../src/interrupts/index.js';
import { isRunnerCompletion, isTerminalError, Runner, sessionKeyOf, toRunnableAgent, type RunEvent } from '../../src/runner/index.js';
import { ConfigError } from '../../src/errors/index.js';
import { refundTool } from '../agent/refund-tool.js';
import { createGraphAgent, decodeStateDelta, InMemoryCheckpointer, RUN_ID_TAKEN } from '../../src/graph/index.js';
import { counters, refundGraph } from '../graph/interrupt-fixtures.js';

async function collect(stream: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function refundAgent(store = new InMemoryRunStateStore()): { agent: Agent; refunded: string[]; store: InMemoryRunStateStore } {
  const refunded: string[] = [];
  // The planted card number is no hex: a random event id or a timestamp can never hold it (a bare 4111 once did).
  const refund = refundTool(refunded, { note: 'card QX4111 credited' });
  const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_1', name: 'refund', arguments: { orderId: '42' } }] }, { text: 'Refunded to card QX4111.' }]);
  return { agent: new AgentBuilder('refunds').chatClient(model).tools([refund]).approvals(toolApprovals({ store })).build(), refunded, store };
}

const NOT_THERE = /is not waiting on anything: it never stopped to ask, or it was forgotten/;

describe('a resume from someone the run does not belong to', () => {
  it('the Runner: another user, or the same user in another session, holding the run id is refused as if it were not there', async () => {
    const { agent, refunded } = refundAgent();
    const runner = new Runner({ appName: 'shop', agent: toRunnableAgent(agent) });
    const first = (await collect(runner.run({ userId: 'alice', sessionId: 's1', message: 'Refund order 42' }))).find(isRunnerCompletion);
    const [question] = first?.response.interrupts ?? [];
    expect(question?.runId).toBeTypeOf('string');
    const resume = { runId: question!.runId, decisions: [{ id: question!.id, approved: true }] };

    for (const [userId, sessionId] of [['mallory', 's1'], ['mallory', 'other'], ['alice', 'other']] as const) {
      const events = await collect(runner.run({ userId, sessionId, resume }));
      const refusal = events.find(isTerminalError);
      expect(refusal?.response.error).toMatchObject({ type: 'resume', code: 'RUN_NOT_INTERRUPTED' });
      expect(refusal?.response.error?.message).toMatch(NOT_THERE);
      expect(JSON.stringify(events)).not.toContain('QX4111');
    }
    expect(refunded).toEqual([]);

    const done = (await collect(runner.run({ userId: 'alice', sessionId: 's1', resume }))).find(isRunnerCompletion);
    expect(done?.response.error).toBeUndefined();
    expect(done?.response.choices?.[0]?.message?.content).toBe('Refunded to card QX4111.');
    expect(refunded).toEqual(['42']);

    // The owner's own resume sent again is a replay of its outcome; from anyone else it is still refused, the outcome unread.
    const replay = (await collect(runner.run({ userId: 'alice', sessionId: 's1', resume }))).find(isRunnerCompletion);
    expect(replay?.response.error).toBeUndefined();
    const stolen = await collect(runner.run({ userId: 'mallory', sessionId: 's1', resume }));
    expect(stolen.find(isTerminalError)?.response.error).toMatchObject({ code: 'RUN_NOT_INTERRUPTED' });
    expect(JSON.stringify(stolen)).not.toContain('QX4111');
    expect(refunded).toEqual(['42']);
  });

  it('agent.run / agent.resume: a run started with an owner is resumed only with that owner; one started without, by anyone', async () => {
    const { agent, refunded, store } = refundAgent();
    const stopped = await collectAgentRun(agent.run('Refund order 42', { owner: 'user:alice' }));
    const [question] = stopped.interrupts ?? [];
    expect((await store.get(stopped.runId!))?.owner).toBe('user:alice');
    const decisions = [{ id: question!.id, approved: true }];
    for (const options of [{ owner: 'user:bob' }, {}]) {
      await expect(collectAgentRun(agent.resume(stopped.runId!, decisions, options))).rejects.toMatchObject({ code: 'RUN_NOT_INTERRUPTED', message: expect.stringMatching(NOT_THERE) });
    }
    expect(refunded).toEqual([]);
    const done = await collectAgentRun(agent.resume(stopped.runId!, decisions, { owner: 'user:alice' }));
    expect(done.text).toBe('Refunded to card QX4111.');
    expect(refunded).toEqual(['42']);

    const other = refundAgent();
    const open = await collectAgentRun(other.agent.run('Refund order 42'));
    const resumed = await collectAgentRun(other.agent.resume(open.runId!, [{ id: open.interrupts![0]!.id, approved: true }], { owner: 'anyone' }));
    expect(resumed.text).toBe('Refunded to card QX4111.');
    expect(other.refunded).toEqual(['42']);
  });

  it('agent.supersede: a run kept with an owner is closed only by that owner; for anyone else it is not there', async () => {
    const { agent, refunded, store } = refundAgent();
    const stopped = await collectAgentRun(agent.run('Refund order 42', { owner: 'user:alice' }));
    const before = await store.get(stopped.runId!);
    for (const options of [{ owner: 'user:bob' }, {}, undefined]) expect(await agent.supersede(stopped.runId!, options)).toBe(false);
    expect(await store.get(stopped.runId!)).toEqual(before); // untouched: the owner can still answer
    const done = await collectAgentRun(agent.resume(stopped.runId!, [{ id: stopped.interrupts![0]!.id, approved: true }], { owner: 'user:alice' }));
    expect(done.text).toBe('Refunded to card QX4111.');
    expect(refunded).toEqual(['42']);

    const second = refundAgent();
    const next = await collectAgentRun(second.agent.run('Refund order 42', { owner: 'user:alice' }));
    expect(await second.agent.supersede(next.runId!, { owner: 'user:alice' })).toBe(true);
    await expect(collectAgentRun(second.agent.resume(next.runId!, [{ id: next.interrupts![0]!.id, approved: true }], { owner: 'user:alice' }))).rejects.toMatchObject({ code: 'RUN_NOT_INTERRUPTED' });
    expect(second.refunded).toEqual([]);
    const third = refundAgent();
    const open = await collectAgentRun(third.agent.run('Refund order 42'));
    expect(await third.agent.supersede(open.runId!, { owner: 'anyone' })).toBe(true); // started without an owner: anyone's
  });

  it('the Runner closes a waiting run with its own session as the owner', async () => {
    const { agent } = refundAgent();
    const closed: unknown[] = [];
    const runnable = toRunnableAgent(agent);
    // Inline, as an app writes it: the Runner's `agent` option (RunnableAgent | Agent) types the parameters.
    const runner = new Runner({ appName: 'shop', agent: { ...runnable, supersede: (runId, options) => (closed.push(options), runnable.supersede!(runId, options)) } });
    await collect(runner.run({ userId: 'alice', sessionId: 's1', message: 'Refund order 42' }));
    await collect(runner.run({ userId: 'alice', sessionId: 's1', message: 'Never mind' }));
    expect(closed).toEqual([{ owner: sessionKeyOf('shop', 'alice', 's1') }]);
  });

  it('owner is checked like every option', async () => {
    const { agent } = refundAgent();
    expect(() => agent.run('hi', { owner: '' })).toThrow(/owner must be a non-empty string/);
    expect(() => agent.resume('run-1', [], { owner: 5 as never })).toThrow(/owner must be a non-empty string/);
    for (const options of [{ owner: '' }, { owner: 5 as never }, 'user:bob' as never]) {
      await expect(agent.supersede('run-1', options)).rejects.toThrow(ConfigError);
    }
  });
});

describe('a graph run resumed or re-run by someone it does not belong to', () => {
  it('compiled.run / resume: another owner, or none, finds no checkpoint (a resume) or the id taken (a run); the owner goes on', async () => {
    const count = counters();
    const graph = refundGraph(count);
    const checkpointer = new InMemoryCheckpointer();
    const asked = await graph.run({ amount: 'QX4111' }, { checkpointer, runId: 'refund-42', owner: 'alice' });
    expect(asked.status).toBe('interrupted');
    const id = asked.status === 'interrupted' ? asked.interrupts[0]!.id : '';
    expect((await checkpointer.get('refund-42'))?.ownedBy).toBe('alice');
    for (const owner of ['mallory', undefined]) {
      const resumed = await graph.resume('refund-42', { checkpointer, decisions: [{ id, value: { ok: true } }], ...(owner ? { owner } : {}) });
      expect(resumed.status).toBe('failed');
      expect(resumed.status === 'failed' && resumed.error.code).toBe('CHECKPOINT_NOT_FOUND');
      expect(JSON.stringify(resumed)).not.toContain('QX4111');
      const rerun = await graph.run({ amount: 1 }, { checkpointer, runId: 'refund-42', ...(owner ? { owner } : {}) });
      expect(rerun.status === 'failed' && rerun.error.code).toBe(RUN_ID_TAKEN);
      expect(JSON.stringify(rerun)).not.toContain('QX4111');
    }
    expect(count).toMatchObject({ after: 0, refunds: 0 });
    const done = await graph.resume('refund-42', { checkpointer, decisions: [{ id, value: { ok: true } }], owner: 'alice' });
    expect(done.status).toBe('completed');
    expect(count).toMatchObject({ refunds: 1 });
    expect((await checkpointer.get('refund-42'))?.ownedBy).toBe('alice'); // every write keeps it
    // The completed run's outcome is its owner's alone: anyone else's resume (a replay) finds nothing.
    const replay = await graph.resume('refund-42', { checkpointer, owner: 'mallory' });
    expect(replay.status === 'failed' && replay.error.code).toBe('CHECKPOINT_NOT_FOUND');
    expect(JSON.stringify(replay)).not.toContain('QX4111');
  });

  it('the Runner: a graph agent run belongs to its session; another user resuming or re-running its invocation id reads nothing of it', async () => {
    const count = counters();
    const checkpointer = new InMemoryCheckpointer();
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('refunds', refundGraph(count), { checkpointer }) });
    const first = await collect(runner.run({ userId: 'alice', sessionId: 's1', message: 'refund', state: { amount: 'QX4111' }, invocationId: 'inv-alice' }));
    const [question] = first.at(-1)!.response!.interrupts!;
    const resume = { runId: 'inv-alice', decisions: [{ id: question!.id, value: { ok: true } }] };
    for (const [userId, sessionId] of [['mallory', 's1'], ['alice', 'other']] as const) {
      const stolen = await collect(runner.run({ userId, sessionId, resume }));
      expect(stolen.find(isTerminalError)?.response?.error).toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
      expect(JSON.stringify(stolen)).not.toContain('QX4111');
      const rerun = await collect(runner.run({ userId, sessionId, message: 'refund', state: { amount: 1 }, invocationId: 'inv-alice' }));
      expect(rerun.find(isTerminalError)?.response?.error).toMatchObject({ code: RUN_ID_TAKEN });
      expect(JSON.stringify(rerun)).not.toContain('QX4111');
    }
    expect(count).toMatchObject({ after: 0, refunds: 0 });
    const done = await collect(runner.run({ userId: 'alice', sessionId: 's1', resume }));
    expect(done.at(-1)!.response?.error).toBeUndefined();
    expect(decodeStateDelta(done.at(-1)!.stateDelta ?? {})).toMatchObject({ approved: true });
    expect(count).toMatchObject({ refunds: 1 });
  });

  it('owner is checked like every graph option', async () => {
    const graph = refundGraph(counters());
    await expect(graph.run({}, { checkpointer: new InMemoryCheckpointer(), owner: '' })).rejects.toThrow(/owner must be a non-empty string/);
  });
});
