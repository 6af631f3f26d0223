// An LLM agent's approvals through the Runner: the run that stopped to ask ends with a completion carrying its
// interrupts; runner.run({ resume }) continues it with agent.resume — the approved tool runs once — and a wrong resume
// is a terminal error of type `resume` with its ResumeError code, leaving the run waiting; the same resume sent again
// is answered with its outcome marked `replay`, which the session does not get twice.
import { describe, expect, it } from 'vitest';
import { AgentBuilder, toolApprovals } from '../../src/agent/index.js';
import { createScriptedChatClient } from '../../src/chat/index.js';
import { isRunnerCompletion, isTerminalError, Runner, toRunnableAgent, type RunEvent } from '../../src/runner/index.js';
import { refundTool } from '../agent/refund-tool.js';

async function collect(stream: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('an agent that needs approval, under the Runner', () => {
  it('stops with its interrupts, refuses a wrong resume with a typed code, and runs the approved call once', async () => {
    const refunded: string[] = [];
    const refund = refundTool(refunded);
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_1', name: 'refund', arguments: { orderId: '42' } }] }, { text: 'Refunded.' }]);
    const agent = new AgentBuilder('refunds').chatClient(model).tools([refund]).approvals(toolApprovals()).build();
    const runner = new Runner({ appName: 'shop', agent: toRunnableAgent(agent) });

    const first = (await collect(runner.run({ userId: 'u', sessionId: 's', message: 'Refund order 42' }))).find(isRunnerCompletion);
    expect(first?.response.error).toBeUndefined();
    const [question] = first?.response.interrupts ?? [];
    expect(question).toMatchObject({ kind: 'approval', toolName: 'refund', args: { orderId: '42' } });
    expect(refunded).toEqual([]);

    const wrong = await collect(runner.run({ userId: 'u', sessionId: 's', resume: { runId: question!.runId, decisions: [{ id: 'approval-nope', approved: true }] } }));
    const refusal = wrong.find(isTerminalError);
    expect(refusal?.response.error).toMatchObject({ type: 'resume', code: 'INTERRUPT_NOT_FOUND' });
    expect(refunded).toEqual([]);

    const done = await collect(runner.run({ userId: 'u', sessionId: 's', resume: { runId: question!.runId, decisions: [{ id: question!.id, approved: true }] } }));
    const completion = done.find(isRunnerCompletion);
    expect(completion?.response.error).toBeUndefined();
    expect(completion?.response.choices?.[0]?.message?.content).toBe('Refunded.');
    expect(refunded).toEqual(['42']);
  });

  it('answers the same resume sent again with its outcome, marked replay, adding nothing to the session', async () => {
    const refunded: string[] = [];
    const asked: string[][] = [];
    const model = createScriptedChatClient([
      { toolCalls: [{ id: 'call_1', name: 'refund', arguments: { orderId: '42' } }] },
      { text: 'Order 42 was refunded.' },
      (request) => {
        asked.push(request.messages.map((message) => `${message.role}:${message.content ?? ''}`));
        return { text: 'Anything else?' };
      },
    ]);
    const agent = new AgentBuilder('refunds').chatClient(model).tools([refundTool(refunded)]).approvals(toolApprovals()).build();
    const runner = new Runner({ appName: 'shop', agent });
    const [question] = (await collect(runner.run({ userId: 'u', sessionId: 's', message: 'Refund order 42' }))).find(isRunnerCompletion)?.response.interrupts ?? [];
    const resume = { runId: question!.runId, decisions: [{ id: question!.id, approved: true as const }] };
    const first = (await collect(runner.run({ userId: 'u', sessionId: 's', resume }))).filter((event) => event.response?.object === 'chat.completion' && event.response.done);
    const again = (await collect(runner.run({ userId: 'u', sessionId: 's', resume }))).filter((event) => event.response?.object === 'chat.completion' && event.response.done); // a retried request
    expect(first.at(-1)?.response?.replay).toBeUndefined();
    expect(again.map((event) => [event.response?.choices?.[0]?.message?.content, event.response?.replay])).toEqual([['Order 42 was refunded.', true]]);
    await collect(runner.run({ userId: 'u', sessionId: 's', message: 'Thanks' }));
    expect(refunded).toEqual(['42']);
    expect(asked[0]?.filter((line) => line === 'assistant:Order 42 was refunded.')).toHaveLength(1);
  });
});
