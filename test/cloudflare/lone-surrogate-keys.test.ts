// Run ids and session keys holding a lone UTF-16 surrogate (valid JS strings, e.g. "\ud800" in a JSON body), in
// workerd: SQLite-backed storage and idFromName take UTF-8 and hand such a key back as U+FFFD. Escaped into
// well-formed keys, a checkpoint is deleted by its delete, a parted value reads back, and two session keys that
// differ only in their lone surrogates are two conversations
// (a long one too, whose object name is a hash of its text).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeObjects } from './store-harness.js';

const checkpoint = (runId: string, revision: number, pad = '') => ({ version: 1, runId, status: 'running', step: 0, state: { pad }, pending: [], updatedAt: '', revision });
const runState = (runId: string, revision: number, pad = '') => ({ version: 1, runId, agent: 'a', revision, status: 'interrupted', input: [{ role: 'user', content: pad }], added: [], iterations: 1, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, round: { iteration: 1, calls: [], answered: {} }, interrupts: [], executions: {}, denied: [], resumes: [], updatedAt: '' });

let objects: Awaited<ReturnType<typeof storeObjects>>;
beforeAll(async () => {
  objects = await storeObjects();
}, 60_000);
afterAll(() => objects?.dispose());

describe('workerd: run ids with a lone surrogate', () => {
  it('DurableObjectCheckpointer: a whole and a parted checkpoint read back and are deleted, apart from the id with U+FFFD', async () => {
    const { call } = objects;
    expect(await call('cp.put', { checkpoint: checkpoint('order-\uFFFD', 1) }, 'cp')).toEqual({ ok: true, result: true });
    for (const [runId, pad] of [['order-\uD800', ''], ['big-\uDC00#', 'y'.repeat(100_000)]] as const) {
      expect(await call('cp.put', { checkpoint: checkpoint(runId, 1, pad) }, 'cp')).toEqual({ ok: true, result: true });
      const read = await call('cp.get', { runId }, 'cp');
      expect(read.ok, read.message).toBe(true);
      expect(read.result).toMatchObject({ runId, revision: 1, state: { pad } });
      await call('cp.delete', { runId }, 'cp');
      expect(await call('cp.get', { runId }, 'cp')).toEqual({ ok: true, result: null });
    }
    expect((await call('keys', {}, 'cp')).result).toEqual(['checkpoint:order-\uFFFD']); // the other run untouched
  });

  it('DurableObjectRunStateStore: a parted record saved under such an id is found again, then deleted', async () => {
    const { call } = objects;
    expect(await call('rs.put', { record: runState('run-\uDFFF', 1, 'z'.repeat(100_000)) }, 'rs')).toEqual({ ok: true, result: true });
    expect((await call('rs.get', { runId: 'run-\uDFFF' }, 'rs')).result?.revision).toBe(1);
    expect((await call('rs.get', { runId: 'run-\uFFFD' }, 'rs')).result).toBeNull();
    await call('rs.delete', { runId: 'run-\uDFFF' }, 'rs');
    expect((await call('keys', {}, 'rs')).result).toEqual([]);
  });
});

describe('workerd: session keys with a lone surrogate', () => {
  it.each([
    ['short', 's'],
    ['long (hashed into its object name)', 's'.repeat(600)],
  ])('DurableObjectSessionStore keeps keys that differ only in a lone surrogate or U+FFFD apart: %s', async (_name, stem) => {
    const { call } = objects;
    const keys = [`${stem}\uD800`, `${stem}\uDFFF`, `${stem}\uFFFD`];
    for (const key of keys) expect(await call('session.append', { key, messages: [{ role: 'user', content: key }] })).toEqual({ ok: true });
    for (const key of keys) expect(await call('session.load', { key })).toEqual({ ok: true, result: [{ role: 'user', content: key }] });
  });
});
