// A session's counters in its object (`session:meta`: the next message's number, the JSON length of the messages
// kept, the last turn's time) when they are damaged: recomputed from the messages stored, so the `maxSessionBytes`
// bound holds and no message is overwritten; a damaged time makes the session due for deletion, never kept forever.
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/chat/core/types.js';
import { createA2ADurableObject } from '../../src/cloudflare/a2a-object.js';
import { DurableObjectSessionStore } from '../../src/cloudflare/durable-session-store.js';
import { SessionStorage } from '../../src/cloudflare/session-storage.js';
import { messageSize } from '../../src/agent/session-trim.js';
import { FakeNamespace, FakeStorage } from './fake-platform.js';
import { testAgent } from './node-agent.js';

const DAMAGED_COUNTS: Array<[string, unknown]> = [
  ['NaN', Number.NaN],
  ['negative', -1],
  ['not an integer', 1.5],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['a string', '5'],
  ['null', null],
];

const size = (messages: readonly ChatMessage[]) => messages.reduce((sum, message) => sum + messageSize(message), 0);

describe('damaged session counters', () => {
  it.each(DAMAGED_COUNTS)('bytes %s: the bound still holds over 30 appends of 10,000 characters (it used to be off for good)', async (_name, bytes) => {
    const storage = new FakeStorage();
    const sessions = new SessionStorage(storage, 100_000);
    await sessions.append([{ role: 'user', content: 'hi' }]);
    storage.data.set('session:meta', { v: 1, next: 1, bytes });
    for (let index = 0; index < 30; index++) await sessions.append([{ role: 'user', content: `${index} ${'x'.repeat(10_000)}` }]);
    const kept = await sessions.load();
    expect(size(kept)).toBeLessThanOrEqual(100_000);
    expect(kept.at(-1)?.content).toMatch(/^29 /);
    expect(storage.data.get('session:meta')).toMatchObject({ bytes: size(kept), next: 31 });
  });

  it.each([...DAMAGED_COUNTS, ['missing', undefined]])('next %s: later messages go after the stored ones, none overwritten', async (_name, next) => {
    const storage = new FakeStorage();
    const sessions = new SessionStorage(storage, 1 << 20);
    await sessions.append([{ role: 'user', content: 'one' }, { role: 'assistant', content: 'two' }, { role: 'user', content: 'three' }]);
    storage.data.set('session:meta', next === undefined ? { v: 1, bytes: 10 } : { v: 1, next, bytes: 10 });
    await sessions.append([{ role: 'assistant', content: 'four' }]);
    expect((await sessions.load()).map((message) => message.content)).toEqual(['one', 'two', 'three', 'four']);
    expect(storage.data.get('session:meta')).toMatchObject({ next: 4 });
  });

  it('a lost meta value (or one of another version) is recomputed the same way', async () => {
    const storage = new FakeStorage();
    const sessions = new SessionStorage(storage, 1 << 20);
    await sessions.append([{ role: 'user', content: 'one' }, { role: 'assistant', content: 'two' }]);
    for (const meta of [undefined, { v: 2, next: 0, bytes: 0 }, 'text']) {
      if (meta === undefined) storage.data.delete('session:meta');
      else storage.data.set('session:meta', meta);
      await sessions.append([{ role: 'user', content: 'more' }]);
    }
    const kept = await sessions.load();
    expect(kept.map((message) => message.content)).toEqual(['one', 'two', 'more', 'more', 'more']);
    expect(storage.data.get('session:meta')).toMatchObject({ next: 5, bytes: size(kept) });
  });

  it.each([['Infinity', Number.POSITIVE_INFINITY], ['NaN', Number.NaN], ['a string', '9999999999999']])('updatedAt %s: the session is due now, not kept forever', async (_name, updatedAt) => {
    const storage = new FakeStorage();
    const sessions = new SessionStorage(storage, 1 << 20);
    await sessions.append([{ role: 'user', content: 'hi' }]);
    storage.data.set('session:meta', { v: 1, next: 1, bytes: 20, updatedAt });
    expect(await sessions.expire(60_000, true)).toBeUndefined();
    expect(storage.data.size).toBe(0);
  });

  it('through DurableObjectSessionStore: a NaN byte count in the object does not lift maxSessionBytes', async () => {
    const namespace = new FakeNamespace(createA2ADurableObject({ agent: testAgent, card: { name: 'node-agent' }, namespace: 'A2A_TASKS', maxSessionBytes: 100_000 }));
    const store = new DurableObjectSessionStore(namespace);
    await store.append('s', [{ role: 'user', content: 'hi' }]);
    namespace.storages.get('session:s')!.data.set('session:meta', { v: 1, next: 1, bytes: Number.NaN });
    for (let index = 0; index < 30; index++) await store.append('s', [{ role: 'user', content: 'x'.repeat(10_000) }]);
    expect(size(await store.load('s'))).toBeLessThanOrEqual(100_000);
  });
});
