// A2A input-required on Durable Objects, in workerd (miniflare): createA2ADurableObject + createA2AWorker served by
// two Worker scripts (two isolates) over one object class, its storage persisted across a stop and a start. A run that
// stops to ask — an agent's tool that needs approval, a checkpointed graph's interrupt() — ends its task
// input-required with metadata.faultline naming the interrupts; the task stays waiting across a restart (never
// abandoned), and a follow-up { decisions } through the other isolate resumes the same run: the side effect runs once,
// 20 concurrent identical answers through both isolates read the one outcome, conflicting ones are refused
// (-32602 RESUME_CONFLICT, or RUN_NOT_INTERRUPTED once the task ended), a wrong id or an expired approval is refused
// -32602 with the task still waiting.
import { describe, expect, it } from 'vitest';
import { twoFrontsSuite } from './two-fronts.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RPC = { result?: any; error?: { code: number; message: string; data?: any } };

const suite = twoFrontsSuite<RPC>({ worker: 'input-objects.mjs', binding: 'A2A_TASKS', className: 'A2ATasks', host: '127.0.0.1', method: 'POST' });
type Deployment = Awaited<ReturnType<typeof suite.deploy>>;

let n = 0;
const rpc = (d: Deployment, front: 1 | 2, method: string, params: unknown) => d.call(front, '/', { jsonrpc: '2.0', id: ++n, method, params });
const ask = () => ({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'refund order 42' }] } });
const answer = (taskId: string, decisions: unknown) => ({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', taskId, parts: [{ kind: 'data', data: { decisions } }] } });
const hits = (path: string) => suite.probe.hits.get(`/${path}`) ?? 0;
const state = async (d: Deployment, front: 1 | 2, id: string) => (await rpc(d, front, 'tasks/get', { id })).result?.status?.state;

describe('A2A input-required on Durable Objects', () => {
  it('keeps an approval-waiting task input-required across a restart and completes it through the other isolate, refunding once', async () => {
    suite.probe.hits.clear();
    const persist = suite.path('approval-restart');
    let d = await suite.deploy(persist, { MODE: 'approval' });
    let task: any;
    try {
      const first = await rpc(d, 1, 'message/send', ask());
      task = first.result;
      expect(task.status.state).toBe('input-required');
      expect(task.metadata.task_state).toBe('input-required');
      expect(task.metadata.faultline).toMatchObject({ runId: expect.any(String), interruptCount: 1, interrupts: [{ kind: 'approval', toolName: 'refund', toolCallId: 'call_refund' }] });
      expect(task.status.message.metadata.faultline).toEqual(task.metadata.faultline);
      expect(JSON.stringify(task)).not.toContain('"amount"'); // the tool call's arguments never leave
    } finally {
      await d.dispose(); // the process stops; the task and its pending run are in the object's storage
    }
    d = await suite.deploy(persist, { MODE: 'approval' });
    try {
      const got = (await rpc(d, 2, 'tasks/get', { id: task.id })).result;
      expect(got).toMatchObject({ id: task.id, status: { state: 'input-required' }, metadata: { faultline: task.metadata.faultline } });
      const id = task.metadata.faultline.interrupts[0].id;
      const done = (await rpc(d, 2, 'message/send', answer(task.id, [{ id, approved: true }]))).result;
      expect(done).toMatchObject({ id: task.id, contextId: task.contextId, status: { state: 'completed', message: { parts: [{ kind: 'text', text: 'ok,ok' }] } } });
      expect(done.metadata?.faultline).toBeUndefined();
      expect(hits('tool/refund')).toBe(1);
      expect(await state(d, 1, task.id)).toBe('completed');
      const again = await rpc(d, 1, 'message/send', answer(task.id, [{ id, approved: true }]));
      expect(again.error).toMatchObject({ code: -32602, data: { type: 'resume', code: 'RUN_NOT_INTERRUPTED', taskState: 'completed' } });
      expect(hits('tool/refund')).toBe(1);
    } finally {
      await d.dispose();
    }
  }, 90_000);

  it('refuses a wrong id, a plain text answer and an unknown task with typed errors; the task stays waiting and answerable', async () => {
    suite.probe.hits.clear();
    const d = await suite.deploy(suite.path('refusals'), { MODE: 'approval' });
    try {
      const task = (await rpc(d, 1, 'message/send', ask())).result;
      const id = task.metadata.faultline.interrupts[0].id;
      const wrong = await rpc(d, 2, 'message/send', answer(task.id, [{ id: 'approval-nope', approved: true }]));
      expect(wrong.error).toMatchObject({ code: -32602, data: { type: 'resume', code: 'INTERRUPT_NOT_FOUND', taskState: 'input-required' } });
      const text = await rpc(d, 1, 'message/send', { message: { ...ask().message, taskId: task.id } });
      expect(text.error).toMatchObject({ code: -32602, data: { code: 'RESUME_PAYLOAD_INVALID' }, message: expect.stringContaining('{ "decisions": [...] }') });
      const forged = `task-${'0'.repeat(64)}`;
      expect((await rpc(d, 2, 'message/send', answer(forged, [{ id, approved: true }]))).error).toMatchObject({ code: -32001 });
      expect((await rpc(d, 2, 'message/send', answer('task-nope', [{ id, approved: true }]))).error).toMatchObject({ code: -32001 });
      const got = (await rpc(d, 2, 'tasks/get', { id: task.id })).result;
      expect(got.status.state).toBe('input-required');
      expect(got.history).toHaveLength(task.history.length);
      expect(hits('tool/refund')).toBe(0);
      expect((await rpc(d, 2, 'message/send', answer(task.id, [{ id, approved: true }]))).result.status.state).toBe('completed');
      expect(hits('tool/refund')).toBe(1);
      const plain = await rpc(d, 1, 'message/send', { message: { ...ask().message, taskId: task.id } });
      expect(plain.error).toMatchObject({ code: -32602, data: { code: 'RUN_NOT_INTERRUPTED', taskState: 'completed' } });
    } finally {
      await d.dispose();
    }
  }, 90_000);

  it('answers 20 concurrent identical resumes through both isolates with the one outcome, refunding once; conflicting ones are refused', async () => {
    suite.probe.hits.clear();
    const d = await suite.deploy(suite.path('concurrent'), { MODE: 'approval' });
    try {
      const task = (await rpc(d, 1, 'message/send', ask())).result;
      const id = task.metadata.faultline.interrupts[0].id;
      const same = await Promise.all(Array.from({ length: 20 }, (_, index) => rpc(d, index % 2 === 0 ? 1 : 2, 'message/send', answer(task.id, [{ id, approved: true }]))));
      for (const each of same) expect(each.result).toMatchObject({ id: task.id, status: { state: 'completed', message: { parts: [{ text: 'ok,ok' }] } } });
      expect(new Set(same.map((each) => each.result.status.timestamp)).size).toBe(1); // one run's answer, not twenty
      expect(hits('tool/refund')).toBe(1);

      const other = (await rpc(d, 2, 'message/send', ask())).result;
      const otherId = other.metadata.faultline.interrupts[0].id;
      const mixed = await Promise.all(
        Array.from({ length: 20 }, (_, index) => {
          const approved = index % 4 < 2;
          return rpc(d, index % 2 === 0 ? 1 : 2, 'message/send', answer(other.id, [approved ? { id: otherId, approved: true } : { id: otherId, approved: false, reason: 'no' }])).then((reply) => ({ approved, reply }));
        }),
      );
      const answered = mixed.filter((each) => each.reply.result !== undefined);
      const winner = answered[0]!.approved;
      expect(answered.every((each) => each.approved === winner && each.reply.result.status.state === 'completed')).toBe(true);
      for (const each of mixed.filter((one) => one.approved !== winner)) {
        expect(each.reply.error).toMatchObject({ code: -32602, data: { type: 'resume', code: expect.stringMatching(/^(RESUME_CONFLICT|RUN_NOT_INTERRUPTED)$/) } });
      }
      expect(hits('tool/refund')).toBe(winner ? 2 : 1);
      expect(await state(d, 1, other.id)).toBe('completed');
    } finally {
      await d.dispose();
    }
  }, 90_000);

  it('refuses an expired approval with INTERRUPT_EXPIRED, the task still waiting; an answer without decisions completes it, nothing refunded', async () => {
    suite.probe.hits.clear();
    const d = await suite.deploy(suite.path('expiry'), { MODE: 'approval', EXPIRES_MS: '300' });
    try {
      const task = (await rpc(d, 1, 'message/send', ask())).result;
      const id = task.metadata.faultline.interrupts[0].id;
      expect(task.metadata.faultline.interrupts[0].expiresAt).toEqual(expect.any(String));
      await new Promise((resolve) => setTimeout(resolve, 400));
      const late = await rpc(d, 2, 'message/send', answer(task.id, [{ id, approved: true }]));
      expect(late.error).toMatchObject({ code: -32602, data: { type: 'resume', code: 'INTERRUPT_EXPIRED', taskState: 'input-required' } });
      expect(await state(d, 1, task.id)).toBe('input-required');
      const done = (await rpc(d, 1, 'message/send', answer(task.id, []))).result;
      expect(done.status).toMatchObject({ state: 'completed', message: { parts: [{ text: 'ToolApprovalExpired,ok' }] } });
      expect(hits('tool/refund')).toBe(0);
    } finally {
      await d.dispose();
    }
  }, 90_000);

  it('keeps a graph interrupt() input-required across a restart and resumes it from its checkpoint through the other isolate, once', async () => {
    suite.probe.hits.clear();
    const persist = suite.path('graph-restart');
    let d = await suite.deploy(persist, { MODE: 'graph' });
    let task: any;
    try {
      task = (await rpc(d, 1, 'message/send', ask())).result;
      expect(task.status.state).toBe('input-required');
      expect(task.metadata.faultline).toMatchObject({ interruptCount: 1, interrupts: [{ kind: 'input', nodeId: 'approve', value: { refund: 30 } }] });
    } finally {
      await d.dispose();
    }
    d = await suite.deploy(persist, { MODE: 'graph' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 700)); // past a heartbeat: an alarm would have run recovery by now
      expect(await state(d, 2, task.id)).toBe('input-required');
      const id = task.metadata.faultline.interrupts[0].id;
      const replies = await Promise.all(Array.from({ length: 20 }, (_, index) => rpc(d, index % 2 === 0 ? 1 : 2, 'message/send', answer(task.id, [{ id, value: { ok: true } }]))));
      for (const reply of replies) expect(reply.result).toMatchObject({ id: task.id, status: { state: 'completed', message: { parts: [{ text: 'refunded 30' }] } } });
      expect(hits('node/after')).toBe(1);
      expect(hits('node/before')).toBe(2); // the run up to interrupt(), then the resumed step
    } finally {
      await d.dispose();
    }
  }, 90_000);
});
