// Exactly-once resume on Durable Objects, in workerd (miniflare): a user's object runs a checkpointed payment graph
// over DurableObjectCheckpointer. Twenty concurrent resumes of its failed run, sent through two separate isolates,
// charge once; after a restart mid-step, the object's alarm (a restart recovery, with takeOver) and a manual resume
// race, and the charge runs once more, not twice.
import { describe, expect, it } from 'vitest';
import { until } from './harness.js';
import { twoFrontsSuite } from './two-fronts.js';

interface Summary {
  status: string;
  code?: string;
  message?: string;
  last?: string;
}

const suite = twoFrontsSuite<Summary>({ worker: 'checkpoint-objects.mjs', binding: 'PAYMENTS', className: 'Payments', host: 'payments.local', method: 'GET' });
const deploy = (persist: string) => suite.deploy(persist);

const charges = () => suite.probe.hits.get('/node/charge') ?? 0;

describe('exactly-once resume on Durable Objects', () => {
  it('charges once when 20 resumes of a failed run arrive at once through two isolates; the others run nothing', async () => {
    suite.probe.hits.clear();
    const d = await deploy(suite.path('concurrent'));
    try {
      expect(await d.call(1, '/run?broken=yes')).toMatchObject({ status: 'failed', message: expect.stringContaining('the payment service is down') });
      expect(charges()).toBe(1);
      const outcomes = await Promise.all(Array.from({ length: 20 }, (_, index) => d.call(index % 2 === 0 ? 1 : 2, '/resume')));
      expect(charges()).toBe(2); // the failed attempt, and exactly one of the twenty
      expect(suite.probe.hits.get('/node/ship')).toBe(1);
      const codes = outcomes.map((outcome) => outcome.code ?? outcome.status);
      expect(codes.filter((code) => code !== 'completed' && code !== 'RESUME_IN_PROGRESS')).toEqual([]);
      expect(codes.filter((code) => code === 'RESUME_IN_PROGRESS').length).toBeGreaterThan(0);
      expect(outcomes.filter((outcome) => outcome.status === 'completed').every((outcome) => outcome.last === 'shipped')).toBe(true);
      expect(await d.call(2, '/resume')).toEqual({ status: 'completed', last: 'shipped' }); // a replay
      expect(charges()).toBe(2);
    } finally {
      await d.dispose();
    }
  }, 60_000);

  it('after a restart mid-step, lets the alarm’s takeover and a manual resume race, and charges once more', async () => {
    suite.probe.hits.clear();
    const persist = suite.path('restart');
    let d = await deploy(persist);
    try {
      await d.call(1, '/start?mode=hang');
      await until(async () => charges() === 1, 10_000, 'the charge to start');
    } finally {
      await d.dispose(); // the object dies mid-charge; its claim on the checkpoint is left behind, its lease not lapsed
    }
    d = await deploy(persist);
    try {
      const [, manual] = await Promise.all([d.call(1, '/alarm'), d.call(2, '/resume')]);
      const alarm = await until(async () => (await d.call(1, '/alarm-outcome')) as Summary | null, 10_000, 'the alarm to resume') as Summary;
      expect(charges()).toBe(2); // the charge the restart interrupted, then exactly one
      expect(suite.probe.hits.get('/node/ship')).toBe(1);
      const codes = [alarm, manual].map((outcome) => outcome.code ?? outcome.status);
      expect(codes).toContain('completed'); // one of them won (the other refused while it ran, or replayed it after)
      expect(codes.every((code) => code === 'completed' || code === 'RESUME_IN_PROGRESS')).toBe(true);
      expect(await d.call(1, '/resume')).toEqual({ status: 'completed', last: 'shipped' });
    } finally {
      await d.dispose();
    }
  }, 60_000);
});
