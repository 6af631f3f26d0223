// A transcript the model wrote is never refused by a client (found by the agent-loop scenarios on Anthropic: broken
// tool-call JSON made the next request a ConfigError, so the model never saw its error). Property: for arbitrary
// well-formed transcripts — any arguments text (broken, cut, arrays, deep, odd Unicode), any content, reasoning and
// replay items of every protocol — each of the three HTTP clients sends a request, never a ConfigError; the body is
// JSON; every call id is in it; Anthropic gets an object as every tool_use input; and no client sends another
// protocol's replay items.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAnthropicClient, createOpenAICompatibleClient, createOpenAIResponsesClient, type ChatClient, type ChatMessage, type ReplayItem } from '../../src/chat/index.js';
import { ChatClientError } from '../../src/errors/index.js';

const MARK = { anthropic: 'MARK-ANTHROPIC-ITEM', responses: 'MARK-RESPONSES-ITEM', other: 'MARK-OTHER-ITEM' };

const argumentsText = fc.oneof(
  fc.json({ depthSize: 'medium' }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.json().map((text) => text.slice(0, Math.max(0, text.length - 3))), // cut mid-value
  fc.constantFrom('', '{', '{"a":', '[1,2]', '"x"', 'null', '{"a":1}', '  {"b":[]}  ', '\u2028{}', '{"__proto__":{"x":1}}'),
);

const replayItem: fc.Arbitrary<ReplayItem> = fc.oneof(
  fc.record({ protocol: fc.constant('anthropic-messages'), item: fc.constant({ type: 'thinking', thinking: 't', signature: MARK.anthropic }) }),
  fc.record({ protocol: fc.constant('anthropic-messages'), item: fc.constant({ type: 'redacted_thinking', data: MARK.anthropic }) }),
  fc.record({ protocol: fc.constant('openai-responses'), item: fc.constant({ type: 'reasoning', id: 'rs_1', encrypted_content: MARK.responses, summary: [] }) }),
  fc.record({ protocol: fc.constant('some-other-protocol'), item: fc.constant({ type: 'blob', data: MARK.other }) }),
);

/** A turn: the assistant's text and calls, then one tool message per call (as the agent loop writes them). */
const turn = fc
  .record({
    content: fc.option(fc.string({ unit: 'grapheme', maxLength: 30 }), { nil: null }),
    reasoning: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
    replay: fc.option(fc.array(replayItem, { maxLength: 4 }), { nil: undefined }),
    calls: fc.array(fc.record({ name: fc.constantFrom('lookup', 'get_weather', 'tool-3'), arguments: argumentsText, result: fc.string({ maxLength: 30 }) }), { maxLength: 3 }),
    user: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
  })
  .map((shape): ChatMessage[] => {
    const calls = shape.calls.map((call, callIndex) => ({ id: `call_${callIndex}`, name: call.name, arguments: call.arguments }));
    const assistant: ChatMessage = { role: 'assistant', content: shape.content ?? (calls.length === 0 ? '' : null) };
    if (calls.length > 0) assistant.toolCalls = calls;
    if (shape.reasoning !== undefined) assistant.reasoning = shape.reasoning;
    if (shape.replay !== undefined) assistant.replay = shape.replay;
    const tools: ChatMessage[] = calls.map((call, callIndex) => ({ role: 'tool', toolCallId: call.id, content: shape.calls[callIndex]?.result ?? '' }));
    return [assistant, ...tools, { role: 'user', content: shape.user }];
  });

/** Call ids made unique per turn (`t<turn>_call_<n>`), as providers make them. */
const unique = (messages: ChatMessage[], index: number): ChatMessage[] =>
  messages.map((message) => ({
    ...message,
    ...(message.toolCalls ? { toolCalls: message.toolCalls.map((call) => ({ ...call, id: `t${index}_${call.id}` })) } : {}),
    ...(message.toolCallId ? { toolCallId: `t${index}_${message.toolCallId}` } : {}),
  }));

const transcript = fc.array(turn, { minLength: 1, maxLength: 4 }).map((turns): ChatMessage[] => [{ role: 'system', content: 'sys' }, { role: 'user', content: 'start' }, ...turns.flatMap(unique)]);

/** A client whose fetch records the body and fails, so complete() ends in a network error after sending. */
function capturing(make: (fetch: typeof globalThis.fetch) => ChatClient): { client: ChatClient; bodies: string[] } {
  const bodies: string[] = [];
  const fetch = (async (_url: unknown, init?: RequestInit) => {
    bodies.push(String(init?.body));
    throw new TypeError('captured');
  }) as typeof globalThis.fetch;
  return { client: make(fetch), bodies };
}

const clients = {
  'Chat Completions': (fetch: typeof globalThis.fetch) => createOpenAICompatibleClient({ baseURL: 'http://x.invalid/v1', model: 'm', retry: false, fetch }),
  Anthropic: (fetch: typeof globalThis.fetch) => createAnthropicClient({ baseURL: 'http://x.invalid', model: 'm', maxTokens: 64, retry: false, fetch }),
  Responses: (fetch: typeof globalThis.fetch) => createOpenAIResponsesClient({ baseURL: 'http://x.invalid/v1', model: 'm', retry: false, fetch }),
} as const;

function toolUseInputs(body: unknown): unknown[] {
  const messages = (body as { messages: Array<{ content: Array<{ type: string; input?: unknown }> }> }).messages;
  return messages.flatMap((message) => message.content.filter((block) => block.type === 'tool_use').map((block) => block.input));
}

describe('every client sends any well-formed transcript the model could have written', () => {
  for (const [name, make] of Object.entries(clients)) {
    it(`${name}: a request, never a ConfigError; JSON; every call id; only its own replay items`, async () => {
      await fc.assert(
        fc.asyncProperty(transcript, async (messages) => {
          const { client, bodies } = capturing(make);
          const failure = await client.complete({ messages }).then(
            () => undefined,
            (error: unknown) => error,
          );
          expect(ChatClientError.isInstance(failure) && failure.reason === 'network').toBe(true);
          expect(bodies).toHaveLength(1);
          const text = bodies[0] as string;
          const body: unknown = JSON.parse(text);
          for (const message of messages) for (const call of message.toolCalls ?? []) expect(text).toContain(JSON.stringify(call.id));
          expect(text).not.toContain(MARK.other);
          if (name !== 'Anthropic') expect(text).not.toContain(MARK.anthropic);
          if (name !== 'Responses') expect(text).not.toContain(MARK.responses);
          if (name === 'Anthropic') for (const input of toolUseInputs(body)) expect(Object.prototype.toString.call(input)).toBe('[object Object]');
        }),
        { seed: 20261214, numRuns: 250 },
      );
    });
  }
});
