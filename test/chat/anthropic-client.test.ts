// createAnthropicClient (issue 14): the Anthropic Messages API as a ChatClient. Recorded-shape streams and error
// answers in test/fixtures/anthropic-* (each citing the documented format), served by msw.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { http, HttpResponse, type HttpResponseResolver } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicClient, type AnthropicClientOptions } from '../../src/chat/anthropic/index.js';
import { collectChatStream, createFallbackChatClient, createOpenAICompatibleClient, type ChatChunk, type ChatRequest, type ChatRetryNotice } from '../../src/chat/index.js';
import { ChatClientError, ConfigError, StreamError } from '../../src/errors/index.js';
import { dripBody } from '../helpers/async.js';
import { BASE_URL, completions, sseResponse, textEvents } from '../helpers/openai.js';
import { readAll } from '../helpers/chat-stream.js';

const API_KEY = 'sk-ant-api03-PLANTED-SECRET-0123456789abcdef';
const ANTHROPIC = 'https://anthropic.test';
const MESSAGES_URL = `${ANTHROPIC}/v1/messages`;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', name), 'utf8');
const errors = JSON.parse(fixture('anthropic-errors.json')) as Record<string, { headers: Record<string, string>; body: unknown }>;
const fastRetry = { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 5 };
const client = (overrides: Partial<AnthropicClientOptions> = {}) =>
  createAnthropicClient({ baseURL: ANTHROPIC, apiKey: API_KEY, model: 'claude-sonnet-4-5', maxTokens: 1024, retry: fastRetry, ...overrides });
const ask: ChatRequest = { messages: [{ role: 'user', content: 'Hi' }] };

