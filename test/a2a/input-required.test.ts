// A task whose run stops to ask (a graph agent's interrupt()): it ends input-required — not failed — its status
// message and metadata naming the pending interrupts under the `faultline` key beside tRPC's task_state, bounded and
// without arguments or planted secrets; a follow-up message/send or message/stream on the same task carrying
// { decisions } in a data part resumes it through the Runner's resume (the side effect runs once); a wrong resume is a
// JSON-RPC error (-32602, data { type: 'resume', code }) and the task stays input-required, answerable; concurrent
// identical follow-ups share the one resumed run, conflicting ones are refused RESUME_CONFLICT; a non-blocking
// follow-up is answered at once, as a non-blocking new task is.
import { describe, expect, it } from 'vitest';
import { createA2AHandler, InMemoryA2ATaskStore } from '../../src/a2a/index.js';
import { createGraphAgent, END, InMemoryCheckpointer, interrupt, START, StateGraph, StateSchema } from '../../src/graph/index.js';
import { counters, refundGraph } from '../graph/interrupt-fixtures.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type JSONObject = Record<string, any>;
const ORIGIN = 'http://127.0.0.1:41241';
const SECRET = 'sk-live-PLANTEDsecret0123456789abcdef';

function setup() {
  const count = counters();
  const checkpointer = new InMemoryCheckpointer();
  const handler = createA2AHandler({ agent: createGraphAgent('refunds', refundGraph(count), { checkpointer }), card: { name: 'refunds' }, taskStore: new InMemoryA2ATaskStore() });
  return { count, handler };
}

