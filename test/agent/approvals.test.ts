/**
 * Tool approvals in agent runs, in memory: a call that needs a person stops the run `interrupted` (the other calls of
 * its round ran), `agent.resume` runs what was approved once, tells the model what was refused or expired, and refuses
 * every wrong resume with a typed `ResumeError` without changing anything.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, collectAgentRun, runAgent, toolApprovals, type AgentEvents, type AgentRunItem } from '../../src/agent/index.js';
import { createScriptedChatClient, type ChatMessage, type ScriptedTurn } from '../../src/chat/index.js';
import { ResumeError, ToolError } from '../../src/errors/index.js';
import { InMemoryRunStateStore, type AgentRunState, type RunStateStore } from '../../src/interrupts/index.js';
import { defineTool } from '../../src/tools/index.js';
import { expectValidTranscript } from '../helpers/agent-run.js';

afterEach(() => vi.useRealTimers());

function refundTool(runs: Array<Record<string, unknown>>, options: { needsApproval?: unknown; approvalExpiresInMs?: number } = {}) {
  return defineTool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: z.object({ orderId: z.string(), amount: z.number() }),
    needsApproval: (options.needsApproval ?? true) as boolean,
    ...(options.approvalExpiresInMs !== undefined ? { approvalExpiresInMs: options.approvalExpiresInMs } : {}),
    execute: async (args) => {
      runs.push(args);
      return { refunded: args.amount };
    },
  });
}

const lookup = defineTool({
  name: 'lookup',
  description: 'Look an order up.',
  parameters: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => ({ orderId, status: 'delivered' }),
});

const REFUND_AND_LOOKUP: ScriptedTurn = {
  toolCalls: [
    { id: 'call_refund', name: 'refund', arguments: { orderId: '42', amount: 30 } },
    { id: 'call_lookup', name: 'lookup', arguments: { orderId: '42' } },
  ],
};

function agentWith(turns: ScriptedTurn[], runs: Array<Record<string, unknown>>, options: { store?: RunStateStore; needsApproval?: unknown; approvalExpiresInMs?: number } = {}) {
  const model = createScriptedChatClient(turns);
  let builder = new AgentBuilder('refunds').chatClient(model).tools([refundTool(runs, options), lookup]).toolLogger(false);
  builder = builder.approvals(toolApprovals(options.store ? { store: options.store } : {}));
  return { agent: builder.build(), model };
}

/** The tool messages of the last request the model got, by call id. */
function toolMessages(messages: readonly ChatMessage[]): Array<{ id: string | undefined; content: unknown }> {
  return messages.filter((message) => message.role === 'tool').map((message) => ({ id: message.toolCallId, content: JSON.parse(message.content as string) }));
}

async function items(stream: ReadableStream<AgentRunItem>): Promise<AgentRunItem[]> {
  const out: AgentRunItem[] = [];
  for await (const item of stream as unknown as AsyncIterable<AgentRunItem>) out.push(item);
  return out;
}