/** An msw handler answering each successive call with the next resolver (the last one repeats); counts the calls. */
function messages(...answers: HttpResponseResolver[]) {
  const seen = { calls: 0, bodies: [] as Array<Record<string, unknown>>, headers: [] as Headers[] };
  server.use(
    http.post(MESSAGES_URL, async (info) => {
      seen.bodies.push((await info.request.clone().json()) as Record<string, unknown>);
      seen.headers.push(info.request.headers);
      const answer = answers[Math.min(seen.calls, answers.length - 1)] as HttpResponseResolver;
      seen.calls++;
      return answer(info);
    }),
  );
  return seen;
}
const sse = (text: string, headers: Record<string, string> = {}) => () => new HttpResponse(text, { headers: { 'content-type': 'text/event-stream', 'request-id': 'req_011Stream', ...headers } });
const recorded = (status: string, headers: Record<string, string> = {}) => () => {
  const answer = errors[status] as { headers: Record<string, string>; body: unknown };
  return HttpResponse.json(answer.body as Record<string, unknown>, { status: Number(status), headers: { ...answer.headers, ...headers } });
};
const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
const messageStart = event('message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [], usage: { input_tokens: 3, output_tokens: 1 } } });

function expectNoSecret(value: unknown): void {
  const text = JSON.stringify(value) + String((value as Error)?.message) + String((value as Error)?.stack);
  expect(text).not.toContain(API_KEY);
  expect(text).not.toContain('PLANTED-SECRET');
}

describe('createAnthropicClient: streaming', () => {
  it('a text stream: text deltas, usage with cache tokens, one finish with the response id and model', async () => {
    messages(sse(fixture('anthropic-text.sse')));
    const { chunks, error } = await readAll(client().stream(ask));
    expect(error).toBeUndefined();
    const usage = { promptTokens: 35, completionTokens: 15, totalTokens: 50, cachedPromptTokens: 10 };
    expect(chunks.filter((chunk) => chunk.type === 'text-delta').map((chunk) => (chunk as { delta: string }).delta).join('')).toBe('Hello, café 🥐!');
    expect(chunks.slice(-2)).toEqual([
      { type: 'usage', usage },
      { type: 'finish', reason: 'stop', usage, responseId: 'msg_01TextAnswer0001', model: 'claude-sonnet-4-5-20250929', requestId: 'req_011Stream' },
    ]);
    expect(chunks.filter((chunk) => chunk.type === 'finish')).toHaveLength(1);
  });

  it('a tool_use stream: start, the input_json_delta fragments, and an end with the whole arguments', async () => {
    messages(sse(fixture('anthropic-tool-use.sse')));
    const { chunks } = await readAll(client().stream(ask));
    const calls = chunks.filter((chunk) => chunk.type.startsWith('tool-call'));
    expect(calls[0]).toEqual({ type: 'tool-call-start', index: 0, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather' });
    expect(calls.filter((chunk) => chunk.type === 'tool-call-delta').map((chunk) => (chunk as { argumentsDelta: string }).argumentsDelta).join('')).toBe('{"city": "Paris"}');
    expect(calls[calls.length - 1]).toEqual({ type: 'tool-call-end', index: 0, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', arguments: '{"city": "Paris"}' });
    const response = await collectChatStream(client().stream(ask));
    expect(response.message).toEqual({ role: 'assistant', content: 'Let me check the weather.', toolCalls: [{ id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', arguments: '{"city": "Paris"}' }] });
    expect(response.finishReason).toBe('tool_calls');
  });

  it('a thinking stream: thinking_delta is reasoning; the signed block is a replay item on the finish chunk only', async () => {
    messages(sse(fixture('anthropic-thinking.sse')));
    const { chunks } = await readAll(client().stream(ask));
    const response = await collectChatStream(client().stream(ask));
    const thinking = '27 * 453 = 27 * 400 + 27 * 53 = 10800 + 1431 = 12231.';
    expect(response.message).toEqual({
      role: 'assistant',
      content: '27 * 453 = 12231',
      reasoning: thinking,
      replay: [{ protocol: 'anthropic-messages', item: { type: 'thinking', thinking, signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds0000' } }],
    });
    expect(chunks.findIndex((chunk) => chunk.type === 'reasoning-delta')).toBeLessThan(chunks.findIndex((chunk) => chunk.type === 'text-delta'));
    expect(chunks.filter((chunk) => JSON.stringify(chunk).includes('EqQBCgIYAhIM')).map((chunk) => chunk.type)).toEqual(['finish']);
  });

  it('extended thinking with a tool: signature parts joined, redacted_thinking kept, both in order before the tool call', async () => {
    messages(sse(fixture('anthropic-thinking-tool-use.sse')));
    const response = await collectChatStream(client().stream(ask));
    expect(response.finishReason).toBe('tool_calls');
    expect(response.message.replay).toEqual([
      { protocol: 'anthropic-messages', item: { type: 'thinking', thinking: 'The user wants the weather in Paris; I should call get_weather.', signature: 'ErUBCkYIBRgCIkDxSignaturePartOne+PartTwo==' } },
      { protocol: 'anthropic-messages', item: { type: 'redacted_thinking', data: expect.stringMatching(/^EmwKAhgB/) } },
    ]);
    expect(response.message.toolCalls).toEqual([{ id: 'toolu_01ThinkTool00000000000001', name: 'get_weather', arguments: '{"city": "Paris"}' }]);
  });

  it('a thinking block that never got a signature is not kept for replay (Anthropic would reject it)', async () => {
    const unsigned = fixture('anthropic-thinking.sse').replace(/event: content_block_delta\ndata: .*signature_delta.*\n\n/, '');
    messages(sse(unsigned));
    const response = await collectChatStream(client().stream(ask));
    expect(response.message.reasoning).toContain('10800');
    expect(response.message).not.toHaveProperty('replay');
  });

  it('a tool_use without input ends with {}; the same cut by max_tokens ends with nothing', async () => {
    const stream = (reason: string) =>
      messageStart +
      event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'now', input: {} } }) +
      event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '' } }) +
      event('content_block_stop', { type: 'content_block_stop', index: 0 }) +
      event('message_delta', { type: 'message_delta', delta: { stop_reason: reason }, usage: { output_tokens: 5 } }) +
      event('message_stop', { type: 'message_stop' });
    messages(sse(stream('tool_use')));
    expect((await collectChatStream(client().stream(ask))).message.toolCalls).toEqual([{ id: 'toolu_1', name: 'now', arguments: '{}' }]);
    messages(sse(stream('max_tokens')));
    const cut = await collectChatStream(client().stream(ask));
    expect(cut.message.toolCalls).toEqual([{ id: 'toolu_1', name: 'now', arguments: '' }]);
    expect(cut.finishReason).toBe('length');
  });

  it('max_tokens while a tool_use JSON is incomplete: the call ends with the partial arguments, finish length', async () => {
    messages(sse(fixture('anthropic-max-tokens-tool-use.sse')));
    const response = await collectChatStream(client().stream(ask));
    expect(response.message.toolCalls).toEqual([{ id: 'toolu_01CutOff000000000000001', name: 'lookup', arguments: '{"order": "A-10' }]);
    expect(response.finishReason).toBe('length');
  });

  it('refusal and pause_turn are finish reasons, with the text that came', async () => {
    messages(sse(fixture('anthropic-refusal.sse')));
    expect(await collectChatStream(client().stream(ask))).toMatchObject({ message: { content: "I can't help with that." }, finishReason: 'refusal' });
    messages(sse(fixture('anthropic-pause-turn.sse')));
    const paused = await collectChatStream(client().stream(ask));
    expect(paused.finishReason).toBe('pause_turn');
    expect(paused.message).toEqual({ role: 'assistant', content: 'Searching the web.' }); // the server tool's blocks are not client tool calls
  });

  it('event: error (overloaded_error) after some text: a StreamError provider_error after output, never replayed', async () => {
    const seen = messages(sse(fixture('anthropic-overloaded-mid-stream.sse')), sse(fixture('anthropic-text.sse')));
    const { chunks, error } = await readAll(client().stream(ask));
    expect(chunks).toEqual([{ type: 'text-delta', delta: 'The first part of the answer' }]);
    expect(StreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'provider_error', code: 'overloaded_error', afterOutput: true });
    expect((error as Error).message).toMatch(/Overloaded/);
    expect(seen.calls).toBe(1);
  });

  it('event: error (overloaded_error) before any output: a retryable ChatClientError, retried, then the answer', async () => {
    const seen = messages(sse(fixture('anthropic-overloaded-before-output.sse')), sse(fixture('anthropic-text.sse')));
    const notices: ChatRetryNotice[] = [];
    const response = await collectChatStream(client().stream({ ...ask, onRetry: (notice) => notices.push(notice) }));
    expect(response.message.content).toBe('Hello, café 🥐!');
    expect(seen.calls).toBe(2);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.error).toMatchObject({ name: 'ChatClientError', retryable: true, code: 'overloaded_error', requestId: 'req_011Stream' });
    messages(sse(fixture('anthropic-overloaded-before-output.sse')));
    const { error } = await readAll(client({ retry: false }).stream(ask));
    expect(ChatClientError.isInstance(error) && error.retryable && error.status).toBe(529);
  });

  it('a body that ends before message_stop is an incomplete StreamError', async () => {
    const cut = fixture('anthropic-text.sse').split('event: message_stop')[0] as string;
    messages(sse(cut));
    const { chunks, error } = await readAll(client({ retry: false }).stream(ask));
    expect(chunks.some((chunk) => chunk.type === 'text-delta')).toBe(true);
    expect(chunks.some((chunk) => chunk.type === 'finish')).toBe(false);
    expect(error).toMatchObject({ name: 'StreamError', reason: 'incomplete', afterOutput: true });
  });

  it('malformed JSON and an unknown block type are malformed_chunk errors naming what came', async () => {
    messages(sse(`${messageStart}event: content_block_delta\ndata: {"type":"content_block_delta",\n\n`));
    const { error } = await readAll(client({ retry: false }).stream(ask));
    expect(error).toMatchObject({ name: 'StreamError', reason: 'malformed_chunk' });
    expect((error as StreamError).chunk).toContain('content_block_delta');
    messages(sse(`${messageStart}${event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'hologram' } })}`));
    const unknown = (await readAll(client({ retry: false }).stream(ask))).error;
    expect(StreamError.isInstance(unknown) && unknown.reason === 'malformed_chunk' && /hologram/.test(unknown.message)).toBe(true);
  });

  it('an error event that echoes the key never leaks it (a key no credential pattern would catch)', async () => {
    const key = 'plainkey4d2a9c71';
    messages(sse(`${messageStart}${event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })}${event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } })}${event('error', { type: 'error', error: { type: 'api_error', message: `bad key ${key}` } })}`));
    const { error } = await readAll(client({ apiKey: key }).stream(ask));
    expect(error).toMatchObject({ name: 'StreamError', reason: 'provider_error', code: 'api_error' });
    expect((error as StreamError).message).toContain('bad key [REDACTED]');
    expect(JSON.stringify(error) + (error as Error).message + (error as StreamError).chunk).not.toContain(key);
  });
});

describe('createAnthropicClient: time limits and aborts (the shared call mechanics)', () => {
  const opening = `${messageStart}${event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })}${event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } })}`;

  it('keep-alive comments are not progress: a stream that sends only those after some text times out idle', async () => {
    messages(() => new HttpResponse(dripBody(opening, () => ': keep-alive\n\n', 10), { headers: { 'content-type': 'text/event-stream' } }));
    const { chunks, error } = await readAll(client({ timeouts: { idleMs: 60 } }).stream(ask));
    expect(chunks).toEqual([{ type: 'text-delta', delta: 'Hi' }]);
    expect(error).toMatchObject({ name: 'ChatClientError', reason: 'timeout', timeout: 'idle', retryable: false });
  });

  it('ping events are progress: a stream kept alive by pings does not time out', async () => {
    let pings = 0;
    const rest = `${event('content_block_stop', { type: 'content_block_stop', index: 0 })}${event('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } })}${event('message_stop', { type: 'message_stop' })}`;
    const encoder = new TextEncoder();
    const body = () =>
      new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(encoder.encode(opening)),
        pull: (controller) =>
          new Promise<void>((resolve) =>
            setTimeout(() => {
              if (++pings < 8) controller.enqueue(encoder.encode(event('ping', { type: 'ping' })));
              else {
                controller.enqueue(encoder.encode(rest));
                controller.close();
              }
              resolve();
            }, 15),
          ),
      });
    messages(() => new HttpResponse(body(), { headers: { 'content-type': 'text/event-stream' } }));
    const response = await collectChatStream(client({ timeouts: { idleMs: 60 } }).stream(ask));
    expect(response).toMatchObject({ message: { content: 'Hi' }, finishReason: 'stop' });
    expect(pings).toBeGreaterThanOrEqual(8);
  });

  it('aborting mid-stream rejects with the exact reason, without retry', async () => {
    const seen = messages(() => new HttpResponse(dripBody(opening, () => ': keep-alive\n\n', 10), { headers: { 'content-type': 'text/event-stream' } }));
    const controller = new AbortController();
    const reason = new Error('user left');
    const stream = client().stream({ ...ask, signal: controller.signal });
    const reader = stream.getReader();
    expect(await reader.read()).toEqual({ done: false, value: { type: 'text-delta', delta: 'Hi' } });
    controller.abort(reason);
    await expect(reader.read()).rejects.toBe(reason);
    expect(seen.calls).toBe(1);
  });
});

describe('createAnthropicClient: HTTP errors', () => {
  it('529 overloaded_error: retried after retry-after, then the answer', async () => {
    const seen = messages(recorded('529', { 'retry-after': '0.02' }), sse(fixture('anthropic-text.sse')));
    const notices: ChatRetryNotice[] = [];
    const response = await collectChatStream(client().stream({ ...ask, onRetry: (notice) => notices.push(notice) }));
    expect(response.finishReason).toBe('stop');
    expect(seen.calls).toBe(2);
    expect(notices[0]).toMatchObject({ attempt: 1, delayMs: 20, fromRetryAfter: true, error: { name: 'ChatClientError', status: 529, code: 'overloaded_error', retryable: true } });
  });

  it('429 rate_limit_error: retried after retry-after; giving up keeps status, type and request id', async () => {
    const notices: ChatRetryNotice[] = [];
    const seen = messages(recorded('429', { 'retry-after': '0.03' }), sse(fixture('anthropic-text.sse')));
    await collectChatStream(client().stream({ ...ask, onRetry: (notice) => notices.push(notice) }));
    expect(seen.calls).toBe(2);
    expect(notices[0]).toMatchObject({ delayMs: 30, fromRetryAfter: true, error: { status: 429, code: 'rate_limit_error' } });
    messages(recorded('429', { 'retry-after': '0.001' }));
    const { error } = await readAll(client().stream(ask));
    expect(error).toMatchObject({ name: 'ChatClientError', status: 429, code: 'rate_limit_error', retryable: true, attempts: 3, requestId: 'req_011CVg4bW9dXkZ3jQn7Ls5Ab' });
  });

  it('401 with the key echoed in the body and a header: not retried, the key appears nowhere', async () => {
    const seen = messages(() =>
      HttpResponse.json({ type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key: ${API_KEY}` } }, { status: 401, headers: { 'request-id': `req_${API_KEY}`, 'www-authenticate': `key ${API_KEY}` } }),
    );
    const { error } = await readAll(client().stream(ask));
    expect(error).toMatchObject({ name: 'ChatClientError', status: 401, code: 'authentication_error', retryable: false, attempts: 1 });
    expect((error as ChatClientError).providerMessage).toMatch(/^invalid x-api-key: \[REDACTED\]/);
    expect(seen.calls).toBe(1);
    expectNoSecret(error);
    expectNoSecret((error as AgentLike).toJSON?.());
    await expect(client().complete(ask)).rejects.toSatisfy((failure) => {
      expectNoSecret(failure);
      return ChatClientError.isInstance(failure) && failure.status === 401;
    });
  });

  it('400/403/404/413: not retried, the provider error type kept as code and its message', async () => {
    for (const status of ['400', '403', '404', '413']) {
      const seen = messages(recorded(status));
      const { error } = await readAll(client().stream(ask));
      const expected = errors[status] as { body: { error: { type: string; message: string } } };
      expect(error).toMatchObject({ name: 'ChatClientError', status: Number(status), retryable: false, code: expected.body.error.type, providerMessage: expected.body.error.message });
      expect(seen.calls).toBe(1);
    }
  });

  it('under a fallback client: an overloaded Anthropic model moves on to an OpenAI-compatible one', async () => {
    messages(recorded('529'));
    server.use(completions(() => sseResponse(textEvents(['from openai']))));
    const fallback = createFallbackChatClient([client({ retry: false }), createOpenAICompatibleClient({ baseURL: BASE_URL, apiKey: 'sk-test-0123456789abcdef', model: 'gpt', retry: false })]);
    expect((await collectChatStream(fallback.stream(ask))).message.content).toBe('from openai');
  });
});

interface AgentLike {
  toJSON?: () => unknown;
}

describe('createAnthropicClient: complete()', () => {
  it('decodes text, thinking and tool_use blocks, stop_reason and usage; sends no stream flag', async () => {
    const seen = messages(() =>
      HttpResponse.json({
        id: 'msg_complete1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [
          { type: 'thinking', thinking: 'Need weather.', signature: 'sig' },
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_9', name: 'get_weather', input: { city: 'Paris' } },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 20, cache_read_input_tokens: 4, cache_creation_input_tokens: 1 },
      }),
    );
    const response = await client().complete(ask);
    expect(response).toEqual({
      message: {
        role: 'assistant',
        content: 'Checking.',
        reasoning: 'Need weather.',
        toolCalls: [{ id: 'toolu_9', name: 'get_weather', arguments: '{"city":"Paris"}' }],
        replay: [{ protocol: 'anthropic-messages', item: { type: 'thinking', thinking: 'Need weather.', signature: 'sig' } }],
      },
      finishReason: 'tool_calls',
      usage: { promptTokens: 15, completionTokens: 20, totalTokens: 35, cachedPromptTokens: 4 },
      responseId: 'msg_complete1',
      model: 'claude-sonnet-4-5-20250929',
    });
    expect(seen.bodies[0]).not.toHaveProperty('stream');
    expect(seen.headers[0]?.get('accept')).toBe('application/json');
  });

  it('an unknown block type is an invalid_response error naming it, never an empty success', async () => {
    messages(() => HttpResponse.json({ id: 'm', type: 'message', role: 'assistant', content: [{ type: 'hologram', data: 'x' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } }));
    await expect(client().complete(ask)).rejects.toSatisfy((error) => ChatClientError.isInstance(error) && error.reason === 'invalid_response' && /hologram/.test(error.message));
    messages(() => HttpResponse.json({ type: 'message' }));
    await expect(client().complete(ask)).rejects.toSatisfy((error) => ChatClientError.isInstance(error) && error.reason === 'invalid_response');
  });

  it('529 is retried for complete() too', async () => {
    const seen = messages(recorded('529'), () => HttpResponse.json({ id: 'm', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } }));
    expect((await client().complete(ask)).message.content).toBe('ok');
    expect(seen.calls).toBe(2);
  });
});

describe('createAnthropicClient: request encoding', () => {
  const conversation: ChatRequest = {
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris and Lyon?' },
      { role: 'assistant', content: 'Checking.', reasoning: 'not sent without a signature', toolCalls: [
        { id: 'toolu_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { id: 'toolu_b', name: 'get_weather', arguments: '{"city":"Lyon"}' },
      ] },
      { role: 'tool', content: '{"ok":true,"data":{"c":21}}', toolCallId: 'toolu_a' },
      { role: 'tool', content: '{"ok":false,"error":{"type":"ToolExecutionFailed","message":"Lyon is down"}}', toolCallId: 'toolu_b' },
      { role: 'user', content: 'Thanks. And tomorrow?' },
    ],
    tools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
    toolChoice: 'auto',
    temperature: 0.2,
  };

  it('system on top, tool_use input parsed, consecutive tool results as one user message with is_error, tools, tool_choice', async () => {
    const seen = messages(sse(fixture('anthropic-text.sse')));
    await collectChatStream(client().stream(conversation));
    expect(seen.bodies[0]).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: 'Be brief.',
      stream: true,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Lyon?' }] },
        { role: 'assistant', content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_b', name: 'get_weather', input: { city: 'Lyon' } },
        ] },
        { role: 'user', content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: '{"ok":true,"data":{"c":21}}' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: '{"ok":false,"error":{"type":"ToolExecutionFailed","message":"Lyon is down"}}', is_error: true },
          { type: 'text', text: 'Thanks. And tomorrow?' },
        ] },
      ],
      tools: [{ name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
      tool_choice: { type: 'auto' },
      temperature: 0.2,
    });
    expect(JSON.stringify(seen.bodies[0])).not.toContain('thinking');
  });

  it('replay items: Anthropic ones go back first and unmodified, other protocols and bare reasoning never', async () => {
    const seen = messages(sse(fixture('anthropic-text.sse')));
    const replay = [
      { protocol: 'anthropic-messages', item: { type: 'thinking', thinking: 'Plan: call the tool.', signature: 'SIG==' } },
      { protocol: 'openai-responses', item: { type: 'reasoning', id: 'rs_1', encrypted_content: 'gAAA' } },
      { protocol: 'anthropic-messages', item: { type: 'redacted_thinking', data: 'REDACTED==' } },
    ];
    await collectChatStream(
      client().stream({
        messages: [
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', content: null, reasoning: 'Plan: call the tool.', replay, toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
          { role: 'tool', content: '{"ok":true,"data":21}', toolCallId: 'toolu_1' },
        ],
      }),
    );
    const sent = (seen.bodies[0] as { messages: Array<{ content: unknown[] }> }).messages[1]?.content;
    expect(sent).toEqual([
      { type: 'thinking', thinking: 'Plan: call the tool.', signature: 'SIG==' },
      { type: 'redacted_thinking', data: 'REDACTED==' },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(JSON.stringify(seen.bodies[0])).not.toContain('gAAA');
  });

  it('a replay that is not a list of {protocol, item} is a ConfigError naming the message', () => {
    const bad = { messages: [{ role: 'assistant', content: 'x', replay: [{ protocol: 1 }] }] } as unknown as ChatRequest;
    expect(() => client().stream(bad)).toThrow(/messages\[0\]\.replay must be an array of \{protocol: string, item: object\}/);
  });

  it('headers: x-api-key, anthropic-version, content-type; the browser header only with browser: true', async () => {
    const seen = messages(sse(fixture('anthropic-text.sse')));
    await collectChatStream(client({ headers: { 'anthropic-beta': 'x-2025' } }).stream(ask));
    await collectChatStream(client({ browser: true }).stream(ask));
    const [plain, browser] = seen.headers;
    expect(plain?.get('x-api-key')).toBe(API_KEY);
    expect(plain?.get('anthropic-version')).toBe('2023-06-01');
    expect(plain?.get('content-type')).toBe('application/json');
    expect(plain?.get('accept')).toBe('text/event-stream');
    expect(plain?.get('anthropic-beta')).toBe('x-2025');
    expect(plain?.get('authorization')).toBeNull();
    expect(plain?.has('anthropic-dangerous-direct-browser-access')).toBe(false);
    expect(browser?.get('anthropic-dangerous-direct-browser-access')).toBe('true');
  });

  it('tool_choice: required → any, a name → tool, none → none; parallelToolCalls false disables parallel use; maxTokens of the request wins', async () => {
    const seen = messages(sse(fixture('anthropic-text.sse')));
    const tools = conversation.tools;
    await collectChatStream(client().stream({ ...ask, tools, toolChoice: 'required', maxTokens: 77 }));
    await collectChatStream(client().stream({ ...ask, tools, toolChoice: { name: 'get_weather' }, parallelToolCalls: false }));
    await collectChatStream(client().stream({ ...ask, tools, toolChoice: 'none' }));
    await collectChatStream(client().stream({ ...ask, tools, parallelToolCalls: false }));
    expect(seen.bodies.map((body) => body.tool_choice)).toEqual([{ type: 'any' }, { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true }, { type: 'none' }, { type: 'auto', disable_parallel_tool_use: true }]);
    expect(seen.bodies.map((body) => body.max_tokens)).toEqual([77, 1024, 1024, 1024]);
  });

  it('tool-call arguments that are not a JSON object go back as input {} (the model wrote them; they were never run)', async () => {
    const seen = messages(sse(fixture('anthropic-text.sse')));
    const calls = ['{"order":', '[1,2]', '"text"', '', '  {"order":"A-1"}  '].map((args, index) => ({ id: `t${index}`, name: 'lookup', arguments: args }));
    await collectChatStream(
      client().stream({ messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: null, toolCalls: calls }, ...calls.map((call) => ({ role: 'tool' as const, content: 'r', toolCallId: call.id }))] }),
    );
    const blocks = (seen.bodies[0] as { messages: Array<{ content: Array<{ input?: unknown }> }> }).messages[1]?.content;
    expect(blocks?.map((block) => block.input)).toEqual([{}, {}, {}, {}, { order: 'A-1' }]);
  });

  it('options are checked: maxTokens and model are required, every problem at once', () => {
    expect(() => createAnthropicClient({ model: '', maxTokens: 0 } as AnthropicClientOptions)).toThrow(/2 problems.*model must be a non-empty string.*maxTokens must be an integer/);
  });
});
