// A run that stops to ask, on the UI message stream: an agent run's approvals as the protocol's tool-approval-request
// on their tool parts (useChat shows them approval-requested), each question a kept data-faultline-interrupt part
// (every approval, so the page's answers to 51 of them resume the run; other questions up to 50),
// the finish `tool-calls` with faultline's reason `interrupted` and the run id; a Runner run of a graph that asks as
// an `interrupted` completion, ended normally — and nothing planted in arguments or reasons leaves the process.
import { describe, expect, it } from 'vitest';
import { AgentBuilder, collectAgentRun, toolApprovals } from '../../../src/agent/index.js';
import type { AgentRunItem } from '../../../src/agent/types.js';
import { createScriptedChatClient } from '../../../src/chat/index.js';
import { defineTool, jsonSchema } from '../../../src/tools/index.js';
import { createGraphAgent, InMemoryCheckpointer } from '../../../src/graph/index.js';
import { Runner } from '../../../src/runner/index.js';
import { resumeDecisionsFromUIMessages, toUIMessageStream, type FaultlineCompletionData, type FaultlineInterruptData } from '../../../src/ui/index.js';
import { counters, refundGraph } from '../../graph/interrupt-fixtures.js';
import { checkedBody, chunksOfType } from './ui-stream.js';

const SECRET = 'sk-live-PLANTEDsecret0123456789abcdef';

function partsOf<T>(message: { parts: ReadonlyArray<{ type: string }> } | undefined, type: string): T[] {
  return (message?.parts ?? []).filter((part) => part.type === type).map((part) => (part as unknown as { data: T }).data);
}

async function* items(list: readonly unknown[]): AsyncIterable<AgentRunItem> {
  for (const item of list) yield item as AgentRunItem;
}

/** An agent run that called `refund` (waits on approval) and `lookup` (ran), then stopped for the approval. */
function interruptedRun(reason = 'Refunds need a manager’s yes') {
  const refundArgs = { orderId: '42', amount: 30, note: `card ${SECRET}` };
  return [
    { type: 'text-delta', iteration: 1, delta: 'Let me refund that.' },
    { type: 'tool-call', iteration: 1, call: { id: 'call_refund', name: 'refund', arguments: JSON.stringify(refundArgs) } },
    {
      type: 'interrupted',
      runId: 'run-7',
      interrupts: [{ id: 'int_1', runId: 'run-7', kind: 'approval', toolCallId: 'call_refund', toolName: 'refund', args: refundArgs, reason, createdAt: '2026-12-05T10:00:00.000Z', expiresAt: '2026-12-05T11:00:00.000Z' }],
    },
  ];
}

