/**
 * Agent approvals on a store several processes write: the races around a resume's hold. A resumed run that stops to
 * ask again keeps its hold until that stop is recorded as its outcome (the same resume elsewhere waits and replays
 * the stop; a takeover of a dead one replays it too, deciding nothing); a holder that lost its hold stops at once
 * (one continuation, one final answer); a takeover gives each answer again with the outcome the holder gave it, a
 * second takeover the same; no secret of the decisions is kept in the record.
 */
import { describe, expect, it } from 'vitest';
import { collectAgentRun, type AgentRunItem } from '../../src/agent/index.js';
import { ResumeError } from '../../src/errors/index.js';
import { deferred, until } from '../helpers/async.js';
import { diesWhen, HANGING, itemsOf, pause, processOf, readInBackground, recordOf, REFUND, REFUND_AGAIN, storeOver, TWO_REFUNDS, type Rows } from './shared-store.js';

/** What a `tool-result` says, to compare one stream's answers with another's. */
const answers = (items: readonly AgentRunItem[]) =>
  items
    .flatMap((item) => (item.type === 'tool-result' ? [[item.callId, item.outcome, item.ok, item.synthetic, item.content] as const] : []))
    .sort((x, y) => x[0].localeCompare(y[0]));

describe('a resumed run that stops to ask again', () => {
  it('keeps its hold until the stop is its recorded outcome: the same resume elsewhere waits, then replays the stop', async () => {
    const rows: Rows = new Map();
    const runs: unknown[] = [];
    const outcomeGate = deferred();
    let outcomeWriting = false;
    const slowOutcome = async (record: { resumes: Array<{ outcome?: unknown }> }) => {
      if (record.resumes.some((each) => each.outcome !== undefined)) {
        outcomeWriting = true;
        await outcomeGate.promise; // a slow store holds the outcome's write back
      }
    };
    const a = processOf([REFUND, REFUND_AGAIN], runs, { store: storeOver(rows, slowOutcome), leaseMs: 5_000 });
    const first = await collectAgentRun(a.agent.run('Refund order 42'));
    const decisions = [{ id: first.interrupts[0]!.id, approved: true }];
    const resumedA = collectAgentRun(a.agent.resume(first.runId!, decisions));
    await until(() => outcomeWriting, 10_000, 'the outcome to be written');
    const stopped = recordOf(rows, first.runId!);
    expect(stopped.status).toBe('interrupted'); // the new stop is kept ...
    expect(typeof stopped.holder).toBe('string'); // ... and still held

    const b = processOf([{ text: 'B went on' }], runs, { store: storeOver(rows), leaseMs: 5_000 });
    let settled = false;
    const itemsB = itemsOf(b.agent.resume(first.runId!, decisions)).finally(() => (settled = true));
    await pause(300);
    expect(settled).toBe(false);
    outcomeGate.resolve();
    expect((await resumedA).status).toBe('interrupted');
    const items = await itemsB;
    expect(items.at(-1)).toMatchObject({ type: 'interrupted', replay: true });
    expect(items.filter((item) => item.type === 'tool-result')).toEqual([]);
    expect(b.model.requests).toHaveLength(0);
    expect(runs).toHaveLength(1);
    const ended = recordOf(rows, first.runId!);
    expect(ended.holder).toBeUndefined();
    expect(ended.leaseUntil).toBeUndefined();
  });

  it('whose process died before recording the stop: a takeover replays the stop, deciding nothing and calling no model', async () => {
    const rows: Rows = new Map();
    const runs: unknown[] = [];
    let dead = false;
    const a = processOf([REFUND, REFUND_AGAIN], runs, {
      store: storeOver(rows, (record) => {
        if (record.resumes.some((each) => each.outcome !== undefined)) dead = true; // it dies as it writes the outcome
        return diesWhen(() => dead)();
      }),
      leaseMs: 150,
    });
    const first = await collectAgentRun(a.agent.run('Refund order 42'));
    const decisions = [{ id: first.interrupts[0]!.id, approved: true }];
    const readerA = readInBackground(a.agent.resume(first.runId!, decisions));
    await until(() => dead, 10_000, 'A to die writing its outcome');
    const kept = recordOf(rows, first.runId!);
    expect(kept.status).toBe('interrupted');
    const b = processOf([{ text: 'B went on' }], runs, { store: storeOver(rows), leaseMs: 150 });
    const items = await itemsOf(b.agent.resume(first.runId!, decisions));
    expect(items.at(-1)).toMatchObject({ type: 'interrupted', replay: true, interrupts: [{ id: kept.interrupts[0]!.id, toolCallId: 'call_second' }] });
    expect(items.some((item) => item.type === 'tool-result' && item.outcome === 'unknown')).toBe(false);
    expect(b.model.requests).toHaveLength(0);
    expect(recordOf(rows, first.runId!).resumes[0]!.outcome).toMatchObject({ type: 'interrupted' });
    readerA.stop();
  });
});

