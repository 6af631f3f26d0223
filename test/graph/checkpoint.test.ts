/**
 * Checkpoints and resume in the graph engine: a run that ended on a fatal node resumes once its cause is fixed (only
 * the failed nodes run again, every record kept), an aborted run resumes by re-running its step, a fan-out keeps its
 * succeeded branch, and a completed run is returned again without running a node.
 */
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_NOT_FOUND, END, ExecutionErrorCollector, InMemoryCheckpointer, messagesStateSchema, StateGraph } from '../../src/graph/index.js';
import type { RunEvent } from '../../src/runner/index.js';
import {
  chainGraph,
  comparable,
  completed,
  countingNode,
  expectCode,
  failed,
  fanOutGraph,
  graphWith,
  recordingCheckpointer,
  recordsOf,
  switches,
} from './checkpoint-fixtures.js';

describe('a checkpointed run', () => {
  it('saves a running checkpoint before the first step and after each step, then a completed one', async () => {
    const checkpointer = recordingCheckpointer();
    const outcome = completed(await chainGraph(switches()).run({}, { checkpointer, runId: 'order-42' }));
    expect(checkpointer.puts.map((checkpoint) => [checkpoint.status, checkpoint.step, checkpoint.pending])).toEqual([
      ['running', 0, ['a']],
      ['running', 1, ['b']],
      ['running', 2, ['c']],
      ['completed', 3, []],
    ]);
    const last = checkpointer.puts.at(-1);
    expect(last).toMatchObject({ version: 1, runId: 'order-42', state: { trail: '["a","b","c"]', execution_errors: '[]' } });
    expect(new Date(last?.updatedAt ?? '').toISOString()).toBe(last?.updatedAt);
    expect(outcome.steps).toBe(3);
  });

  it('saves under the invocation id when no runId is given', async () => {
    const checkpointer = recordingCheckpointer();
    await chainGraph(switches()).run({}, { checkpointer, invocationId: 'invocation-7' });
    expect([...checkpointer.store.keys()]).toEqual(['invocation-7']);
  });

  it('runs exactly as without a checkpointer', async () => {
    const plain = await chainGraph(switches()).run({});
    const checkpointed = await chainGraph(switches()).run({}, { checkpointer: new InMemoryCheckpointer() });
    expect(comparable(checkpointed)).toEqual(comparable(plain));
  });
});

describe('resume after a fatal node', () => {
  it('runs only the failed node again once fixed, keeping the earlier records and adding its outcome', async () => {
    const on = switches();
    on.degraded.add('a');
    on.broken.add('b');
    const graph = chainGraph(on);
    const checkpointer = recordingCheckpointer();
    const first = failed(await graph.run({}, { checkpointer, runId: 'r' }));
    expect(recordsOf(first.fallbackState)).toEqual([
      { nodeId: 'a', severity: 'recoverable', message: 'a is degraded', stepNumber: 0 },
      { nodeId: 'b', severity: 'fatal', message: 'b is broken', stepNumber: 1 },
    ]);
    const saved = checkpointer.puts.at(-1);
    expect(saved).toMatchObject({ status: 'failed', step: 1, pending: ['b'], succeeded: [] });

    on.broken.delete('b');
    on.degraded.delete('a');
    const resumed = completed(await graph.resume('r', { checkpointer }));
    expect(on.calls).toEqual({ a: 1, b: 2, c: 1 });
    expect(recordsOf(resumed.state)).toEqual(recordsOf(first.fallbackState));
    expect(resumed.state.trail).toEqual(['b', 'c']);
    expect(resumed.steps).toBe(3);
  });

  it('adds a record for each failed attempt when the node still fails, and resumes again', async () => {
    const on = switches();
    on.broken.add('c');
    const graph = chainGraph(on);
    const checkpointer = new InMemoryCheckpointer();
    failed(await graph.run({}, { checkpointer, runId: 'r' }));
    const again = failed(await graph.resume('r', { checkpointer }));
    expect(recordsOf(again.fallbackState).map((record) => [record.nodeId, record.severity])).toEqual([
      ['c', 'fatal'],
      ['c', 'fatal'],
    ]);
    on.broken.clear();
    const resumed = completed(await graph.resume('r', { checkpointer }));
    expect(on.calls).toEqual({ a: 1, b: 1, c: 3 });
    expect(resumed.state.trail).toEqual(['a', 'b', 'c']);
    expect(recordsOf(resumed.state)).toHaveLength(2);
  });
});