describe('a tool that needs approval', () => {
  it('stops the run interrupted after the other calls of its round ran, and the approved call runs once on resume', async () => {
    const runs: Array<Record<string, unknown>> = [];
    const { agent, model } = agentWith([REFUND_AND_LOOKUP, { text: 'Refunded 30.' }], runs);
    const all = await items(agent.run('Refund order 42'));
    const last = all.at(-1)!;
    expect(last).toMatchObject({ type: 'interrupted', iteration: 1, interrupts: [{ kind: 'approval', toolCallId: 'call_refund', toolName: 'refund', args: { orderId: '42', amount: 30 } }] });
    expect(all.filter((item) => item.type === 'tool-result').map((item) => (item as { callId: string }).callId)).toEqual(['call_lookup']);
    expect(all.filter((item) => item.type === 'finish')).toEqual([]);
    expect(runs).toEqual([]);
    const { runId, interrupts } = last as Extract<AgentRunItem, { type: 'interrupted' }>;
    expect(interrupts[0]!.runId).toBe(runId);

    const done = await collectAgentRun(agent.resume(runId, [{ id: interrupts[0]!.id, approved: true }]));
    expect(done).toMatchObject({ status: 'finished', text: 'Refunded 30.', interrupts: [] });
    expect(runs).toEqual([{ orderId: '42', amount: 30 }]);
    const second = model.requests[1]!.messages;
    expectValidTranscript(second);
    expect(toolMessages(second).map((each) => each.id)).toEqual(['call_refund', 'call_lookup']); // call order
    expect(toolMessages(second)[0]!.content).toMatchObject({ ok: true, data: { refunded: 30 } });
  });

  it('gives collectAgentRun and runAgent a typed interrupted outcome, not a rejection', async () => {
    const runs: Array<Record<string, unknown>> = [];
    const store = new InMemoryRunStateStore();
    const result = await runAgent({ model: createScriptedChatClient([REFUND_AND_LOOKUP]), name: 'refunds', tools: [refundTool(runs), lookup], prompt: 'Refund order 42', approvals: toolApprovals({ store }), toolLogger: false });
    expect(result.status).toBe('interrupted');
    expect(result.interrupts).toHaveLength(1);
    expect(result.runId).toBe(result.interrupts[0]!.runId);
    expect((await store.get(result.runId!))?.status).toBe('interrupted');
  });

  it('tells the model a denial as a structured ToolApprovalDenied with the reason, and refuses the same call again without asking', async () => {
    const runs: Array<Record<string, unknown>> = [];
    const again: ScriptedTurn = { toolCalls: [{ id: 'call_again', name: 'refund', arguments: { amount: 30, orderId: '42' } }] };
    const { agent, model } = agentWith([REFUND_AND_LOOKUP, again, { text: 'I could not refund it.' }], runs);
    const first = await collectAgentRun(agent.run('Refund order 42'));
    const done = await collectAgentRun(agent.resume(first.runId!, [{ id: first.interrupts[0]!.id, approved: false, reason: 'Refunds over $20 need a manager.' }]));
    expect(done.status).toBe('finished');
    expect(runs).toEqual([]);
    const [denial] = toolMessages(model.requests[1]!.messages);
    expect(denial!.content).toMatchObject({ ok: false, error: { type: 'ToolApprovalDenied', context: { tool: 'refund', reason: 'Refunds over $20 need a manager.' } } });
    const repeated = toolMessages(model.requests[2]!.messages).find((each) => each.id === 'call_again');
    expect(repeated!.content).toMatchObject({ ok: false, error: { type: 'ToolApprovalDenied' } });
    expect(done.toolResults.map((each) => [each.callId, each.outcome])).toEqual([
      ['call_refund', 'denied'],
      ['call_again', 'denied'],
    ]);
  });

  it('answers an expired approval as ToolApprovalExpired in the next model request, with no decision needed', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-05T10:00:00.000Z'), toFake: ['Date'] });
    const runs: Array<Record<string, unknown>> = [];
    const { agent, model } = agentWith([REFUND_AND_LOOKUP, { text: 'Not approved in time.' }], runs, { approvalExpiresInMs: 60_000 });
    const first = await collectAgentRun(agent.run('Refund order 42'));
    expect(first.interrupts[0]!.expiresAt).toBe('2026-12-05T10:01:00.000Z');
    vi.setSystemTime(Date.parse('2026-12-05T10:01:00.001Z'));
    const late = await collectAgentRun(agent.resume(first.runId!, [{ id: first.interrupts[0]!.id, approved: true }])).catch((error: unknown) => error);
    expect(ResumeError.isInstance(late) && late.code).toBe('INTERRUPT_EXPIRED');
    const done = await collectAgentRun(agent.resume(first.runId!, []));
    expect(done.text).toBe('Not approved in time.');
    expect(runs).toEqual([]);
    const body = model.requests[1]!.messages;
    expectValidTranscript(body);
    expect(toolMessages(body)[0]).toEqual({ id: 'call_refund', content: expect.objectContaining({ ok: false, error: expect.objectContaining({ type: 'ToolApprovalExpired', context: { tool: 'refund', expiresAt: '2026-12-05T10:01:00.000Z' } }) }) });
  });

  it('asks only when the predicate says so, and asks when the predicate throws (an error item and event say why)', async () => {
    const runs: Array<Record<string, unknown>> = [];
    const small = agentWith([REFUND_AND_LOOKUP, { text: 'done' }], runs, { needsApproval: (args: { amount: number }) => args.amount > 50 });
    expect((await collectAgentRun(small.agent.run('Refund'))).status).toBe('finished');
    expect(runs).toHaveLength(1);
    const throwing = agentWith([REFUND_AND_LOOKUP], runs, {
      needsApproval: () => {
        throw new Error('policy service down');
      },
    });
    const events: Parameters<AgentEvents['error']>[0][] = [];
    throwing.agent.on('error', (event) => events.push(event));
    const result = await collectAgentRun(throwing.agent.run('Refund'));
    expect(result.status).toBe('interrupted');
    expect(runs).toHaveLength(1);
    expect(result.errors).toEqual([expect.objectContaining({ name: 'ToolError' })]);
    expect(ToolError.isInstance(result.errors[0])).toBe(true);
    expect(events).toEqual([expect.objectContaining({ terminal: false })]);
  });
});