describe('a holder that lost its hold', () => {
  it('stops with a typed RESUME_CONFLICT once it learns another process took the run over: one final answer', async () => {
    const rows: Rows = new Map();
    const runs: unknown[] = [];
    let unreachable = false;
    const gate = deferred();
    const a = processOf([REFUND, { text: 'A went on too' }], runs, {
      store: storeOver(rows, () => {
        if (unreachable) throw new Error('store unreachable');
      }),
      leaseMs: 100,
      gate: () => gate.promise,
    });
    const first = await collectAgentRun(a.agent.run('Refund order 42'));
    const decisions = [{ id: first.interrupts[0]!.id, approved: true }];
    const resumedA = itemsOf(a.agent.resume(first.runId!, decisions));
    await until(() => runs.length === 1, 10_000, 'the refund to start');
    unreachable = true;
    await pause(300); // A's renewals fail: its lease lapses
    const b = processOf([{ text: 'B answer' }], runs, { store: storeOver(rows), leaseMs: 100 });
    expect((await itemsOf(b.agent.resume(first.runId!, decisions))).at(-1)).toMatchObject({ type: 'finish', text: 'B answer' });
    unreachable = false;
    gate.resolve();
    const itemsA = await resumedA;
    const last = itemsA.at(-1);
    expect(last).toMatchObject({ type: 'error', terminal: true });
    expect(ResumeError.isInstance((last as { error: unknown }).error) && (last as { error: ResumeError }).error.code).toBe('RESUME_CONFLICT');
    expect(a.model.requests).toHaveLength(1); // the first turn only: no second continuation
    expect(recordOf(rows, first.runId!).resumes[0]!.outcome).toMatchObject({ type: 'finish', text: 'B answer' });
  });
});

describe('a takeover', () => {
  it('gives each executed call again with the outcome its holder gave it (a crash stays a crash)', async () => {
    const rows: Rows = new Map();
    const runs: unknown[] = [];
    let dead = false;
    const a = processOf([REFUND, HANGING], runs, {
      store: storeOver(rows, diesWhen(() => dead)),
      leaseMs: 150,
      execute: async () => {
        throw new Error('payment provider exploded');
      },
    });
    const first = await collectAgentRun(a.agent.run('Refund order 42'));
    const decisions = [{ id: first.interrupts[0]!.id, approved: true }];
    const readerA = readInBackground(a.agent.resume(first.runId!, decisions));
    await until(() => recordOf(rows, first.runId!).executions['call_refund']?.state === 'done', 10_000, 'the call recorded done');
    dead = true;
    const b = processOf([{ text: 'B answer' }], runs, { store: storeOver(rows), leaseMs: 150 });
    const items = await itemsOf(b.agent.resume(first.runId!, decisions));
    expect(answers(readerA.seen)).toEqual([['call_refund', 'crash', false, false, expect.any(String)]]);
    expect(answers(items)).toEqual(answers(readerA.seen));
    expect(runs).toHaveLength(1);
    readerA.stop();
  });

  it('taken over again after it died gives the same answers once each, and the record keeps no secret of the decisions', async () => {
    const SECRET = 'sk-live-0123456789abcdef';
    const rows: Rows = new Map();
    const runs: unknown[] = [];
    const dead = { a: false, b: false };
    const processNamed = (who: 'a' | 'b' | 'c', turns: Parameters<typeof processOf>[0]) =>
      processOf(turns, runs, { store: storeOver(rows, diesWhen(() => who !== 'c' && dead[who])), leaseMs: 120, secrets: [SECRET], execute: async (args) => ({ refunded: args.amount, key: SECRET }) });
    const a = processNamed('a', [TWO_REFUNDS, HANGING]);
    const first = await collectAgentRun(a.agent.run('Refund orders 42 and 43'));
    const decisions = [
      { id: first.interrupts[0]!.id, approved: true },
      { id: first.interrupts[1]!.id, approved: false, reason: `no, ${SECRET}` },
    ];
    const readerA = readInBackground(a.agent.resume(first.runId!, decisions));
    await until(() => recordOf(rows, first.runId!).executions['call_a']?.state === 'done', 10_000, 'the approved refund to be recorded done');
    dead.a = true;
    const readerB = readInBackground(processNamed('b', [HANGING]).agent.resume(first.runId!, decisions));
    await until(() => answers(readerB.seen).length === 2, 10_000, 'the first takeover to give the answers again');
    dead.b = true;
    const c = processNamed('c', [{ text: 'C done' }]);
    const items = await itemsOf(c.agent.resume(first.runId!, decisions));
    expect(answers(readerA.seen)).toHaveLength(2);
    expect(answers(readerB.seen)).toEqual(answers(readerA.seen));
    expect(answers(items)).toEqual(answers(readerA.seen));
    expect(items.at(-1)).toMatchObject({ type: 'finish', text: 'C done' });
    expect(runs).toHaveLength(1);
    expect(c.model.requests[0]!.messages.filter((message) => message.role === 'tool')).toHaveLength(2);
    expect(JSON.stringify(answers(items))).not.toContain(SECRET);
    expect(rows.get(first.runId!)).not.toContain(SECRET); // the resume's key included
    readerA.stop();
    readerB.stop();
  });
});
