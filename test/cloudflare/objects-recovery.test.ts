// Recovery of a task object in Node, on the fake platform: every way the object's storage, its agent or its run can
// fail leaves the task terminal in the end — never stuck, never looping — and its storage deleted on schedule; a task
// waiting for input (input-required) stays waiting, until its retention ends.
import { describe, expect, it, vi } from 'vitest';
import { createA2ADurableObject } from '../../src/cloudflare/a2a-object.js';
import { createA2AWorker } from '../../src/cloudflare/a2a-worker.js';
import { createGraphAgent, interrupt, messagesStateSchema, StateGraph } from '../../src/graph/index.js';
import { FakeNamespace } from './fake-platform.js';
import { testAgent } from './node-agent.js';
import { counters, refundGraph } from '../graph/interrupt-fixtures.js';
import { until } from '../helpers/async.js';

const CARD = { name: 'node-agent' };
type Options = Partial<Parameters<typeof createA2ADurableObject>[0]>;

function deployment(options: Options = {}) {
  const namespace = new FakeNamespace(createA2ADurableObject({ agent: testAgent, card: CARD, namespace: 'A2A_TASKS', ...options }));
  const worker = createA2AWorker({ namespace: 'A2A_TASKS', card: CARD });
  const rpc = async (method: string, params: unknown) =>
    (await worker.fetch(new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) }), namespace.env)).json();
  return { namespace, rpc, object: (id: string) => namespace.object(id.slice(5)), storage: (id: string) => namespace.storages.get(id.slice(5))! };
}
const message = (text: string, contextId?: string) => ({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...(contextId ? { contextId } : {}) } });
const nonBlocking = (text: string) => ({ ...message(text), configuration: { blocking: false } });
const flush = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));

/** The task's alarm, run at `now`, deletes its keys; the conversation it began (kept in its object) stays for its own retention. */
async function expectDeletedAt(d: ReturnType<typeof deployment>, taskId: string, now: number): Promise<void> {
  vi.useFakeTimers({ now, toFake: ['Date'] });
  try {
    await d.object(taskId).alarm();
  } finally {
    vi.useRealTimers();
  }
  expect([...d.storage(taskId).data.keys()].filter((key) => !key.startsWith('session:'))).toEqual([]);
  expect((await d.rpc('tasks/get', { id: taskId })).error.code).toBe(-32001);
}

/** A graph whose second node never returns until aborted (its object "dies" there); counts the runs of that node. */
function stuckGraph(counter: { runs: number }) {
  return new StateGraph(messagesStateSchema())
    .addNode('first', async () => ({ last_response: 'one' }))
    .addNode('stuck', async (_state, context) => {
      counter.runs++;
      await new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true }));
      return {};
    })
    .addEdge('first', 'stuck')
    .setEntryPoint('first')
    .setFinishPoint('stuck')
    .compile();
}

