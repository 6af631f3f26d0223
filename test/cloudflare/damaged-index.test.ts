// An ended-runs index (ended-runs.ts) past damage: a `seq:` key whose run's entry does not point back to it (left by a
// damaged `run:` entry) is deleted, never taken for an ended run, so a run in use again under that id is not deleted
// by the bound; a missing or damaged `meta` is recounted once and written back, and its `next` goes past the highest
// sequence number of a key (a key that is not one is skipped), so no entry is overwritten.
import { describe, expect, it } from 'vitest';
import { DurableObjectCheckpointer, DurableObjectRunStateStore } from '../../src/cloudflare/index.js';
import type { GraphCheckpoint } from '../../src/graph/index.js';
import { FakeStorage } from './fake-platform.js';

const checkpoint = (runId: string, revision: number, status: GraphCheckpoint['status']) => ({ version: 1, runId, status, step: 0, state: {}, pending: [], updatedAt: '', revision }) as unknown as GraphCheckpoint;
const runState = (runId: string, revision: number, ended: boolean) =>
  ({ version: 1, runId, agent: 'a', revision, status: ended ? 'ended' : 'interrupted', ...(ended ? { endedAt: new Date().toISOString() } : {}), input: [], added: [], iterations: 1, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, round: { iteration: 1, calls: [], answered: {} }, interrupts: [], executions: {}, denied: [], resumes: [], updatedAt: '' }) as never;

describe('a damaged entry of an ended-runs index', () => {
  it('DurableObjectCheckpointer: never deletes a run that is not completed', async () => {
    const storage = new FakeStorage();
    const checkpointer = new DurableObjectCheckpointer(storage, { maxRuns: 3 });
    expect(await checkpointer.put(checkpoint('order-42', 1, 'completed'))).toBe(true);
    storage.data.set('checkpoint-completed:run:order-42', 'garbage'); // its entry damaged
    expect(await checkpointer.put(checkpoint('order-42', 2, 'interrupted'))).toBe(true); // the run asks again: resumable
    for (let index = 0; index < 4; index++) expect(await checkpointer.put(checkpoint(`done-${index}`, 1, 'completed'))).toBe(true);
    expect((await checkpointer.get('order-42'))?.status).toBe('interrupted'); // deleted by the bound
  });

  it('DurableObjectRunStateStore: never deletes a run that has not ended', async () => {
    const storage = new FakeStorage();
    const store = new DurableObjectRunStateStore(storage, { ttlMs: 3_600_000 });
    expect(await store.put(runState('refund-7', 1, true))).toBe(true);
    storage.data.set('run-state-ended:run:refund-7', { seq: 'x' }); // its entry damaged
    expect(await store.put(runState('refund-7', 2, false))).toBe(true); // stopped again, waiting for approval
    expect(await store.put(runState('other', 1, false))).toBe(true);
    expect(await store.get('refund-7')).toBeDefined(); // deleted by the sweep (at: 0 → due)
  });

  it('a recounted meta is written back: a put of a run not ended lists the index once, not on every put', async () => {
    const storage = new FakeStorage();
    const checkpointer = new DurableObjectCheckpointer(storage);
    for (let index = 0; index < 500; index++) await checkpointer.put(checkpoint(`done-${index}`, 1, 'completed'));
    storage.data.delete('checkpoint-completed:meta'); // lost / damaged counters
    const listed: number[] = [];
    const list = storage.list.bind(storage);
    storage.list = async (options) => {
      const result = await list(options);
      if (options?.prefix === 'checkpoint-completed:seq:') listed.push(result.size);
      return result;
    };
    for (let step = 1; step <= 20; step++) await checkpointer.put(checkpoint('running-run', step, 'running'));
    expect(listed.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(500); // 10,000 index entries read: 500 each put
  });

  it('a recounted meta goes past the highest sequence number, past a key that is not one', async () => {
    const storage = new FakeStorage();
    const checkpointer = new DurableObjectCheckpointer(storage, { maxRuns: 10 });
    for (let index = 0; index < 3; index++) await checkpointer.put(checkpoint(`done-${index}`, 1, 'completed'));
    storage.data.delete('checkpoint-completed:meta');
    storage.data.set('checkpoint-completed:seq:zzz', 'done-1'); // damaged: sorts after every number
    expect(await checkpointer.put(checkpoint('later', 1, 'completed'))).toBe(true);
    expect(storage.data.get('checkpoint-completed:seq:0000000000000000')).toBe('done-0'); // not overwritten
    expect(storage.data.get('checkpoint-completed:run:later')).toMatchObject({ seq: 3 });
    expect(storage.data.get('checkpoint-completed:meta')).toMatchObject({ next: 4 });
  });
});
