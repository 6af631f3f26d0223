// Damaged parts headers in Durable Object storage, one class of input fed to every reader of a header. A value too
// large for one part is stored as `{ parts: n }` with its text under `<key>#0…n-1`; a writer never writes more than
// MAX_PARTS (16,384: 512 Mi characters, past the longest string V8 makes). A header outside 2…MAX_PARTS — huge,
// negative, not an integer, NaN, a string, 2^32 — used to be turned into n part keys at once (a RangeError at 2^32, an
// isolate out of memory at millions); now each reader gives its store's typed answer and builds nothing from it:
//   getJSON / readJSONText (storage-codec)      → TypeError (DamagedValueError) "… is damaged: …"
//   keysOf (deleting a value)                    → the key and the parts actually stored (listed)
//   DurableObjectCheckpointer get / put          → WorkflowError CHECKPOINT_INVALID; a graph resume fails with it
//   DurableObjectRunStateStore get / put / delete → reads as none; the next revision replaces it; delete removes it
//   DurableTaskStore record / get (a chunk)      → TypeError "… is damaged: …"; a write replaces the damaged record
//   SessionStorage load (a message)              → TypeError; through DurableObjectSessionStore: HTTP 500 "damaged"
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createA2ADurableObject } from '../../src/cloudflare/a2a-object.js';
import { DurableObjectCheckpointer } from '../../src/cloudflare/durable-checkpointer.js';
import { DurableObjectRunStateStore } from '../../src/cloudflare/durable-run-state-store.js';
import { DurableObjectSessionStore } from '../../src/cloudflare/durable-session-store.js';
import { SessionStorage } from '../../src/cloudflare/session-storage.js';
import { DurableTaskStore, type TaskRecord } from '../../src/cloudflare/durable-task-store.js';
import { DamagedValueError, getJSON, keysOf, MAX_PARTS, PART_CHARS } from '../../src/cloudflare/storage-codec.js';
import { WorkflowError } from '../../src/errors/workflow-error.js';
import { messagesStateSchema, StateGraph } from '../../src/graph/index.js';
import type { AgentRunState } from '../../src/interrupts/index.js';
import { FakeNamespace, FakeStorage } from './fake-platform.js';
import { testAgent } from './node-agent.js';

/** Headers no writer writes: each must be refused before anything is built from it. */
const DAMAGED: Array<[string, unknown]> = [
  ['huge (5,000,000)', 5_000_000],
  ['2^32', 2 ** 32],
  ['one past the bound', MAX_PARTS + 1],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['negative', -3],
  ['zero', 0],
  ['one (never written: one part is plain text)', 1],
  ['not an integer', 2.5],
  ['NaN', Number.NaN],
  ['a string', '7'],
  ['null', null],
];

/** Array-likes built while `work` runs, by length: the largest one. */
async function largestArrayBuilt(work: () => Promise<unknown>): Promise<number> {
  let largest = 0;
  const from = Array.from;
  const spy = vi.spyOn(Array, 'from').mockImplementation(((source: ArrayLike<unknown>, ...rest: unknown[]) => {
    largest = Math.max(largest, Number((source as { length?: unknown })?.length) || 0);
    return (from as (...args: unknown[]) => unknown[]).call(Array, source, ...rest);
  }) as typeof Array.from);
  try {
    await work().catch(() => undefined);
  } finally {
    spy.mockRestore();
  }
  return largest;
}

/** The `get` calls a storage took since its `from`-th call. */
function getCalls(storage: FakeStorage, from: number): string[] {
  return storage.calls.slice(from).filter((call) => call === 'get');
}

const record = (runId: string, revision: number): AgentRunState => ({ version: 1, runId, agent: 'a', revision, status: 'interrupted', input: [], added: [], iterations: 1, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, round: { iteration: 1, calls: [], answered: {} }, interrupts: [], executions: {}, denied: [], resumes: [], updatedAt: '' });
const taskRecord = (): TaskRecord => ({ v: 1, task: { kind: 'task', id: 't', contextId: 'c', status: { state: 'working' } }, invocationId: 'i', userId: 'u', message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } });

