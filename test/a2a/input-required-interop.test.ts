// @a2a-js/sdk 1.3.0's client against our handler, over loopback HTTP (A2A 1.0, and 0.3 with legacyCompat): a graph
// run that stops to ask reads as TASK_STATE_INPUT_REQUIRED with our interrupt metadata, the client's follow-up on the
// same task with a data part { decisions } completes it, and a wrong follow-up is a JSON-RPC error the client throws
// while the task stays input-required.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role, TaskState as JsTaskState, type Message, type Task as JsTask } from '@a2a-js/sdk';
import { createA2AHandler } from '../../src/a2a/index.js';
import { createGraphAgent, InMemoryCheckpointer } from '../../src/graph/index.js';
import { a2aJsUserMessage, createA2AJsClient, serveHandler, type ServedHandler } from '../helpers/a2a-js-client.js';
import { counters, refundGraph, type Counters } from '../graph/interrupt-fixtures.js';

function decisionsMessage(task: JsTask, decisions: unknown): Message {
  const part = { content: { $case: 'data' as const, value: { decisions } }, mediaType: 'application/json', filename: '', metadata: undefined };
  return { messageId: crypto.randomUUID(), role: Role.ROLE_USER, contextId: task.contextId, taskId: task.id, parts: [part], metadata: undefined, extensions: [], referenceTaskIds: [] };
}

describe.each([
  { version: '1.0', protocolVersions: undefined, legacy: false },
  { version: '0.3', protocolVersions: ['0.3' as const], legacy: true },
])('@a2a-js/sdk client → our handler, a task that stops to ask (A2A $version)', ({ protocolVersions, legacy }) => {
  let served: ServedHandler;
  let count: Counters;
  beforeAll(async () => {
    count = counters();
    const agent = createGraphAgent('refunds', refundGraph(count), { checkpointer: new InMemoryCheckpointer() });
    served = await serveHandler(createA2AHandler({ agent, card: { name: 'refunds' }, protocolVersions }), { port: 0 });
  });
  afterAll(async () => {
    await served.close();
  });

  it('reads input-required with the interrupt metadata, refuses a wrong follow-up, and completes on the decisions', async () => {
    const { client } = await createA2AJsClient(served.url, { legacy });
    const task = (await client.sendMessage({ message: a2aJsUserMessage('refund order 42') } as never)) as JsTask;
    expect(task.status?.state).toBe(JsTaskState.TASK_STATE_INPUT_REQUIRED);
    const own = (task.metadata as { faultline: { interrupts: Array<{ id: string; kind: string; nodeId: string }> } }).faultline;
    expect(own.interrupts).toEqual([expect.objectContaining({ kind: 'input', nodeId: 'approve' })]);
    expect((task.status?.message?.metadata as Record<string, unknown>).task_state).toBe('input-required');

    const refused = await client.sendMessage({ message: decisionsMessage(task, [{ id: 'interrupt-forged', value: { ok: true } }]) } as never).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Error);
    expect(String((refused as Error).message)).toMatch(/interrupt-forged|not waiting/i);
    expect(((await client.getTask({ id: task.id } as never)) as JsTask).status?.state).toBe(JsTaskState.TASK_STATE_INPUT_REQUIRED);

    const done = (await client.sendMessage({ message: decisionsMessage(task, [{ id: own.interrupts[0]!.id, value: { ok: true } }]) } as never)) as JsTask;
    expect(done.id).toBe(task.id);
    expect(done.status?.state).toBe(JsTaskState.TASK_STATE_COMPLETED);
    expect(count.refunds).toBe(1);
  });

  it('cancels a waiting task through the client: canceled, and its follow-up then refused', async () => {
    const { client } = await createA2AJsClient(served.url, { legacy });
    const task = (await client.sendMessage({ message: a2aJsUserMessage('refund order 43') } as never)) as JsTask;
    expect(task.status?.state).toBe(JsTaskState.TASK_STATE_INPUT_REQUIRED);
    const canceled = (await client.cancelTask({ id: task.id } as never)) as JsTask;
    expect(canceled.id).toBe(task.id);
    expect(canceled.status?.state).toBe(JsTaskState.TASK_STATE_CANCELED);
    const id = (task.metadata as { faultline: { interrupts: Array<{ id: string }> } }).faultline.interrupts[0]!.id;
    const before = count.refunds;
    const refused = await client.sendMessage({ message: decisionsMessage(task, [{ id, value: { ok: true } }]) } as never).catch((error: unknown) => error);
    expect(String((refused as Error).message)).toMatch(/not waiting on interrupts/);
    expect(count.refunds).toBe(before);
  });
});
