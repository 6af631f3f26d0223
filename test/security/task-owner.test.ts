// An A2A task is its starter's. `userId` tells the callers of one deployment apart, and a task id travels (to a
// screen, a log, a link) — but tasks/get, tasks/cancel and tasks/resubscribe compared no user: another user holding
// the id read the task's history, followed its stream, canceled it, and, by answering its approval with the same
// decisions while the owner's own answer ran, joined that resume and read its outcome. Now a task is not there for
// anyone else (-32001 Task not found), in memory and on Durable Objects; its owner goes on as before.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createA2AHandler } from '../../src/a2a/index.js';
import { AgentBuilder, toolApprovals } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { createA2ADurableObject, createA2AWorker, DurableObjectRunStateStore } from '../../src/cloudflare/index.js';
import { defineTool } from '../../src/tools/index.js';
import { FakeNamespace } from '../cloudflare/fake-platform.js';
import { createGraphAgent, InMemoryCheckpointer } from '../../src/graph/index.js';
import { counters, refundGraph } from '../graph/interrupt-fixtures.js';

const CARD = { name: 'refunds' };
const userId = (request: Request) => request.headers.get('x-user') ?? 'anon';
const NOT_FOUND = -32001;

function refundAgent(refunded: string[], store?: DurableObjectRunStateStore) {
  const refund = defineTool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: z.object({ orderId: z.string() }),
    needsApproval: true,
    execute: async ({ orderId }) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      refunded.push(orderId);
      return { orderId, note: 'credited to card QX4111' };
    },
  });
  const model = createScriptedChatClient([(request) => (request.messages.at(-1)?.role === 'tool' ? { text: 'Refunded to card QX4111.' } : { toolCalls: [{ id: 'call_1', name: 'refund', arguments: { orderId: '42' } }] })], { loop: true });
  return new AgentBuilder('refunds').chatClient(model).tools([refund]).toolLogger(false).approvals(toolApprovals(store ? { store } : {})).build();
}

type Fetcher = (request: Request) => Promise<Response>;

const BACKENDS: Array<[string, (refunded: string[]) => Fetcher]> = [
  ['createA2AHandler', (refunded) => createA2AHandler({ agent: refundAgent(refunded), card: CARD, userId })],
  [
    'createA2AWorker + its Durable Object',
    (refunded) => {
      const namespace = new FakeNamespace(createA2ADurableObject({ agent: ({ storage }) => refundAgent(refunded, new DurableObjectRunStateStore(storage)), card: CARD, namespace: 'A2A_TASKS' }));
      const worker = createA2AWorker({ namespace: 'A2A_TASKS', card: CARD, userId });
      return (request) => worker.fetch(request, namespace.env);
    },
  ],
];

