// Every chat decoder fed remote values no honest provider sends but `JSON.parse` accepts — nesting 150,000–200,000
// levels deep (inside the 1 MiB line bound), hundreds of thousands of items or keys — where an index, an error object or a
// reasoning item belongs: the caller gets the typed error of a stream (`StreamError` `malformed_chunk`) or of an
// answer (`ChatClientError` `invalid_response`), its message bounded, never a raw `RangeError` of `JSON.stringify` or
// of a spread. And a decoding step that fails in a way no check names still ends in a typed error, its cause kept.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnthropicStreamDecoder } from '../../src/chat/anthropic/anthropic-stream-decoder.js';
import { createAnthropicClient, createOpenAICompatibleClient, createOpenAIResponsesClient, type ChatClient } from '../../src/chat/index.js';
import { ResponsesStreamDecoder } from '../../src/chat/openai-responses/responses-stream-decoder.js';
import { OpenAIStreamDecoder } from '../../src/chat/openai/openai-stream-decoder.js';
import { ChatClientError, StreamError } from '../../src/errors/index.js';
import { describeError } from '../../src/internal/error-json.js';
import { nestedText } from '../helpers/hostile-values.js';

const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
const SECRET = 'planted-key-0123456789';
const sse = (frames: string[]) => frames.map((frame) => `data: ${frame}\n\n`).join('');
const answer = (body: string, type = 'text/event-stream') => (async () => new Response(body, { headers: { 'content-type': type } })) as typeof fetch;

/** Remote values of a hostile shape, as JSON text. */
const HOSTILE: Record<string, string> = {
  'an array nested 200,000 levels': nestedText(200_000, '1', 'array'),
  'an object nested 150,000 levels': nestedText(150_000, '1', 'object'),
  'an array of 300,000 items': `[${'0,'.repeat(299_999)}0]`,
  'an object of 50,000 keys': `{${Array.from({ length: 50_000 }, (_, key) => `"k${key}":0`).join(',')}}`,
};

const clients = {
  chat: (body: string) => createOpenAICompatibleClient({ baseURL: 'http://x.test/v1', apiKey: SECRET, model: 'm', retry: false, fetch: answer(body) }),
  anthropic: (body: string) => createAnthropicClient({ baseURL: 'http://x.test', apiKey: SECRET, model: 'm', maxTokens: 5, retry: false, fetch: answer(body) }),
  responses: (body: string, type?: string) => createOpenAIResponsesClient({ baseURL: 'http://x.test/v1', apiKey: SECRET, model: 'm', retry: false, fetch: answer(body, type) }),
};

/** Each place a decoder reads an index, with the stream that puts `value` (JSON text) there. */
const INDEX_SITES: Array<[string, (value: string) => ChatClient]> = [
  ['Chat Completions choices[].index', (value) => clients.chat(sse([`{"id":"c","choices":[{"index":${value},"delta":{}}]}`, '[DONE]']))],
  ['Chat Completions tool_calls[].index', (value) => clients.chat(sse([`{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":${value}}]}}]}`, '[DONE]']))],
  ['Anthropic content_block_start index', (value) => clients.anthropic(sse([`{"type":"content_block_start","index":${value},"content_block":{"type":"text","text":""}}`]))],
  ['Anthropic content_block_delta index', (value) => clients.anthropic(sse(['{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}', `{"type":"content_block_delta","index":${value},"delta":{"type":"text_delta","text":"x"}}`]))],
  ['Anthropic content_block_stop index', (value) => clients.anthropic(sse(['{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}', `{"type":"content_block_stop","index":${value}}`]))],
  ['Responses output_item.added output_index', (value) => clients.responses(sse([`{"type":"response.output_item.added","output_index":${value},"item":{"type":"message"}}`]))],
  ['Responses output_item.done output_index', (value) => clients.responses(sse([`{"type":"response.output_item.done","output_index":${value},"item":{"type":"message","content":[]}}`]))],
  ['Responses output_text.delta output_index', (value) => clients.responses(sse([`{"type":"response.output_text.delta","output_index":${value},"delta":"x"}`]))],
  ['Responses function_call_arguments.delta output_index', (value) => clients.responses(sse([`{"type":"response.function_call_arguments.delta","output_index":${value},"delta":"{}"}`]))],
];

async function streamFailure(client: ChatClient): Promise<unknown> {
  try {
    for await (const _ of client.stream(request));
  } catch (error) {
    return error;
  }
  throw new Error('the stream did not fail');
}

describe('every decoder fed a hostile value where an index belongs', () => {
  for (const [site, client] of INDEX_SITES) {
    for (const [shape, value] of Object.entries(HOSTILE)) {
      it(`${site}: ${shape} is a StreamError malformed_chunk with a bounded message`, async () => {
        const error = await streamFailure(client(value));
        expect(StreamError.isInstance(error), String(error)).toBe(true);
        expect(error).toMatchObject({ reason: 'malformed_chunk' });
        expect((error as Error).message.length).toBeLessThan(1_000);
      });
    }
  }
});