async function rpc(handler: (request: Request) => Promise<Response>, method: string, params: unknown): Promise<Response> {
  return handler(new Request(`${ORIGIN}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) }));
}

async function send(handler: (request: Request) => Promise<Response>, message: JSONObject): Promise<JSONObject> {
  return (await (await rpc(handler, 'message/send', { message })).json()) as JSONObject;
}

const ask = (text = 'refund order 42') => ({ kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text }] });
const answer = (taskId: string, decisions: unknown, messageId = 'm-2') => ({ kind: 'message', messageId, role: 'user', taskId, parts: [{ kind: 'data', data: { decisions } }] });

describe('an A2A task whose run stops to ask', () => {
  it('ends input-required, its status message naming the interrupt under metadata.faultline beside task_state', async () => {
    const { handler } = setup();
    const { result: task } = await send(handler, ask());
    expect(task.status.state).toBe('input-required');
    const own = task.status.message.metadata.faultline;
    expect(task.status.message.metadata.task_state).toBe('input-required');
    expect(own).toMatchObject({ runId: expect.any(String), interruptCount: 1, interrupts: [{ kind: 'input', nodeId: 'approve', value: { refund: 30 }, responseSchema: { type: 'object' } }] });
    expect(task.metadata.faultline).toEqual(own);
    expect(task.status.message.parts[0].text).toMatch(/waits on an answer for approve \(interrupt-.*\)\. Answer with a message on this task holding a data part/);
    const got = (await (await rpc(handler, 'tasks/get', { id: task.id })).json()) as JSONObject;
    expect(got.result.status.state).toBe('input-required');
  });

  it('resumes on a follow-up message/send with the decisions: the same task completes, the side effect ran once', async () => {
    const { count, handler } = setup();
    const { result: task } = await send(handler, ask());
    const id = task.metadata.faultline.interrupts[0].id;
    const { result: done } = await send(handler, answer(task.id, [{ id, value: { ok: true } }]));
    expect(done).toMatchObject({ id: task.id, contextId: task.contextId, status: { state: 'completed' } });
    expect(done.metadata?.faultline).toBeUndefined();
    expect(done.history.map((message: JSONObject) => message.messageId)).toEqual(expect.arrayContaining(['m-1', 'm-2']));
    expect(count).toMatchObject({ after: 1, refunds: 1 });
  });

  it('answers a non-blocking follow-up (configuration.blocking false) at once, working, while the resumed run goes on', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const graph = new StateGraph(new StateSchema().addField('answer'))
      .addNode('ask', (_state, context) => ({ answer: interrupt(context, { refund: 30 }) }))
      .addNode('pay', async () => {
        await gate;
        return {};
      })
      .addEdge(START, 'ask')
      .addEdge('ask', 'pay')
      .addEdge('pay', END)
      .compile();
    const handler = createA2AHandler({ agent: createGraphAgent('refunds', graph, { checkpointer: new InMemoryCheckpointer() }), card: { name: 'refunds' } });
    const { result: task } = await send(handler, ask());
    const id = task.metadata.faultline.interrupts[0].id;
    const reply = (await (await rpc(handler, 'message/send', { message: answer(task.id, [{ id, value: 'yes' }]), configuration: { blocking: false } })).json()) as JSONObject;
    expect(reply.result).toMatchObject({ id: task.id, status: { state: 'working' } }); // the run waits at the gate, the answer does not
    release();
    for (let tries = 0; tries < 100; tries++) {
      const got = (await (await rpc(handler, 'tasks/get', { id: task.id })).json()) as JSONObject;
      if (got.result.status.state !== 'working') break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(((await (await rpc(handler, 'tasks/get', { id: task.id })).json()) as JSONObject).result.status.state).toBe('completed');
  });

  it('resumes on a follow-up message/stream: working, then the final completed status', async () => {
    const { count, handler } = setup();
    const { result: task } = await send(handler, ask());
    const id = task.metadata.faultline.interrupts[0].id;
    const response = await rpc(handler, 'message/stream', { message: answer(task.id, [{ id, value: { ok: true } }]) });
    const frames = (await response.text()).split('\n\n').filter((frame) => frame !== '').map((frame) => JSON.parse(frame.slice('data: '.length)) as JSONObject);
    const states = frames.map((frame) => frame.result.status?.state).filter(Boolean);
    expect(states[0]).toBe('working');
    expect(states.at(-1)).toBe('completed');
    expect(frames.at(-1)!.result.final).toBe(true);
    expect(count.refunds).toBe(1);
  });

  it('answers concurrent identical follow-ups with the one resumed run and refuses conflicting ones (RESUME_CONFLICT)', async () => {
    const { count, handler } = setup();
    const { result: task } = await send(handler, ask());
    const id = task.metadata.faultline.interrupts[0].id;
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, index) => send(handler, answer(task.id, [{ id, value: { ok: index % 4 !== 3 } }], `m-${index + 10}`)).then((reply) => ({ ok: index % 4 !== 3, reply }))),
    );
    const winner = replies.find((each) => each.reply.result)!.ok;
    const won = replies.filter((each) => each.ok === winner);
    for (const { reply } of won) expect(reply.result).toMatchObject({ id: task.id, status: { state: 'completed' } });
    expect(new Set(won.map(({ reply }) => reply.result.status.timestamp)).size).toBe(1); // one run's answer
    for (const { reply } of replies.filter((each) => each.ok !== winner)) expect(reply.error).toMatchObject({ code: -32602, data: { type: 'resume', code: expect.stringMatching(/^(RESUME_CONFLICT|RUN_NOT_INTERRUPTED)$/) } });
    expect(count).toMatchObject({ after: 1, refunds: winner ? 1 : 0 });
  });

  it('refuses other decisions while a resume runs (RESUME_CONFLICT, changing nothing) and gives the same ones its answer', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reached: () => void = () => {};
    const running = new Promise<void>((resolve) => (reached = resolve));
    const runs = { after: 0 };
    const graph = new StateGraph(new StateSchema().addField('ok'))
      .addNode('approve', async (_state, context) => {
        const given = interrupt<{ ok: boolean }>(context, { refund: 30 });
        runs.after++;
        reached();
        await gate;
        return { ok: given.ok };
      })
      .addEdge(START, 'approve')
      .addEdge('approve', END)
      .compile();
    const handler = createA2AHandler({ agent: createGraphAgent('gated', graph, { checkpointer: new InMemoryCheckpointer() }), card: { name: 'gated' } });
    const { result: task } = await send(handler, ask());
    const id = task.metadata.faultline.interrupts[0].id;
    const first = send(handler, answer(task.id, [{ id, value: { ok: true } }], 'm-a'));
    await running;
    const conflict = await send(handler, answer(task.id, [{ id, value: { ok: false } }], 'm-b'));
    expect(conflict.error).toMatchObject({ code: -32602, data: { type: 'resume', code: 'RESUME_CONFLICT', taskState: 'working' } });
    const same = send(handler, answer(task.id, [{ id, value: { ok: true } }], 'm-c'));
    release();
    const [a, c] = await Promise.all([first, same]);
    expect(a.result.status.state).toBe('completed');
    expect(c.result).toEqual(a.result);
    expect(a.result.history.map((message: JSONObject) => message.messageId)).not.toContain('m-b');
    expect(runs.after).toBe(1);
  });

  it.each([
    ['an unknown interrupt id', () => [{ id: 'interrupt-forged', value: { ok: true } }], 'INTERRUPT_NOT_FOUND'],
    ['no decision for the pending interrupt', () => [], 'RESUME_INCOMPLETE'],
    ['a value failing its schema', (id: string) => [{ id, value: { ok: 'yes' } }], 'RESUME_PAYLOAD_INVALID'],
    ['decisions that are not an array', () => 'yes', 'RESUME_PAYLOAD_INVALID'],
  ])('refuses %s as a JSON-RPC -32602 error with data.code %s; the task stays input-required and answerable', async (_name, decisions, code) => {
    const { count, handler } = setup();
    const { result: task } = await send(handler, ask());
    const id = task.metadata.faultline.interrupts[0].id;
    const refused = await send(handler, answer(task.id, decisions(id)));
    expect(refused.error).toMatchObject({ code: -32602, data: { type: 'resume', code } });
    const got = (await (await rpc(handler, 'tasks/get', { id: task.id })).json()) as JSONObject;
    expect(got.result.status.state).toBe('input-required');
    expect(got.result.history).toHaveLength(task.history.length);
    const { result: done } = await send(handler, answer(task.id, [{ id, value: { ok: true } }], 'm-3'));
    expect(done.status.state).toBe('completed');
    expect(count.refunds).toBe(1);
  });

  it('refuses decisions for a task that does not wait (RUN_NOT_INTERRUPTED) and for an unknown task (-32001)', async () => {
    const { handler } = setup();
    const { result: task } = await send(handler, ask());
    const id = task.metadata.faultline.interrupts[0].id;
    await send(handler, answer(task.id, [{ id, value: { ok: true } }]));
    expect((await send(handler, answer(task.id, [{ id, value: { ok: true } }], 'm-4'))).error).toMatchObject({ code: -32602, data: { code: 'RUN_NOT_INTERRUPTED', taskState: 'completed' } });
    expect((await send(handler, answer('task-nope', []))).error).toMatchObject({ code: -32001 });
  });

  it('refuses a text message naming a finished or unknown task, starting no task in its place (as @a2a-js/sdk does)', async () => {
    const { count, handler } = setup();
    const { result: task } = await send(handler, ask());
    const id = task.metadata.faultline.interrupts[0].id;
    await send(handler, answer(task.id, [{ id, value: { ok: true } }]));
    const before = { ...count };
    for (const method of ['message/send', 'message/stream']) {
      const onFinished = await (await rpc(handler, method, { message: { ...ask('again'), messageId: 'm-6', taskId: task.id } })).text();
      expect(onFinished, method).toMatch(/"code":-32602.*"code":"RUN_NOT_INTERRUPTED","taskState":"completed"/);
      expect(onFinished).toMatch(/send a message without its taskId for a new task/);
      const onUnknown = await (await rpc(handler, method, { message: { ...ask('again'), messageId: 'm-7', taskId: 'task-nope' } })).text();
      expect(onUnknown, method).toMatch(/"code":-32001,"message":"Task not found: task-nope"/);
    }
    expect(count).toEqual(before); // no run started
    const got = (await (await rpc(handler, 'tasks/get', { id: task.id })).json()) as JSONObject;
    expect(got.result.history.map((message: JSONObject) => message.messageId)).not.toContain('m-6');
  });

  it('cancels a waiting task as @a2a-js/sdk does: canceled, its questions gone, no answer resumes it, a second cancel is -32002', async () => {
    const { count, handler } = setup();
    const { result: task } = await send(handler, ask());
    const id = task.metadata.faultline.interrupts[0].id;
    const { result: canceled } = (await (await rpc(handler, 'tasks/cancel', { id: task.id })).json()) as JSONObject;
    expect(canceled).toMatchObject({ id: task.id, contextId: task.contextId, status: { state: 'canceled', message: { role: 'agent', parts: [{ kind: 'text', text: 'The task was canceled by request.' }] } } });
    expect(canceled.metadata?.faultline).toBeUndefined();
    expect(canceled.metadata?.task_state).toBeUndefined();
    expect(canceled.history).toHaveLength(task.history.length + 1);
    const refused = await send(handler, answer(task.id, [{ id, value: { ok: true } }], 'm-8'));
    expect(refused.error).toMatchObject({ code: -32602, data: { code: 'RUN_NOT_INTERRUPTED', taskState: 'canceled' } });
    const again = (await (await rpc(handler, 'tasks/cancel', { id: task.id })).json()) as JSONObject;
    expect(again.error).toEqual({ code: -32002, message: `Task ${task.id} is canceled and cannot be canceled` });
    expect(((await (await rpc(handler, 'tasks/get', { id: task.id })).json()) as JSONObject).result).toEqual(canceled);
    expect(count).toMatchObject({ after: 0, refunds: 0 });
  });

  it('lets a cancel and an answer of a waiting task never both win: they take the task in turn, in order of arrival', async () => {
    for (const cancelFirst of [true, false]) {
      const { count, handler } = setup();
      const { result: task } = await send(handler, ask());
      const id = task.metadata.faultline.interrupts[0].id;
      const cancel = async () => (await (await rpc(handler, 'tasks/cancel', { id: task.id })).json()) as JSONObject;
      const resume = () => send(handler, answer(task.id, [{ id, value: { ok: true } }]));
      const [canceled, resumed] = cancelFirst ? await Promise.all([cancel(), resume()]) : await Promise.all([resume(), cancel()]).then(([r, c]) => [c, r] as const);
      const final = ((await (await rpc(handler, 'tasks/get', { id: task.id })).json()) as JSONObject).result;
      if (cancelFirst) {
        // the cancel took the waiting task: the answer is refused and nothing ran
        expect(canceled.result.status.state).toBe('canceled');
        expect(resumed.error).toMatchObject({ code: -32602, data: { code: 'RUN_NOT_INTERRUPTED', taskState: 'canceled' } });
        expect(count.refunds).toBe(0);
      } else {
        // the answer resumed the run: the cancel found it running (and stopped it) or already ended (not cancelable)
        expect(resumed.result.id).toBe(task.id);
        if (canceled.result) expect(canceled.result.status.state).toBe('canceled');
        else expect(canceled.error).toMatchObject({ code: -32002 });
        expect(resumed.result.status.state).toBe(final.status.state);
      }
      expect(count.refunds).toBeLessThanOrEqual(1);
    }
  });

  it('refuses a plain text follow-up on a waiting task, naming the data part it needs', async () => {
    const { handler } = setup();
    const { result: task } = await send(handler, ask());
    const refused = await send(handler, { ...ask('yes please'), messageId: 'm-5', taskId: task.id });
    expect(refused.error).toMatchObject({ code: -32602, data: { code: 'RESUME_PAYLOAD_INVALID' }, message: expect.stringContaining('{ "decisions": [...] }') });
  });

  it('never puts a secret planted in the question into the task, and names at most 50 of many interrupts', async () => {
    let graph = new StateGraph(new StateSchema());
    for (let index = 0; index < 60; index++) graph = graph.addNode(`n${index}`, (_state, context) => void interrupt(context, { card: SECRET, index })).addEdge(START, `n${index}`).addEdge(`n${index}`, END);
    const handler = createA2AHandler({ agent: createGraphAgent('many', graph.compile(), { checkpointer: new InMemoryCheckpointer() }), card: { name: 'many' } });
    const response = await rpc(handler, 'message/send', { message: ask() });
    const text = await response.text();
    expect(text).not.toContain('PLANTEDsecret');
    const task = (JSON.parse(text) as JSONObject).result;
    expect(task.status.state).toBe('input-required');
    expect(task.metadata.faultline.interrupts).toHaveLength(50);
    expect(task.metadata.faultline.interruptCount).toBe(60);
  });
});
