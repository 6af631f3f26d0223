// A Runner session across an LLM-agent run that stopped to ask: the session keeps the stopped round open (its
// assistant message, the answers it has) until it is answered. A resume writes the answers in their calls' places; a
// new message instead answers the waiting calls as not run (ToolApprovalSuperseded) and closes the run, so the next
// model request is valid and a late resume is refused typed, running nothing. Same with the Durable Object store.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, InMemorySessionStore, toolApprovals, type SessionStore } from '../../src/agent/index.js';
import { createScriptedChatClient, type ChatMessage, type ToolCall } from '../../src/chat/index.js';
import { createA2ADurableObject } from '../../src/cloudflare/a2a-object.js';
import { DurableObjectSessionStore } from '../../src/cloudflare/durable-session-store.js';
import { approvalSuperseded } from '../../src/interrupts/index.js';
import { isErrorEvent, isRunnerCompletion, isTerminalError, Runner, toRunnableAgent, type RunEvent } from '../../src/runner/index.js';
import { defineTool, serializeToolResult, ToolResult } from '../../src/tools/index.js';
import { FakeNamespace } from '../cloudflare/fake-platform.js';
import { testAgent } from '../cloudflare/node-agent.js';
import { expectValidTranscript } from '../helpers/agent-run.js';

async function collect(stream: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const LOOKED_UP = JSON.stringify({ ok: true, data: { orderId: '42', total: 30 } });
const REFUNDED = JSON.stringify({ ok: true, data: { orderId: '42', refunded: true } });
const SUPERSEDED = serializeToolResult(ToolResult.error(approvalSuperseded('refund')));
const CALLS: ToolCall[] = [
  { id: 'call_1', name: 'lookup', arguments: '{"orderId":"42"}' },
  { id: 'call_2', name: 'refund', arguments: '{"orderId":"42"}' },
];

function shop(sessionStore: SessionStore, turns: Parameters<typeof createScriptedChatClient>[0], gate?: Promise<void>, supersede?: (runId: string) => Promise<unknown>) {
  const refunded: string[] = [];
  const refund = defineTool({
    name: 'refund',
    description: 'Refunds an order.',
    parameters: z.object({ orderId: z.string() }),
    needsApproval: true,
    execute: async ({ orderId }) => (await gate, refunded.push(orderId), { orderId, refunded: true }),
  });
  const lookup = defineTool({ name: 'lookup', description: 'Looks an order up.', parameters: z.object({ orderId: z.string() }), execute: ({ orderId }) => ({ orderId, total: 30 }) });
  const model = createScriptedChatClient(turns);
  const agent = new AgentBuilder('refunds').chatClient(model).tools([lookup, refund]).approvals(toolApprovals()).build();
  return { refunded, model, runner: new Runner({ appName: 'shop', agent: supersede ? { ...toRunnableAgent(agent), supersede } : agent, sessionStore }) };
}

const stores: Array<[string, () => SessionStore]> = [
  ['in memory', () => new InMemorySessionStore()],
  ['in Durable Objects', () => new DurableObjectSessionStore(new FakeNamespace(createA2ADurableObject({ agent: testAgent, card: { name: 'node-agent' }, namespace: 'A2A_TASKS' })))],
];

describe.each(stores)('a Runner session across an interrupted agent run, %s', (_, makeStore) => {
  it('a resume answers the waiting call in its place: every call answered once, in call order, the turn not repeated', async () => {
    const sessions = makeStore();
    const { runner, model, refunded } = shop(sessions, [{ toolCalls: [{ id: 'call_2', name: 'refund', arguments: { orderId: '42' } }] }, { text: 'Refunded.' }, { text: 'You are welcome.' }]);
    const first = (await collect(runner.run({ userId: 'u', sessionId: 's', message: 'Refund order 42' }))).find(isRunnerCompletion);
    const [question] = first?.response.interrupts ?? [];
    expect(question).toMatchObject({ toolCallId: 'call_2', toolName: 'refund' });
    // The stopped round is kept, open: its assistant message names the run waiting on it.
    expect(await sessions.load('shop/u/s')).toEqual([
      { role: 'user', content: 'Refund order 42' },
      { role: 'assistant', content: '', toolCalls: [CALLS[1]!], pendingRun: question!.runId },
    ]);

    const done = await collect(runner.run({ userId: 'u', sessionId: 's', resume: { runId: question!.runId, decisions: [{ id: question!.id, approved: true }] } }));
    expect(done.find(isRunnerCompletion)?.response.error).toBeUndefined();
    expect(refunded).toEqual(['42']);
    await collect(runner.run({ userId: 'u', sessionId: 's', message: 'Thanks' }));
    expect(model.requests[2]?.messages).toEqual([
      { role: 'user', content: 'Refund order 42' },
      { role: 'assistant', content: '', toolCalls: [CALLS[1]!] },
      { role: 'tool', content: REFUNDED, toolCallId: 'call_2' },
      { role: 'assistant', content: 'Refunded.' },
      { role: 'user', content: 'Thanks' },
    ]);
    expect(refunded).toEqual(['42']);
    for (const request of model.requests) expectValidTranscript(request.messages);
  });

  it('a new message instead answers the waiting call as not run, and a late resume of that run is refused typed', async () => {
    const sessions = makeStore();
    const { runner, model, refunded } = shop(sessions, [{ toolCalls: [{ id: 'call_1', name: 'lookup', arguments: { orderId: '42' } }, { id: 'call_2', name: 'refund', arguments: { orderId: '42' } }] }, { text: 'Sure, order 43.' }]);
    const first = (await collect(runner.run({ userId: 'u', sessionId: 's', message: 'Refund order 42' }))).find(isRunnerCompletion);
    const [question] = first?.response.interrupts ?? [];
    expect(await sessions.load('shop/u/s')).toEqual([
      { role: 'user', content: 'Refund order 42' },
      { role: 'assistant', content: '', toolCalls: CALLS, pendingRun: question!.runId },
      { role: 'tool', content: LOOKED_UP, toolCallId: 'call_1' },
    ]);

    const next = await collect(runner.run({ userId: 'u', sessionId: 's', message: 'Actually, look at order 43' }));
    expect(next.find(isRunnerCompletion)?.response.error).toBeUndefined();
    // Every call of the stopped round has its answer in the request: no provider refuses it.
    expect(model.requests[1]?.messages).toEqual([
      { role: 'user', content: 'Refund order 42' },
      { role: 'assistant', content: '', toolCalls: CALLS },
      { role: 'tool', content: LOOKED_UP, toolCallId: 'call_1' },
      { role: 'tool', content: SUPERSEDED, toolCallId: 'call_2' },
      { role: 'user', content: 'Actually, look at order 43' },
    ]);
    expect(JSON.parse(SUPERSEDED)).toMatchObject({ ok: false, error: { type: 'ToolApprovalSuperseded', context: { tool: 'refund' }, suggestion: expect.stringContaining('Do not assume it ran') } });

    const late = await collect(runner.run({ userId: 'u', sessionId: 's', resume: { runId: question!.runId, decisions: [{ id: question!.id, approved: true }] } }));
    expect(late.find(isTerminalError)?.response.error).toMatchObject({ type: 'resume', code: 'RUN_NOT_INTERRUPTED', message: expect.stringContaining('a new message on its session') });
    expect(refunded).toEqual([]);
    const stored = await sessions.load('shop/u/s');
    expect(stored.slice(3)).toEqual([
      { role: 'tool', content: SUPERSEDED, toolCallId: 'call_2', superseded: true },
      { role: 'user', content: 'Actually, look at order 43' },
      { role: 'assistant', content: 'Sure, order 43.' },
    ]);
    for (const request of model.requests) expectValidTranscript(request.messages);
  });

  it('a resume that won the race against a new message keeps its real answer: the closure gives way to it', async () => {
    const sessions = makeStore();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { runner, model, refunded } = shop(sessions, [{ toolCalls: [{ id: 'call_2', name: 'refund', arguments: { orderId: '42' } }] }, { text: 'Hm?' }, { text: 'Refunded.' }, { text: 'Done.' }], gate);
    const [question] = (await collect(runner.run({ userId: 'u', sessionId: 's', message: 'Refund order 42' }))).find(isRunnerCompletion)?.response.interrupts ?? [];
    const resumed = collect(runner.run({ userId: 'u', sessionId: 's', resume: { runId: question!.runId, decisions: [{ id: question!.id, approved: true }] } }));
    await new Promise((resolve) => setTimeout(resolve, 20)); // the resume has claimed the run; its tool waits at the gate
    await collect(runner.run({ userId: 'u', sessionId: 's', message: 'Hello?' }));
    expect(model.requests[1]?.messages.slice(2)).toEqual([{ role: 'tool', content: SUPERSEDED, toolCallId: 'call_2' }, { role: 'user', content: 'Hello?' }]);
    open();
    expect((await resumed).find(isRunnerCompletion)?.response.error).toBeUndefined();
    expect(refunded).toEqual(['42']);

    await collect(runner.run({ userId: 'u', sessionId: 's', message: 'Thanks' }));
    expect(model.requests[3]?.messages).toEqual([
      { role: 'user', content: 'Refund order 42' },
      { role: 'assistant', content: '', toolCalls: [CALLS[1]!] },
      { role: 'tool', content: REFUNDED, toolCallId: 'call_2' },
      { role: 'user', content: 'Hello?' },
      { role: 'assistant', content: 'Hm?' },
      { role: 'assistant', content: 'Refunded.' },
      { role: 'user', content: 'Thanks' },
    ] satisfies ChatMessage[]);
    for (const request of model.requests) expectValidTranscript(request.messages);
  });

  it('closes the waiting calls even when the run cannot be closed, and says so with a non-terminal error', async () => {
    const sessions = makeStore();
    const { runner, model } = shop(sessions, [{ toolCalls: [{ id: 'call_2', name: 'refund', arguments: { orderId: '42' } }] }, { text: 'Hello.' }], undefined, async () => {
      throw new Error('the run-state store is down');
    });
    await collect(runner.run({ userId: 'u', sessionId: 's', message: 'Refund order 42' }));
    const events = await collect(runner.run({ userId: 'u', sessionId: 's', message: 'Hi' }));
    expect(events.filter(isErrorEvent).map((event) => [event.response?.done, event.response?.error?.message])).toEqual([[false, 'the run-state store is down']]);
    expect(events.find(isRunnerCompletion)?.response.error).toBeUndefined();
    expect(model.requests[1]?.messages.slice(2)).toEqual([{ role: 'tool', content: SUPERSEDED, toolCallId: 'call_2' }, { role: 'user', content: 'Hi' }]);
  });
});