describe('a round the output limit cut', () => {
  it('asks about a whole call that needs approval instead of running it, and answers a cut-off one as cut off', async () => {
    const runs: Array<Record<string, unknown>> = [];
    const cut: ScriptedTurn = {
      finishReason: 'length',
      toolCalls: [
        { id: 'call_whole', name: 'refund', arguments: { orderId: '42', amount: 30 } },
        { id: 'call_cut', name: 'refund', arguments: '{"orderId":"43","amo' },
      ],
    };
    const { agent } = agentWith([cut, { text: 'ok' }], runs);
    const result = await collectAgentRun(agent.run('Refund 42 and 43'));
    expect(result.status).toBe('interrupted');
    expect(result.interrupts.map((each) => each.toolCallId)).toEqual(['call_whole']);
    expect(result.toolResults.map((each) => [each.callId, each.outcome])).toEqual([['call_cut', 'invalid_arguments']]);
    expect(runs).toEqual([]);
  });
});

describe('a run with a session', () => {
  it('appends its whole turn to the session once, when the resumed run ends — never the half-answered round', async () => {
    const { InMemorySessionStore } = await import('../../src/agent/index.js');
    const sessions = new InMemorySessionStore();
    const runs: Array<Record<string, unknown>> = [];
    const model = createScriptedChatClient([REFUND_AND_LOOKUP, { text: 'Refunded.' }, { text: 'Anything else?' }]);
    const agent = new AgentBuilder('refunds').chatClient(model).tools([refundTool(runs), lookup]).approvals(toolApprovals()).sessionStore(sessions).toolLogger(false).build();
    const first = await collectAgentRun(agent.run('Refund order 42', { session: 'user-7' }));
    expect(await sessions.load('user-7')).toEqual([]);
    await collectAgentRun(agent.resume(first.runId!, [{ id: first.interrupts[0]!.id, approved: true }]));
    const kept = await sessions.load('user-7');
    expectValidTranscript(kept);
    expect(kept.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    await collectAgentRun(agent.run('Thanks', { session: 'user-7' }));
    expect(model.requests[2]!.messages.filter((message) => message.role !== 'system').map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant', 'user']);
  });

  it('replays a resume whose run stopped again with that stop, its new interrupts included', async () => {
    const runs: Array<Record<string, unknown>> = [];
    const secondRound: ScriptedTurn = { toolCalls: [{ id: 'call_more', name: 'refund', arguments: { orderId: '43', amount: 5 } }] };
    const { agent } = agentWith([REFUND_AND_LOOKUP, secondRound, { text: 'done' }], runs);
    const first = await collectAgentRun(agent.run('Refund 42 and 43'));
    const decisions = [{ id: first.interrupts[0]!.id, approved: true as const }];
    const second = await collectAgentRun(agent.resume(first.runId!, decisions));
    expect(second).toMatchObject({ status: 'interrupted', runId: first.runId, interrupts: [{ toolCallId: 'call_more' }] });
    const replayed = await collectAgentRun(agent.resume(first.runId!, decisions));
    expect(replayed).toMatchObject({ status: 'interrupted', replay: true, interrupts: second.interrupts });
    const third = await collectAgentRun(agent.resume(first.runId!, [{ id: second.interrupts[0]!.id, approved: true }]));
    expect(third.text).toBe('done');
    expect(runs).toEqual([{ orderId: '42', amount: 30 }, { orderId: '43', amount: 5 }]);
  });
});

describe('a wrong resume', () => {
  async function interrupted(store?: RunStateStore) {
    const runs: Array<Record<string, unknown>> = [];
    const setup = agentWith([REFUND_AND_LOOKUP, { text: 'ok' }, { text: 'ok again' }], runs, store ? { store } : {});
    const first = await collectAgentRun(setup.agent.run('Refund order 42'));
    return { ...setup, runs, first, id: first.interrupts[0]!.id, runId: first.runId! };
  }

  async function refusal(stream: ReadableStream<AgentRunItem>): Promise<ResumeError> {
    const all = await items(stream);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ type: 'error', terminal: true });
    const error = (all[0] as { error: unknown }).error;
    expect(ResumeError.isInstance(error)).toBe(true);
    return error as ResumeError;
  }

  it('is the stream’s one terminal error, typed, and changes nothing in the store', async () => {
    const store = new InMemoryRunStateStore();
    const { agent, runId, id, runs } = await interrupted(store);
    const before = JSON.stringify(await store.get(runId));
    const refused: Array<Parameters<AgentEvents['resume-refused']>[0]> = [];
    agent.on('resume-refused', (event) => refused.push(event));
    const cases: Array<[unknown, string]> = [
      [[{ id: 'approval-nope', approved: true }], 'INTERRUPT_NOT_FOUND'],
      [[], 'RESUME_INCOMPLETE'],
      [[{ id, approved: 'yes' }], 'RESUME_PAYLOAD_INVALID'],
      [[{ id, value: 1 }], 'RESUME_PAYLOAD_INVALID'],
      ['approve all', 'RESUME_PAYLOAD_INVALID'],
    ];
    for (const [decisions, code] of cases) expect((await refusal(agent.resume(runId, decisions as never))).code).toBe(code);
    expect((await refusal(agent.resume('run-unknown', [{ id, approved: true }]))).code).toBe('RUN_NOT_INTERRUPTED');
    expect(JSON.stringify(await store.get(runId))).toBe(before);
    expect(runs).toEqual([]);
    expect(refused.map((event) => event.code)).toEqual(['INTERRUPT_NOT_FOUND', 'RESUME_INCOMPLETE', 'RESUME_PAYLOAD_INVALID', 'RESUME_PAYLOAD_INVALID', 'RESUME_PAYLOAD_INVALID', 'RUN_NOT_INTERRUPTED']);
    const notFound = await refusal(agent.resume(runId, [{ id: 'approval-nope', approved: true }]));
    expect(notFound.pendingIds).toEqual([id]);
    await expect(collectAgentRun(agent.resume(runId, []))).rejects.toMatchObject({ code: 'RESUME_INCOMPLETE' });
  });

  it('sent again identically gets the first outcome marked replay; a different one gets RESUME_CONFLICT', async () => {
    const { agent, runId, id, runs } = await interrupted();
    const first = await collectAgentRun(agent.resume(runId, [{ id, approved: true }]));
    const again = await collectAgentRun(agent.resume(runId, [{ id, approved: true }]));
    expect(again).toMatchObject({ status: 'finished', text: first.text, replay: true });
    expect(first.replay).toBeUndefined();
    const conflict = await refusal(agent.resume(runId, [{ id, approved: false }]));
    expect(conflict.code).toBe('RESUME_CONFLICT');
    expect(conflict.httpStatus).toBe(409);
    expect(runs).toHaveLength(1);
  });

  it('gets RESUME_CONFLICT for other decisions of a decided approval also once the run waits again on a new one', async () => {
    const runs: Array<Record<string, unknown>> = [];
    const model = createScriptedChatClient([
      { toolCalls: [{ id: 'c1', name: 'refund', arguments: { orderId: '42', amount: 30 } }] },
      { toolCalls: [{ id: 'c2', name: 'refund', arguments: { orderId: '43', amount: 30 } }] },
    ]);
    const agent = new AgentBuilder('refunds').chatClient(model).tools([refundTool(runs)]).approvals(toolApprovals()).toolLogger(false).build();
    const first = await collectAgentRun(agent.run('Refund 42, then 43'));
    const id = first.interrupts[0]!.id;
    expect((await collectAgentRun(agent.resume(first.runId!, [{ id, approved: true }]))).status).toBe('interrupted'); // waits on c2 now
    const late = await refusal(agent.resume(first.runId!, [{ id, approved: false, reason: 'no' }]));
    expect([late.code, late.httpStatus]).toEqual(['RESUME_CONFLICT', 409]);
    expect(runs).toHaveLength(1);
  });

  it('is refused with APPROVAL_ARGUMENTS_CHANGED when the stored call no longer carries the approved arguments', async () => {
    const store = new InMemoryRunStateStore();
    const { agent, runId, id, runs } = await interrupted(store);
    const record = (await store.get(runId)) as AgentRunState;
    record.round.calls[0]!.arguments = JSON.stringify({ orderId: '42', amount: 3000 });
    record.revision += 1;
    expect(await store.put(record)).toBe(true);
    expect((await refusal(agent.resume(runId, [{ id, approved: true }]))).code).toBe('APPROVAL_ARGUMENTS_CHANGED');
    expect(runs).toEqual([]);
  });

  it('throws a ConfigError for a run id that is not a string', async () => {
    const { agent } = await interrupted();
    expect(() => agent.resume(42 as unknown as string, [])).toThrow(/runId must be a non-empty string/);
  });
});

