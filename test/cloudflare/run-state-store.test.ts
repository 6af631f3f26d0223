// DurableObjectRunStateStore over a fake storage: the compare-and-swap on the revision (also for a record split into
// parts), keys that no run id escapes, the TTL of an ended run, the bound on a record's size, damaged values read as
// none — and the same agent resumes through a second store object over the same storage.
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, collectAgentRun, toolApprovals } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { DurableObjectRunStateStore } from '../../src/cloudflare/index.js';
import type { AgentRunState } from '../../src/interrupts/index.js';
import { defineTool } from '../../src/tools/index.js';
import { FakeStorage } from './fake-platform.js';

afterEach(() => vi.useRealTimers());

function record(runId: string, revision: number, padding = '', status: AgentRunState['status'] = 'interrupted'): AgentRunState {
  return { version: 1, runId, agent: 'a', revision, status, input: [{ role: 'user', content: padding }], added: [], iterations: 1, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, round: { iteration: 1, calls: [], answered: {} }, interrupts: [], executions: {}, denied: [], resumes: [], updatedAt: '' };
}

describe('DurableObjectRunStateStore', () => {
  it('writes only the next revision, for whole and parted records, and drops parts it no longer needs', async () => {
    const storage = new FakeStorage();
    const store = new DurableObjectRunStateStore(storage);
    expect(await store.put(record('r#1', 2))).toBe(false);
    expect(await store.put(record('r#1', 1, 'x'.repeat(100_000)))).toBe(true);
    expect(await store.put(record('r#1', 1))).toBe(false);
    expect((await store.get('r#1'))!.input[0]!.content).toHaveLength(100_000);
    expect(await store.put(record('r#1', 2))).toBe(true);
    expect([...(await storage.list()).keys()]).toEqual(['run-state:r%231']);
    expect(await store.get('r')).toBeUndefined();
    await store.delete('r#1');
    expect((await storage.list()).size).toBe(0);
  });

  it('lets one of 20 concurrent writes of the same revision win', async () => {
    const store = new DurableObjectRunStateStore(new FakeStorage());
    await store.put(record('r', 1));
    const results = await Promise.all(Array.from({ length: 20 }, () => store.put(record('r', 2))));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('forgets an ended run read after ttlMs, refuses a record over maxRecordBytes, reads a damaged value as none', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-05T10:00:00.000Z'), toFake: ['Date'] });
    const storage = new FakeStorage();
    const store = new DurableObjectRunStateStore(storage, { ttlMs: 1_000, maxRecordBytes: 10_000 });
    await store.put({ ...record('done', 1, '', 'ended'), endedAt: '2026-12-05T10:00:00.000Z' });
    vi.setSystemTime(Date.parse('2026-12-05T10:00:00.999Z'));
    expect(await store.get('done')).toBeDefined();
    vi.setSystemTime(Date.parse('2026-12-05T10:00:01.000Z'));
    expect(await store.get('done')).toBeUndefined();
    expect((await storage.list()).size).toBe(0);
    await expect(store.put(record('big', 1, 'x'.repeat(10_000)))).rejects.toThrow(/at most 10000 are kept \(maxRecordBytes\)/);
    await storage.put('run-state:bad', '{not json');
    expect(await store.get('bad')).toBeUndefined();
    expect(() => new DurableObjectRunStateStore(storage, { ttlMs: 0 })).toThrow(/ttlMs must be an integer > 0/);
  });

  it('lets an agent resume through another store object over the same storage (another request to the object)', async () => {
    const storage = new FakeStorage();
    const runs: unknown[] = [];
    const refund = defineTool({ name: 'refund', description: 'Refund.', parameters: z.object({ amount: z.number() }), needsApproval: true, execute: (args) => (runs.push(args), 'ok') });
    const build = (answer: Parameters<typeof createScriptedChatClient>[0][number]) =>
      new AgentBuilder('refunds')
        .chatClient(createScriptedChatClient([answer]))
        .tools([refund])
        .approvals(toolApprovals({ store: new DurableObjectRunStateStore(storage) }))
        .build();
    const first = await collectAgentRun(build({ toolCalls: [{ id: 'c', name: 'refund', arguments: { amount: 3 } }] }).run('refund'));
    const done = await collectAgentRun(build({ text: 'done' }).resume(first.runId!, [{ id: first.interrupts[0]!.id, approved: true }]));
    expect(done.text).toBe('done');
    expect(runs).toEqual([{ amount: 3 }]);
  });
});