afterEach(() => vi.restoreAllMocks());

describe.each(DAMAGED)('a parts header that says %s', (_name, parts) => {
  const header = { parts, revision: 3 };

  it('getJSON: a DamagedValueError naming the key and the header, with no part read and nothing built from it', async () => {
    const storage = new FakeStorage();
    storage.data.set('k', header);
    storage.data.set('k#0', '"x');
    await expect(getJSON(storage, 'k')).rejects.toThrow(DamagedValueError);
    await expect(getJSON(storage, 'k')).rejects.toThrow(/the value stored under "k" is damaged: its parts header says .* parts \(values are written in 2 to 16384\)/);
    const before = storage.calls.length;
    expect(await largestArrayBuilt(() => getJSON(storage, 'k'))).toBeLessThanOrEqual(128);
    expect(getCalls(storage, before)).toEqual(['get']); // the header only: no part read
  });

  it('keysOf (deleting): the key and the parts actually stored, listed', async () => {
    const storage = new FakeStorage();
    storage.data.set('k', header);
    for (let index = 0; index < 130; index++) storage.data.set(`k#${index}`, 'x');
    storage.data.set('k$other', 'y');
    let keys: string[] = [];
    expect(await largestArrayBuilt(async () => (keys = await keysOf(storage, 'k')))).toBeLessThanOrEqual(130);
    expect(keys).toHaveLength(131);
    expect(keys).not.toContain('k$other');
  });

  it('DurableObjectCheckpointer: get and put reject with CHECKPOINT_INVALID; a graph resume fails with it; delete removes it', async () => {
    const storage = new FakeStorage();
    storage.data.set('checkpoint:r1', header);
    storage.data.set('checkpoint:r1#0', '{');
    const checkpointer = new DurableObjectCheckpointer(storage);
    const invalid = (error: unknown) => WorkflowError.isInstance(error) && error.code === 'CHECKPOINT_INVALID' && /checkpoint:r1.* is damaged/.test(error.message);
    await expect(checkpointer.get('r1').catch((error: unknown) => invalid(error))).resolves.toBe(true);
    await expect(checkpointer.put({ version: 1, runId: 'r1', status: 'running', step: 0, state: {}, pending: [], updatedAt: '', revision: 4 }).catch((error: unknown) => invalid(error))).resolves.toBe(true);
    expect(await largestArrayBuilt(() => checkpointer.get('r1'))).toBeLessThanOrEqual(128);
    const graph = new StateGraph(messagesStateSchema()).addNode('a', () => ({ last_response: 'A' })).setEntryPoint('a').setFinishPoint('a').compile();
    const outcome = await graph.resume('r1', { checkpointer });
    expect(outcome.status).toBe('failed');
    expect(outcome.status === 'failed' && outcome.error).toMatchObject({ code: 'CHECKPOINT_INVALID' });
    await checkpointer.delete('r1');
    expect(storage.data.size).toBe(0);
  });

  it('DurableObjectRunStateStore: reads as none; the next revision replaces it (stray parts gone); delete removes it', async () => {
    const storage = new FakeStorage();
    const store = new DurableObjectRunStateStore(storage);
    storage.data.set('run-state:r', { parts, revision: 0 });
    storage.data.set('run-state:r#0', '{');
    storage.data.set('run-state:r#7', '}');
    expect(await store.get('r')).toBeUndefined();
    expect(await largestArrayBuilt(() => store.get('r'))).toBeLessThanOrEqual(128);
    expect(await store.put(record('r', 1))).toBe(true);
    expect([...storage.data.keys()]).toEqual(['run-state:r']);
    expect((await store.get('r'))?.revision).toBe(1);
    storage.data.set('run-state:r', header);
    storage.data.set('run-state:r#0', '{');
    await store.delete('r');
    expect(storage.data.size).toBe(0);
  });

  it('DurableTaskStore: record() and a damaged chunk are TypeErrors saying so; a write replaces a damaged record', async () => {
    const storage = new FakeStorage();
    storage.data.set('a2a:task', header);
    storage.data.set('a2a:task#1', '}');
    await expect(new DurableTaskStore(storage).record()).rejects.toThrow(/a2a:task.* is damaged/);
    expect(await largestArrayBuilt(() => new DurableTaskStore(storage).record())).toBeLessThanOrEqual(128);
    await new DurableTaskStore(storage).write(taskRecord());
    expect([...storage.data.keys()]).toEqual(['a2a:task']);
    storage.data.set('a2a:chunk:0000000000', header);
    await expect(new DurableTaskStore(storage).get('t')).rejects.toThrow(/a2a:chunk:0000000000.* is damaged/);
  });

  it('sessions: SessionStorage.load is a TypeError; DurableObjectSessionStore.load rejects naming the damage', async () => {
    const storage = new FakeStorage();
    const sessions = new SessionStorage(storage, 1 << 20);
    await sessions.append([{ role: 'user', content: 'hi' }]);
    storage.data.set('session:m:000000000000', header);
    await expect(sessions.load()).rejects.toThrow(/session:m:000000000000.* is damaged/);
    await expect(sessions.append([{ role: 'user', content: 'x'.repeat(2 << 20) }])).rejects.toThrow(TypeError); // the trim reads it
    expect(await largestArrayBuilt(() => sessions.load())).toBeLessThanOrEqual(128);

    const namespace = new FakeNamespace(createA2ADurableObject({ agent: testAgent, card: { name: 'node-agent' }, namespace: 'A2A_TASKS' }));
    const store = new DurableObjectSessionStore(namespace);
    await store.append('s', [{ role: 'user', content: 'hi' }]);
    namespace.storages.get('session:s')!.data.set('session:m:000000000000', header);
    await expect(store.load('s')).rejects.toThrow(/HTTP 500: the value stored under "session:m:000000000000" is damaged: /);
  });
});