describe('OpenAI Responses: hostile error objects and reasoning items', () => {
  const deep = nestedText(200_000);
  it('complete(): a failed response whose error is nested 200,000 levels is a ChatClientError describing it', async () => {
    const error = await clients.responses(`{"id":"r","status":"failed","output":[],"error":${deep}}`, 'application/json').complete(request).catch((caught: unknown) => caught);
    expect(ChatClientError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toContain('answered with a failed response: an object {"a":{…}}');
  });

  it('complete(): a reasoning item nested 200,000 levels is refused as one that cannot go back', async () => {
    const body = `{"id":"r","status":"completed","output":[{"type":"reasoning","id":"rs_1","summary":[],"extra":${deep}}]}`;
    const error = await clients.responses(body, 'application/json').complete(request).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ChatClientError', reason: 'invalid_response', message: expect.stringContaining('a reasoning item that cannot be written back as JSON') });
  });

  it('stream: the same reasoning item in output_item.done is a StreamError malformed_chunk', async () => {
    const error = await streamFailure(clients.responses(sse([`{"type":"response.output_item.done","output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[],"extra":${deep}}}`])));
    expect(error).toMatchObject({ name: 'StreamError', reason: 'malformed_chunk', message: expect.stringContaining('a reasoning item that cannot be written back as JSON') });
  });

  it('stream: 200,000 output items, then a call only in response.completed — the call is decoded (no spread of every index)', async () => {
    const frames = Array.from({ length: 200_000 }, (_, index) => `{"type":"response.output_item.added","output_index":${index},"item":{"type":"web_search_call"}}`);
    frames.push(JSON.stringify({ type: 'response.completed', response: { status: 'completed', output: [{ type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' }] } }));
    const calls: string[] = [];
    for await (const chunk of clients.responses(sse(frames)).stream(request)) if (chunk.type === 'tool-call-end') calls.push(chunk.id);
    expect(calls).toEqual(['call_1']);
  }, 60_000);
});

describe('a decoding step that fails in a way no check names', () => {
  afterEach(() => vi.restoreAllMocks());
  const context = { secrets: [SECRET], label: 'Provider API (provider.test)', model: 'm', attempt: 1 };
  const bytes = (text: string) => new TextEncoder().encode(text);
  /** Makes the (private or protected) decoding step `method` of a decoder class fail as `failing` does. */
  const failStep = (prototype: object, method: string, failing: () => never) => vi.spyOn(prototype as Record<string, () => unknown>, method).mockImplementation(failing);
  const crash = (): never => {
    throw new RangeError(`Maximum call stack size exceeded near ${SECRET}`);
  };
  const expectTyped = (run: () => unknown) => {
    let error: unknown;
    try {
      run();
    } catch (caught) {
      error = caught;
    }
    expect(StreamError.isInstance(error), String(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'malformed_chunk', message: expect.stringContaining('could not be decoded (RangeError: Maximum call stack size exceeded') });
    expect((error as Error).cause).toMatchObject({ name: 'RangeError' });
    expect(JSON.stringify(describeError(error)) + (error as Error).message).not.toContain(SECRET);
  };

  it('Chat Completions: push() raises a StreamError malformed_chunk with the error as its (redacted) cause', () => {
    failStep(OpenAIStreamDecoder.prototype, 'choice', crash);
    const decoder = new OpenAIStreamDecoder({ secrets: [SECRET], createId: () => 'call_x' });
    expectTyped(() => decoder.push(bytes('data: {"id":"c","choices":[{"index":0,"delta":{"content":"x"}}]}\n\n')));
  });

  it('Chat Completions: output decoded before the failure in the same read is returned first, the typed failure next', () => {
    failStep(OpenAIStreamDecoder.prototype, 'choice', crash);
    const decoder = new OpenAIStreamDecoder({ secrets: [SECRET], createId: () => 'call_x' });
    const usage = 'data: {"id":"c","usage":{"prompt_tokens":1,"completion_tokens":2}}\n\n';
    expect(decoder.push(bytes(`${usage}data: {"id":"c","choices":[{"index":0,"delta":{"content":"x"}}]}\n\n`))).toMatchObject([{ type: 'usage' }]);
    expectTyped(() => decoder.throwIfPending());
  });

  for (const [name, Decoder] of [['Anthropic', AnthropicStreamDecoder], ['Responses', ResponsesStreamDecoder]] as const) {
    it(`${name}: push() raises a StreamError malformed_chunk with the error as its (redacted) cause`, () => {
      failStep(Decoder.prototype, 'event', crash);
      expectTyped(() => new Decoder(context).push(bytes('data: {"type":"ping"}\n\n')));
    });

    it(`${name}: a faultline error of a step is raised as it is`, () => {
      const own = new StreamError('own verdict', { reason: 'provider_error' });
      failStep(Decoder.prototype, 'event', () => {
        throw own;
      });
      expect(() => new Decoder(context).push(bytes('data: {"type":"ping"}\n\n'))).toThrow(own);
    });
  }
});