describe.each(BACKENDS)('a task of one user, %s', (_name, backend) => {
  it('is not there for another user holding its id: get, resubscribe, cancel and an answer to its approval (alone or joining the owner’s)', async () => {
    const refunded: string[] = [];
    const fetcher = backend(refunded);
    let n = 0;
    const call = async (user: string, method: string, params: unknown) => fetcher(new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json', 'x-user': user }, body: JSON.stringify({ jsonrpc: '2.0', id: ++n, method, params }) }));
    const rpc = async (user: string, method: string, params: unknown) => (await (await call(user, method, params)).json()) as { result?: Record<string, any>; error?: { code: number } };

    const task = (await rpc('alice', 'message/send', { message: { kind: 'message', messageId: 'a1', role: 'user', parts: [{ kind: 'text', text: 'Refund order 42, card QX4111' }] } })).result!;
    expect(task.status.state).toBe('input-required');
    const question = task.metadata.faultline.interrupts[0].id as string;
    const answer = (messageId: string) => ({ message: { kind: 'message', messageId, role: 'user', taskId: task.id, parts: [{ kind: 'data', data: { decisions: [{ id: question, approved: true }] } }] } });

    for (const [method, params] of [['tasks/get', { id: task.id }], ['tasks/cancel', { id: task.id }], ['message/send', answer('m1')]] as const) {
      const refused = await rpc('mallory', method, params);
      expect(refused.error?.code, method).toBe(NOT_FOUND);
      expect(JSON.stringify(refused)).not.toContain('QX4111');
    }
    const followed = await (await call('mallory', 'tasks/resubscribe', { id: task.id })).text();
    expect(followed).toContain(`"code":${NOT_FOUND}`);
    expect(followed).not.toContain('QX4111');

    // Mallory's identical answer sent while alice's runs joins nothing.
    const alices = rpc('alice', 'message/send', answer('a2'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const joined = await rpc('mallory', 'message/send', answer('m2'));
    expect(joined.error?.code).toBe(NOT_FOUND);
    expect(JSON.stringify(joined)).not.toContain('QX4111');
    expect((await alices).result?.status.state).toBe('completed');
    expect(refunded).toEqual(['42']);
    expect((await rpc('alice', 'tasks/get', { id: task.id })).result?.status.state).toBe('completed');

    // A text message of Mallory's naming the finished task tells nothing of it either (not its state).
    const probe = await rpc('mallory', 'message/send', { message: { kind: 'message', messageId: 'm3', role: 'user', taskId: task.id, parts: [{ kind: 'text', text: 'hi' }] } });
    expect(probe.error?.code).toBe(NOT_FOUND);
    expect(JSON.stringify(probe)).not.toMatch(/completed|RUN_NOT_INTERRUPTED/);
  });

  it('starts a new task for a message whose taskId is "" (a 1.0 client\'s default), as for one without', async () => {
    const fetcher = backend([]);
    const sent = await fetcher(new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json', 'x-user': 'alice' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: 'a1', role: 'user', taskId: '', parts: [{ kind: 'text', text: 'Refund order 42' }] } } }) }));
    const task = ((await sent.json()) as { result: { id: string; status: { state: string } } }).result;
    expect(task.status.state).toBe('input-required');
    expect(task.id).not.toBe('');
  });
});

describe('a task of one user, createA2AHandler with a taskStore of the app’s, read by another process (a restart)', () => {
  /** An app's store: JSON text in a map, as a database or KV would keep it. */
  function jsonStore() {
    const rows = new Map<string, string>();
    return { rows, get: async (id: string) => (rows.has(id) ? JSON.parse(rows.get(id)!) : undefined), save: async (task: { id: string }) => void rows.set(task.id, JSON.stringify(task)) };
  }
  const agent = new AgentBuilder('echo').chatClient(createScriptedChatClient([{ text: 'Your card QX4111 is noted.' }], { loop: true })).build();
  const handler = (store: ReturnType<typeof jsonStore>) => createA2AHandler({ agent, card: CARD, userId, taskStore: store });
  let n = 0;
  const call = (fetcher: Fetcher, user: string, method: string, params: unknown) =>
    fetcher(new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json', 'x-user': user }, body: JSON.stringify({ jsonrpc: '2.0', id: ++n, method, params }) }));

  it('keeps who started it with the task: the new process refuses another user, and its owner reads the task without that mark', async () => {
    const store = jsonStore();
    const started = (await (await call(handler(store), 'alice', 'message/send', { message: { kind: 'message', messageId: 'a1', role: 'user', parts: [{ kind: 'text', text: 'card QX4111' }] } })).json()).result;
    expect(started.status.state).toBe('completed');
    expect(JSON.parse(store.rows.get(started.id)!).metadata.faultline_owner).toBe('alice');
    expect(JSON.stringify(started)).not.toContain('faultline_owner');

    const restarted = handler(store); // remembers no owner: it reads the one saved with the task
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/resubscribe']) {
      const refused = await (await call(restarted, 'mallory', method, { id: started.id })).text();
      expect(refused, method).toContain(`"code":${NOT_FOUND}`);
      expect(refused).not.toContain('QX4111');
    }
    const followUp = { message: { kind: 'message', messageId: 'm1', role: 'user', taskId: started.id, parts: [{ kind: 'text', text: 'more' }] } };
    expect(await (await call(restarted, 'mallory', 'message/send', followUp)).text()).toContain(`"code":${NOT_FOUND}`);

    const own = [await (await call(restarted, 'alice', 'tasks/get', { id: started.id })).text(), await (await call(restarted, 'alice', 'tasks/resubscribe', { id: started.id })).text(), await (await call(restarted, 'alice', 'tasks/cancel', { id: started.id })).text()];
    expect(JSON.parse(own[0]!).result).toEqual(started);
    expect(own[1]).toContain('QX4111');
    expect(own[2]).toContain('"code":-32002'); // hers, and completed: not cancelable
    for (const text of own) expect(text).not.toContain('faultline_owner');
  });

  it('leaves a task saved before owners were (no mark) to anyone, as before, and keeps the owner of a canceled waiting task', async () => {
    const store = jsonStore();
    store.rows.set('task-legacy', JSON.stringify({ kind: 'task', id: 'task-legacy', contextId: 'ctx-1', status: { state: 'completed' } }));
    expect((await (await call(handler(store), 'mallory', 'tasks/get', { id: 'task-legacy' })).json()).result.id).toBe('task-legacy');

    const refunded: string[] = [];
    const approvals = createA2AHandler({ agent: refundAgent(refunded), card: CARD, userId, taskStore: store });
    const waiting = (await (await call(approvals, 'alice', 'message/send', { message: { kind: 'message', messageId: 'a2', role: 'user', parts: [{ kind: 'text', text: 'Refund order 42' }] } })).json()).result;
    expect(waiting.status.state).toBe('input-required');
    expect((await (await call(approvals, 'alice', 'tasks/cancel', { id: waiting.id })).json()).result.status.state).toBe('canceled');
    expect(JSON.parse(store.rows.get(waiting.id)!).metadata).toEqual({ faultline_owner: 'alice' });
    expect(await (await call(handler(store), 'mallory', 'tasks/get', { id: waiting.id })).text()).toContain(`"code":${NOT_FOUND}`);
  });

  it('never makes a task saved before owners were the answerer’s: its starter still reads it after another user answered', async () => {
    const store = jsonStore();
    const checkpointer = new InMemoryCheckpointer();
    const graphHandler = () => createA2AHandler({ agent: createGraphAgent('refunds', refundGraph(counters()), { checkpointer }), card: CARD, userId, taskStore: store });
    const task = (await (await call(graphHandler(), 'alice', 'message/send', { message: { kind: 'message', messageId: 'a1', role: 'user', parts: [{ kind: 'text', text: 'refund 42' }] } })).json()).result;
    expect(task.status.state).toBe('input-required');
    const row = JSON.parse(store.rows.get(task.id)!);
    delete row.metadata.faultline_owner; // as an earlier version saved it
    store.rows.set(task.id, JSON.stringify(row));
    const decisions = [{ id: task.metadata.faultline.interrupts[0].id, value: { ok: true } }];
    const answered = await (await call(graphHandler(), 'mallory', 'message/send', { message: { kind: 'message', messageId: 'm1', role: 'user', taskId: task.id, parts: [{ kind: 'data', data: { decisions } }] } })).json();
    expect(answered.result.id).toBe(task.id); // anyone's, as before (its run, alice's, is not mallory's to go on with)
    expect(JSON.parse(store.rows.get(task.id)!).metadata?.faultline_owner).toBeUndefined();
    expect((await (await call(graphHandler(), 'alice', 'tasks/get', { id: task.id })).json()).result.status.state).toBe(answered.result.status.state);
  });
});
