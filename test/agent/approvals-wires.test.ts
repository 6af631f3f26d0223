/**
 * After a resume, the next model request is a valid transcript on each of the three HTTP wires: the round that
 * stopped (one approved call, one refused, one that ran before the stop) is answered with exactly one tool result per
 * call, in call order, right after the assistant's calls — whatever order the answers came in.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, collectAgentRun, toolApprovals } from '../../src/agent/index.js';
import { createAnthropicClient, createOpenAICompatibleClient, createOpenAIResponsesClient, createScriptedChatClient, type ChatClient } from '../../src/chat/index.js';
import { InMemoryRunStateStore } from '../../src/interrupts/index.js';
import { defineTool } from '../../src/tools/index.js';

const ROUND = {
  toolCalls: [
    { id: 'call_a', name: 'refund', arguments: { orderId: '1', amount: 5 } },
    { id: 'call_b', name: 'lookup', arguments: { orderId: '1' } },
    { id: 'call_c', name: 'refund', arguments: { orderId: '2', amount: 7 } },
  ],
};

function tools() {
  return [
    defineTool({ name: 'refund', description: 'Refund.', parameters: z.object({ orderId: z.string(), amount: z.number() }), needsApproval: true, execute: ({ amount }) => ({ refunded: amount }) }),
    defineTool({ name: 'lookup', description: 'Look up.', parameters: z.object({ orderId: z.string() }), execute: ({ orderId }) => ({ orderId }) }),
  ];
}

/** A client whose fetch records the body and fails (the request was built and sent). */
function capturing(make: (fetch: typeof globalThis.fetch) => ChatClient): { client: ChatClient; bodies: unknown[] } {
  const bodies: unknown[] = [];
  const fetch = (async (_url: unknown, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)));
    throw new TypeError('captured');
  }) as typeof globalThis.fetch;
  return { client: make(fetch), bodies };
}

type Body = Record<string, unknown>;
/** [the call ids the assistant made, the call ids answered, in the order the wire carries them], for the last round. */
const wires: Record<string, { make: (fetch: typeof globalThis.fetch) => ChatClient; round: (body: Body) => [string[], string[], boolean] }> = {
  'Chat Completions': {
    make: (fetch) => createOpenAICompatibleClient({ baseURL: 'http://x.invalid/v1', model: 'm', retry: false, fetch }),
    round: (body) => {
      const messages = body['messages'] as Array<{ role: string; tool_calls?: Array<{ id: string }>; tool_call_id?: string }>;
      const at = messages.findIndex((message) => message.tool_calls !== undefined);
      const answers = messages.slice(at + 1);
      return [messages[at]!.tool_calls!.map((call) => call.id), answers.map((message) => message.tool_call_id!), answers.every((message) => message.role === 'tool')];
    },
  },
  Anthropic: {
    make: (fetch) => createAnthropicClient({ baseURL: 'http://x.invalid', model: 'm', maxTokens: 64, retry: false, fetch }),
    round: (body) => {
      const messages = body['messages'] as Array<{ role: string; content: Array<{ type: string; id?: string; tool_use_id?: string }> }>;
      const [assistant, user] = messages.slice(-2);
      const results = user!.content.filter((block) => block.type === 'tool_result');
      return [assistant!.content.filter((block) => block.type === 'tool_use').map((block) => block.id!), results.map((block) => block.tool_use_id!), user!.role === 'user' && results.length === user!.content.length];
    },
  },
  Responses: {
    make: (fetch) => createOpenAIResponsesClient({ baseURL: 'http://x.invalid/v1', model: 'm', retry: false, fetch }),
    round: (body) => {
      const input = body['input'] as Array<{ type?: string; call_id?: string }>;
      const calls = input.filter((item) => item.type === 'function_call');
      const outputs = input.slice(input.indexOf(calls.at(-1)!) + 1);
      return [calls.map((item) => item.call_id!), outputs.map((item) => item.call_id!), outputs.every((item) => item.type === 'function_call_output')];
    },
  },
};

describe('the request after a resume', () => {
  for (const [wire, { make, round }] of Object.entries(wires)) {
    it(`${wire}: one tool result per call of the stopped round, in call order, right after its calls`, async () => {
      const store = new InMemoryRunStateStore();
      const asking = new AgentBuilder('shop').chatClient(createScriptedChatClient([ROUND])).tools(tools()).approvals(toolApprovals({ store })).toolLogger(false).build();
      const first = await collectAgentRun(asking.run('Refund orders 1 and 2'));
      expect(first.interrupts.map((each) => each.toolCallId)).toEqual(['call_a', 'call_c']);
      const { client, bodies } = capturing(make);
      const resuming = new AgentBuilder('shop').chatClient(client).tools(tools()).approvals(toolApprovals({ store })).toolLogger(false).build();
      const [approve, deny] = first.interrupts;
      await collectAgentRun(resuming.resume(first.runId!, [{ id: deny!.id, approved: false, reason: 'no' }, { id: approve!.id, approved: true }])).catch(() => undefined);
      expect(bodies).toHaveLength(1);
      const [calls, answered, adjacent] = round(bodies[0] as Body);
      expect(calls).toEqual(['call_a', 'call_b', 'call_c']);
      expect(answered).toEqual(['call_a', 'call_b', 'call_c']);
      expect(adjacent).toBe(true);
    });
  }
});
