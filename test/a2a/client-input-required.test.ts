// Our client against our handler through input-required, in process: taskInterrupts reads what the task waits on
// (validated: forged metadata is a typed SerializeError, never a crash), decisionsMessage answers on the same task —
// approved, the tool runs once; denied, the remote model is told ToolApprovalDenied; a wrong id is a JSON-RPC -32602
// refusal and the task keeps waiting. createA2AAgent under a Runner: the remote's questions end the parent run
// interrupted (not failed), and runner.run({ resume }) — from a fresh Runner and agent, nothing kept in memory —
// answers the remote task; refusals are the local typed `resume` errors; planted credentials never reach an event.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, toolApprovals } from '../../src/agent/index.js';
import { createScriptedChatClient, type ChatMessage, type ScriptedTurn } from '../../src/chat/index.js';
import { ConfigError, JSONRPCError, SerializeError } from '../../src/errors/index.js';
import { createA2AAgent, createA2AClient, createA2AHandler, decisionsMessage, taskInterrupts, type A2AClient, type A2AStreamEvent, type Task } from '../../src/a2a/index.js';
import { isRunnerCompletion, isTerminalError, Runner, type RunEvent } from '../../src/runner/index.js';
import { defineTool } from '../../src/tools/index.js';

const TOKEN = 'PLANTEDtoken7f3a9c0d1e2b';
const REFUND: ScriptedTurn = { toolCalls: [{ id: 'call_1', name: 'refund', arguments: { orderId: '42', amount: 30 } }] };
const DENIAL = 'Refunds over $20 need a manager.';

