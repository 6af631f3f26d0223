// What useChat posts after addToolApprovalResponse, read back as a resume: the last assistant message's tool parts in
// state approval-responded become ResumeDecisions for the run named by its data-faultline-interrupt parts (and its
// metadata); a forged, duplicate or mismatched approval is a typed UIMessagesError (400), never a guess.
import { describe, expect, it } from 'vitest';
import type { AgentRunItem } from '../../../src/agent/types.js';
import { readChatRequest, resumeDecisionsFromUIMessages, toUIMessageStream, UIMessagesError } from '../../../src/ui/index.js';
import { checkedBody } from '../stream/ui-stream.js';

async function* items(list: readonly unknown[]): AsyncIterable<AgentRunItem> {
  for (const item of list) yield item as AgentRunItem;
}

/** The assistant message useChat holds after a run stopped for two approvals. */
async function askedMessage() {
  const call = (id: string) => ({ type: 'tool-call', iteration: 1, call: { id, name: 'refund', arguments: '{"orderId":"42"}' } });
  const question = (id: string, toolCallId: string) => ({ id, runId: 'run-7', kind: 'approval', toolCallId, toolName: 'refund', args: { orderId: '42' }, createdAt: '2026-12-05T10:00:00.000Z' });
  const body = await checkedBody(toUIMessageStream(items([call('c1'), call('c2'), { type: 'interrupted', runId: 'run-7', interrupts: [question('int_1', 'c1'), question('int_2', 'c2')] }])));
  return JSON.parse(JSON.stringify(body.message)) as { parts: Array<Record<string, unknown>>; metadata?: Record<string, unknown> } & Record<string, unknown>;
}

/** What addToolApprovalResponse does to the part asking `id`. */
function respond(message: Awaited<ReturnType<typeof askedMessage>>, id: string, approved: boolean, reason?: string) {
  for (const part of message.parts) {
    const approval = part.approval as { id: string } | undefined;
    if (part.state === 'approval-requested' && approval?.id === id) Object.assign(part, { state: 'approval-responded', approval: { ...approval, approved, reason } });
  }
  return message;
}

const user = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'refund both' }] };

describe('resumeDecisionsFromUIMessages', () => {
  it('reads an approval and a denial with its reason as the decisions for the message’s run', async () => {
    const message = respond(respond(await askedMessage(), 'int_1', true), 'int_2', false, 'Too large');
    expect(resumeDecisionsFromUIMessages([user, message])).toEqual({ runId: 'run-7', decisions: [{ id: 'int_1', approved: true }, { id: 'int_2', approved: false, reason: 'Too large' }] });
  });

  it('is undefined for messages that answer nothing', async () => {
    expect(resumeDecisionsFromUIMessages([user, await askedMessage()])).toBeUndefined();
    expect(resumeDecisionsFromUIMessages([user])).toBeUndefined();
  });

  it.each([
    ['a forged approval id', (message: Awaited<ReturnType<typeof askedMessage>>) => Object.assign(respond(message, 'int_1', true).parts.find((part) => part.state === 'approval-responded')!, { approval: { id: 'int_forged', approved: true } }), /never asked/],
    ['the same approval answered twice', (message: Awaited<ReturnType<typeof askedMessage>>) => {
      respond(message, 'int_1', true);
      const second = message.parts.find((part) => part.state === 'approval-requested')!;
      Object.assign(second, { state: 'approval-responded', approval: { id: 'int_1', approved: false } });
    }, /a second time/],
    ['an approval moved to another tool call', (message: Awaited<ReturnType<typeof askedMessage>>) => Object.assign(respond(message, 'int_1', true).parts.find((part) => part.state === 'approval-responded')!, { toolCallId: 'c2' }), /was asked for the tool call/],
    ['a malformed approval', (message: Awaited<ReturnType<typeof askedMessage>>) => Object.assign(respond(message, 'int_1', true).parts.find((part) => part.state === 'approval-responded')!, { approval: { id: 'int_1', approved: 'yes' } }), /must be \{ id, approved, reason\? \}/],
    ['approvals of two runs', (message: Awaited<ReturnType<typeof askedMessage>>) => {
      respond(respond(message, 'int_1', true), 'int_2', true);
      (message.parts.find((part) => part.type === 'data-faultline-interrupt' && (part.data as { id: string }).id === 'int_2')!.data as Record<string, unknown>).runId = 'run-8';
    }, /2 runs/],
  ])('refuses %s with a UIMessagesError (400)', async (_name, tamper, text) => {
    const message = await askedMessage();
    tamper(message);
    const error = (() => {
      try {
        resumeDecisionsFromUIMessages([user, message]);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(UIMessagesError.isInstance(error)).toBe(true);
    expect((error as UIMessagesError).status).toBe(400);
    expect((error as UIMessagesError).message).toMatch(text);
  });

  it('comes with readChatRequest’s chat as its resume', async () => {
    const message = respond(await askedMessage(), 'int_1', true);
    respond(message, 'int_2', true);
    const body = { id: 'chat-1', trigger: 'submit-message', messages: [user, message] };
    const chat = await readChatRequest(new Request('http://127.0.0.1/chat', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }));
    expect(chat.resume).toEqual({ runId: 'run-7', decisions: [{ id: 'int_1', approved: true }, { id: 'int_2', approved: true }] });
  });

  it('is undefined when a user message follows the answered approvals: the user moved on, and that message is the turn', async () => {
    const message = respond(respond(await askedMessage(), 'int_1', true), 'int_2', true);
    const moved = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Actually, do not refund them. What is my balance?' }] };
    expect(resumeDecisionsFromUIMessages([user, message])).toBeDefined();
    expect(resumeDecisionsFromUIMessages([user, message, moved])).toBeUndefined();
    const chat = await readChatRequest({ id: 'chat-1', trigger: 'submit-message', messages: [user, message, moved] });
    expect(chat.resume).toBeUndefined();
    expect(chat.messages.at(-1)).toMatchObject({ role: 'user', content: 'Actually, do not refund them. What is my balance?' });
  });

  it('is read by readChatRequest within the limits it was given, raised ones included (not the defaults again)', async () => {
    const message = respond(await askedMessage(), 'int_1', true);
    respond(message, 'int_2', false, 'no');
    const long = { id: 'u0', role: 'user', parts: [{ type: 'text', text: 'x'.repeat(1_500_000) }] };
    const body = { id: 'chat-1', trigger: 'submit-message', messages: [long, message] };
    const chat = await readChatRequest(new Request('http://127.0.0.1/chat', { method: 'POST', body: JSON.stringify(body) }), { maxStringLength: 2_000_000, maxBodyBytes: 8_000_000 });
    expect(chat.resume).toEqual({ runId: 'run-7', decisions: [{ id: 'int_1', approved: true }, { id: 'int_2', approved: false, reason: 'no' }] });
    const big = { id: 'chat-1', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: Array.from({ length: 10 }, () => ({ type: 'text', text: 'y'.repeat(500_000) })) }] };
    expect((await readChatRequest(new Request('http://127.0.0.1/chat', { method: 'POST', body: JSON.stringify(big) }), { maxBodyBytes: 16_000_000 })).messages).toHaveLength(1);
  });
});
