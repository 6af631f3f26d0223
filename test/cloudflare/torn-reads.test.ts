// A read of a value stored in parts is made in turn with the object's writes (one queue per storage): a read that
// starts while a write replaces the value — another request to the object, interleaved at an await — sees the old
// value or the new one, never an old header joined with new parts (read as damaged: CHECKPOINT_INVALID, a stopped run
// read as none, a task record read as damaged). In workerd for the checkpointer and the run-state store, on the fake
// platform for the task store (its record and the chunks streamed since).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DurableTaskStore, type TaskRecord } from '../../src/cloudflare/durable-task-store.js';
import { FakeStorage } from './fake-platform.js';
import { storeObjects } from './store-harness.js';

const checkpoint = (revision: number, pad: string) => ({ version: 1, runId: 'r', status: 'running', step: revision, state: { pad }, pending: [], updatedAt: '', revision });
const runState = (revision: number, pad: string) => ({ version: 1, runId: 'r', agent: 'a', revision, status: 'interrupted', input: [{ role: 'user', content: pad }], added: [], iterations: 1, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, round: { iteration: 1, calls: [], answered: {} }, interrupts: [], executions: {}, denied: [], resumes: [], updatedAt: '' });
/** A value of 3 parts replaced by one of 4, and one of 4 by one of 3. */
const SIZES: Array<[number, number]> = [
  [70_000, 120_000],
  [120_000, 70_000],
];

let objects: Awaited<ReturnType<typeof storeObjects>>;
beforeAll(async () => {
  objects = await storeObjects();
}, 60_000);
afterAll(() => objects?.dispose());

describe.each([
  ['DurableObjectCheckpointer', 'cp', (revision: number, pad: string) => ({ checkpoint: checkpoint(revision, pad) })],
  ['DurableObjectRunStateStore', 'rs', (revision: number, pad: string) => ({ record: runState(revision, pad) })],
] as const)('workerd: %s.get concurrent with a put of the same parted value', (_name, op, first) => {
  it('sees revision 1 or 2, never a damaged value or none', async () => {
    const seen: string[] = [];
    for (const [before, after] of SIZES) {
      for (let delay = 0; delay < 8; delay++) {
        const object = `${op}-${before}-${delay}`;
        expect(await objects.call(`${op}.put`, first(1, 'a'.repeat(before)), object)).toEqual({ ok: true, result: true });
        const next = op === 'cp' ? checkpoint(2, 'b'.repeat(after)) : runState(2, 'b'.repeat(after));
        const { result } = await objects.call(`${op}.race`, { runId: 'r', delay, next }, object);
        expect(result.put).toBe(true);
        seen.push(String(result.got));
      }
    }
    expect(seen.filter((got) => got !== '1' && got !== '2')).toEqual([]);
  });
});

describe('fake platform: DurableTaskStore', () => {
  const record = (text: string): TaskRecord => ({ v: 1, task: { kind: 'task', id: 't', contextId: 'c', status: { state: 'working' }, artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text }] }] }, invocationId: 'i', userId: 'u', message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } });

  it.each(SIZES)('record() and get() concurrent with a status write (%i → %i characters) read the old record or the new one', async (before, after) => {
    const storage = new FakeStorage();
    const run = new DurableTaskStore(storage);
    await run.write(record('a'.repeat(before)));
    const reader = new DurableTaskStore(storage); // tasks/get from another request
    const [read, got] = await Promise.all([reader.record(), reader.get('t'), run.write(record('b'.repeat(after)))]);
    expect([before, after]).toContain((read!.task.artifacts![0]!.parts[0] as { text: string }).text.length);
    expect([before, after]).toContain((got!.artifacts![0]!.parts[0] as { text: string }).text.length);
  });
});
