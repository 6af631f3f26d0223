// Every way a task store can fail — throwing synchronously, rejecting, never answering, on any save or on every one —
// never holds a task or its streams: the stream gets its final event and closes, the unary answer is the task, and a
// read that fails is a JSON-RPC error naming the kind of failure. (The Durable Object journal is tested the same way
// on a fake platform in test/cloudflare/objects.test.ts.)
import { describe, expect, it } from 'vitest';
import { createA2AHandler } from '../../src/a2a/handler.js';
import type { A2ATaskStore } from '../../src/a2a/task-store.js';
import { InMemoryA2ATaskStore } from '../../src/a2a/task-store.js';
import type { Task } from '../../src/a2a/types.js';
import { testAgent } from '../cloudflare/node-agent.js';

type Failure = 'throws' | 'rejects' | 'hangs';
type When = 'submitted' | 'working' | 'completed' | 'every';

function uselessStore(failure: Failure, when: When): A2ATaskStore {
  const inner = new InMemoryA2ATaskStore();
  return {
    get: (id) => inner.get(id),
    save(task: Task) {
      if (when !== 'every' && task.status.state !== when) return inner.save(task);
      if (failure === 'throws') throw new RangeError('value too large');
      if (failure === 'rejects') return Promise.reject(new Error('db-internal:5432 refused'));
      return new Promise<void>(() => {});
    },
  };
}

const call = (method: string, params: unknown) =>
  new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
const message = (text: string) => ({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] } });

describe('a task store that throws, rejects or never answers', () => {
  for (const failure of ['throws', 'rejects', 'hangs'] as const) {
    for (const when of ['submitted', 'working', 'completed', 'every'] as const) {
      it(`${failure} on ${when === 'every' ? 'every save' : `the ${when} save`}: the stream ends with its final event, the unary answer is the task`, async () => {
        const handler = createA2AHandler({ agent: testAgent, card: { name: 'x' }, taskStore: uselessStore(failure, when), storeTimeoutMs: 50, keepAliveMs: false });
        const streamed = await (await handler(call('message/stream', message('hello')))).text();
        const frames = streamed.split('\n\n').filter((frame) => frame.startsWith('data: ')).map((frame) => JSON.parse(frame.slice(6)).result);
        expect(frames[0].kind).toBe('task');
        expect(frames.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
        const unary = await (await handler(call('message/send', message('hello')))).json();
        expect(unary.result.status.state).toBe('completed');
      });
    }
  }

  it('answers a read that fails with a JSON-RPC error naming the kind of failure, not the store text', async () => {
    const store: A2ATaskStore = { get: async () => Promise.reject(new Error('db-internal:5432 refused')), save: async () => {} };
    const handler = createA2AHandler({ agent: testAgent, card: { name: 'x' }, taskStore: store });
    const answer = await (await handler(call('tasks/get', { id: 'task-1' }))).json();
    expect(answer.error).toEqual({ code: -32603, message: 'Internal error while handling tasks/get (Error)' });
  });
});
