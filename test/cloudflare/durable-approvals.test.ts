// Tool approvals on Durable Objects, in workerd (miniflare): a user's object runs a refund agent whose `refund` tool
// needs approval, its pending runs in DurableObjectRunStateStore. Every wrong resume is refused with its typed code
// through either isolate and changes nothing; an expired approval is answered as expired; 20 identical and 20
// conflicting resumes through two isolates refund once; a run interrupted before a restart (the persisted storage
// stopped and started) resumes through the other isolate and refunds once; a process that died between marking the
// call started and recording its result leaves a call that never runs again (the model sees ToolExecutionUnknown).
import { describe, expect, it } from 'vitest';
import { twoFrontsSuite } from './two-fronts.js';

interface Summary {
  status?: string | number;
  runId?: string;
  interrupts?: Array<{ id: string; toolName: string; toolCallId: string; expiresAt?: string }>;
  text?: string;
  replay?: boolean;
  outcomes?: string[];
  refused?: string;
  pendingIds?: string[];
  written?: boolean;
  failed?: string;
}

const suite = twoFrontsSuite<Summary>({ worker: 'approval-objects.mjs', binding: 'APPROVALS', className: 'Approvals', host: 'approvals.local', method: 'POST' });
const deploy = (persist: string) => suite.deploy(persist);

const refunds = () => suite.probe.hits.get('/tool/refund') ?? 0;

describe('tool approvals on Durable Objects', () => {
  it('refuses every wrong resume with its typed code through either isolate, changing nothing, then replays and conflicts', async () => {
    suite.probe.hits.clear();
    const d = await deploy(suite.path('refusals'));
    try {
      const first = await d.call(1, '/run');
      expect(first).toMatchObject({ status: 'interrupted', interrupts: [{ toolName: 'refund', toolCallId: 'call_refund' }] });
      const { runId } = first;
      const id = first.interrupts![0]!.id;
      const wrong: Array<[unknown, string]> = [
        [[{ id: 'approval-nope', approved: true }], 'INTERRUPT_NOT_FOUND'],
        [[{ id, approved: 'yes' }], 'RESUME_PAYLOAD_INVALID'],
        [[], 'RESUME_INCOMPLETE'],
      ];
      for (const [index, [decisions, code]] of wrong.entries()) expect(await d.call(index % 2 === 0 ? 1 : 2, '/resume', { runId, decisions })).toMatchObject({ refused: code, pendingIds: [id] });
      expect(await d.call(2, '/resume', { runId: 'run-unknown', decisions: [] })).toMatchObject({ refused: 'RUN_NOT_INTERRUPTED' });
      expect(refunds()).toBe(0);
      expect(await d.call(2, '/resume', { runId, decisions: [{ id, approved: true }] })).toMatchObject({ status: 'finished', text: 'ok,ok' });
      expect(await d.call(1, '/resume', { runId, decisions: [{ id, approved: true }] })).toMatchObject({ status: 'finished', text: 'ok,ok', replay: true });
      expect(await d.call(1, '/resume', { runId, decisions: [{ id, approved: false }] })).toMatchObject({ refused: 'RESUME_CONFLICT', status: 409 });
      expect(refunds()).toBe(1);
      const other = await d.call(2, '/run');
      expect(await d.call(1, '/tamper', { runId: other.runId })).toEqual({ written: true });
      expect(await d.call(2, '/resume', { runId: other.runId, decisions: [{ id: other.interrupts![0]!.id, approved: true }] })).toMatchObject({ refused: 'APPROVAL_ARGUMENTS_CHANGED', status: 409 });
      expect(refunds()).toBe(1);
    } finally {
      await d.dispose();
    }
  }, 60_000);

  it('refuses a decision after expiresAt with INTERRUPT_EXPIRED, and tells the model ToolApprovalExpired on a resume without one', async () => {
    suite.probe.hits.clear();
    const d = await deploy(suite.path('expiry'));
    try {
      const first = await d.call(1, '/run', { expiresInMs: 300 });
      const id = first.interrupts![0]!.id;
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await d.call(2, '/resume', { runId: first.runId, decisions: [{ id, approved: true }] })).toMatchObject({ refused: 'INTERRUPT_EXPIRED' });
      expect(await d.call(1, '/resume', { runId: first.runId, decisions: [] })).toMatchObject({ status: 'finished', text: 'ToolApprovalExpired,ok', outcomes: ['expired'] });
      expect(refunds()).toBe(0);
    } finally {
      await d.dispose();
    }
  }, 60_000);

  it('refunds once when 20 identical and 20 conflicting resumes arrive at once through two isolates', async () => {
    suite.probe.hits.clear();
    const d = await deploy(suite.path('concurrent'));
    try {
      const first = await d.call(1, '/run');
      const id = first.interrupts![0]!.id;
      const send = (index: number) => {
        const approved = index % 4 < 2;
        return d.call(index % 2 === 0 ? 1 : 2, '/resume', { runId: first.runId, decisions: [approved ? { id, approved: true } : { id, approved: false, reason: 'no' }] }).then((summary) => ({ approved, summary }));
      };
      const results = await Promise.all(Array.from({ length: 40 }, (_, index) => send(index)));
      const won = results.find((result) => result.summary.status === 'finished' && result.summary.replay !== true)!;
      expect(won).toBeDefined();
      expect(results.filter((result) => result.summary.status === 'finished' && result.summary.replay !== true)).toHaveLength(1);
      for (const { approved, summary } of results) {
        if (approved === won.approved) expect(summary.status).toBe('finished');
        else expect(summary.refused).toBe('RESUME_CONFLICT');
      }
      expect(refunds()).toBe(won.approved ? 1 : 0);
    } finally {
      await d.dispose();
    }
  }, 60_000);

  it('resumes a run interrupted before a restart through the other isolate, refunding once', async () => {
    suite.probe.hits.clear();
    const persist = suite.path('restart');
    let d = await deploy(persist);
    let first: Summary;
    try {
      first = await d.call(1, '/run');
    } finally {
      await d.dispose(); // the process stops; the pending approval is kept in the object's storage
    }
    d = await deploy(persist);
    try {
      const decisions = [{ id: first.interrupts![0]!.id, approved: true }];
      expect(await d.call(2, '/resume', { runId: first.runId, decisions })).toMatchObject({ status: 'finished', text: 'ok,ok' });
      expect(await d.call(1, '/resume', { runId: first.runId, decisions })).toMatchObject({ status: 'finished', replay: true });
      expect(refunds()).toBe(1);
    } finally {
      await d.dispose();
    }
  }, 60_000);

  it('never runs a call marked started without a result after a restart: the model is told ToolExecutionUnknown', async () => {
    suite.probe.hits.clear();
    const persist = suite.path('crash');
    let d = await deploy(persist);
    let first: Summary;
    try {
      first = await d.call(1, '/run');
      expect(await d.call(1, '/crash', { runId: first.runId })).toEqual({ written: true });
    } finally {
      await d.dispose();
    }
    d = await deploy(persist);
    try {
      const decisions = [{ id: first.interrupts![0]!.id, approved: true }];
      expect(await d.call(2, '/resume', { runId: first.runId, decisions })).toMatchObject({ status: 'finished', text: 'ToolExecutionUnknown,ok', outcomes: ['unknown'] });
      expect(refunds()).toBe(0);
    } finally {
      await d.dispose();
    }
  }, 60_000);
});
