// `maxLineLength` is the one option bounding a chat stream's SSE lines (docs/bounds.md): above 8 MiB (or Infinity) it
// also lifts the bound on one event's data, which stayed a fixed 8,388,608 characters (the chat decoders pass it on).
import { describe, expect, it } from 'vitest';
import { createAnthropicClient, createOpenAICompatibleClient, createOpenAIResponsesClient, type ChatClient } from '../../src/chat/index.js';
import { eventBound } from '../../src/chat/core/event-decoder.js';
import { SSEParser, type SSEEvent } from '../../src/wire/sse-decoder.js';

const MiB = 1024 * 1024;
const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
const big = 'x'.repeat(9 * MiB); // one event's data over the old fixed 8 MiB cap
const data = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`;
const event = (type: string, value: unknown): string => `event: ${type}\n${data(value)}`;
const respond = (body: string): typeof fetch => (async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } })) as typeof fetch;

const chatBody = (text: string): string => data({ choices: [{ index: 0, delta: { content: text } }] }) + data({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) + 'data: [DONE]\n\n';
const responsesBody = (text: string): string =>
  data({ type: 'response.created', response: { id: 'r', model: 'g' } }) +
  data({ type: 'response.completed', response: { id: 'r', status: 'completed', output: [{ type: 'message', id: 'msg', content: [{ type: 'output_text', text }] }] } });
const anthropicBody = (text: string): string =>
  event('message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [], usage: { input_tokens: 1, output_tokens: 1 } } }) +
  event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
  event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }) +
  event('content_block_stop', { type: 'content_block_stop', index: 0 }) +
  event('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }) +
  event('message_stop', { type: 'message_stop' });

const chat = (body: string, maxLineLength?: number): ChatClient => createOpenAICompatibleClient({ baseURL: 'http://line.test/v1', model: 'm', retry: false, maxLineLength, fetch: respond(body) });
const responses = (body: string, maxLineLength?: number): ChatClient => createOpenAIResponsesClient({ apiKey: 'k', model: 'm', retry: false, maxLineLength, fetch: respond(body) });
const anthropic = (body: string, maxLineLength?: number): ChatClient =>
  createAnthropicClient({ baseURL: 'http://line.test', apiKey: 'k', model: 'claude-x', maxTokens: 16, retry: false, maxLineLength, fetch: respond(body) });

async function textOf(client: ChatClient): Promise<{ length: number; error: unknown }> {
  let length = 0;
  try {
    for await (const piece of client.stream(request)) if (piece.type === 'text-delta') length += piece.delta.length;
  } catch (error) {
    return { length, error };
  }
  return { length, error: undefined };
}

describe('maxLineLength above the default event bound', () => {
  it.each([
    ['OpenAI Chat Completions, Infinity', () => chat(chatBody(big), Number.POSITIVE_INFINITY)],
    ['OpenAI Chat Completions, 16 MiB', () => chat(chatBody(big), 16 * MiB)],
    ['OpenAI Responses, 32 MiB', () => responses(responsesBody(big), 32 * MiB)],
    ['OpenAI Responses, Infinity', () => responses(responsesBody(big), Number.POSITIVE_INFINITY)],
    ['Anthropic Messages, 16 MiB', () => anthropic(anthropicBody(big), 16 * MiB)],
  ])('%s: an event of 9 MiB of text is read whole', async (_, client) => {
    const run = await textOf(client());
    expect(run.error).toBeUndefined();
    expect(run.length).toBe(big.length);
  });

  it('a line over maxLineLength is still refused, and the defaults are unchanged', async () => {
    expect((await textOf(chat(chatBody(big), 4 * MiB))).error).toMatchObject({ name: 'StreamError', reason: 'line_too_long' });
    expect((await textOf(chat(chatBody(big)))).error).toMatchObject({ name: 'StreamError', reason: 'line_too_long', message: expect.stringContaining('1048576') });
    expect((await textOf(responses(responsesBody(big)))).error).toMatchObject({ name: 'StreamError', reason: 'line_too_long', message: expect.stringContaining('8388608') });
    expect((await textOf(anthropic(anthropicBody(big), 9 * MiB))).error).toMatchObject({ name: 'StreamError', reason: 'line_too_long' });
  });
});

describe("a chat stream's event bound (eventBound)", () => {
  it('is the SSE default 8,388,608, or maxLineLength when that is larger', () => {
    expect(eventBound(undefined)).toBe(8_388_608);
    expect(eventBound(1_000)).toBe(8_388_608);
    expect(eventBound(16 * MiB)).toBe(16 * MiB);
    expect(eventBound(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
  });

  it('leaves the SSE parser default as it was for everyone else (the A2A and MCP clients pass their own)', () => {
    const events: SSEEvent[] = [];
    const parser = new SSEParser({ onEvent: (one) => events.push(one), maxLineLength: 16 * MiB });
    expect(() => parser.feed(`data: ${'y'.repeat(8_388_608 + 10)}\n\n`)).toThrow(/exceeded 8388608 characters of data/);
  });
});
