// Recorded-shape provider answers the OpenAI-compatible client used to lose (issue 14): content as an array of parts
// (Mistral's reasoning models), `delta.refusal` (OpenAI structured outputs), and the reasoning DeepSeek's thinking mode
// requires back on tool-call turns. An answer whose shape the client does not understand is a typed error, never an
// empty success. Fixtures in test/fixtures cite the documented formats.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collectChatStream, createOpenAICompatibleClient, type ChatChunk } from '../../src/chat/index.js';
import { ChatClientError, StreamError } from '../../src/errors/index.js';
import { BASE_URL, chunk, completions, requestBody, sseResponse } from '../helpers/openai.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', name), 'utf8');
const client = (overrides: Partial<Parameters<typeof createOpenAICompatibleClient>[0]> = {}) =>
  createOpenAICompatibleClient({ baseURL: BASE_URL, apiKey: 'sk-test-0123456789abcdef', model: 'm', retry: false, ...overrides });
const ask = { messages: [{ role: 'user' as const, content: '2 + 2?' }] };
const serveSSE = (text: string) => server.use(completions(() => new HttpResponse(text, { headers: { 'content-type': 'text/event-stream' } })));

async function failureOf(stream: ReadableStream<ChatChunk>): Promise<unknown> {
  try {
    for await (const _chunk of stream as unknown as AsyncIterable<ChatChunk>) void _chunk;
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('content as an array of parts (Mistral reasoning models)', () => {
  it('stream(): the thinking parts are reasoning, the text parts the answer', async () => {
    serveSSE(fixture('mistral-thinking-parts.sse'));
    const response = await collectChatStream(client().stream(ask));
    expect(response.message.content).toBe('2 + 2 = 4');
    expect(response.message.reasoning).toBe('The user asks 2 + 2. That is 4.');
    expect(response.finishReason).toBe('stop');
  });

  it('complete(): the same parts in a non-streamed message', async () => {
    server.use(
      completions(() =>
        HttpResponse.json({
          id: 'cmpl-1',
          object: 'chat.completion',
          model: 'magistral-medium-2509',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Sum it.' }] }, { type: 'text', text: '2 + 2 = 4' }] } }],
        }),
      ),
    );
    const response = await client().complete(ask);
    expect(response.message).toMatchObject({ content: '2 + 2 = 4', reasoning: 'Sum it.' });
  });

  it('a part of a type the client does not decode is a typed error naming it, in both', async () => {
    server.use(completions(() => sseResponse([chunk({ content: [{ type: 'hologram', data: 'x' }] as never }, null), chunk({}, 'stop'), '[DONE]'])));
    const streamed = await failureOf(client().stream(ask));
    expect(StreamError.isInstance(streamed) && streamed.reason === 'malformed_chunk' && /hologram/.test(streamed.message)).toBe(true);
    server.use(completions(() => HttpResponse.json({ choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: [{ type: 'hologram' }] } }] })));
    await expect(client().complete(ask)).rejects.toSatisfy((error) => ChatClientError.isInstance(error) && error.reason === 'invalid_response' && /hologram/.test(error.message));
  });
});

describe('a refusal (OpenAI structured outputs)', () => {
  it('stream(): its words arrive as text, and the finish is refusal, not stop', async () => {
    serveSSE(fixture('openai-refusal.sse'));
    const response = await collectChatStream(client().stream(ask));
    expect(response.message.content).toBe("I'm sorry, I can't help with that.");
    expect(response.finishReason).toBe('refusal');
  });

  it('complete(): message.refusal is the content, the finish refusal', async () => {
    server.use(completions(() => HttpResponse.json({ choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: null, refusal: 'No.' } }] })));
    expect(await client().complete(ask)).toMatchObject({ message: { content: 'No.' }, finishReason: 'refusal' });
  });
});

describe('reasoning sent back where the provider requires it (DeepSeek / Moonshot thinking mode)', () => {
  const turn = {
    messages: [
      { role: 'user' as const, content: 'Weather in Paris?' },
      { role: 'assistant' as const, content: null, reasoning: 'Need the tool.', toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
      { role: 'tool' as const, content: '{"ok":true,"data":{"c":21}}', toolCallId: 'c1' },
      { role: 'assistant' as const, content: null, toolCalls: [{ id: 'c2', name: 'get_weather', arguments: '{"city":"Lyon"}' }] },
      { role: 'tool' as const, content: '{"ok":true,"data":{"c":19}}', toolCallId: 'c2' },
    ],
  };
  const sent = async (overrides: Partial<Parameters<typeof createOpenAICompatibleClient>[0]>): Promise<Array<Record<string, unknown>>> => {
    let body: Record<string, unknown> = {};
    server.use(
      completions(async ({ request }) => {
        body = await requestBody(request);
        return sseResponse([chunk({ content: 'ok' }, 'stop'), '[DONE]']);
      }),
    );
    await collectChatStream(client(overrides).stream(turn));
    return body.messages as Array<Record<string, unknown>>;
  };

  it("'tool-calls': every assistant tool-call message carries reasoning_content, empty when it had none", async () => {
    const messages = await sent({ reasoningReplay: 'tool-calls' });
    expect(messages.filter((message) => message.role === 'assistant').map((message) => message.reasoning_content)).toEqual(['Need the tool.', '']);
  });

  it('the default for OpenAI and other servers: never sent', async () => {
    const messages = await sent({});
    expect(messages.some((message) => 'reasoning_content' in message)).toBe(false);
  });

  it('the default for api.deepseek.com: sent', async () => {
    let body: Record<string, unknown> = {};
    server.use(
      completions(async ({ request }) => {
        body = await requestBody(request);
        return sseResponse([chunk({ content: 'ok' }, 'stop'), '[DONE]']);
      }),
    );
    const deepseek = createOpenAICompatibleClient({ baseURL: 'https://api.deepseek.com/v1', apiKey: 'sk-0123456789abcdef', model: 'deepseek-reasoner', retry: false, fetch: (input, init) => fetch(String(input).replace('https://api.deepseek.com/v1', BASE_URL), init) });
    await collectChatStream(deepseek.stream(turn));
    expect((body.messages as Array<Record<string, unknown>>).filter((message) => message.role === 'assistant').every((message) => 'reasoning_content' in message)).toBe(true);
  });
});
