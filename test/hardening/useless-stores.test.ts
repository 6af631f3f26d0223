// Every way a task store can fail — throwing synchronously, rejecting, never answering, on any save or on every one —
// never holds a task or its streams: the stream gets its final event and closes, the unary answer is the task, and a
// read that fails or does not answer within storeTimeoutMs is a JSON-RPC error naming the kind of failure, and a
// cancel whose save fails leaves the task as it was. (The Durable Object journal is tested the same way
// on a fake platform in test/cloudflare/objects.test.ts.)
import { describe, expect, it } from 'vitest';
import { createA2AHandler } from '../../src/a2a/handler.js';
import type { A2ATaskStore } from '../../src/a2a/task-store.js';
import { InMemoryA2ATaskStore } from '../../src/a2a/task-store.js';
import type { Task } from '../../src/a2a/types.js';
import { testAgent } from '../cloudflare/node-agent.js';
import { createGraphAgent, InMemoryCheckpointer } from '../../src/graph/index.js';
import { counters, refundGraph } from '../graph/interrupt-fixtures.js';

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

  it('answers a read that never answers within storeTimeoutMs, for every call that reads a task', async () => {
    const store: A2ATaskStore = { get: () => new Promise(() => {}), save: async () => {} };
    const handler = createA2AHandler({ agent: testAgent, card: { name: 'x' }, taskStore: store, storeTimeoutMs: 50, keepAliveMs: false });
    const followUp = { message: { ...message('more').message, taskId: 'task-1' } };
    for (const [method, params] of [['tasks/get', { id: 'task-1' }], ['tasks/cancel', { id: 'task-1' }], ['tasks/resubscribe', { id: 'task-1' }], ['message/send', followUp], ['message/stream', followUp]] as const) {
      const started = Date.now();
      const text = await (await handler(call(method, params))).text();
      expect(text, method).toContain(`"code":-32603,"message":"Internal error while handling ${method} (TimeoutError)"`);
      expect(Date.now() - started).toBeLessThan(2_000);
    }
  });

  for (const failure of ['throws', 'rejects', 'hangs'] as const) {
    it(`${failure} on the save of a canceled waiting task: the cancel is -32603, the task still waits, and its answer is not held`, async () => {
      const inner = new InMemoryA2ATaskStore();
      const store: A2ATaskStore = {
        get: (id) => inner.get(id),
        save(task: Task) {
          if (task.status.state !== 'canceled') return inner.save(task);
          if (failure === 'throws') throw new RangeError('value too large');
          if (failure === 'rejects') return Promise.reject(new Error('db-internal:5432 refused'));
          return new Promise<void>(() => {});
        },
      };
      const count = counters();
      const agent = createGraphAgent('refunds', refundGraph(count), { checkpointer: new InMemoryCheckpointer() });
      const handler = createA2AHandler({ agent, card: { name: 'x' }, taskStore: store, storeTimeoutMs: 50 });
      const task = (await (await handler(call('message/send', message('refund order 42')))).json()).result;
      expect(task.status.state).toBe('input-required');
      const canceled = await (await handler(call('tasks/cancel', { id: task.id }))).json();
      expect(canceled.error).toMatchObject({ code: -32603, message: expect.stringMatching(/^Internal error while handling tasks\/cancel \((RangeError|Error|TimeoutError)\)$/) });
      expect(JSON.stringify(canceled)).not.toContain('db-internal');
      expect((await (await handler(call('tasks/get', { id: task.id }))).json()).result.status.state).toBe('input-required');
      const decisions = [{ id: task.metadata.faultline.interrupts[0].id, value: { ok: true } }];
      const answer = { message: { kind: 'message', messageId: 'm-2', role: 'user', taskId: task.id, parts: [{ kind: 'data', data: { decisions } }] } };
      expect((await (await handler(call('message/send', answer))).json()).result.status.state).toBe('completed');
      expect(count.refunds).toBe(1);
    });
  }
});