describe('resume after an abort', () => {
  for (const step of [0, 1, 2]) {
    it(`re-runs step ${step} and ends like an uninterrupted run`, async () => {
      const reference = await chainGraph(switches()).run({});
      const on = switches();
      const controller = new AbortController();
      on.abortAt = { step, controller };
      const graph = chainGraph(on);
      const checkpointer = new InMemoryCheckpointer();
      const first = await graph.run({}, { checkpointer, runId: 'r', signal: controller.signal });
      expect(first.status).toBe('aborted');
      on.abortAt = undefined;
      const resumed = await graph.resume('r', { checkpointer });
      expect(comparable(resumed)).toEqual(comparable(reference));
      const expected = Object.fromEntries(['a', 'b', 'c'].map((id, index) => [id, index === step ? 2 : 1]));
      expect(on.calls).toEqual(expected);
    });
  }

  it('gives way to the signal while the store hangs', async () => {
    const controller = new AbortController();
    const hanging = { get: async () => undefined, delete: async () => {}, put: () => new Promise<void>(() => {}) };
    const run = chainGraph(switches()).run({}, { checkpointer: hanging, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('enough')), 5);
    expect((await run).status).toBe('aborted');
  });
});

describe('resume of a fan-out where one branch failed', () => {
  it('keeps the succeeded branch (and its Command.goto), re-runs the failed one, and reduces in trigger order', async () => {
    const reference = completed(await fanOutGraph(switches()).run({}));
    const on = switches();
    on.broken.add('right');
    const graph = fanOutGraph(on);
    const checkpointer = recordingCheckpointer();
    const first = failed(await graph.run({}, { checkpointer, runId: 'fan' }));
    expect(first.fallbackState.trail).toEqual(['start', 'left']);
    expect(checkpointer.puts.at(-1)).toMatchObject({
      status: 'failed',
      step: 1,
      pending: ['left', 'right'],
      state: { trail: '["start"]' },
      succeeded: [{ index: 0, nodeId: 'left', updates: [{ trail: '["left"]' }], goto: ['join'] }],
    });
    on.broken.clear();
    const resumed = completed(await graph.resume('fan', { checkpointer }));
    expect(on.calls).toEqual({ start: 1, left: 1, right: 2, join: 1 });
    expect(resumed.state.trail).toEqual(reference.state.trail);
    expect(recordsOf(resumed.state)).toEqual([{ nodeId: 'right', severity: 'fatal', message: 'right is broken', stepNumber: 1 }]);
  });
});

describe('resume of a step whose nodes all succeeded but whose routing failed', () => {
  it('runs none of them again: their updates are replayed and the fixed router routes', async () => {
    const on = switches();
    let routerBroken = true;
    const { graph } = graphWith();
    const compiled = graph
      .addNode('a', countingNode('a', on))
      .addNode('b', countingNode('b', on))
      .setEntryPoint('a')
      .addConditionalEdges('a', () => {
        if (routerBroken) throw new Error('routing table missing');
        return 'b';
      })
      .setFinishPoint('b')
      .compile();
    const checkpointer = recordingCheckpointer();
    const first = failed(await compiled.run({}, { checkpointer, runId: 'r' }));
    expect(first.error.message).toContain('routing table missing');
    expect(checkpointer.puts.at(-1)).toMatchObject({ status: 'failed', step: 0, succeeded: [{ nodeId: 'a', updates: [{ trail: '["a"]' }] }] });
    routerBroken = false;
    expect(completed(await compiled.resume('r', { checkpointer })).state.trail).toEqual(['a', 'b']);
    expect(on.calls).toEqual({ a: 1, b: 1 });
  });
});

