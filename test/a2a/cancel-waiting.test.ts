// tasks/cancel against a task's every moment around a question: while its run's input-required end is still being
// saved (the task already reads input-required), and while an answer's resume is still being decided (an approved tool
// running before the resume is accepted). The cancel wins what it comes to, answers promptly, and never reports a
// task canceled that is not.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createA2AHandler } from '../../src/a2a/index.js';
import { AgentBuilder, toolApprovals } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { defineTool } from '../../src/tools/index.js';

type JSONObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function refundAgent(toolMs: number, ran: string[]) {
  const refund = defineTool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: z.object({ orderId: z.string() }),
    needsApproval: true,
    execute: async ({ orderId }, context) => {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, toolMs);
        context?.signal?.addEventListener('abort', () => (clearTimeout(timer), resolve(undefined)), { once: true });
      });
      ran.push(orderId);
      return { orderId };
    },
  });
  const model = createScriptedChatClient([(request) => (request.messages.at(-1)?.role === 'tool' ? { text: 'Refunded.' } : { toolCalls: [{ id: 'call_1', name: 'refund', arguments: { orderId: '42' } }] })], { loop: true });
  return new AgentBuilder('refunds').chatClient(model).tools([refund]).toolLogger(false).approvals(toolApprovals({})).build();
}

let n = 0;
const rpc = async (handler: (request: Request) => Promise<Response>, method: string, params: unknown): Promise<JSONObject> =>
  (await (await handler(new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++n, method, params }) }))).json()) as JSONObject;
const ask = { message: { kind: 'message', messageId: 'a1', role: 'user', parts: [{ kind: 'text', text: 'Refund order 42' }] } };
const answer = (taskId: string, id: string) => ({ message: { kind: 'message', messageId: 'a2', role: 'user', taskId, parts: [{ kind: 'data', data: { decisions: [{ id, approved: true }] } }] } });

describe('tasks/cancel around a question', () => {
  it('cancels a task that reads input-required while its run’s end is still being saved: canceled, and it stays canceled', async () => {
    const rows = new Map<string, string>();
    const store = {
      get: async (id: string) => (rows.has(id) ? JSON.parse(rows.get(id)!) : undefined),
      save: async (task: JSONObject) => {
        if (task.status.state === 'input-required') await new Promise((resolve) => setTimeout(resolve, 300)); // a slow database
        rows.set(task.id, JSON.stringify(task));
      },
    };
    const handler = createA2AHandler({ agent: refundAgent(10, []), card: { name: 'refunds' }, taskStore: store });
    const started = (await rpc(handler, 'message/send', { ...ask, configuration: { blocking: false } })).result;
    let seen: JSONObject | undefined;
    for (let i = 0; i < 200 && seen?.status.state !== 'input-required'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      seen = (await rpc(handler, 'tasks/get', { id: started.id })).result;
    }
    expect(seen?.status.state).toBe('input-required'); // the live task; its save has not landed
    expect(rows.has(started.id) ? JSON.parse(rows.get(started.id)!).status.state : undefined).not.toBe('input-required');
    const canceled = await rpc(handler, 'tasks/cancel', { id: started.id });
    expect(canceled.result?.status.state).toBe('canceled');
    await new Promise((resolve) => setTimeout(resolve, 400)); // past any late save
    expect((await rpc(handler, 'tasks/get', { id: started.id })).result.status.state).toBe('canceled');
    expect(JSON.parse(rows.get(started.id)!).status.state).toBe('canceled');
  });

  it('answers a cancel at once while an answer’s resume is still deciding (its approved tool running), and stops that run', async () => {
    const ran: string[] = [];
    const handler = createA2AHandler({ agent: refundAgent(8_000, ran), card: { name: 'refunds' } });
    const task = (await rpc(handler, 'message/send', ask)).result;
    expect(task.status.state).toBe('input-required');
    const answering = rpc(handler, 'message/send', answer(task.id, task.metadata.faultline.interrupts[0].id));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const canceled = await rpc(handler, 'tasks/cancel', { id: task.id });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(canceled.result?.status.state).toBe('canceled');
    const answered = await answering;
    expect(answered.result?.status.state ?? answered.error).toBe('canceled');
    expect((await rpc(handler, 'tasks/get', { id: task.id })).result.status.state).toBe('canceled');
  }, 15_000);
});
