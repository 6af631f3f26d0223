// Graph interrupts on Durable Objects, in workerd (miniflare): a user's object runs a refund graph whose node asks a
// person (interrupt()) over DurableObjectCheckpointer. Every wrong resume is refused with its typed code and changes
// nothing; 20 identical and 20 conflicting resumes sent through two isolates refund once; and a run interrupted
// before a restart (the persisted storage stopped and started) resumes through the other isolate: the node re-runs
// from its start (the counter before interrupt() counts twice), the refund past it runs once.
import { describe, expect, it } from 'vitest';
import { twoFrontsSuite } from './two-fronts.js';

interface Summary {
  status?: string;
  code?: string;
  interrupts?: Array<{ id: string; nodeId: string; value: unknown; expiresAt?: string }>;
  approved?: boolean;
  replay?: boolean;
  refused?: string;
  name?: string;
  pendingIds?: string[];
}

const suite = twoFrontsSuite<Summary>({ worker: 'interrupt-objects.mjs', binding: 'REFUNDS', className: 'Refunds', host: 'refunds.local', method: 'POST' });
const deploy = (persist: string) => suite.deploy(persist);

const hits = (what: string) => suite.probe.hits.get(`/node/${what}`) ?? 0;

describe('graph interrupts on Durable Objects', () => {
  it('refuses every wrong resume with its typed code through either isolate, changing nothing', async () => {
    suite.probe.hits.clear();
    const d = await deploy(suite.path('refusals'));
    try {
      const [question] = (await d.call(1, '/run', { expiresInMs: 60_000 })).interrupts!;
      const wrong: Array<[unknown, string]> = [
        [[{ id: 'interrupt-nope', value: { ok: true } }], 'INTERRUPT_NOT_FOUND'],
        [[{ id: question!.id, value: { ok: 'yes' } }], 'RESUME_PAYLOAD_INVALID'],
        [[], 'RESUME_INCOMPLETE'],
        [undefined, 'RESUME_INCOMPLETE'],
      ];
      for (const [index, [decisions, code]] of wrong.entries()) {
        expect(await d.call(index % 2 === 0 ? 1 : 2, '/resume', { decisions })).toMatchObject({ refused: code, pendingIds: [question!.id] });
      }
      expect(hits('before')).toBe(1);
      expect(await d.call(2, '/resume', { decisions: [{ id: question!.id, value: { ok: true } }] })).toMatchObject({ status: 'completed', approved: true });
      expect(await d.call(1, '/resume', { decisions: [{ id: question!.id, value: { ok: false } }] })).toMatchObject({ refused: 'RESUME_CONFLICT' });
      expect(await d.call(1, '/resume', { decisions: [{ id: 'interrupt-other', value: 1 }] })).toMatchObject({ refused: 'RUN_NOT_INTERRUPTED' });
      expect(hits('after')).toBe(1);
    } finally {
      await d.dispose();
    }
  }, 60_000);

  it('refuses a decision after expiresAt with INTERRUPT_EXPIRED, and resumes without one', async () => {
    suite.probe.hits.clear();
    const d = await deploy(suite.path('expiry'));
    try {
      const [question] = (await d.call(1, '/run', { expiresInMs: 300 })).interrupts!;
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await d.call(2, '/resume', { decisions: [{ id: question!.id, value: { ok: true } }] })).toMatchObject({ refused: 'INTERRUPT_EXPIRED' });
      // The node did not catch its expiry: it fails with the typed code.
      expect(await d.call(1, '/resume', {})).toMatchObject({ status: 'failed', code: 'INTERRUPT_EXPIRED' });
      expect(hits('after')).toBe(0);
    } finally {
      await d.dispose();
    }
  }, 60_000);

  it('refunds once when 20 identical and 20 conflicting resumes arrive at once through two isolates', async () => {
    suite.probe.hits.clear();
    const d = await deploy(suite.path('concurrent'));
    try {
      const [question] = (await d.call(1, '/run')).interrupts!;
      const send = (index: number) => d.call(index % 2 === 0 ? 1 : 2, '/resume', { decisions: [{ id: question!.id, value: { ok: index % 4 < 2 } }] }).then((summary) => ({ ok: index % 4 < 2, summary }));
      const results = await Promise.all(Array.from({ length: 40 }, (_, index) => send(index)));
      expect(hits('after')).toBe(1);
      expect(hits('before')).toBe(2);
      const won = results.find((result) => result.summary.status === 'completed')!;
      expect(won).toBeDefined();
      for (const { ok, summary } of results) {
        if (ok === won.ok) expect(['completed', 'RESUME_IN_PROGRESS']).toContain(summary.code ?? summary.status);
        else expect(summary.refused).toBe('RESUME_CONFLICT');
      }
      expect(await d.call(2, '/resume', { decisions: [{ id: question!.id, value: { ok: won.ok } }] })).toMatchObject({ status: 'completed', approved: won.ok, replay: true });
      expect(hits('after')).toBe(1);
    } finally {
      await d.dispose();
    }
  }, 60_000);

  it('resumes a run interrupted before a restart through the other isolate: the node re-runs from its start, its refund once', async () => {
    suite.probe.hits.clear();
    const persist = suite.path('restart');
    let d = await deploy(persist);
    let id: string;
    try {
      const [question] = (await d.call(1, '/run')).interrupts!;
      id = question!.id;
      expect(question).toMatchObject({ nodeId: 'approve', value: { refund: 30 } });
    } finally {
      await d.dispose(); // the process stops; the question is kept in the object's storage
    }
    d = await deploy(persist);
    try {
      expect(await d.call(2, '/resume', { decisions: [{ id, value: { ok: true } }] })).toMatchObject({ status: 'completed', approved: true });
      expect(hits('before')).toBe(2); // once before the restart, once on resume: what precedes interrupt() runs again
      expect(hits('after')).toBe(1);
      expect(await d.call(1, '/resume', { decisions: [{ id, value: { ok: true } }] })).toMatchObject({ status: 'completed', replay: true });
      expect(hits('after')).toBe(1);
    } finally {
      await d.dispose();
    }
  }, 60_000);
});