describe('an agent run that stops for an approval', () => {
  it('asks on the tool part: tool-approval-request after its input, the part approval-requested, no error', async () => {
    const body = await checkedBody(toUIMessageStream(items(interruptedRun())));
    const types = body.chunks.map((chunk) => chunk.type);
    expect(types.indexOf('tool-approval-request')).toBeGreaterThan(types.indexOf('tool-input-available'));
    expect(chunksOfType(body.chunks, 'tool-approval-request')).toEqual([{ type: 'tool-approval-request', approvalId: 'int_1', toolCallId: 'call_refund' }]);
    const tool = body.message?.parts.find((part) => part.type === 'tool-refund') as { state: string; approval: { id: string } } | undefined;
    expect(tool).toMatchObject({ state: 'approval-requested', approval: { id: 'int_1' } });
    expect(types).not.toContain('error');
    expect(types).not.toContain('tool-output-error');
    expect(body.errors).toEqual([]);
  });

  it('keeps a data-faultline-interrupt part per interrupt, without the arguments', async () => {
    const body = await checkedBody(toUIMessageStream(items(interruptedRun())));
    expect(partsOf<FaultlineInterruptData>(body.message, 'data-faultline-interrupt')).toEqual([
      { id: 'int_1', runId: 'run-7', kind: 'approval', toolCallId: 'call_refund', toolName: 'refund', reason: 'Refunds need a manager’s yes', createdAt: '2026-12-05T10:00:00.000Z', expiresAt: '2026-12-05T11:00:00.000Z' },
    ]);
  });

  it('finishes as streamText does when a step stops for approval (tool-calls), faultline’s reason interrupted and the run id in the metadata', async () => {
    const body = await checkedBody(toUIMessageStream(items(interruptedRun())));
    expect(body.chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'tool-calls', messageMetadata: { faultline: { finishReason: 'interrupted', runId: 'run-7', interrupts: 1 } } });
    expect(body.message?.metadata?.faultline).toMatchObject({ finishReason: 'interrupted', runId: 'run-7' });
  });

  it('announces a call the run never announced before asking about it', async () => {
    const [, , stop] = interruptedRun();
    const body = await checkedBody(toUIMessageStream(items([stop])));
    expect(body.chunks.map((chunk) => chunk.type)).toEqual(['start', 'start-step', 'tool-input-start', 'tool-input-available', 'tool-approval-request', 'data-faultline-interrupt', 'finish-step', 'finish']);
  });

  it('never lets a secret planted in the arguments or the reason into a frame, with the secret configured or by its shape', async () => {
    const run = interruptedRun(`approve with key ${SECRET}`);
    for (const options of [undefined, { secrets: [SECRET] }]) {
      const body = await checkedBody(toUIMessageStream(items(run), options));
      expect(partsOf<FaultlineInterruptData>(body.message, 'data-faultline-interrupt')[0]?.reason).toBe('approve with key [REDACTED]');
      expect(body.text).not.toContain(SECRET);
      expect(body.text).not.toContain('PLANTEDsecret');
    }
  });

  it('asks every approval on its part with its interrupt part (60 of 60), names at most 50 in the metadata, counts them all', async () => {
    const calls = Array.from({ length: 60 }, (_, index) => ({ type: 'tool-call', iteration: 1, call: { id: `c${index}`, name: 'refund', arguments: '{}' } }));
    const interrupts = calls.map((_, index) => ({ id: `i${index}`, runId: 'r', kind: 'approval', toolCallId: `c${index}`, toolName: 'refund', args: {}, createdAt: '2026-12-05T10:00:00.000Z' }));
    const body = await checkedBody(toUIMessageStream(items([...calls, { type: 'interrupted', runId: 'r', interrupts }])));
    expect(chunksOfType(body.chunks, 'tool-approval-request')).toHaveLength(60);
    expect(partsOf<FaultlineInterruptData>(body.message, 'data-faultline-interrupt').map((part) => part.id)).toEqual(interrupts.map((each) => each.id));
    expect(body.message?.metadata?.faultline?.interrupts).toBe(60);
  });

  it('names at most 50 questions that are no approvals as parts (nothing answers them on the page)', async () => {
    const interrupts = Array.from({ length: 60 }, (_, index) => ({ id: `q${index}`, runId: 'r', kind: 'input', nodeId: 'ask', value: { n: index }, createdAt: '2026-12-05T10:00:00.000Z' }));
    const body = await checkedBody(toUIMessageStream(items([{ type: 'interrupted', runId: 'r', interrupts }])));
    expect(partsOf(body.message, 'data-faultline-interrupt')).toHaveLength(50);
    expect(body.message?.metadata?.faultline?.interrupts).toBe(60);
  });

  it('resumes a run that waits on 51 approvals from the page’s answers: each one reaches its call', async () => {
    const ran: string[] = [];
    const remove = defineTool({
      name: 'delete_file',
      description: 'Delete a file.',
      parameters: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
      needsApproval: true,
      execute: ({ path }) => (ran.push(path), { deleted: path }),
    });
    const calls = Array.from({ length: 51 }, (_, index) => ({ id: `call_${index}`, name: 'delete_file', arguments: { path: `/tmp/f${index}` } }));
    const agent = new AgentBuilder('files').chatClient(createScriptedChatClient([{ toolCalls: calls }, { text: 'Deleted.' }])).tools([remove]).approvals(toolApprovals()).toolLogger(false).build();
    const body = await checkedBody(toUIMessageStream(agent.run('Delete the 51 temp files')));
    const message = structuredClone(body.message) as unknown as { parts: Array<Record<string, unknown>> };
    const asked = message.parts.filter((part) => part.state === 'approval-requested');
    expect(asked).toHaveLength(51);
    for (const part of asked) Object.assign(part, { state: 'approval-responded', approval: { ...(part.approval as object), approved: true } }); // what addToolApprovalResponse does
    const resume = resumeDecisionsFromUIMessages([{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Delete the 51 temp files' }] }, message]);
    expect(resume?.decisions).toHaveLength(51);
    expect((await collectAgentRun(agent.resume(resume!.runId, resume!.decisions))).status).toBe('finished');
    expect(ran).toHaveLength(51);
  });
});

describe('a Runner run of a graph that asks', () => {
  it('keeps its question as a data-faultline-interrupt part and an interrupted completion, and ends with finish, not an error', async () => {
    const runner = new Runner({ appName: 'shop', agent: createGraphAgent('refunds', refundGraph(counters()), { checkpointer: new InMemoryCheckpointer() }) });
    const body = await checkedBody(toUIMessageStream(runner.run({ userId: 'u', sessionId: 's', message: 'refund', state: { amount: 12 }, invocationId: 'inv-ui' })));
    const [question] = partsOf<FaultlineInterruptData>(body.message, 'data-faultline-interrupt');
    expect(question).toMatchObject({ runId: 'inv-ui', kind: 'input', nodeId: 'approve', value: { refund: 12 }, responseSchema: { type: 'object' } });
    const [completion] = partsOf<FaultlineCompletionData>(body.message, 'data-faultline-completion');
    expect(completion).toMatchObject({ status: 'interrupted', interruptCount: 1, interrupts: [{ id: question!.id }] });
    expect(completion?.error).toBeUndefined();
    expect(body.chunks.map((chunk) => chunk.type)).not.toContain('error');
    expect(body.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool-calls', messageMetadata: { faultline: { finishReason: 'interrupted', runId: 'inv-ui' } } });
  });
});
