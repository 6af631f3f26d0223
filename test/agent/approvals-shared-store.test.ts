/**
 * Agent approvals on a store several processes write (not `exclusive`): a resume holds its run with a lease it renews,
 * so the same resume sent to another process meanwhile waits for its outcome (one continuation, one model answer,
 * the tool once) instead of taking a live run over; once the holder's process died its lease lapses, the next resume
 * takes the run over, and gives again every answer the dead one had recorded. Each "process" is an agent of its own
 * over its own store object; the rows are shared.
 */
import { describe, expect, it } from 'vitest';
import { collectAgentRun, InMemorySessionStore } from '../../src/agent/index.js';
import { AgentError } from '../../src/errors/agent-error.js';
import { InMemoryRunStateStore } from '../../src/interrupts/index.js';
import { isRunnerCompletion, Runner, type RunEvent } from '../../src/runner/index.js';
import { deferred, until } from '../helpers/async.js';
import { diesWhen, HANGING, itemsOf, pause, processOf, readInBackground, recordOf, REFUND, resumeHeldInTool, storeOver, TWO_REFUNDS, type Rows } from './shared-store.js';

describe('the same resume at a second process while the first runs it', () => {
  it('waits for the first one’s outcome: one continuation, one model answer, the tool once; the hold is let go at the end', async () => {
    const rows: Rows = new Map();
    const runs: unknown[] = [];
    const gate = deferred();
    const { first, decisions, resumed: resumedA } = await resumeHeldInTool(rows, runs, gate.promise);
    const held = recordOf(rows, first.runId!);
    expect(held.status).toBe('resuming');
    expect(typeof held.holder).toBe('string');
    expect(Date.parse(held.leaseUntil!)).toBeGreaterThan(Date.now());

    const b = processOf([{ text: 'a second, different answer' }], runs, { store: storeOver(rows) });
    let settled = false;
    const resumedB = collectAgentRun(b.agent.resume(first.runId!, decisions)).finally(() => (settled = true));
    await pause(300);
    expect(settled).toBe(false); // it waits: before the lease, it took the live run over at once
    expect(b.model.requests).toHaveLength(0);

    gate.resolve();
    const [outcomeA, outcomeB] = await Promise.all([resumedA, resumedB]);
    expect(outcomeA).toMatchObject({ status: 'finished', text: 'Refunded 30.' });
    expect(outcomeA.replay).toBeUndefined();
    expect(outcomeB).toMatchObject({ status: 'finished', text: 'Refunded 30.', replay: true });
    expect(b.model.requests).toHaveLength(0);
    expect(runs).toEqual([{ orderId: '42', amount: 30 }]);
    const ended = recordOf(rows, first.runId!);
    expect(ended.status).toBe('ended');
    expect(ended.holder).toBeUndefined();
    expect(ended.leaseUntil).toBeUndefined();
  });

  it('keeps waiting through a step longer than the lease: the holder renews it while it runs', async () => {
    const rows: Rows = new Map();
    const runs: unknown[] = [];
    const a = processOf([REFUND, { text: 'Refunded 30.' }], runs, { store: storeOver(rows), leaseMs: 300, gate: () => pause(1_200) });
    const first = await collectAgentRun(a.agent.run('Refund order 42'));
    const decisions = [{ id: first.interrupts[0]!.id, approved: true }];
    const resumedA = collectAgentRun(a.agent.resume(first.runId!, decisions));
    await until(() => runs.length === 1, 10_000, 'the approved refund to start');
    const claimed = recordOf(rows, first.runId!).revision;
    await pause(700); // more than twice the lease
    expect(recordOf(rows, first.runId!).revision).toBeGreaterThan(claimed); // renewed meanwhile
    const b = processOf([{ text: 'a second, different answer' }], runs, { store: storeOver(rows), leaseMs: 300 });
    const outcomeB = await collectAgentRun(b.agent.resume(first.runId!, decisions));
    expect(outcomeB).toMatchObject({ status: 'finished', text: 'Refunded 30.', replay: true });
    expect((await resumedA).text).toBe('Refunded 30.');
    expect(b.model.requests).toHaveLength(0);
    expect(runs).toHaveLength(1);
  });

  it('stops waiting when its caller aborts: the abort reason, promptly; the first run goes on', async () => {
    const rows: Rows = new Map();
    const runs: unknown[] = [];
    const gate = deferred();
    const { first, decisions, resumed: resumedA } = await resumeHeldInTool(rows, runs, gate.promise);
    const b = processOf([{ text: 'a second answer' }], runs, { store: storeOver(rows) });
    const controller = new AbortController();
    const resumedB = collectAgentRun(b.agent.resume(first.runId!, decisions, { signal: controller.signal })).catch((error: unknown) => error);
    await pause(100);
    const reason = new Error('the page was closed');
    const at = Date.now();
    controller.abort(reason);
    expect(await resumedB).toBe(reason);
    expect(Date.now() - at).toBeLessThan(1_000);
    gate.resolve();
    expect((await resumedA).text).toBe('Refunded 30.');
    expect(b.model.requests).toHaveLength(0);
  });

  it('an exclusive store keeps no lease (liveness is known in its process)', async () => {
    const store = new InMemoryRunStateStore();
    const runs: unknown[] = [];
    const gate = deferred();
    const a = processOf([REFUND, { text: 'Refunded 30.' }], runs, { store, gate: () => gate.promise });
    const first = await collectAgentRun(a.agent.run('Refund order 42'));
    const resumed = collectAgentRun(a.agent.resume(first.runId!, [{ id: first.interrupts[0]!.id, approved: true }]));
    await until(() => runs.length === 1, 10_000, 'the approved refund to start');
    const held = (await store.get(first.runId!))!;
    expect(held.status).toBe('resuming');
    expect(held.holder).toBeUndefined();
    expect(held.leaseUntil).toBeUndefined();
    gate.resolve();
    expect((await resumed).status).toBe('finished');
  });
});