describe('exactly once', () => {
  it('runs the approved tool once for 20 concurrent identical and 20 conflicting resumes', async () => {
    const runs: Array<Record<string, unknown>> = [];
    const { agent } = agentWith([REFUND_AND_LOOKUP, { text: 'ok' }], runs);
    const first = await collectAgentRun(agent.run('Refund order 42'));
    const id = first.interrupts[0]!.id;
    const outcomes = await Promise.all([
      ...Array.from({ length: 20 }, () => collectAgentRun(agent.resume(first.runId!, [{ id, approved: true }])).catch((error: unknown) => error)),
      ...Array.from({ length: 20 }, () => collectAgentRun(agent.resume(first.runId!, [{ id, approved: false, reason: 'no' }])).catch((error: unknown) => error)),
    ]);
    const finished = (outcome: unknown): boolean => (outcome as { status?: string }).status === 'finished';
    const conflict = (outcome: unknown): boolean => ResumeError.isInstance(outcome) && outcome.code === 'RESUME_CONFLICT';
    const approvals = outcomes.slice(0, 20);
    const denials = outcomes.slice(20);
    const approvedWon = approvals.some((each) => finished(each) && !(each as { replay?: true }).replay);
    // One resume won; the rest of its kind are replays of its outcome, every different one a typed conflict.
    const [won, lost] = approvedWon ? [approvals, denials] : [denials, approvals];
    expect(won.map((each) => (finished(each) ? "finished" : String((each as Error).message)))).toEqual(Array(20).fill("finished"));
    expect(won.filter((each) => (each as { replay?: true }).replay === true)).toHaveLength(19);
    expect(lost.every(conflict)).toBe(true);
    expect(runs).toEqual(approvedWon ? [{ orderId: '42', amount: 30 }] : []);
  });

  it('never runs a call again that was marked started without a result: the model gets ToolExecutionUnknown, the developer an event', async () => {
    const store = new InMemoryRunStateStore();
    const runs: Array<Record<string, unknown>> = [];
    const { agent } = agentWith([REFUND_AND_LOOKUP, { text: 'ok' }], runs, { store });
    const first = await collectAgentRun(agent.run('Refund order 42'));
    const id = first.interrupts[0]!.id;
    // The process that won the resume died after recording `started` and before recording the result.
    const record = (await store.get(first.runId!)) as AgentRunState;
    const key = JSON.stringify([{ approved: true, id }]);
    expect(
      await store.put({ ...record, revision: record.revision + 1, status: 'resuming', interrupts: [], executions: { call_refund: { state: 'started' } }, resumes: [{ key, interruptIds: [id] }] }),
    ).toBe(true);
    const restarted = agentWith([{ text: 'I cannot tell whether the refund went through.' }], runs, { store });
    const unknown: Array<Parameters<AgentEvents['execution-unknown']>[0]> = [];
    restarted.agent.on('execution-unknown', (event) => unknown.push(event));
    const done = await collectAgentRun(restarted.agent.resume(first.runId!, [{ id, approved: true }]));
    expect(done.status).toBe('finished');
    expect(runs).toEqual([]);
    expect(unknown).toEqual([{ runId: first.runId, agent: 'refunds', callId: 'call_refund', toolName: 'refund' }]);
    const sent = toolMessages(restarted.model.requests[0]!.messages);
    expect(sent.map((each) => each.id)).toEqual(['call_refund', 'call_lookup']);
    expect(sent[0]!.content).toMatchObject({ ok: false, error: { type: 'ToolExecutionUnknown' } });
    expectValidTranscript(restarted.model.requests[0]!.messages);
  });
});

