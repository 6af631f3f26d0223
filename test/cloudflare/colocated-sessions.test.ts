// A conversation the server begins lives in its first task's object (Node, fake platform): one object per new
// conversation, later turns reach its session there, a contextId naming an object that did not claim that exact
// session is a fresh conversation of its own, and the task's retention leaves the conversation in place.
import { describe, expect, it, vi } from 'vitest';
import { createA2ADurableObject } from '../../src/cloudflare/a2a-object.js';
import { createA2AWorker } from '../../src/cloudflare/a2a-worker.js';
import { FakeNamespace } from './fake-platform.js';
import { testAgent } from './node-agent.js';

const CARD = { name: 'node-agent' };

function deployment(options: Partial<Parameters<typeof createA2ADurableObject>[0]> = {}) {
  const namespace = new FakeNamespace(createA2ADurableObject({ agent: testAgent, card: CARD, namespace: 'A2A_TASKS', ...options }));
  const worker = createA2AWorker({ namespace: 'A2A_TASKS', card: CARD, userId: (request) => request.headers.get('x-user') ?? 'anon' });
  const send = async (text: string, contextId?: string, user = 'alice') => {
    const params = { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...(contextId ? { contextId } : {}) } };
    const response = await worker.fetch(new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json', 'x-user': user }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params }) }), namespace.env);
    return ((await response.json()) as { result: any }).result;
  };
  const history = async (contextId: string, user = 'alice'): Promise<string[]> => JSON.parse((await send('history', contextId, user)).status.message.parts[0].text);
  const hexOf = (id: string) => id.slice(id.indexOf('-') + 1);
  return { namespace, send, history, storage: (id: string) => namespace.storages.get(hexOf(id))!, object: (id: string) => namespace.object(hexOf(id)) };
}

describe('a conversation kept in the object of the task that began it', () => {
  it('creates one object for a new conversation (its contextId names it), two for a client-named one', async () => {
    const d = deployment();
    const task = await d.send('hello');
    expect(task.contextId).toBe(`ctx-${task.id.slice('task-'.length)}`);
    expect([...d.namespace.storages.keys()]).toEqual([task.id.slice('task-'.length)]);
    expect([...d.storage(task.id).data.keys()].filter((key) => key.startsWith('session:m:'))).toHaveLength(2);
    await d.send('hello', 'ctx-from-the-client');
    expect([...d.namespace.storages.keys()].filter((key) => key.startsWith('session:'))).toEqual(['session:node-agent/alice/ctx-from-the-client']);
  });

  it('gives later turns, in objects of their own, the history — through restarts — and keeps concurrent turns', async () => {
    const d = deployment();
    const { contextId } = await d.send('hello');
    d.namespace.restart();
    expect(await d.history(contextId)).toEqual(['user:hello', 'assistant:echo hello']);
    await Promise.all(Array.from({ length: 20 }, (_, index) => d.send(`turn ${index}`, contextId)));
    const seen = await d.history(contextId);
    expect(seen).toHaveLength(2 + 2 + 40); // hello, the first history question, 20 turns
    for (let index = 0; index < 20; index++) expect(seen.indexOf(`assistant:ok turn ${index}`)).toBe(seen.indexOf(`user:turn ${index}`) + 1);
    expect([...d.namespace.storages.keys()].filter((key) => key.startsWith('session:'))).toEqual([]); // no session object
  });

  it('treats a contextId naming an object that did not claim that session as a fresh conversation of its own', async () => {
    const d = deployment();
    const { id, contextId } = await d.send('private words');
    const victim = d.storage(id);
    const before = { data: structuredClone([...victim.data]), alarm: victim.alarm };
    // another user with the same contextId; a task's id as a contextId; an id this namespace never minted
    expect(await d.history(contextId, 'mallory')).toEqual([]);
    expect(await d.history(`ctx-${'f'.repeat(64)}`, 'mallory')).toEqual([]);
    const begunByClient = await d.send('hello', 'ctx-by-client');
    expect(await d.history(`ctx-${begunByClient.id.slice('task-'.length)}`)).toEqual([]);
    expect([...victim.data]).toEqual(before.data); // nothing read into, nothing written to, the victim's object
    expect(victim.alarm).toBe(before.alarm);
    expect(d.namespace.storages.has(`session:node-agent/mallory/${contextId}`)).toBe(true); // mallory's own session
    expect(await d.history(contextId)).toEqual(['user:private words', 'assistant:echo private words']);
    const direct = await d.object(id).fetch(new Request('https://faultline.internal/faultline/session', { method: 'POST', body: JSON.stringify({ op: 'load', key: `node-agent/mallory/${contextId}` }) }));
    expect([direct.status, await direct.json()]).toEqual([404, { owned: false }]);
  });

  it('keeps the conversation when its task is deleted, then deletes it retainSessionMs after its last turn', async () => {
    const d = deployment({ retainTaskMs: 1, retainSessionMs: 60_000 });
    const { id, contextId } = await d.send('hello');
    await new Promise((resolve) => setTimeout(resolve, 5));
    await d.object(id).alarm();
    const storage = d.storage(id);
    expect([...storage.data.keys()].every((key) => key.startsWith('session:'))).toBe(true);
    expect(storage.alarm).toBeGreaterThan(Date.now() + 50_000); // the session's retention
    expect(await d.history(contextId)).toEqual(['user:hello', 'assistant:echo hello']);
    vi.useFakeTimers({ now: Date.now() + 60_001, toFake: ['Date'] });
    try {
      await d.object(id).alarm();
    } finally {
      vi.useRealTimers();
    }
    expect(storage.data.size).toBe(0);
  });

  it('ends a task failed, naming the session, when the session kept in its object cannot be saved', async () => {
    const d = deployment();
    const next = (d.namespace as unknown as { unique: number }).unique + 1;
    d.namespace.object(next.toString(16).padStart(64, '0'));
    d.namespace.storages.get(next.toString(16).padStart(64, '0'))!.failKeys = /^session:m:/;
    const task = await d.send('hello');
    expect(task.status.state).toBe('failed');
    expect(task.metadata.error_message).toBe(`Could not save session "${task.contextId}": storage put of session:m:000000000000 failed (injected)`);
  });
});