describe('task object recovery (fake platform)', () => {
  it('tries again after a storage failure during recovery, then ends the task and schedules its retention', async () => {
    const d = deployment();
    const id = (await d.rpc('message/send', nonBlocking('hang'))).result.id;
    await flush();
    const storage = d.storage(id);
    d.namespace.restart();
    storage.failOn = /^list$/;
    expect((await d.rpc('tasks/get', { id })).error).toEqual({ code: -32603, message: 'Internal error while handling tasks/get (Error)' });
    storage.failOn = undefined;
    storage.alarm = null;
    const read = (await d.rpc('tasks/get', { id })).result;
    expect(read.metadata.error_code).toBe('TASK_ABANDONED');
    expect(storage.alarm).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000); // retention: its storage will go
  });

  it('recovers from its alarm alone (nothing runs when the object is built)', async () => {
    const d = deployment();
    const id = (await d.rpc('message/send', nonBlocking('hang'))).result.id;
    await flush();
    const storage = d.storage(id);
    d.namespace.restart();
    const object = d.object(id);
    await flush();
    expect(JSON.parse(storage.data.get('a2a:task') as string).task.status.state).toBe('working'); // built, not yet recovered
    await object.alarm();
    expect(JSON.parse(storage.data.get('a2a:task') as string).task.metadata.error_code).toBe('TASK_ABANDONED');
  });

  it('resumes a task at most maxResumes times, then ends it TASK_ABANDONED saying so', async () => {
    const counter = { runs: 0 };
    const d = deployment({ agent: ({ checkpointer }) => createGraphAgent('g', stuckGraph(counter), { checkpointer }), maxResumes: 3 });
    const id = (await d.rpc('message/send', nonBlocking('go'))).result.id;
    await until(() => counter.runs === 1, 10_000, 'the first run to reach its stuck node');
    const state = async () => (await d.rpc('tasks/get', { id })).result.status.state;
    for (let restart = 0; restart < 6; restart++) {
      const before = counter.runs;
      d.namespace.restart(); // the step kills its object every time (a CPU or memory limit)
      await d.object(id).alarm();
      await until(async () => counter.runs > before || (await state()) === 'failed', 10_000, `restart ${restart} to resume or end the task`);
    }
    const read = (await d.rpc('tasks/get', { id })).result;
    expect(counter.runs).toBe(4); // the first run and three resumes
    expect(read.status.state).toBe('failed');
    expect(read.metadata.error_code).toBe('TASK_ABANDONED');
    expect(read.metadata.error_message).toMatch(/it had already been resumed 3 times/);
  });

  it('resumes when the checkpoint cannot be read, and the run ends with the typed checkpoint error', async () => {
    const counter = { runs: 0 };
    const d = deployment({ agent: ({ checkpointer }) => createGraphAgent('g', stuckGraph(counter), { checkpointer }) });
    const id = (await d.rpc('message/send', nonBlocking('go'))).result.id;
    await until(() => counter.runs === 1, 10_000, 'the run to reach its stuck node');
    d.namespace.restart();
    d.storage(id).failKeys = /^checkpoint:/;
    await d.object(id).alarm();
    const read = await until(async () => {
      const task = (await d.rpc('tasks/get', { id })).result;
      return task.status.state !== 'working' && task;
    }, 10_000, 'the resumed task to end');
    expect(read.status.state).toBe('failed');
    expect(read.metadata.error_code).toBe('CHECKPOINT_FAILED'); // it tried: not abandoned for a read that failed
  });

  it('answers tasks/* from storage when a new deploy cannot build the agent, and abandons a task it cannot resume', async () => {
    const broken = { now: false };
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const d = deployment({
        agent: () => {
          if (broken.now) throw new TypeError('missing OPENAI binding');
          return testAgent;
        },
      });
      const done = (await d.rpc('message/send', message('hello'))).result;
      const running = (await d.rpc('message/send', nonBlocking('hang'))).result.id;
      await flush();
      broken.now = true;
      d.namespace.restart();
      expect((await d.rpc('tasks/get', { id: done.id })).result.status).toEqual(done.status);
      const abandoned = (await d.rpc('tasks/get', { id: running })).result;
      expect(abandoned.metadata.error_code).toBe('TASK_ABANDONED');
      expect(abandoned.metadata.error_message).toMatch(/it had no checkpoint to resume from/); // nothing to wait for the agent for
      expect((await d.rpc('message/send', message('again'))).error.message).toMatch(/^The agent of this A2A deployment could not be set up \(TypeError\)/);
    } finally {
      error.mockRestore();
    }
  });

  it('leaves an input-required task waiting through a restart and its alarm (not resumed, not abandoned), deleting it retainTaskMs after it began to wait', async () => {
    const count = counters();
    const d = deployment({ agent: ({ checkpointer }) => createGraphAgent('refunds', refundGraph(count), { checkpointer }), retainTaskMs: 60_000 });
    const task = (await d.rpc('message/send', message('refund'))).result;
    expect(task.status.state).toBe('input-required');
    const storage = d.storage(task.id);
    d.namespace.restart();
    await d.object(task.id).alarm();
    await flush(30);
    const read = (await d.rpc('tasks/get', { id: task.id })).result;
    expect(read.status).toEqual(task.status);
    expect(count.before).toBe(1); // its run was not started again
    expect(storage.alarm).toBe(Date.parse(task.status.timestamp) + 60_000);
    await expectDeletedAt(d, task.id, Date.parse(task.status.timestamp) + 60_001);
  });

  it('cancels an input-required task: canceled through a restart, no answer resumes it, deleted retainTaskMs after the cancel', async () => {
    const count = counters();
    const d = deployment({ agent: ({ checkpointer }) => createGraphAgent('refunds', refundGraph(count), { checkpointer }), retainTaskMs: 60_000 });
    const task = (await d.rpc('message/send', message('refund'))).result;
    expect(task.status.state).toBe('input-required');
    const canceled = (await d.rpc('tasks/cancel', { id: task.id })).result;
    expect(canceled).toMatchObject({ id: task.id, status: { state: 'canceled' } });
    expect(canceled.metadata?.faultline).toBeUndefined();
    const storage = d.storage(task.id);
    d.namespace.restart();
    await d.object(task.id).alarm();
    expect((await d.rpc('tasks/get', { id: task.id })).result).toEqual(canceled);
    expect((await d.rpc('tasks/cancel', { id: task.id })).error.code).toBe(-32002);
    const decisions = [{ id: task.metadata.faultline.interrupts[0].id, value: { ok: true } }];
    const answer = await d.rpc('message/send', { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', taskId: task.id, parts: [{ kind: 'data', data: { decisions } }] } });
    expect(answer.error).toMatchObject({ code: -32602, data: { code: 'RUN_NOT_INTERRUPTED', taskState: 'canceled' } });
    expect(count).toMatchObject({ before: 1, after: 0, refunds: 0 });
    const ends = Date.parse(canceled.status.timestamp) + 60_000;
    expect(storage.alarm).toBe(ends);
    await expectDeletedAt(d, task.id, ends + 1);
  });

  it('recovers a task whose object died during the resume its answer started as that resume: the answer never becomes a user turn', async () => {
    const counter = { runs: 0 };
    const graph = new StateGraph(messagesStateSchema())
      .addNode('ask', (_state, context) => {
        interrupt(context, { refund: 30 });
        return { last_response: 'approved' };
      })
      .addNode('pay', async (_state, context) => {
        if (++counter.runs === 1) await new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true })); // its object dies here
        return { last_response: 'refunded' };
      })
      .addEdge('ask', 'pay')
      .setEntryPoint('ask')
      .setFinishPoint('pay')
      .compile();
    const d = deployment({ agent: ({ checkpointer }) => createGraphAgent('refunds', graph, { checkpointer }) });
    const task = (await d.rpc('message/send', message('refund order 42'))).result;
    expect(task.status.state).toBe('input-required');
    const decisions = [{ id: task.metadata.faultline.interrupts[0].id, value: "yes" }];
    const follow = { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', taskId: task.id, parts: [{ kind: 'data', data: { decisions } }] }, configuration: { blocking: false } };
    const followed = await d.rpc('message/send', follow);
    expect(followed.result?.status.state, JSON.stringify(followed)).toBe('working');
    await until(() => counter.runs === 1, 10_000, 'the resume to reach its paying node');
    d.namespace.restart();
    await d.object(task.id).alarm();
    const read = await until(async () => {
      const now = (await d.rpc('tasks/get', { id: task.id })).result;
      return now.status.state !== 'working' && now;
    }, 10_000, 'the recovered task to end');
    expect(read.status).toMatchObject({ state: 'completed', message: { parts: [{ kind: 'text', text: 'refunded' }] } });
    expect(counter.runs).toBe(2);
    expect(read.history.map((entry: { role: string }) => entry.role)).toEqual(['user', 'agent', 'user', 'agent']); // the question, its answer, once each
    // The conversation holds the user's one turn, never the answer's `{"decisions":…}` as a second one.
    const kept = [...d.storage(task.id).data.entries()].filter(([key]) => key.startsWith('session:m:')).map(([, value]) => String(value));
    expect(kept.join('\n')).toContain('refund order 42');
    expect(kept.join('\n')).not.toContain('decisions');
  });

  it('folds a long stream into the record every 256 chunks: its chunk keys stay bounded', async () => {
    const d = deployment();
    const task = (await d.rpc('message/send', message('chunks 1000'))).result;
    expect(task.status.state).toBe('completed');
    const storage = d.storage(task.id);
    expect(storage.peak.keys).toBeGreaterThan(0);
    expect(storage.peak.keys).toBeLessThanOrEqual(256);
    expect([...storage.data.keys()].filter((key) => key.startsWith('a2a:chunk:'))).toEqual([]);
    expect((await d.rpc('tasks/get', { id: task.id })).result.artifacts[0].parts[0].text).toBe(Array.from({ length: 1000 }, (_, index) => `c${index} `).join(''));
  });

  it('deletes a session retainSessionMs after its last turn, from the session object\'s own alarm', async () => {
    const d = deployment({ retainSessionMs: 1 });
    const contextId = 'ctx-retained';
    await d.rpc('message/send', message('hello', contextId));
    const [name, storage] = [...d.namespace.storages.entries()].find(([key]) => key.startsWith('session:')) as [string, ReturnType<typeof d.storage>];
    expect(storage.alarm).not.toBeNull(); // set by the append
    expect(storage.data.size).toBeGreaterThan(0);
    await flush(5);
    await d.namespace.object(name).alarm();
    expect(storage.data.size).toBe(0);
    const history = JSON.parse((await d.rpc('message/send', message('history', contextId))).result.status.message.parts[0].text);
    expect(history).toEqual([]); // a new conversation under the same id
  });

  it('keeps a session whose last turn is recent, moving its alarm to the end of its retention', async () => {
    const d = deployment({ retainSessionMs: 60_000 });
    await d.rpc('message/send', message('hello', 'ctx-kept'));
    const [name, storage] = [...d.namespace.storages.entries()].find(([key]) => key.startsWith('session:')) as [string, ReturnType<typeof d.storage>];
    storage.alarm = null;
    await d.namespace.object(name).alarm();
    expect(storage.data.size).toBeGreaterThan(0);
    expect(storage.alarm).toBeGreaterThan(Date.now() + 50_000);
  });
});
