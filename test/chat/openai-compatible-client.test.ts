import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collectChatStream, createOpenAICompatibleClient, type ChatChunk, type ChatRetryNotice } from '../../src/chat/index.js';
import { ChatClientError, ConfigError, StreamError } from '../../src/errors/index.js';
import { BASE_URL, chunk, completions, COMPLETIONS_URL, requestBody, sseResponse, sseText, textEvents, toolCallEvents, usageChunk } from '../helpers/openai.js';
import { dripBody } from '../helpers/async.js';
import { readAll } from '../helpers/chat-stream.js';

const API_KEY = 'sk-test-SECRET-0123456789abcdef';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const fastRetry = { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 5 };
const client = (overrides: Partial<Parameters<typeof createOpenAICompatibleClient>[0]> = {}) =>
  createOpenAICompatibleClient({ baseURL: BASE_URL, apiKey: API_KEY, model: 'test-model', retry: fastRetry, ...overrides });
const ask = { messages: [{ role: 'user' as const, content: 'Hi' }] };

function expectNoSecret(value: unknown): void {
  const text = JSON.stringify(value) + String((value as Error)?.message);
  expect(text).not.toContain(API_KEY);
}

describe('createOpenAICompatibleClient: streaming', () => {
  it('streams text deltas, usage and one finish', async () => {
    server.use(completions(() => sseResponse(textEvents(['Hel', 'lo ', 'café 🎉']), { headers: { 'x-request-id': 'req_stream_1' } })));
    const { chunks, error } = await readAll(client().stream(ask));
    expect(error).toBeUndefined();
    expect(chunks).toEqual([
      { type: 'text-delta', delta: 'Hel' },
      { type: 'text-delta', delta: 'lo ' },
      { type: 'text-delta', delta: 'café 🎉' },
      { type: 'usage', usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 } },
      { type: 'finish', reason: 'stop', usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 }, responseId: 'chatcmpl-test', model: 'test-model', requestId: 'req_stream_1' },
    ]);
  });

  it('sends the OpenAI request shape: model, messages, tools, tool_choice, stream options and the bearer key', async () => {
    let body: Record<string, unknown> | undefined;
    let headers: Headers | undefined;
    server.use(
      completions(async ({ request }) => {
        body = await requestBody(request);
        headers = request.headers;
        return sseResponse(textEvents(['ok']));
      }),
    );
    await collectChatStream(
      client({ headers: { 'x-team': 'blue' } }).stream({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }], reasoning: 'not sent back' },
          { role: 'tool', content: '{"ok":true,"data":21}', toolCallId: 'call_1' },
        ],
        tools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
        toolChoice: { name: 'get_weather' },
        temperature: 0.2,
        maxTokens: 100,
        parallelToolCalls: true,
      }),
    );
    expect(body).toEqual({
      model: 'test-model',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', content: '{"ok":true,"data":21}', tool_call_id: 'call_1' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
      parallel_tool_calls: true,
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      temperature: 0.2,
      max_tokens: 100,
    });
    expect(headers?.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(headers?.get('x-team')).toBe('blue');
    expect(headers?.get('accept')).toBe('text/event-stream');
  });

  it('assembles parallel tool calls by index', async () => {
    server.use(
      completions(() =>
        sseResponse(
          toolCallEvents([
            { id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
            { id: 'call_b', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
          ]),
        ),
      ),
    );
    const response = await collectChatStream(client().stream(ask));
    expect(response.message.toolCalls).toEqual([
      { id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { id: 'call_b', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
    ]);
    expect(response.finishReason).toBe('tool_calls');
  });

  it('takes a delta whose arguments are null as no text, and arguments sent as a JSON object as their JSON text', async () => {
    const delta = (fn: Record<string, unknown>) => ({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, ...(fn.name ? { id: 'call_1', type: 'function' } : {}), function: fn }] }, finish_reason: null }] });
    server.use(
      completions(() =>
        sseResponse([
          delta({ name: 'get_weather', arguments: null }),
          delta({ arguments: '{"city":' }),
          delta({ arguments: '"Paris"}' }),
          { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
        ]),
      ),
    );
    expect((await collectChatStream(client().stream(ask))).message.toolCalls).toEqual([{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
    server.use(completions(() => sseResponse([delta({ name: 'get_weather', arguments: { city: 'Paris' } }), { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }])));
    expect((await collectChatStream(client().stream(ask))).message.toolCalls).toEqual([{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
  });

  it('streams DeepSeek reasoning_content as reasoning deltas', async () => {
    server.use(
      completions(() =>
        sseResponse([
          chunk({ role: 'assistant', content: null, reasoning_content: '' }),
          chunk({ content: null, reasoning_content: 'Think' }),
          chunk({ content: null, reasoning_content: 'ing.' }),
          chunk({ content: 'Answer', reasoning_content: null }),
          chunk({ content: '', reasoning_content: null }, 'stop', { usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14, completion_tokens_details: { reasoning_tokens: 4 }, prompt_cache_hit_tokens: 2 } }),
          '[DONE]',
        ]),
      ),
    );
    const response = await collectChatStream(client().stream(ask));
    expect(response.message).toEqual({ role: 'assistant', content: 'Answer', reasoning: 'Thinking.' });
    expect(response.usage).toEqual({ promptTokens: 5, completionTokens: 9, totalTokens: 14, reasoningTokens: 4, cachedPromptTokens: 2 });
  });

  it('handles a server that ignores stream: true and answers JSON', async () => {
    server.use(
      completions(() =>
        HttpResponse.json({
          id: 'chatcmpl-json',
          model: 'test-model',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Plain JSON' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
        }),
      ),
    );
    const response = await collectChatStream(client().stream(ask));
    expect(response).toMatchObject({ message: { content: 'Plain JSON' }, finishReason: 'stop', responseId: 'chatcmpl-json' });
  });
});

describe('createOpenAICompatibleClient: errors and retries', () => {
  it('401: a ChatClientError with status, provider message and code, not retried, without the key', async () => {
    let calls = 0;
    server.use(
      http.post(COMPLETIONS_URL, () => {
        calls++;
        return HttpResponse.json(
          { error: { message: `Incorrect API key provided: ${API_KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
          { status: 401, headers: { 'x-request-id': 'req_401' } },
        );
      }),
    );
    const { chunks, error } = await readAll(client().stream(ask));
    expect(chunks).toEqual([]);
    expect(calls).toBe(1);
    expect(ChatClientError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 401,
      retryable: false,
      reason: 'http',
      code: 'invalid_api_key',
      requestId: 'req_401',
      attempts: 1,
      message:
        'Chat API (llm.test) returned 401 Unauthorized: Incorrect API key provided: [REDACTED]. You can find your API key at https://platform.openai.com/account/api-keys.',
    });
    expectNoSecret(error);
    expectNoSecret((error as ChatClientError).toJSON());
  });

  it('429 with Retry-After: waits as told, then succeeds', async () => {
    const notices: ChatRetryNotice[] = [];
    server.use(
      completions(
        () => HttpResponse.json({ error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } }, { status: 429, headers: { 'retry-after-ms': '30' } }),
        () => sseResponse(textEvents(['after the wait'])),
      ),
    );
    const response = await collectChatStream(client().stream({ ...ask, onRetry: (notice) => notices.push(notice) }));
    expect(response.message.content).toBe('after the wait');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ attempt: 1, delayMs: 30, fromRetryAfter: true, error: { name: 'ChatClientError', status: 429 } });
  });

  it('500 twice, then success: three attempts', async () => {
    let calls = 0;
    server.use(
      http.post(COMPLETIONS_URL, () => {
        calls++;
        return calls <= 2 ? HttpResponse.json({ error: { message: 'The server had an error' } }, { status: 500 }) : sseResponse(textEvents(['third time']));
      }),
    );
    expect((await collectChatStream(client().stream(ask))).message.content).toBe('third time');
    expect(calls).toBe(3);
  });

  it('gives up after maxAttempts with the last error and the attempt count', async () => {
    server.use(http.post(COMPLETIONS_URL, () => HttpResponse.json({ error: { message: 'Service Unavailable' } }, { status: 503 })));
    const { error } = await readAll(client().stream(ask));
    expect(error).toMatchObject({ name: 'ChatClientError', status: 503, retryable: true, attempts: 3 });
  });

  it('a network failure is a retryable ChatClientError', async () => {
    let calls = 0;
    server.use(
      http.post(COMPLETIONS_URL, () => {
        calls++;
        return HttpResponse.error();
      }),
    );
    const { error } = await readAll(client().stream(ask));
    expect(calls).toBe(3);
    expect(error).toMatchObject({ name: 'ChatClientError', reason: 'network', retryable: true, attempts: 3 });
    expect((error as Error).message).toMatch(/^Request to Chat API \(llm\.test\) failed: /);
  });

  it('a connection dropped after output is reported, never replayed', async () => {
    let calls = 0;
    server.use(
      http.post(COMPLETIONS_URL, () => {
        calls++;
        return sseResponse(textEvents(['partial ', 'answer', ' never finished']), { dropAfter: 3 });
      }),
    );
    const { chunks, error } = await readAll(client().stream(ask));
    expect(chunks).toEqual([
      { type: 'text-delta', delta: 'partial ' },
      { type: 'text-delta', delta: 'answer' },
    ]);
    expect(calls).toBe(1);
    expect(StreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'read_failed', afterOutput: true });
  });

  it('a stream cut before any output is retried', async () => {
    server.use(completions(() => sseResponse(textEvents(['x']), { endAfter: 1 }), () => sseResponse(textEvents(['second try']))));
    expect((await collectChatStream(client().stream(ask))).message.content).toBe('second try');
  });

  it('a stream that ends without finishing after output is an incomplete StreamError', async () => {
    server.use(completions(() => sseResponse(textEvents(['half']), { endAfter: 2 })));
    const { chunks, error } = await readAll(client().stream(ask));
    expect(chunks).toEqual([{ type: 'text-delta', delta: 'half' }]);
    expect(error).toMatchObject({ name: 'StreamError', reason: 'incomplete', afterOutput: true });
  });

  it('a malformed chunk is a StreamError naming the chunk', async () => {
    server.use(completions(() => sseResponse([chunk({ content: 'ok' }), '{"id": broken']) ));
    const { error } = await readAll(client().stream(ask));
    expect(error).toMatchObject({ name: 'StreamError', reason: 'malformed_chunk', chunk: '{"id": broken', afterOutput: true });
  });

  it('an error sent inside the stream is a StreamError with the provider message', async () => {
    server.use(completions(() => sseResponse([chunk({ content: 'Hi' }), { error: { message: 'The model is overloaded', type: 'server_error', code: 'overloaded' } }])));
    const { error } = await readAll(client().stream(ask));
    expect(error).toMatchObject({ name: 'StreamError', reason: 'provider_error', code: 'overloaded', message: 'The model provider reported an error mid-stream: The model is overloaded' });
  });

  it('aborting mid-stream rejects with the exact reason, promptly, without retry', async () => {
    let calls = 0;
    server.use(
      http.post(COMPLETIONS_URL, () => {
        calls++;
        return sseResponse(textEvents(['first', 'second']), { stallAfter: 2 });
      }),
    );
    const controller = new AbortController();
    const reason = new DOMException('the user closed the tab', 'AbortError');
    const chunks: ChatChunk[] = [];
    const reading = (async () => {
      for await (const item of client().stream({ ...ask, signal: controller.signal })) {
        chunks.push(item);
        if (chunks.length === 1) controller.abort(reason);
      }
    })();
    await expect(reading).rejects.toBe(reason);
    expect(calls).toBe(1);
  });

  it('an idle stream fails with a timeout naming the idle limit', async () => {
    server.use(completions(() => sseResponse(textEvents(['start']), { stallAfter: 2 })));
    const { chunks, error } = await readAll(client({ timeouts: { idleMs: 50 } }).stream(ask));
    expect(chunks).toEqual([{ type: 'text-delta', delta: 'start' }]);
    expect(error).toMatchObject({ name: 'ChatClientError', reason: 'timeout', timeout: 'idle', message: 'Chat API (llm.test) sent nothing for 50 ms mid-stream (idle timeout)' });
  });

  it('a slow first byte fails with a first-chunk timeout after retries', async () => {
    let calls = 0;
    server.use(
      http.post(COMPLETIONS_URL, () => {
        calls++;
        return sseResponse(textEvents(['late']), { firstByteDelayMs: 500 });
      }),
    );
    const { error } = await readAll(client({ timeouts: { firstChunkMs: 30 }, retry: { maxAttempts: 2, initialDelayMs: 1 } }).stream(ask));
    expect(calls).toBe(2);
    expect(error).toMatchObject({ name: 'ChatClientError', timeout: 'first_chunk', attempts: 2 });
  });

  it('the total limit ends everything, retries included', async () => {
    server.use(http.post(COMPLETIONS_URL, () => HttpResponse.json({ error: { message: 'busy' } }, { status: 503, headers: { 'retry-after': '1' } })));
    const { error } = await readAll(client({ timeouts: { totalMs: 100 }, retry: { maxAttempts: 5 } }).stream(ask));
    expect(error).toMatchObject({ name: 'ChatClientError', timeout: 'total', retryable: false });
  });
});

/**
 * A 200 answer that sends `first`, then `every` 10 ms after each read (pull-based, so nothing ticks once the client
 * stops reading): alive, and no progress unless `every` is an event.
 */
function drip(first: string, every: string, contentType = 'text/event-stream'): Response {
  return new HttpResponse(dripBody(first, () => every), { headers: { 'content-type': contentType } });
}
const sse = (event: unknown) => sseText([event]);

describe('createOpenAICompatibleClient: only SSE events are progress, never bytes', () => {
  it('keep-alive comments before the first event do not end the first-chunk limit', async () => {
    server.use(completions(() => drip('', ': keep-alive\n\n')));
    const { chunks, error } = await readAll(client({ retry: false, timeouts: { firstChunkMs: 80 } }).stream(ask));
    expect(chunks).toEqual([]);
    expect(error).toMatchObject({
      name: 'ChatClientError',
      reason: 'timeout',
      timeout: 'first_chunk',
      retryable: true,
      message: 'Chat API (llm.test) sent no complete first chunk within 80 ms, only keep-alives or unfinished data (first-chunk timeout)',
    });
  });

  it('a first-chunk timeout of a stream of blank lines is retried before any output, like a silent one', async () => {
    let calls = 0;
    server.use(
      completions(() => {
        calls++;
        return drip('', '\n');
      }),
    );
    const { error } = await readAll(client({ retry: { maxAttempts: 2, initialDelayMs: 1 }, timeouts: { firstChunkMs: 80 } }).stream(ask));
    expect(error).toMatchObject({ name: 'ChatClientError', timeout: 'first_chunk', attempts: 2 });
    expect(calls).toBe(2);
  });

  it('keep-alive comments after output do not re-arm the idle limit, and the error says what came', async () => {
    server.use(completions(() => drip(sse(chunk({ content: 'Hel' })), ': keep-alive\n\n')));
    const { chunks, error } = await readAll(client({ timeouts: { idleMs: 80 } }).stream(ask));
    expect(chunks).toEqual([{ type: 'text-delta', delta: 'Hel' }]);
    expect(error).toMatchObject({
      name: 'ChatClientError',
      timeout: 'idle',
      retryable: false,
      message: 'Chat API (llm.test) sent no event for 80 ms mid-stream, only keep-alives or unfinished data (idle timeout)',
    });
  });

  it('an event whose line never ends is no progress either', async () => {
    server.use(completions(() => drip(`${sse(chunk({ content: 'Hel' }))}data: {"choices": [`, '"')));
    const { chunks, error } = await readAll(client({ timeouts: { idleMs: 80 } }).stream(ask));
    expect(chunks).toEqual([{ type: 'text-delta', delta: 'Hel' }]);
    expect(error).toMatchObject({ name: 'ChatClientError', timeout: 'idle' });
  });

  it('each event re-arms the idle limit: a slow but steady stream with keep-alives in between finishes', async () => {
    const events = textEvents(['a', 'b', 'c', 'd']);
    server.use(
      completions(() => {
        const encoder = new TextEncoder();
        let index = 0;
        const body = new ReadableStream<Uint8Array>(
          {
            async pull(controller) {
              await new Promise((resolve) => setTimeout(resolve, 30));
              if (index >= events.length * 2) {
                controller.close();
                return;
              }
              controller.enqueue(encoder.encode(index % 2 === 0 ? ': keep-alive\n\n' : sseText([events[(index - 1) / 2]])));
              index++;
            },
          },
          { highWaterMark: 0 },
        );
        return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } });
      }),
    );
    const response = await collectChatStream(client({ timeouts: { firstChunkMs: 100, idleMs: 100 } }).stream(ask));
    expect(response.message.content).toBe('abcd');
  });

  it('complete(): a body that trickles in ends in a first-chunk timeout saying unfinished data came', async () => {
    server.use(completions(() => drip('{"id": "chatcmpl-1", "choices": [', ' ', 'application/json')));
    await expect(client({ retry: false, timeouts: { firstChunkMs: 80 } }).complete(ask)).rejects.toMatchObject({
      name: 'ChatClientError',
      timeout: 'first_chunk',
      message: 'Chat API (llm.test) sent no complete first chunk within 80 ms, only keep-alives or unfinished data (first-chunk timeout)',
    });
  });

  it('the total limit ends a stream of events that never finishes', async () => {
    server.use(completions(() => drip(sse(chunk({ content: 'more' })), sse(chunk({ content: ' more' })))));
    const { chunks, error } = await readAll(client({ timeouts: { totalMs: 200, idleMs: 80 } }).stream(ask));
    expect(chunks.length).toBeGreaterThan(3);
    expect(error).toMatchObject({ name: 'ChatClientError', timeout: 'total', retryable: false, message: 'Chat API (llm.test) did not complete within the total limit of 200 ms' });
  });
});

describe('createOpenAICompatibleClient: complete and configuration', () => {
  it('complete() sends stream: false and decodes the answer', async () => {
    let body: Record<string, unknown> | undefined;
    server.use(
      completions(async ({ request }) => {
        body = await requestBody(request);
        return HttpResponse.json({
          id: 'chatcmpl-2',
          model: 'test-model',
          choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'f', arguments: '{}' } }] }, finish_reason: 'tool_calls' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }, { headers: { 'x-request-id': 'req_complete_2' } });
      }),
    );
    const response = await client().complete(ask);
    expect(body?.stream).toBe(false);
    expect(body).not.toHaveProperty('stream_options');
    expect(response).toEqual({
      message: { role: 'assistant', content: null, toolCalls: [{ id: 'call_9', name: 'f', arguments: '{}' }] },
      finishReason: 'tool_calls',
      usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
      responseId: 'chatcmpl-2',
      model: 'test-model',
      requestId: 'req_complete_2',
    });
  });

  it('complete() retries and maps errors like stream()', async () => {
    server.use(completions(() => HttpResponse.json({ error: { message: 'oops' } }, { status: 502 }), () => HttpResponse.json({ choices: [{ message: { content: 'ok' } }] })));
    expect((await client().complete(ask)).message.content).toBe('ok');
    server.use(completions(() => new HttpResponse('<html>gateway</html>', { status: 200, headers: { 'content-type': 'text/html' } })));
    await expect(client().complete(ask)).rejects.toMatchObject({ name: 'ChatClientError', reason: 'invalid_response' });
  });

  it('reports every configuration problem at once', () => {
    let caught: unknown;
    try {
      createOpenAICompatibleClient({ baseURL: 'not a url', model: '', retry: { maxAttempts: 0 }, timeouts: { idleMs: -1 } });
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.isInstance(caught)).toBe(true);
    expect((caught as ConfigError).problems).toEqual([
      'baseURL must be an absolute URL such as https://api.openai.com/v1 (got "not a url")',
      'model must be a non-empty string',
      'retry.maxAttempts must be an integer ≥ 1 (got 0)',
      'timeouts.idleMs must be a number > 0 or Infinity (got -1)',
    ]);
  });

  it('throws a ConfigError synchronously for a request that can never be sent', () => {
    expect(() => client().stream({ messages: [{ role: 'robot' as never, content: 'x' }] })).toThrow(ConfigError);
    expect(() => client().stream({ messages: [] })).toThrow(/messages must not be empty/);
  });

  it('cancelling the stream aborts the HTTP request', async () => {
    let aborted = false;
    server.use(
      completions(({ request }) => {
        request.signal.addEventListener('abort', () => {
          aborted = true;
        });
        return sseResponse(textEvents(['a', 'b']), { stallAfter: 2 });
      }),
    );
    const stream = client().stream(ask);
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel('done');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(aborted).toBe(true);
  });

  it('counts a chunk with usage and no choices', async () => {
    server.use(completions(() => sseResponse([chunk({ content: 'x' }, 'stop'), usageChunk(3, 4), '[DONE]'])));
    expect((await collectChatStream(client().stream(ask))).usage).toEqual({ promptTokens: 3, completionTokens: 4, totalTokens: 7 });
  });
});

describe('createOpenAICompatibleClient: recorded provider streams (test/fixtures)', () => {
  const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', name), 'utf8');
  const serve = (text: string, headers: Record<string, string> = { 'content-type': 'text/event-stream' }) =>
    server.use(completions(() => new HttpResponse(text, { headers })));

  it('OpenAI text stream: the assembled text, usage and finish', async () => {
    serve(fixture('openai-text.sse'));
    const response = await collectChatStream(client().stream(ask));
    expect(response.message.content).toBe('Sure! One café au lait and a croissant 🥐 coming right up ☕');
    expect(response.finishReason).toBe('stop');
    expect(response.usage?.totalTokens).toBeGreaterThan(0);
  });

  it('OpenAI tool-call stream: one call with its full arguments', async () => {
    serve(fixture('openai-tool-call.sse'));
    const chunks = (await readAll(client().stream(ask))).chunks;
    const end = chunks.filter((each) => each.type === 'tool-call-end');
    expect(end).toEqual([{ type: 'tool-call-end', index: 0, id: expect.stringMatching(/^call_/), name: 'get_weather', arguments: '{"city":"Paris"}' }]);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', reason: 'tool_calls' });
  });

  it('OpenAI parallel tool calls: two calls in index order', async () => {
    serve(fixture('openai-parallel-tool-calls.sse'));
    const response = await collectChatStream(client().stream(ask));
    expect(response.message.toolCalls?.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual([
      ['get_weather', { city: 'Paris' }],
      ['get_weather', { city: 'Tokyo' }],
    ]);
  });

  it('DeepSeek reasoner stream: reasoning, then the answer, keep-alive comments ignored', async () => {
    serve(fixture('deepseek-reasoner.sse'));
    const response = await collectChatStream(client().stream(ask));
    expect(response.message.reasoning).toMatch(/17/);
    expect(response.message.content).toMatch(/391/);
    expect(response.usage?.reasoningTokens).toBeGreaterThan(0);
  });

  it('DeepSeek tool-call stream: the call and usage on the finish chunk', async () => {
    serve(fixture('deepseek-tool-call.sse'));
    const response = await collectChatStream(client().stream(ask));
    expect(response.message.toolCalls).toEqual([{ id: expect.stringMatching(/^call_0_/), name: 'get_weather', arguments: '{"city":"Paris"}' }]);
    expect(response.usage?.promptTokens).toBeGreaterThan(0);
  });

  const errors = JSON.parse(fixture('openai-errors.json')) as Record<string, Record<string, { sse: string; headers: Record<string, string> }> & { headers: Record<string, string>; rawBody: string }>;

  it.each(['openai', 'vllm', 'openrouter'])('an in-stream error in the %s shape is a provider_error StreamError', async (provider) => {
    const recorded = errors.in_stream![provider]!;
    serve(recorded.sse);
    const { error } = await readAll(client().stream(ask));
    expect(StreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'provider_error' });
  });

  it.each([
    ['401', 401, false],
    ['429', 429, true],
    ['500', 500, true],
    ['503', 503, true],
  ] as const)('the recorded %s error body and headers give status %i, retryable=%s', async (key, status, retryable) => {
    const recorded = errors[key]!;
    server.use(http.post(COMPLETIONS_URL, () => new HttpResponse(recorded.rawBody, { status, headers: { ...recorded.headers, 'retry-after': '0', 'retry-after-ms': '1' } })));
    const { error } = await readAll(client({ retry: false }).stream(ask));
    expect(error).toMatchObject({ name: 'ChatClientError', status, retryable });
    expect((error as ChatClientError).requestId).toBe(recorded.headers['x-request-id']);
    expect((error as ChatClientError).providerMessage).toBeTruthy();
  });
});

describe('createOpenAICompatibleClient: failures inside one network chunk', () => {
  it('delivers the text decoded before an in-stream error that arrived in the same network chunk, then fails', async () => {
    const text = `data: ${JSON.stringify(chunk({ content: 'Hello' }))}\n\ndata: ${JSON.stringify({ error: { message: 'overloaded', code: 'overloaded' } })}\n\n`;
    server.use(completions(() => new HttpResponse(text, { headers: { 'content-type': 'text/event-stream' } })));
    const { chunks, error } = await readAll(client().stream(ask));
    expect(chunks).toEqual([{ type: 'text-delta', delta: 'Hello' }]);
    expect(error).toMatchObject({ name: 'StreamError', reason: 'provider_error', afterOutput: true });
  });

  it('delivers the text before a malformed chunk of the same network chunk, while the connection stays open', async () => {
    const text = `data: ${JSON.stringify(chunk({ content: 'Hi' }))}\n\ndata: {broken\n\n`;
    server.use(
      completions(() => {
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(text)); // and never closes
          },
        });
        return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } });
      }),
    );
    const { chunks, error } = await readAll(client({ timeouts: { idleMs: 5_000 } }).stream(ask));
    expect(chunks).toEqual([{ type: 'text-delta', delta: 'Hi' }]);
    expect(error).toMatchObject({ name: 'StreamError', reason: 'malformed_chunk', afterOutput: true });
  });
});

describe('createOpenAICompatibleClient: deltas decoded from one network read are coalesced', () => {
  const oneRead = (events: unknown[]) => completions(() => new HttpResponse(events.map((event) => `data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } }));

  it('merges consecutive text deltas of one read into one chunk, keeping the text exact', async () => {
    server.use(oneRead([chunk({ content: 'Sure' }), chunk({ content: ', ' }), chunk({ content: 'café ☕' }), chunk({}, 'stop'), '[DONE]']));
    const { chunks } = await readAll(client().stream(ask));
    expect(chunks).toEqual([{ type: 'text-delta', delta: 'Sure, café ☕' }, { type: 'finish', reason: 'stop', responseId: 'chatcmpl-test', model: 'test-model' }]);
  });

  it('keeps kinds apart and in order: reasoning, then text, then text again after a reasoning delta', async () => {
    server.use(oneRead([chunk({ reasoning_content: 'Think' }), chunk({ reasoning_content: 'ing.' }), chunk({ content: 'A' }), chunk({ reasoning_content: '!' }), chunk({ content: 'B' }), chunk({}, 'stop'), '[DONE]']));
    const { chunks } = await readAll(client().stream(ask));
    expect(chunks.slice(0, -1)).toEqual([
      { type: 'reasoning-delta', delta: 'Thinking.' },
      { type: 'text-delta', delta: 'A' },
      { type: 'reasoning-delta', delta: '!' },
      { type: 'text-delta', delta: 'B' },
    ]);
  });

  it('merges argument deltas of the same tool call, never across calls, and the assembled arguments are exact', async () => {
    server.use(oneRead([...toolCallEvents([{ id: 'call_a', name: 'a', arguments: '{"x":1,"y":"é"}' }, { id: 'call_b', name: 'b', arguments: '{"z":[1,2]}' }])]));
    const { chunks } = await readAll(client().stream(ask));
    const deltas = chunks.filter((item) => item.type === 'tool-call-delta');
    expect(deltas.map((item) => [item.id, item.argumentsDelta])).toEqual([
      ['call_a', '{"x":1,"y":"é"}'],
      ['call_b', '{"z":[1,2]}'],
    ]);
    expect(chunks.filter((item) => item.type === 'tool-call-end').map((item) => item.arguments)).toEqual(['{"x":1,"y":"é"}', '{"z":[1,2]}']);
  });

  it('never merges across network reads: one event per read stays one chunk per delta', async () => {
    server.use(completions(() => sseResponse(textEvents(['Hel', 'lo']))));
    const { chunks } = await readAll(client().stream(ask));
    expect(chunks.filter((item) => item.type === 'text-delta')).toEqual([
      { type: 'text-delta', delta: 'Hel' },
      { type: 'text-delta', delta: 'lo' },
    ]);
  });
});