/** A remote LLM agent whose refund needs approval, served by our handler; `bodies` is every answer as it left it. */
function remote(turns: ScriptedTurn[] = [REFUND, { text: 'Refunded.' }]) {
  const refunded: string[] = [];
  const refund = defineTool({
    name: 'refund',
    description: 'Refunds an order.',
    parameters: z.object({ orderId: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: ({ orderId }) => (refunded.push(orderId), { orderId, refunded: true }),
  });
  const model = createScriptedChatClient(turns);
  const handler = createA2AHandler({ agent: new AgentBuilder('refunds').chatClient(model).tools([refund]).approvals(toolApprovals()).toolLogger(false).build(), card: { name: 'refunds' } });
  const bodies: string[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = await handler(new Request(input, init));
    bodies.push(await response.clone().text());
    return response;
  };
  const options = { agentCardUrl: 'http://localhost', fetch, headers: { authorization: `Bearer ${TOKEN}` } };
  return { refunded, model, bodies, options, client: createA2AClient(options) };
}

async function collect(stream: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const toolAnswers = (messages: readonly ChatMessage[]) => messages.filter((message) => message.role === 'tool').map((message) => JSON.parse(message.content as string) as unknown);

describe('our client answers an input-required task of our handler', () => {
  it('reads the waiting task and, approved on the same task, completes it; the tool ran once', async () => {
    const { client, refunded } = remote();
    const task = (await client.sendMessage('Refund order 42')) as Task;
    const waiting = taskInterrupts(task);
    expect(waiting).toMatchObject({ taskId: task.id, contextId: task.contextId, runId: expect.any(String), interruptCount: 1 });
    expect(waiting!.interrupts).toEqual([expect.objectContaining({ kind: 'approval', toolName: 'refund', toolCallId: 'call_1' })]);
    expect(JSON.stringify(waiting)).not.toContain('amount'); // the call's arguments never leave the remote
    expect(refunded).toEqual([]);
    const done = (await client.sendMessage({ message: decisionsMessage(waiting!, [{ id: waiting!.interrupts[0]!.id, approved: true }]) })) as Task;
    expect(done).toMatchObject({ id: task.id, contextId: task.contextId, status: { state: 'completed' } });
    expect(taskInterrupts(done)).toBeUndefined();
    expect(refunded).toEqual(['42']);
  });

  it('denied: the remote model is told ToolApprovalDenied with the reason, and the tool never runs', async () => {
    const { client, refunded, model } = remote([REFUND, { text: 'I could not refund it.' }]);
    const waiting = taskInterrupts((await client.sendMessage('Refund order 42')) as Task)!;
    const done = (await client.sendMessage({ message: decisionsMessage(waiting, [{ id: waiting.interrupts[0]!.id, approved: false, reason: DENIAL }]) })) as Task;
    expect(done.status.state).toBe('completed');
    expect(toolAnswers(model.requests[1]!.messages)).toEqual([expect.objectContaining({ ok: false, error: expect.objectContaining({ type: 'ToolApprovalDenied', context: expect.objectContaining({ reason: DENIAL }) }) })]);
    expect(refunded).toEqual([]);
  });

  it('a wrong id is a JSON-RPC -32602 refusal with its code; the task stays input-required and a streamed answer completes it', async () => {
    const { client, refunded } = remote();
    let final: A2AStreamEvent | undefined;
    for await (const event of client.streamMessage('Refund order 42')) final = event;
    const waiting = taskInterrupts(final!)!; // the stream's final status update names the interrupts too
    expect(waiting.interrupts).toHaveLength(1);
    const refused = await client.sendMessage({ message: decisionsMessage(waiting, [{ id: 'approval-forged', approved: true }]) }).catch((error: unknown) => error);
    expect(JSONRPCError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ rpcCode: -32602, data: { type: 'resume', code: 'INTERRUPT_NOT_FOUND' } });
    expect((await client.getTask({ id: waiting.taskId })).status.state).toBe('input-required');
    const states: string[] = [];
    for await (const event of client.streamMessage({ message: decisionsMessage(waiting, [{ id: waiting.interrupts[0]!.id, approved: true }]) })) {
      if (event.kind === 'status-update') states.push(event.status.state);
    }
    expect(states.at(-1)).toBe('completed');
    expect(refunded).toEqual(['42']);
  });
});

describe('taskInterrupts and decisionsMessage on bad input', () => {
  const waitingTask = (faultline: unknown): Task =>
    ({ kind: 'task', id: 'task-1', contextId: 'ctx-1', status: { state: 'input-required' }, metadata: { task_state: 'input-required', faultline } }) as Task;

  it('is undefined for what waits on nothing a decision answers: another state, a message, a foreign input-required, not an object', () => {
    expect(taskInterrupts({ ...waitingTask({}), status: { state: 'completed' } })).toBeUndefined();
    expect(taskInterrupts({ kind: 'message', messageId: 'm', role: 'agent', parts: [] })).toBeUndefined();
    expect(taskInterrupts({ kind: 'task', id: 'task-1', contextId: 'ctx-1', status: { state: 'input-required' } })).toBeUndefined();
    for (const value of [null, 'task', 42, []]) expect(taskInterrupts(value as never)).toBeUndefined();
  });

  it.each([
    ['not an object', 'faultline', 'yes'],
    ['no runId', 'faultline.runId', { interrupts: [{ id: 'a', kind: 'approval' }], interruptCount: 1 }],
    ['interrupts not an array', 'faultline.interrupts', { runId: 'r', interrupts: 'all', interruptCount: 1 }],
    ['an interrupt without id', 'faultline.interrupts[0].id', { runId: 'r', interrupts: [{ kind: 'approval' }], interruptCount: 1 }],
    ['an unknown kind', 'faultline.interrupts[0].kind', { runId: 'r', interrupts: [{ id: 'a', kind: 'payment' }], interruptCount: 1 }],
    ['a non-string tool name', 'faultline.interrupts[0].toolName', { runId: 'r', interrupts: [{ id: 'a', kind: 'approval', toolName: { $gt: 1 } }], interruptCount: 1 }],
    ['a count below the named', 'faultline.interruptCount', { runId: 'r', interrupts: [{ id: 'a', kind: 'approval' }], interruptCount: 0 }],
    ['a 10,000-character id', 'faultline.interrupts[0].id', { runId: 'r', interrupts: [{ id: 'x'.repeat(10_000), kind: 'approval' }], interruptCount: 1 }],
  ])('forged metadata (%s) is a SerializeError naming %s', (_name, path, faultline) => {
    const error = (() => {
      try {
        return taskInterrupts(waitingTask(faultline));
      } catch (caught) {
        return caught;
      }
    })();
    expect(SerializeError.isInstance(error)).toBe(true);
    expect((error as SerializeError).issues.map((issue) => issue.path)).toContain(path);
    expect((error as Error).message.length).toBeLessThan(1_000);
  });

  it('decisionsMessage puts the decisions in one data part on the task, and refuses bad arguments with a ConfigError', () => {
    const message = decisionsMessage({ taskId: 'task-1', contextId: 'ctx-1' }, [{ id: 'int_1', approved: true }]);
    expect(message).toMatchObject({ kind: 'message', role: 'user', taskId: 'task-1', contextId: 'ctx-1', parts: [{ kind: 'data', data: { decisions: [{ id: 'int_1', approved: true }] } }] });
    for (const [task, decisions] of [[{ taskId: '' }, [{ id: 'a', approved: true }]], [{ taskId: 't' }, []], [{ taskId: 't' }, [{ approved: true }]], [null, [{ id: 'a', approved: true }]]] as const) {
      expect(() => decisionsMessage(task as never, decisions as never)).toThrow(ConfigError);
    }
  });
});

describe('createA2AAgent under a Runner: a remote task that stops to ask', () => {
  it.each([true, false])('ends the parent run interrupted, and a resume from a fresh Runner answers the remote task (streaming: %s)', async (streaming) => {
    const { options, refunded } = remote();
    const runner = () => new Runner({ appName: 'shop', agent: createA2AAgent({ ...options, streaming }) });
    const first = await collect(runner().run({ userId: 'u', sessionId: 's', message: 'Refund order 42' }));
    const completion = first.find(isRunnerCompletion)!;
    expect(first.filter(isTerminalError)).toEqual([]);
    expect(completion.response.error).toBeUndefined();
    const [question] = completion.response.interrupts ?? [];
    expect(question).toMatchObject({ runId: completion.invocationId, kind: 'approval', toolName: 'refund', id: expect.stringMatching(/^a2a:task-[^:]+:s:/) });
    expect(refunded).toEqual([]);

    const resume = (id: string) => collect(runner().run({ userId: 'u', sessionId: 's', resume: { runId: question!.runId, decisions: [{ id, approved: true }] } }));
    const notOurs = (await resume('approval-nope')).find(isTerminalError);
    expect(notOurs?.response.error).toMatchObject({ type: 'resume', code: 'INTERRUPT_NOT_FOUND' });
    const remoteRefusal = (await resume(question!.id.replace(/:[^:]+$/, ':approval-forged'))).find(isTerminalError);
    expect(remoteRefusal?.response.error).toMatchObject({ type: 'resume', code: 'INTERRUPT_NOT_FOUND', message: expect.stringContaining('refused the resume') });
    expect(refunded).toEqual([]);

    const done = await resume(question!.id);
    const finished = done.find(isRunnerCompletion)!;
    expect(done.filter(isTerminalError)).toEqual([]);
    expect(finished.invocationId).toBe(question!.runId);
    expect(finished.response.interrupts).toBeUndefined();
    expect(finished.response.choices?.[0]?.message?.content).toBe('Refunded.');
    expect(refunded).toEqual(['42']);
  });

  it('a denial reaches the remote model; an empty resume, ids of two tasks and an unknown task are refused as a local agent refuses them', async () => {
    const { options, model, refunded } = remote([REFUND, { text: 'I could not refund it.' }]);
    const runner = new Runner({ appName: 'shop', agent: createA2AAgent(options) });
    const question = (await collect(runner.run({ userId: 'u', sessionId: 's', message: 'Refund order 42' }))).find(isRunnerCompletion)!.response.interrupts![0]!;
    const resume = (decisions: Array<{ id: string; approved: boolean; reason?: string }>) => collect(runner.run({ userId: 'u', sessionId: 's', resume: { runId: question.runId, decisions } }));
    expect((await resume([])).find(isTerminalError)?.response.error).toMatchObject({ type: 'resume', code: 'RESUME_INCOMPLETE' });
    const other = question.id.replace(/^a2a:[^:]+/, 'a2a:task-other');
    expect((await resume([{ id: question.id, approved: true }, { id: other, approved: true }])).find(isTerminalError)?.response.error).toMatchObject({ type: 'resume', code: 'INTERRUPT_NOT_FOUND' });
    expect((await resume([{ id: other, approved: true }])).find(isTerminalError)?.response.error).toMatchObject({ type: 'resume', code: 'RUN_NOT_INTERRUPTED', message: expect.stringContaining('Task not found') });
    const done = await resume([{ id: question.id, approved: false, reason: DENIAL }]);
    expect(done.find(isRunnerCompletion)?.response.choices?.[0]?.message?.content).toBe('I could not refund it.');
    expect(toolAnswers(model.requests[1]!.messages)).toEqual([expect.objectContaining({ error: expect.objectContaining({ type: 'ToolApprovalDenied' }) })]);
    expect(refunded).toEqual([]);
  });

  it('forged interrupt metadata from the remote is a typed terminal error, not a crash nor an answer', async () => {
    const forged = { kind: 'task', id: 'task-1', contextId: 's', status: { state: 'input-required' }, metadata: { faultline: { runId: 'r', interrupts: [{ kind: 'approval' }], interruptCount: 1 } } } as Task;
    const client = { getAgentCard: async () => ({ name: 'forger' }), sendMessage: async () => forged } as unknown as A2AClient;
    const events = await collect(new Runner({ appName: 'shop', agent: createA2AAgent({ client, streaming: false, name: 'forger' }) }).run({ userId: 'u', sessionId: 's', message: 'hi' }));
    const failure = events.find(isTerminalError);
    expect(failure?.response.error).toMatchObject({ message: expect.stringMatching(/faultline metadata is malformed.*interrupts\[0\]\.id/) });
    expect(events.find(isRunnerCompletion)?.response.interrupts).toBeUndefined();
  });

  // The answer is read unary: a credential split across two streamed deltas is a limit of the streaming path.
  it.each([true, false])('a credential of our headers that the remote echoes in its question and answer never reaches an event (streamed question: %s)', async (streaming) => {
    const echo: ScriptedTurn = { toolCalls: [{ id: `call_${TOKEN}`, name: 'refund', arguments: { orderId: '42', amount: 30 } }] };
    const { options, bodies } = remote([echo, { text: `Refunded with ${TOKEN}.` }]);
    const runner = (streamed: boolean) => new Runner({ appName: 'shop', agent: createA2AAgent({ ...options, streaming: streamed }) });
    const first = await collect(runner(streaming).run({ userId: 'u', sessionId: 's', message: 'Refund order 42' }));
    const question = first.find(isRunnerCompletion)!.response.interrupts![0]!;
    const done = await collect(runner(false).run({ userId: 'u', sessionId: 's', resume: { runId: question.runId, decisions: [{ id: question.id, approved: true }] } }));
    expect(bodies.join('\n')).toContain(TOKEN); // the remote did send it back
    expect(JSON.stringify([...first, ...done])).not.toContain(TOKEN);
    expect(done.find(isRunnerCompletion)?.response.choices?.[0]?.message?.content).toMatch(/^Refunded with .+\.$/);
  });
});
