/**
 * A checkpointed graph agent under the `Runner`: a run that was interrupted (aborted, its process dead, or ended on a
 * fatal node since fixed) and run again with the same invocation id resumes, and its `runner.completion` equals that
 * of an uninterrupted run (ids and timestamps aside).
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { CHECKPOINT_FAILED, createGraphAgent, InMemoryCheckpointer, type Checkpointer } from '../../src/graph/index.js';
import type { Invocation, RunEvent } from '../../src/runner/index.js';
import { chainGraph, comparableCompletion, dyingCheckpointer, runOnce, switches, withoutTimestamps } from './checkpoint-fixtures.js';

async function reference(): Promise<unknown> {
  const { completion } = await runOnce(chainGraph(switches()), new InMemoryCheckpointer(), 'reference');
  return comparableCompletion(completion);
}

describe('a checkpointed graph agent under the Runner', () => {
  it('resumes an aborted run with the same invocation id, giving the completion of an uninterrupted run', async () => {
    const expected = await reference();
    const on = switches();
    const controller = new AbortController();
    on.abortAt = { step: 1, controller };
    const graph = chainGraph(on);
    const checkpointer = new InMemoryCheckpointer();
    const first = await runOnce(graph, checkpointer, 'inv-1', controller.signal);
    expect(first.completion.response?.error?.type ?? first.events.find((event) => event.response?.error)?.response?.error?.type).toBe('cancelled');
    on.abortAt = undefined;
    const second = await runOnce(graph, checkpointer, 'inv-1');
    expect(comparableCompletion(second.completion)).toEqual(expected);
    expect(on.calls).toEqual({ a: 1, b: 2, c: 1 });
  });

  for (const kill of [1, 2, 3, 4]) {
    it(`resumes a run whose process died after checkpoint ${kill}, on a fresh runner`, async () => {
      const expected = await reference();
      const on = switches();
      const store = new InMemoryCheckpointer();
      const graph = chainGraph(on);
      const first = await runOnce(graph, dyingCheckpointer(store, kill), 'inv-2');
      expect(first.completion.response?.error?.message).toContain('killed');
      const second = await runOnce(graph, store, 'inv-2');
      expect(comparableCompletion(second.completion)).toEqual(expected);
      // Each node ran once over both runs; a completed checkpoint (the 4th) is replayed, not run again.
      expect(on.calls).toEqual({ a: 1, b: 1, c: 1 });
    });
  }

  it('resumes a run that ended on a fatal node once fixed, reporting the earlier record', async () => {
    const on = switches();
    on.broken.add('b');
    const graph = chainGraph(on);
    const checkpointer = new InMemoryCheckpointer();
    const first = await runOnce(graph, checkpointer, 'inv-3');
    expect(first.completion.response?.error?.message).toContain('b is broken');
    on.broken.clear();
    const second = await runOnce(graph, checkpointer, 'inv-3');
    expect(second.completion.response?.error).toBeUndefined();
    const records = withoutTimestamps(JSON.parse(second.completion.stateDelta?.execution_errors ?? '[]')) as Array<{ nodeId: string; severity: string }>;
    expect(records.map((record) => [record.nodeId, record.severity])).toEqual([['b', 'fatal']]);
    expect(JSON.parse(second.completion.stateDelta?.trail ?? '[]')).toEqual(['a', 'b', 'c']);
    expect(on.calls).toEqual({ a: 1, b: 2, c: 1 });
  });

  it('replays a completed checkpoint of the invocation id: the same completion, no node run again', async () => {
    const on = switches();
    const graph = chainGraph(on);
    const checkpointer = new InMemoryCheckpointer();
    const first = await runOnce(graph, checkpointer, 'inv-4');
    const again = await runOnce(graph, checkpointer, 'inv-4');
    expect(again.completion.response?.error).toBeUndefined();
    expect(comparableCompletion(again.completion)).toEqual(comparableCompletion(first.completion));
    expect(on.calls).toEqual({ a: 1, b: 1, c: 1 });
  });

  it('fails with CHECKPOINT_FAILED when the stored checkpoint cannot be read', async () => {
    const broken: Checkpointer = { get: async () => Promise.reject(new Error('offline')), put: async () => {}, delete: async () => {} };
    const { completion } = await runOnce(chainGraph(switches()), broken, 'inv-5');
    expect(completion.response?.error).toMatchObject({ code: CHECKPOINT_FAILED, message: expect.stringContaining('offline') });
  });

  it('refuses a checkpointer without its methods when the agent is created', () => {
    expect(() => createGraphAgent('orders', chainGraph(switches()), { checkpointer: { get: async () => undefined } as never })).toThrow(ConfigError);
  });

  it('ends with a run_error event when an invocation carries a checkpointer without its methods', async () => {
    const agent = createGraphAgent('orders', chainGraph(switches()));
    const invocation: Invocation = { invocationId: 'i', appName: 'a', userId: 'u', sessionId: 's', history: [], signal: new AbortController().signal, checkpointer: { put: 1 } };
    const events: RunEvent[] = [];
    for await (const event of agent.runEvents(invocation)) events.push(event);
    expect(events.map((event) => event.response?.error?.type)).toEqual(['run_error']);
    expect(events[0]?.response?.error?.message).toContain('checkpointer');
  });
});
