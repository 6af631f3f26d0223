// The run stores a user keeps in a long-lived object of their own are bounded by their writes: an ended run past
// DurableObjectRunStateStore's ttlMs goes with the store's next writes (not only when read again), and
// DurableObjectCheckpointer keeps at most maxRuns completed runs (1,000 unless set), the oldest deleted first — never a
// run that is not completed. Their indexes (`run-state-ended:`, `checkpoint-completed:`) go with the runs they index.
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, collectAgentRun, toolApprovals } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { DurableObjectCheckpointer, DurableObjectRunStateStore, type DurableObjectListOptions } from '../../src/cloudflare/index.js';
import { ConfigError } from '../../src/errors/index.js';
import type { GraphCheckpoint } from '../../src/graph/index.js';
import { messagesStateSchema, StateGraph } from '../../src/graph/index.js';
import { defineTool } from '../../src/tools/index.js';
import { FakeStorage } from './fake-platform.js';

afterEach(() => vi.useRealTimers());

const keysOf = (storage: FakeStorage, prefix: string) => [...storage.data.keys()].filter((key) => key.startsWith(prefix)).sort();
const checkpoint = (runId: string, revision: number, status: GraphCheckpoint['status'], pad = '') => ({ version: 1, runId, status, step: 0, state: { pad }, pending: [], updatedAt: '', revision }) as unknown as GraphCheckpoint;

describe('DurableObjectRunStateStore', () => {
  it('deletes ended runs past ttlMs with its writes: 30 approved refunds an hour apart leave the last one', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-01T00:00:00Z'), toFake: ['Date'] });
    const storage = new FakeStorage();
    const refund = defineTool({ name: 'refund', description: 'Refund.', parameters: z.object({ amount: z.number() }), needsApproval: true, execute: () => 'ok' });
    const agent = (answer: Parameters<typeof createScriptedChatClient>[0][number]) =>
      new AgentBuilder('refunds').chatClient(createScriptedChatClient([answer])).tools([refund]).approvals(toolApprovals({ store: new DurableObjectRunStateStore(storage, { ttlMs: 60_000 }) })).build();
    for (let index = 0; index < 30; index++) {
      const first = await collectAgentRun(agent({ toolCalls: [{ id: `c${index}`, name: 'refund', arguments: { amount: index } }] }).run('refund'));
      const resumed = await collectAgentRun(agent({ text: 'done' }).resume(first.runId!, [{ id: first.interrupts[0]!.id, approved: true }]));
      expect(resumed.text).toBe('done');
      vi.setSystemTime(Date.now() + 3_600_000);
    }
    expect(keysOf(storage, 'run-state:').length).toBeLessThanOrEqual(2);
    expect(keysOf(storage, 'run-state-ended:').length).toBeLessThanOrEqual(2 * 2 + 1); // two entries a run, and the counters
  });

  it('keeps an ended run within ttlMs and every run not ended; a delete takes its index entries with it', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-01T00:00:00Z'), toFake: ['Date'] });
    const storage = new FakeStorage();
    const store = new DurableObjectRunStateStore(storage, { ttlMs: 1_000 });
    const record = (runId: string, revision: number, ended: boolean) =>
      ({ version: 1, runId, agent: 'a', revision, status: ended ? 'ended' : 'interrupted', ...(ended ? { endedAt: new Date().toISOString() } : {}), input: [{ role: 'user', content: 'x'.repeat(ended ? 50_000 : 0) }], added: [], iterations: 1, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, round: { iteration: 1, calls: [], answered: {} }, interrupts: [], executions: {}, denied: [], resumes: [], updatedAt: '' }) as never;
    expect(await store.put(record('waiting', 1, false))).toBe(true);
    expect(await store.put(record('old', 1, true))).toBe(true); // ended, in parts
    vi.setSystemTime(Date.now() + 999);
    expect(await store.put(record('new', 1, true))).toBe(true);
    expect(keysOf(storage, 'run-state:')).toEqual(['run-state:new', 'run-state:new#0', 'run-state:new#1', 'run-state:old', 'run-state:old#0', 'run-state:old#1', 'run-state:waiting']);
    vi.setSystemTime(Date.now() + 1);
    expect(await store.put(record('other', 1, false))).toBe(true); // "old" is due now, "new" not yet
    expect(keysOf(storage, 'run-state:')).toEqual(['run-state:new', 'run-state:new#0', 'run-state:new#1', 'run-state:other', 'run-state:waiting']);
    vi.setSystemTime(Date.now() + 1_000_000);
    expect(await store.get('waiting')).toBeDefined();
    for (const runId of ['new', 'other', 'waiting']) await store.delete(runId);
    expect([...storage.data.keys()]).toEqual([]);
  });
});