describe('secrets', () => {
  it('never puts a planted secret of the arguments or the reason in events or errors', async () => {
    const SECRET = 'sk-live-PLANTED-9f8e7d6c5b4a';
    const runs: Array<Record<string, unknown>> = [];
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_refund', name: 'refund', arguments: { orderId: SECRET, amount: 30 } }] }, { text: 'ok' }]);
    const agent = new AgentBuilder('refunds').chatClient(model).tools([refundTool(runs)]).approvals(toolApprovals()).secrets([SECRET]).toolLogger(false).build();
    const seen: unknown[] = [];
    for (const name of ['interrupt', 'resume', 'resume-refused', 'error', 'execution-unknown'] as const) agent.on(name, (event: unknown) => seen.push(event));
    const first = await collectAgentRun(agent.run('Refund'));
    const refused = await collectAgentRun(agent.resume(first.runId!, [{ id: 'x', approved: false, reason: SECRET }])).catch((error: unknown) => error);
    const quoted = await collectAgentRun(agent.resume(first.runId!, [{ id: first.interrupts[0]!.id, approved: SECRET as never }])).catch((error: unknown) => error);
    const listed = await collectAgentRun(agent.resume(first.runId!, [SECRET as never])).catch((error: unknown) => error);
    expect([ResumeError.isInstance(quoted), ResumeError.isInstance(listed)]).toEqual([true, true]);
    await collectAgentRun(agent.resume(first.runId!, [{ id: first.interrupts[0]!.id, approved: false, reason: SECRET }]));
    const text = JSON.stringify([seen, refused, (refused as Error).message, (quoted as Error).message, (listed as Error).message, quoted, listed]);
    expect(seen.length).toBeGreaterThan(1);
    expect(text).not.toContain(SECRET);
  });
});

