/**
 * Bad checkpoints and bad stores never crash or hang a run: a malformed checkpoint read back fails the resume with
 * `CHECKPOINT_INVALID` naming each problem, a throwing store or a state key that is not JSON fails the run with
 * `CHECKPOINT_FAILED` naming the cause, the records kept in the fallback state and the last good checkpoint resumable.
 */
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_FAILED, CHECKPOINT_INVALID, InMemoryCheckpointer, type Checkpointer, type GraphCheckpoint } from '../../src/graph/index.js';
import { chainGraph, completed, countingNode, expectCode, graphWith, recordsOf, switches } from './checkpoint-fixtures.js';

const valid: GraphCheckpoint = { version: 1, runId: 'r', status: 'running', step: 1, state: { trail: '["a"]' }, pending: ['b'], updatedAt: '2025-01-01T00:00:00.000Z' };

/** A store whose `get` returns `value` (whatever user storage may hold). */
function holding(value: unknown): Checkpointer {
  return { get: async () => value as GraphCheckpoint, put: async () => {}, delete: async () => {} };
}

describe('a malformed checkpoint read back', () => {
  const cases: Array<[string, unknown, string]> = [
    ['a string', 'garbage', 'a checkpoint must be an object'],
    ['another version', { ...valid, version: 3 as 2 }, 'version must be 1 or 2 (got 3)'],
    ['another run', { ...valid, runId: 'other' }, 'runId is "other", not "r"'],
    ['an unknown status', { ...valid, status: 'paused' }, 'status must be running, failed, interrupted or completed (got "paused")'],
    ['a negative step', { ...valid, step: -1 }, 'step must be an integer ≥ 0 (got -1)'],
    ['a state value that is not text', { ...valid, state: { trail: ['a'] } }, 'state key "trail" must be a JSON text'],
    ['a state text that is not JSON', { ...valid, state: { trail: '[a' } }, 'state key "trail" is not JSON text'],
    ['pending nodes that are not a list', { ...valid, pending: 'b' }, 'pending must be a list of node ids'],
    ['a pending node the graph does not have', { ...valid, pending: ['zeta'] }, 'pending node "zeta" is not a node of this graph'],
    ['a succeeded node that is not pending', { ...valid, status: 'failed', succeeded: [{ index: 3, nodeId: 'b', updates: [] }] }, 'succeeded[0] must name a pending node'],
    ['a succeeded update that is not text', { ...valid, status: 'failed', succeeded: [{ index: 0, nodeId: 'b', updates: [{ trail: 1 }] }] }, 'succeeded[0].updates[0] key "trail" must be a JSON text or null'],
    ['a route to an unknown node', { ...valid, status: 'failed', succeeded: [{ index: 0, nodeId: 'b', updates: [], goto: ['zeta'] }] }, 'routes to "zeta"'],
    ['no updatedAt', { ...valid, updatedAt: undefined }, 'updatedAt must be an ISO 8601 string'],
    ['a BigInt', { ...valid, step: 1n }, 'it cannot be read as JSON'],
    // a revision +1 cannot change (past 2^53) could never be written again: every claim would lose, retryable, forever
    ['a revision past 2^53', { ...valid, revision: 2 ** 53 }, 'revision must be an integer ≥ 0 (got 9007199254740992)'],
    ['a step past 2^53', { ...valid, step: 2 ** 53 + 2 }, 'step must be an integer ≥ 0'],
    ['a node pending twice (it would run twice in one step)', { ...valid, pending: ['b', 'b'] }, 'pending must name each node once'],
    ['an answer value that is not JSON text', { ...valid, status: 'running', resumed: { key: 'k', ids: ['q1'] }, answers: [{ index: 0, nodeId: 'b', answers: [{ id: 'q1', value: '{not json' }] }] }, 'answers[0].answers[0] must be { id, value: JSON text }'],
  ];
  for (const [what, value, problem] of cases) {
    it(`fails the resume with CHECKPOINT_INVALID: ${what}`, async () => {
      const on = switches();
      const outcome = expectCode(await chainGraph(on).resume('r', { checkpointer: holding(value) }), CHECKPOINT_INVALID);
      expect(outcome.error.message).toContain(problem);
      expect(outcome.error.problems.some((each) => each.includes(problem))).toBe(true);
      expect(on.calls).toEqual({});
    });
  }

  it('lists every problem at once', async () => {
    const outcome = expectCode(await chainGraph(switches()).resume('r', { checkpointer: holding({ version: 1, runId: 'r' }) }), CHECKPOINT_INVALID);
    expect(outcome.error.problems).toHaveLength(5);
  });

  it('fails with CHECKPOINT_INVALID for a value whose getter throws', async () => {
    const hostile = {
      ...valid,
      get step(): number {
        throw new Error('trap');
      },
    };
    const outcome = expectCode(await chainGraph(switches()).resume('r', { checkpointer: holding(hostile) }), CHECKPOINT_INVALID);
    expect(outcome.error.message).toContain('it cannot be read as JSON: trap');
  });

  it('fails with CHECKPOINT_FAILED for a value that cannot even be awaited (its then getter throws)', async () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('trap'); } });
    const outcome = expectCode(await chainGraph(switches()).resume('r', { checkpointer: holding(hostile) }), CHECKPOINT_FAILED);
    expect(outcome.error.message).toContain('trap');
  });

  it('resumes a hand-written valid checkpoint from where it says', async () => {
    const on = switches();
    const outcome = completed(await chainGraph(on).resume('r', { checkpointer: holding(valid) }));
    expect(on.calls).toEqual({ b: 1, c: 1 });
    expect(outcome.state.trail).toEqual(['a', 'b', 'c']);
  });
});