describe('DurableObjectCheckpointer', () => {
  it('keeps at most maxRuns completed runs, the newest, as InMemoryCheckpointer does', async () => {
    const graph = new StateGraph(messagesStateSchema()).addNode('a', () => ({ last_response: 'A' })).setEntryPoint('a').setFinishPoint('a').compile();
    const storage = new FakeStorage();
    const checkpointer = new DurableObjectCheckpointer(storage, { maxRuns: 10 });
    for (let index = 0; index < 40; index++) expect((await graph.run({}, { checkpointer, runId: `nightly-${index}` })).status).toBe('completed');
    expect(keysOf(storage, 'checkpoint:')).toEqual(Array.from({ length: 10 }, (_, index) => `checkpoint:nightly-${30 + index}`).sort());
    expect(keysOf(storage, 'checkpoint-completed:')).toHaveLength(2 * 10 + 1);
    expect(new DurableObjectCheckpointer(storage).maxRuns).toBe(1000);
    expect(() => new DurableObjectCheckpointer(storage, { maxRuns: 0 })).toThrow(ConfigError);
  });

  it('never deletes a run that is not completed, and deletes completed runs in parts whole', async () => {
    const storage = new FakeStorage();
    const checkpointer = new DurableObjectCheckpointer(storage, { maxRuns: 2 });
    for (const [runId, status] of [['running', 'running'], ['failed', 'failed'], ['asking', 'interrupted']] as const) expect(await checkpointer.put(checkpoint(runId, 1, status))).toBe(true);
    for (let index = 0; index < 5; index++) expect(await checkpointer.put(checkpoint(`done-${index}`, 1, 'completed', 'y'.repeat(100_000)))).toBe(true);
    expect(keysOf(storage, 'checkpoint:').filter((key) => !key.includes('#'))).toEqual(['checkpoint:asking', 'checkpoint:done-3', 'checkpoint:done-4', 'checkpoint:failed', 'checkpoint:running']);
    expect(keysOf(storage, 'checkpoint:done-2')).toEqual([]); // its parts too
    expect(await checkpointer.put(checkpoint('running', 2, 'completed'))).toBe(true); // completes: now the newest completed
    expect(keysOf(storage, 'checkpoint:').filter((key) => !key.includes('#'))).toEqual(['checkpoint:asking', 'checkpoint:done-4', 'checkpoint:failed', 'checkpoint:running']);
  });

  it("delete reads only the run's own keys and its subgraphs': a run whose id extends it is kept, the index cleared", async () => {
    const storage = new FakeStorage();
    const checkpointer = new DurableObjectCheckpointer(storage);
    for (const runId of ['order-4', 'order-4\u001fcharge', 'order-42']) expect(await checkpointer.put(checkpoint(runId, 1, 'completed', 'z'.repeat(40_000)))).toBe(true);
    const listed: Array<DurableObjectListOptions | undefined> = [];
    const list = storage.list.bind(storage);
    storage.list = (options) => (listed.push(options), list(options));
    await checkpointer.delete('order-4');
    expect(listed.length).toBeGreaterThan(0);
    for (const options of listed) expect(options).toMatchObject({ prefix: expect.stringMatching(/^checkpoint:order-4[\u001f#]$/), limit: 128 });
    expect(keysOf(storage, 'checkpoint:').filter((key) => !key.includes('#'))).toEqual(['checkpoint:order-42']);
    expect(await checkpointer.get('order-42')).toBeDefined();
    await checkpointer.delete('order-42');
    expect([...storage.data.keys()]).toEqual([]);
  });
});