describe('under the Runner', () => {
  it('ends with a completion carrying the interrupts, not an error', async () => {
    const { isRunnerCompletion, isTerminalError, Runner, toRunnableAgent } = await import('../../src/runner/index.js');
    const runs: Array<Record<string, unknown>> = [];
    const { agent } = agentWith([REFUND_AND_LOOKUP], runs);
    const events = [];
    for await (const event of new Runner({ appName: 'shop', agent: toRunnableAgent(agent) }).run({ userId: 'u', sessionId: 's', message: 'Refund order 42' })) events.push(event);
    const completion = events.find(isRunnerCompletion)!;
    expect(events.filter(isTerminalError)).toEqual([]);
    expect(completion.response.error).toBeUndefined();
    expect(completion.response.interrupts).toEqual([expect.objectContaining({ kind: 'approval', toolCallId: 'call_refund', toolName: 'refund' })]);
    expect(runs).toEqual([]);
  });
});

describe('spans', () => {
  it('end an interrupted run unset with an interrupt event, and its resume with a resume event — no arguments, no failure', async () => {
    const { record } = await import('../telemetry/otel-sdk.js');
    const recorder = record();
    const runs: Array<Record<string, unknown>> = [];
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_refund', name: 'refund', arguments: { orderId: 'ORDER-SECRET-42', amount: 30 } }] }, { text: 'ok' }]);
    const agent = new AgentBuilder('refunds').chatClient(model).tools([refundTool(runs)]).approvals(toolApprovals()).telemetry(recorder.telemetry).toolLogger(false).build();
    const first = await collectAgentRun(agent.run('Refund'));
    await collectAgentRun(agent.resume(first.runId!, [{ id: first.interrupts[0]!.id, approved: true }]));
    const runSpans = recorder.spans().filter((span) => span.name.startsWith('invoke_agent'));
    expect(runSpans).toHaveLength(2);
    expect(runSpans.map((span) => span.status.code)).toEqual([0, 0]);
    expect(runSpans[0]!.events.map((event) => [event.name, event.attributes])).toContainEqual(['faultline.interrupt', { 'faultline.interrupt.count': 1, 'faultline.interrupt.ids': first.interrupts[0]!.id }]);
    expect(runSpans[1]!.events.map((event) => event.name)).toContain('faultline.resume');
    expect(JSON.stringify(recorder.spans().map((span) => span.events))).not.toContain('ORDER-SECRET-42');
  });
});
