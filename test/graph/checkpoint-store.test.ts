/**
 * The checkpoint format and its stores: `InMemoryCheckpointer` (bounded by runs and bytes, oldest written first out,
 * copies in and out, subgraph checkpoints deleted with their run) and `parseGraphCheckpoint`; a checkpoint is plain
 * JSON that survives `JSON.stringify`/`JSON.parse` and `structuredClone`.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { CHECKPOINT_INVALID, CHILD_RUN_SEPARATOR as S, InMemoryCheckpointer, parseGraphCheckpoint, type Checkpointer, type GraphCheckpoint } from '../../src/graph/index.js';
import { chainGraph, completed, failed, fanOutGraph, recordingCheckpointer, switches } from './checkpoint-fixtures.js';

function checkpoint(runId: string, text = 'x'): GraphCheckpoint {
  return { version: 1, runId, status: 'running', step: 0, state: { note: JSON.stringify(text) }, pending: ['a'], updatedAt: '2025-01-01T00:00:00.000Z' };
}

const bytes = (value: GraphCheckpoint) => JSON.stringify(value).length;

describe('InMemoryCheckpointer', () => {
  it('keeps 1000 runs and 16 MiB by default', () => {
    const store = new InMemoryCheckpointer();
    expect([store.maxRuns, store.maxBytes]).toEqual([1000, 16 * 1024 * 1024]);
  });

  it('forgets the oldest written run past maxRuns', async () => {
    const store = new InMemoryCheckpointer({ maxRuns: 2 });
    await store.put(checkpoint('one'));
    await store.put(checkpoint('two'));
    await store.put(checkpoint('one', 'rewritten')); // now the newest
    await store.put(checkpoint('three'));
    expect(await store.get('two')).toBeUndefined();
    expect((await store.get('one'))?.state.note).toBe('"rewritten"');
    expect(store.size).toEqual({ runs: 2, bytes: bytes(checkpoint('one', 'rewritten')) + bytes(checkpoint('three')) });
  });

  it('forgets the oldest runs past maxBytes, but always keeps the newest even when it alone is over', async () => {
    const store = new InMemoryCheckpointer({ maxBytes: bytes(checkpoint('small')) + bytes(checkpoint('small-2')) });
    await store.put(checkpoint('small'));
    await store.put(checkpoint('small-2'));
    expect(store.size.runs).toBe(2);
    await store.put(checkpoint('huge', 'x'.repeat(10_000)));
    expect(store.size.runs).toBe(1);
    expect((await store.get('huge'))?.runId).toBe('huge');
    expect(store.size.bytes).toBe(bytes(checkpoint('huge', 'x'.repeat(10_000))));
  });

  it('copies in and out', async () => {
    const store = new InMemoryCheckpointer();
    const original = checkpoint('r');
    await store.put(original);
    original.pending.push('b');
    const read = (await store.get('r')) as GraphCheckpoint;
    expect(read.pending).toEqual(['a']);
    read.pending.push('c');
    expect((await store.get('r'))?.pending).toEqual(['a']);
  });

  it('deletes a run with its subgraph runs, and only those', async () => {
    const store = new InMemoryCheckpointer();
    const ids = ['r1', `r1${S}child`, `r1${S}child${S}grandchild`, 'r10', `r2${S}r1`, 'r1/child'];
    for (const id of ids) await store.put(checkpoint(id));
    await store.delete('r1');
    expect(await Promise.all(ids.map(async (id) => (await store.get(id)) !== undefined))).toEqual([false, false, false, true, true, true]);
    expect(store.size.runs).toBe(3);
    await store.delete('unknown');
    expect(store.size.runs).toBe(3);
  });

  it('refuses bounds that are not positive integers with one ConfigError listing each', () => {
    let error: unknown;
    try {
      new InMemoryCheckpointer({ maxRuns: 0, maxBytes: 1.5 });
    } catch (caught) {
      error = caught;
    }
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).problems).toEqual(['maxRuns must be an integer > 0 (got 0)', 'maxBytes must be an integer > 0 (got 1.5)']);
  });

  it('rejects a checkpoint without a runId or that is not JSON with CHECKPOINT_INVALID, keeping what it holds', async () => {
    const store = new InMemoryCheckpointer();
    await store.put(checkpoint('kept'));
    await expect(store.put({} as GraphCheckpoint)).rejects.toMatchObject({ code: CHECKPOINT_INVALID, message: expect.stringContaining('no runId') });
    await expect(store.put({ ...checkpoint('big'), step: 1n } as unknown as GraphCheckpoint)).rejects.toMatchObject({ code: CHECKPOINT_INVALID, message: expect.stringContaining('not JSON') });
    expect(store.size.runs).toBe(1);
  });

  it('resumes a run after being bounded down to it', async () => {
    const on = switches();
    on.broken.add('b');
    const graph = chainGraph(on);
    const store = new InMemoryCheckpointer({ maxRuns: 1 });
    failed(await graph.run({}, { checkpointer: store, runId: 'older' }));
    failed(await graph.run({}, { checkpointer: store, runId: 'newer' }));
    on.broken.clear();
    expect((await graph.resume('older', { checkpointer: store })).status).toBe('failed'); // forgotten: CHECKPOINT_NOT_FOUND
    completed(await graph.resume('newer', { checkpointer: store }));
  });
});

describe('the checkpoint format', () => {
  it('is plain JSON: a failed fan-out checkpoint survives JSON and structuredClone, and resumes from either copy', async () => {
    const on = switches();
    on.broken.add('right');
    const graph = fanOutGraph(on);
    const recording = recordingCheckpointer();
    failed(await graph.run({}, { checkpointer: recording, runId: 'fan' }));
    const saved = recording.puts.at(-1) as GraphCheckpoint;
    expect(JSON.parse(JSON.stringify(saved))).toEqual(saved);
    expect(structuredClone(saved)).toEqual(saved);
    expect(parseGraphCheckpoint(saved, 'fan')).toEqual(saved);
    on.broken.clear();
    const cloning: Checkpointer = { get: async () => structuredClone(saved), put: async () => {}, delete: async () => {} };
    expect(completed(await graph.resume('fan', { checkpointer: cloning })).state.trail).toEqual(['start', 'left', 'right', 'join']);
  });

  it('is parsed into a fresh copy', () => {
    const original = checkpoint('r');
    const copy = parseGraphCheckpoint(original);
    expect(copy).toEqual(original);
    expect(copy).not.toBe(original);
    expect(copy.state).not.toBe(original.state);
  });

  it('is refused by parseGraphCheckpoint with a typed error that lists the problems', () => {
    let error: unknown;
    try {
      parseGraphCheckpoint({ version: 1, runId: 'r', status: 'done', step: 0, state: {}, pending: [], updatedAt: '' }, 'r');
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ name: 'WorkflowError', code: CHECKPOINT_INVALID, problems: ['status must be running, failed, interrupted or completed (got "done")'] });
  });
});