describe('a resume whose process died', () => {
  it.each(['structured', 'flat'] as const)('is taken over once its lease lapsed, and the takeover gives again every answer it had recorded (the tool once; %s tool errors)', async (errorFormat) => {
    const rows: Rows = new Map();
    const runs: unknown[] = [];
    let dead = false;
    const a = processOf([TWO_REFUNDS, HANGING], runs, { store: storeOver(rows, diesWhen(() => dead)), leaseMs: 200, errorFormat });
    const first = await collectAgentRun(a.agent.run('Refund orders 42 and 43'));
    const [approve, deny] = first.interrupts;
    const decisions = [
      { id: approve!.id, approved: true },
      { id: deny!.id, approved: false, reason: 'too much' },
    ];
    const readerA = readInBackground(a.agent.resume(first.runId!, decisions));
    await until(() => recordOf(rows, first.runId!).executions['call_a']?.state === 'done', 10_000, 'the approved refund to be recorded done');
    dead = true;
    const kept = recordOf(rows, first.runId!);
    expect(kept.resumes[0]!.calls).toEqual({ call_b: 'denied' });

    const b = processOf([{ text: 'Refunded 30; 900 was refused.' }], runs, { store: storeOver(rows), leaseMs: 200, errorFormat });
    const items = await itemsOf(b.agent.resume(first.runId!, decisions));
    const results = items.filter((item) => item.type === 'tool-result');
    expect(results.map((item) => [item.callId, item.outcome, item.ok, item.synthetic])).toEqual([
      ['call_a', 'success', true, false],
      ['call_b', 'denied', false, true],
    ]);
    expect(results[0]).toMatchObject({ toolName: 'refund', content: kept.executions['call_a']!.state === 'done' ? (kept.executions['call_a'] as { content: string }).content : '', result: { ok: true, data: { refunded: 30 } } });
    const denial = kept.round.answered['call_b']!;
    const error = errorFormat === 'flat' ? { type: 'ToolExecutionFailed', message: JSON.parse(denial).error } : { type: 'ToolApprovalDenied' }; // a flat error keeps its text only
    expect(results[1]).toMatchObject({ content: denial, result: { ok: false, error } });
    expect(items.at(-1)).toMatchObject({ type: 'finish', text: 'Refunded 30; 900 was refused.' });
    expect(runs).toEqual([{ orderId: '42', amount: 30 }]); // not run again
    const sent = b.model.requests[0]!.messages.filter((message) => message.role === 'tool');
    expect(sent.map((message) => [message.toolCallId, message.content])).toEqual(results.map((item) => [item.callId, item.content]));
    readerA.stop();
  });

  it('a damaged hold or answer list is a typed error naming the field, never a TypeError', async () => {
    for (const [field, value] of [
      ['holder', 42],
      ['leaseUntil', {}],
      ['calls', 'x'],
      ['calls', { call_refund: 5 }],
    ] as const) {
      const rows: Rows = new Map();
      const a = processOf([REFUND, { text: 'ok' }], [], { store: storeOver(rows) });
      const first = await collectAgentRun(a.agent.run('Refund order 42'));
      const record = recordOf(rows, first.runId!) as unknown as Record<string, unknown>;
      if (field === 'calls') record['resumes'] = [{ key: 'k', interruptIds: [], calls: value }];
      else record[field] = value;
      rows.set(first.runId!, JSON.stringify(record));
      const error = await collectAgentRun(a.agent.resume(first.runId!, [{ id: first.interrupts[0]!.id, approved: true }])).catch((failure: unknown) => failure);
      expect(AgentError.isInstance(error) && error.code, field).toBe('RUN_STATE_FAILED');
      expect((error as Error).message).toContain(`(${field === 'calls' ? 'resumes' : field})`);
    }
  });
});