describe('a parts header within the bound whose parts are missing', () => {
  it.each([7, MAX_PARTS])('(%i parts, one stored) is damaged, read a call of 128 keys at a time, never all at once', async (parts) => {
    const storage = new FakeStorage();
    storage.data.set('checkpoint:r1', { parts, revision: 3 });
    storage.data.set('checkpoint:r1#0', '{');
    const checkpointer = new DurableObjectCheckpointer(storage);
    await expect(checkpointer.get('r1')).rejects.toThrow(/is damaged: part 1 of its \d+ is missing/);
    expect(await largestArrayBuilt(() => checkpointer.get('r1'))).toBeLessThanOrEqual(128);
    const graph = new StateGraph(messagesStateSchema()).addNode('a', () => ({ last_response: 'A' })).setEntryPoint('a').setFinishPoint('a').compile();
    const outcome = await graph.resume('r1', { checkpointer });
    expect(outcome.status === 'failed' && outcome.error).toMatchObject({ code: 'CHECKPOINT_INVALID' });
  });

  it('a value that is neither text nor a header is damaged too', async () => {
    const storage = new FakeStorage();
    for (const [key, value] of [['a', 42], ['b', null], ['c', { revision: 1 }], ['d', [1]]] as const) {
      storage.data.set(key, value);
      await expect(getJSON(storage, key)).rejects.toThrow(/is damaged: it is .*, neither JSON text nor a parts header/);
    }
  });

  it('the writer never writes past the bound: the largest value is MAX_PARTS parts', () => {
    expect(MAX_PARTS * PART_CHARS).toBe(2 ** 29); // V8's longest string is 2^29 - 24 characters
  });
});
