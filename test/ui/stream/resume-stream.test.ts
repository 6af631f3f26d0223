// A resumed run on the UI message stream: `useChat` appends the answer to the message that asked, so the stream
// names no new message and answers the calls that message holds without announcing them again; a denied call is the
// protocol's `tool-output-denied`, not a failure; the same answers sent again end in a typed refusal, never in a
// finish that would leave the approvals unanswered (and `useChat` sending them again without end).
import { readUIMessageStream, type UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, collectAgentRun, toolApprovals } from '../../../src/agent/index.js';
import { createScriptedChatClient } from '../../../src/chat/index.js';
import { Runner } from '../../../src/runner/index.js';
import { defineTool } from '../../../src/tools/index.js';
import { toUIMessageStream, type FaultlineCompletionData } from '../../../src/ui/index.js';
import { messageOf, readBody, schemaProblems, type FaultlineUIMessage } from './ui-stream.js';

function refundAgent() {
  const ran: string[] = [];
  const refund = defineTool({
    name: 'refund',
    description: 'Refund an order.',
    parameters: z.object({ orderId: z.string() }),
    needsApproval: true,
    execute: ({ orderId }) => {
      ran.push(orderId);
      return { orderId, refunded: true };
    },
  });
  const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_refund', name: 'refund', arguments: { orderId: '42' } }] }, (asked) => ({ text: `Done: ${asked.messages.at(-1)?.content?.slice(0, 60)}` })]);
  return { agent: new AgentBuilder('refunds').chatClient(model).tools([refund]).approvals(toolApprovals()).toolLogger(false).build(), ran };
}

/** The message the first stream built, then the same message continued by the resumed stream (as `useChat` does). */
async function continued(first: UIMessageChunk[], second: UIMessageChunk[], answer: (message: FaultlineUIMessage) => FaultlineUIMessage) {
  const asked = (await messageOf(first)).message!;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of second) controller.enqueue(chunk);
      controller.close();
    },
  });
  const errors: string[] = [];
  let message: FaultlineUIMessage | undefined;
  for await (const snapshot of readUIMessageStream<FaultlineUIMessage>({ message: answer(asked), stream, onError: (error) => errors.push(String(error)) })) message = snapshot;
  return { asked, message: message!, errors };
}

const answered = (approved: boolean, reason?: string) => (message: FaultlineUIMessage) =>
  ({ ...message, parts: message.parts.map((part) => (part.type === 'tool-refund' && part.state === 'approval-requested' ? { ...part, state: 'approval-responded', approval: { id: part.approval.id, approved, reason } } : part)) }) as FaultlineUIMessage;

async function askedAndResumed(approved: boolean, reason?: string) {
  const { agent, ran } = refundAgent();
  const firstItems = await readBody(toUIMessageStream(agent.run('Refund order 42')));
  const stop = firstItems.chunks.find((chunk) => chunk.type === 'tool-approval-request') as { approvalId: string };
  const runId = (firstItems.chunks.at(-1) as { messageMetadata: { faultline: { runId: string } } }).messageMetadata.faultline.runId;
  const decision = approved ? { id: stop.approvalId, approved: true as const } : { id: stop.approvalId, approved: false as const, reason };
  const second = await readBody(toUIMessageStream(agent.resume(runId, [decision])));
  return { agent, ran, runId, decision, first: firstItems, second };
}

