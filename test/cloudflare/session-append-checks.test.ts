// An append holding anything but messages (plain objects with a string role) is refused whole, with a SessionError
// naming the entry, before anything is written — by DurableObjectSessionStore before it sends, by the object when such a
// call reaches it (HTTP 400, a SessionError on the caller's side), by SessionStorage itself — so one bad turn never
// makes the conversation unreadable.
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/chat/core/types.js';
import { createA2ADurableObject } from '../../src/cloudflare/a2a-object.js';
import { callSessionObject, DurableObjectSessionStore } from '../../src/cloudflare/durable-session-store.js';
import { SessionStorage } from '../../src/cloudflare/session-storage.js';
import { SessionError } from '../../src/errors/index.js';
import { FakeNamespace, FakeStorage } from './fake-platform.js';
import { testAgent } from './node-agent.js';

const TURN: ChatMessage[] = [
  { role: 'user', content: 'my order is 1234' },
  { role: 'assistant', content: 'noted' },
];
const BAD: Array<[string, unknown, RegExp]> = [
  ['undefined', undefined, /it is undefined/],
  ['null', null, /it is null/],
  ['a number', 42, /it is 42/],
  ['a string', 'hello', /it is "hello"/],
  ['an array', [], /it is an object/],
  ['an object without a string role', { content: 'hi' }, /whose role is undefined/],
];

function deployment() {
  const namespace = new FakeNamespace(createA2ADurableObject({ agent: testAgent, card: { name: 'node-agent' }, namespace: 'A2A_TASKS' }));
  return { namespace, store: new DurableObjectSessionStore(namespace) };
}

describe.each(BAD)('an append whose second message is %s', (_name, bad, named) => {
  const turn = [{ role: 'user', content: 'and one more' }, bad] as ChatMessage[];

  it('DurableObjectSessionStore.append: a SessionError naming message 1, nothing sent, the conversation readable', async () => {
    const { namespace, store } = deployment();
    await store.append('s', TURN);
    const refused = await store.append('s', turn).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SessionError);
    expect((refused as SessionError).sessionId).toBe('s');
    expect((refused as Error).message).toMatch(/message 1 of the append is not a message/);
    expect((refused as Error).message).toMatch(named);
    expect(await store.load('s')).toEqual(TURN);
    expect([...namespace.storages.get('session:s')!.data.keys()].filter((key) => key.startsWith('session:m:'))).toHaveLength(2);
  });

  it('the object: HTTP 400 for such a call (a SessionError for the caller), nothing written', async () => {
    const { namespace, store } = deployment();
    await store.append('s', TURN);
    const refused = await callSessionObject(namespace, namespace.idFromName('session:s'), { op: 'append', messages: turn }, 's').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SessionError);
    expect((refused as Error).message).toMatch(/refused the call: message 1 of the append is not a message/);
    expect(await store.load('s')).toEqual(TURN);
  });

  it('SessionStorage.append: a SessionError, nothing written', async () => {
    const storage = new FakeStorage();
    const sessions = new SessionStorage(storage, 1_000_000);
    await sessions.append(TURN);
    await expect(sessions.append(turn)).rejects.toThrow(SessionError);
    expect(await sessions.load()).toEqual(TURN);
  });
});

it('an append that is not a list is refused the same way', async () => {
  const { store } = deployment();
  await expect(store.append('s', 'hello' as unknown as ChatMessage[])).rejects.toThrow(/the messages to append must be an array \(got "hello"\)/);
  await expect(new SessionStorage(new FakeStorage(), 1_000).append({} as unknown as ChatMessage[])).rejects.toThrow(SessionError);
});
