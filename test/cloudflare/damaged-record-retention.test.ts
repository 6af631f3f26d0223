// A task object whose record (a2a:task) is damaged — text that is not JSON, not a record, a missing part — is still
// deleted by its alarm once its retention is due (the record has no run to watch and no end to count from: it is due
// at once), the conversation it began with it once that is due too. A record a later version wrote is left to that
// version (after a rollback, its task is still that version's): never deleted, looked at again `retainTaskMs` later. When the task's side of the alarm fails
// (the storage fails reading the record), the conversation's retention still runs, and the alarm rejects (retried).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createA2ADurableObject } from '../../src/cloudflare/a2a-object.js';
import { createA2AWorker } from '../../src/cloudflare/a2a-worker.js';
import { FakeNamespace } from './fake-platform.js';
import { testAgent } from './node-agent.js';

const CARD = { name: 'node-agent' };
const DAY = 24 * 3600 * 1000;

afterEach(() => vi.useRealTimers());

/** A completed task whose object also holds the conversation it began (7 days' task retention, 30 days' session). */
async function finishedTask() {
  const namespace = new FakeNamespace(createA2ADurableObject({ agent: testAgent, card: CARD, namespace: 'A2A_TASKS' }));
  const worker = createA2AWorker({ namespace: 'A2A_TASKS', card: CARD });
  const params = { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'hello' }] } };
  const response = await worker.fetch(new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params }) }), namespace.env);
  const task = ((await response.json()) as { result: { id: string; status: { state: string } } }).result;
  expect(task.status.state).toBe('completed');
  const hex = task.id.slice('task-'.length);
  const storage = namespace.storages.get(hex)!;
  expect([...storage.data.keys()].some((key) => key.startsWith('session:m:'))).toBe(true);
  return { namespace, hex, storage };
}

const alarmOf = (namespace: FakeNamespace, hex: string) => namespace.object(hex).alarm().then(() => 'resolved', (error: Error) => `rejected: ${error.message}`);

describe.each([
  ['text that is not JSON', '{"v":1,"task":'],
  ['not a task record (version 1 without its fields)', JSON.stringify({ v: 1, task: { id: 'x' } })],
  ['of no version', JSON.stringify({ v: 'two', task: { id: 'x' } })],
  ['a parts header with a missing part', { parts: 3 }],
])('a task object whose record is %s', (_name, damaged) => {
  it('is cleared by its alarm, the conversation kept until its own retention ends', async () => {
    const { namespace, hex, storage } = await finishedTask();
    storage.data.set('a2a:task', damaged);
    namespace.restart();
    vi.useFakeTimers({ now: Date.now() + 8 * DAY, toFake: ['Date'] }); // past the task's 7 days, not the session's 30
    expect(await alarmOf(namespace, hex)).toBe('resolved');
    const kept = [...storage.data.keys()];
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((key) => key.startsWith('session:'))).toBe(true);
    expect(storage.alarm).toBeGreaterThan(Date.now()); // the session's end
    vi.setSystemTime(Date.now() + 30 * DAY);
    expect(await alarmOf(namespace, hex)).toBe('resolved');
    expect([...storage.data.keys()]).toEqual([]);
  });
});

it('a record a later version wrote is never deleted by this one: its alarm looks again retainTaskMs later', async () => {
  const { namespace, hex, storage } = await finishedTask();
  const later = JSON.stringify({ v: 2, task: { id: `task-${hex}` }, somethingNew: true });
  storage.data.set('a2a:task', later);
  namespace.restart();
  vi.useFakeTimers({ now: Date.now() + 60 * DAY, toFake: ['Date'] }); // past both retentions
  expect(await alarmOf(namespace, hex)).toBe('resolved');
  expect(storage.data.get('a2a:task')).toBe(later);
  expect([...storage.data.keys()].filter((key) => key.startsWith('session:'))).toEqual([]); // the conversation's own retention ran
  expect(storage.alarm).toBe(Date.now() + 7 * DAY);
  vi.setSystemTime(Date.now() + 8 * DAY);
  expect(await alarmOf(namespace, hex)).toBe('resolved');
  expect(storage.data.get('a2a:task')).toBe(later);
});

it("a task side that fails (the record cannot be read) still lets the conversation's retention run, then rejects", async () => {
  const { namespace, hex, storage } = await finishedTask();
  namespace.restart();
  storage.failKeys = /^a2a:task$/;
  vi.useFakeTimers({ now: Date.now() + 60 * DAY, toFake: ['Date'] });
  expect(await alarmOf(namespace, hex)).toMatch(/^rejected: storage get of a2a:task failed \(injected\)/);
  expect([...storage.data.keys()].filter((key) => key.startsWith('session:'))).toEqual([]);
  expect([...storage.data.keys()]).toContain('a2a:task'); // the task's own retention waits for the retry
  storage.failKeys = undefined;
  expect(await alarmOf(namespace, hex)).toBe('resolved');
  expect([...storage.data.keys()]).toEqual([]);
});