describe('resume of a step with a node recovered after its update could not be reduced', () => {
  it('replays both of its updates (its records, then the recovery) without running it again', async () => {
    const on = switches();
    on.broken.add('right');
    const collector = new ExecutionErrorCollector({ recoverable: (error) => error instanceof Error && error.message.includes('strict refuses') });
    const schema = collector.addField(messagesStateSchema()).addField('strict', {
      reducer: (_existing: unknown, update: unknown) => {
        if (update === 'bad') throw new Error('strict refuses "bad"');
        return update;
      },
    });
    const compiled = new StateGraph(schema)
      .withNodeCallbacks(collector.nodeCallbacks())
      .addNode('left', countingNode('left', on, () => ({ strict: 'bad' })))
      .addNode('right', countingNode('right', on, () => undefined))
      .setEntryPoint('left')
      .setEntryPoint('right')
      .addEdge('left', END)
      .addEdge('right', END)
      .compile();
    const checkpointer = recordingCheckpointer();
    failed(await compiled.run({}, { checkpointer, runId: 'r' }));
    const saved = checkpointer.puts.at(-1)?.succeeded?.[0];
    expect(saved?.nodeId).toBe('left');
    expect(saved?.updates).toHaveLength(2);
    on.broken.clear();
    const resumed = completed(await compiled.resume('r', { checkpointer }));
    expect(on.calls).toEqual({ left: 1, right: 2 });
    // In trigger order, as the failed run had them: left's (replayed in its place), then right's.
    expect(recordsOf(resumed.state).map((record) => [record.nodeId, record.severity])).toEqual([
      ['left', 'recoverable'],
      ['right', 'fatal'],
    ]);
  });
});

describe('resume of what cannot be continued', () => {
  it('returns a completed run again, with its graph.execution snapshot, running no node', async () => {
    const on = switches();
    const graph = chainGraph(on);
    const checkpointer = new InMemoryCheckpointer();
    const first = completed(await graph.run({}, { checkpointer, runId: 'done' }));
    const events: RunEvent[] = [];
    const again = completed(await graph.resume('done', { checkpointer, onEvent: (event) => events.push(event) }));
    expect(on.calls).toEqual({ a: 1, b: 1, c: 1 });
    expect(comparable(again)).toEqual(comparable(first));
    expect(events.map((event) => [event.response?.object, event.response?.done])).toEqual([['graph.execution', true]]);
    expect(events[0]?.stateDelta?.trail).toBe('["a","b","c"]');
  });

  it('fails an unknown run id with CHECKPOINT_NOT_FOUND', async () => {
    const outcome = expectCode(await chainGraph(switches()).resume('nobody', { checkpointer: new InMemoryCheckpointer() }), CHECKPOINT_NOT_FOUND);
    expect(outcome.error.message).toContain('"nobody"');
    expect(outcome.steps).toBe(0);
  });

  it('rejects a resume without a checkpointer, or with a runId that is not a string, as a ConfigError', async () => {
    const graph = chainGraph(switches());
    await expect(graph.resume('r', {} as never)).rejects.toMatchObject({ name: 'ConfigError' });
    await expect(graph.resume('', { checkpointer: new InMemoryCheckpointer() })).rejects.toMatchObject({ name: 'ConfigError', message: expect.stringContaining('runId') });
    await expect(graph.run({}, { checkpointer: {} as never })).rejects.toMatchObject({ name: 'ConfigError', message: expect.stringContaining('checkpointer') });
  });

  it('starts anew with run() even when a checkpoint exists', async () => {
    const on = switches();
    const graph = chainGraph(on);
    const checkpointer = new InMemoryCheckpointer();
    await graph.run({}, { checkpointer, runId: 'r' });
    completed(await graph.run({}, { checkpointer, runId: 'r' }));
    expect(on.calls).toEqual({ a: 2, b: 2, c: 2 });
  });
});