describe('a checkpointer that throws', () => {
  it('fails the run with CHECKPOINT_FAILED naming the cause, keeps the records, and leaves the last good checkpoint resumable', async () => {
    const on = switches();
    on.degraded.add('a');
    const inner = new InMemoryCheckpointer();
    let puts = 0;
    const flaky: Checkpointer = { get: (id) => inner.get(id), delete: (id) => inner.delete(id), put: async (checkpoint) => (++puts === 3 ? Promise.reject(new Error('disk full')) : inner.put(checkpoint)) };
    const graph = chainGraph(on);
    const first = expectCode(await graph.run({}, { checkpointer: flaky, runId: 'r' }), CHECKPOINT_FAILED);
    expect(first.error.message).toContain('the checkpoint of run "r" at step 2 could not be saved');
    expect(first.error.message).toContain('disk full');
    expect(recordsOf(first.fallbackState).map((record) => record.nodeId)).toEqual(['a']);
    expect(first.fallbackState.trail).toEqual(['b']);
    on.degraded.clear();
    const resumed = completed(await graph.resume('r', { checkpointer: inner }));
    expect(on.calls).toEqual({ a: 1, b: 2, c: 1 });
    expect(recordsOf(resumed.state).map((record) => record.nodeId)).toEqual(['a']);
  });

  it('fails with CHECKPOINT_FAILED when put throws synchronously, before the first step', async () => {
    const on = switches();
    const throwing = { get: async () => undefined, delete: async () => {}, put: () => { throw new TypeError('not today'); } } as unknown as Checkpointer;
    const outcome = expectCode(await chainGraph(on).run({}, { checkpointer: throwing }), CHECKPOINT_FAILED);
    expect(outcome.error.message).toContain('not today');
    expect(on.calls).toEqual({});
  });

  it('reports both the node failure and the checkpoint failure when the failed checkpoint cannot be saved', async () => {
    const on = switches();
    on.broken.add('b');
    const inner = new InMemoryCheckpointer();
    const refusing: Checkpointer = { get: (id) => inner.get(id), delete: (id) => inner.delete(id), put: async (checkpoint) => (checkpoint.status === 'failed' ? Promise.reject(new Error('quota')) : inner.put(checkpoint)) };
    const outcome = expectCode(await chainGraph(on).run({}, { checkpointer: refusing, runId: 'r' }), CHECKPOINT_FAILED);
    expect(outcome.error.message).toMatch(/node b failed at step 1: b is broken; and the checkpoint of run "r" at step 1 could not be saved: .*quota/);
    expect(recordsOf(outcome.fallbackState).map((record) => [record.nodeId, record.severity])).toEqual([['b', 'fatal']]);
    expect((await inner.get('r'))?.status).toBe('running');
  });

  it('fails the resume with CHECKPOINT_FAILED when get throws', async () => {
    const broken: Checkpointer = { get: async () => Promise.reject(new Error('storage offline')), put: async () => {}, delete: async () => {} };
    const outcome = expectCode(await chainGraph(switches()).resume('r', { checkpointer: broken }), CHECKPOINT_FAILED);
    expect(outcome.error.message).toContain('could not be read');
    expect(outcome.error.message).toContain('storage offline');
  });
});

describe('a state key that is not JSON', () => {
  it('fails the run with CHECKPOINT_FAILED naming the key, and resumes from the last good checkpoint once fixed', async () => {
    const on = switches();
    let big = true;
    const { graph } = graphWith();
    const compiled = graph
      .addNode('a', countingNode('a', on))
      .addNode('b', countingNode('b', on, (update) => (big ? { ...update, total: 10n } : { ...update, total: 10 })))
      .addNode('c', countingNode('c', on))
      .setEntryPoint('a')
      .addEdge('a', 'b')
      .addEdge('b', 'c')
      .setFinishPoint('c')
      .compile();
    const checkpointer = new InMemoryCheckpointer();
    const first = expectCode(await compiled.run({}, { checkpointer, runId: 'r' }), CHECKPOINT_FAILED);
    expect(first.error.message).toContain('state key "total"');
    expect(first.error.message).toContain('BigInt');
    expect(first.fallbackState.trail).toEqual(['a', 'b']);
    expect(first.fallbackState.execution_errors).toEqual([]);
    big = false;
    const resumed = completed(await compiled.resume('r', { checkpointer }));
    expect(resumed.state).toMatchObject({ trail: ['a', 'b', 'c'], total: 10 });
    expect(on.calls).toEqual({ a: 1, b: 2, c: 1 });
  });

  it('fails the fatal path with CHECKPOINT_FAILED when a succeeded node’s update is not JSON', async () => {
    const on = switches();
    on.broken.add('right');
    const { graph } = graphWith();
    const compiled = graph
      .addNode('left', countingNode('left', on, (update) => ({ ...update, handle: () => 1 })))
      .addNode('right', countingNode('right', on))
      .setEntryPoint('left')
      .setEntryPoint('right')
      .setFinishPoint('left')
      .setFinishPoint('right')
      .compile();
    const outcome = expectCode(await compiled.run({}, { checkpointer: new InMemoryCheckpointer(), runId: 'r' }), CHECKPOINT_FAILED);
    expect(outcome.error.message).toContain('right is broken');
    expect(outcome.error.message).toContain('the update of node "left"');
    expect(recordsOf(outcome.fallbackState).map((record) => record.nodeId)).toEqual(['right']);
  });
});