describe('under the Runner, a takeover after the holder died', () => {
  it('leaves every answer of the round in the session: the next turn\'s model gets the refund\'s result and the denial, not "not run"', async () => {
    const rows: Rows = new Map();
    const sessions = new InMemorySessionStore();
    const runs: unknown[] = [];
    let dead = false;
    const collect = async (stream: AsyncIterable<RunEvent>) => {
      const events: RunEvent[] = [];
      for await (const event of stream) events.push(event);
      return events;
    };
    const a = processOf([TWO_REFUNDS, HANGING], runs, { store: storeOver(rows, diesWhen(() => dead)), leaseMs: 200 });
    const runnerA = new Runner({ appName: 'shop', agent: a.agent, sessionStore: sessions });
    const stopped = (await collect(runnerA.run({ userId: 'u', sessionId: 's', message: 'Refund orders 42 and 43' }))).find(isRunnerCompletion);
    const [approve, deny] = stopped!.response.interrupts!;
    const resume = { runId: approve!.runId, decisions: [{ id: approve!.id, approved: true }, { id: deny!.id, approved: false, reason: 'too much' }] };
    void collect(runnerA.run({ userId: 'u', sessionId: 's', resume }));
    await until(() => recordOf(rows, approve!.runId).executions['call_a']?.state === 'done', 10_000, 'the approved refund to be recorded done');
    dead = true;

    let asked: Array<{ id: string | undefined; content: unknown }> = [];
    const b = processOf(
      [
        { text: 'Refunded 30; 900 was refused.' },
        (request) => {
          asked = request.messages.filter((message) => message.role === 'tool').map((message) => ({ id: message.toolCallId, content: JSON.parse(message.content as string) }));
          return { text: 'You are welcome.' };
        },
      ],
      runs,
      { store: storeOver(rows), leaseMs: 200 },
    );
    const runnerB = new Runner({ appName: 'shop', agent: b.agent, sessionStore: sessions });
    const resumed = (await collect(runnerB.run({ userId: 'u', sessionId: 's', resume }))).find(isRunnerCompletion);
    expect(resumed?.response.choices?.[0]?.message?.content).toBe('Refunded 30; 900 was refused.');
    await collect(runnerB.run({ userId: 'u', sessionId: 's', message: 'Thanks' }));
    expect(asked.map((each) => [each.id, each.content])).toEqual([
      ['call_a', { ok: true, data: { refunded: 30 } }],
      ['call_b', expect.objectContaining({ ok: false, error: expect.objectContaining({ type: 'ToolApprovalDenied' }) })],
    ]);
    expect(runs).toEqual([{ orderId: '42', amount: 30 }]);
  });
});