describe('a resumed agent run on the UI message stream', () => {
  it('starts from a run that stopped to ask before it ran anything', async () => {
    const { agent, ran } = refundAgent();
    expect((await collectAgentRun(agent.run('Refund order 42'))).status).toBe('interrupted');
    expect(ran).toEqual([]);
  });

  it('continues the message that asked: no new message id, the approved call answered on its own part, no second part', async () => {
    const { ran, first, second } = await askedAndResumed(true);
    expect(await schemaProblems(second.chunks)).toEqual([]);
    expect(second.chunks[0]).toEqual({ type: 'start' });
    expect(second.chunks.map((chunk) => chunk.type)).not.toContain('tool-input-start');
    expect(ran).toEqual(['42']);
    const { asked, message, errors } = await continued(first.chunks, second.chunks, answered(true));
    expect(errors).toEqual([]);
    expect(message.id).toBe(asked.id);
    const tools = message.parts.filter((part) => part.type === 'tool-refund');
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({ toolCallId: 'call_refund', state: 'output-available', input: { orderId: '42' }, output: { ok: true, data: { orderId: '42', refunded: true } } });
    expect(message.parts.filter((part) => part.type === 'text').at(-1)).toMatchObject({ text: expect.stringMatching(/^Done: \{"ok":true/) });
    // useChat deep-merges the continued message's metadata: the last finish's count must win over the asking one's
    expect(asked.metadata?.faultline).toMatchObject({ finishReason: 'interrupted', interrupts: 1 });
    expect(message.metadata?.faultline).toMatchObject({ finishReason: 'stop', interrupts: 0 });
  });

  it('writes a denied call as tool-output-denied (the part output-denied, the reason on its approval), with no error part', async () => {
    const { ran, first, second } = await askedAndResumed(false, 'Over the limit');
    expect(await schemaProblems(second.chunks)).toEqual([]);
    expect(second.chunks.filter((chunk) => chunk.type.startsWith('tool-'))).toEqual([{ type: 'tool-output-denied', toolCallId: 'call_refund' }]);
    expect(second.chunks.map((chunk) => chunk.type)).not.toContain('data-faultline-error');
    expect(ran).toEqual([]);
    const { message, errors } = await continued(first.chunks, second.chunks, answered(false, 'Over the limit'));
    expect(errors).toEqual([]);
    expect(message.parts.filter((part) => part.type === 'tool-refund')).toMatchObject([{ state: 'output-denied', approval: { approved: false, reason: 'Over the limit' } }]);
    expect(message.parts.filter((part) => part.type === 'text').at(-1)).toMatchObject({ text: expect.stringContaining('ToolApprovalDenied') });
  });

  it('ends the same answers sent again with a typed RUN_NOT_INTERRUPTED failure (useChat sends nothing more), the tool still run once', async () => {
    const { agent, ran, runId, decision } = await askedAndResumed(true);
    const again = await readBody(toUIMessageStream(agent.resume(runId, [decision])));
    expect(await schemaProblems(again.chunks)).toEqual([]);
    expect(again.chunks.map((chunk) => chunk.type)).toEqual(['start', 'data-faultline-error', 'error', 'finish']);
    expect((again.chunks[1] as { data: Record<string, unknown> }).data).toMatchObject({ kind: 'resume', code: 'RUN_NOT_INTERRUPTED', retryable: false, scope: 'run', message: expect.stringMatching(/already applied/) });
    expect(again.chunks.at(-1)).toMatchObject({ finishReason: 'error' });
    expect(ran).toEqual(['42']);
  });

  it('still announces, on a new run, a call it never announced (only a resume answers calls of an earlier stream)', async () => {
    const items = [{ type: 'tool-result', iteration: 1, callId: 'c1', toolName: 'refund', ok: true, result: { ok: true, data: 1 }, content: '{"ok":true,"data":1}' }, { type: 'finish', iteration: 1, finishReason: 'stop', iterations: 1, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } }];
    const body = await readBody(toUIMessageStream((async function* () { yield* items; })() as never));
    expect(body.chunks[0]).toMatchObject({ type: 'start', messageId: expect.stringMatching(/^msg-/) });
    expect(body.chunks.map((chunk) => chunk.type).slice(1, 4)).toEqual(['start-step', 'tool-input-start', 'tool-input-available']);
  });
});

describe('a Runner resume on the UI message stream', () => {
  it('continues the message too, and a denial through the Runner is tool-output-denied', async () => {
    const { agent, ran } = refundAgent();
    const runner = new Runner({ appName: 'shop', agent });
    const first = await readBody(toUIMessageStream(runner.run({ userId: 'u', sessionId: 's', message: 'Refund order 42' })));
    const completion = first.chunks.find((chunk) => chunk.type === 'data-faultline-completion') as { data: FaultlineCompletionData } | undefined;
    expect(completion?.data.status).toBe('interrupted');
    const [question] = completion!.data.interrupts!;
    const second = await readBody(toUIMessageStream(runner.run({ userId: 'u', sessionId: 's', resume: { runId: question!.runId, decisions: [{ id: question!.id, approved: false, reason: 'No' }] } })));
    expect(await schemaProblems(second.chunks)).toEqual([]);
    expect(second.chunks[0]).toEqual({ type: 'start' });
    expect(second.chunks.filter((chunk) => chunk.type.startsWith('tool-'))).toEqual([{ type: 'tool-output-denied', toolCallId: 'call_refund' }]);
    expect(ran).toEqual([]);
    const { message, errors } = await continued(first.chunks, second.chunks, answered(false, 'No'));
    expect(errors).toEqual([]);
    expect(message.parts.filter((part) => part.type === 'tool-refund')).toMatchObject([{ state: 'output-denied' }]);
    expect(message.metadata?.faultline).toMatchObject({ finishReason: 'stop', interrupts: 0 });
  });
});
