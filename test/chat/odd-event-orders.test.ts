// Event orders and shapes the providers' documentation does not promise against, found by a review of issue 14: a
// peer that keeps the connection open after the final event, items announced twice or never, calls only in the final
// output, prototype keys as error codes, a ping between a tool_use and its max_tokens stop, the output tool called
// twice, repeated call ids, an unusable line bound. Each is decoded or a typed error — never lost, duplicated or hung.
import { describe, expect, it } from 'vitest';
import {
  collectChatStream,
  createAnthropicClient,
  createOpenAICompatibleClient,
  createOpenAIResponsesClient,
  type ChatChunk,
  type ChatClient,
  type ChatRequest,
} from '../../src/chat/index.js';
import { ConfigError } from '../../src/errors/index.js';
import { readAll } from '../helpers/chat-stream.js';

const API_KEY = 'sk-proj-PLANTED-SECRET-0123456789abcdefABCDEF';
const ask: ChatRequest = { messages: [{ role: 'user', content: 'Hi' }] };
const ev = (type: string, data: Record<string, unknown> = {}) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const msg = (text: string) => ({ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] });

/** A fetch answering with `text`, then (with `open`) keeping the body open, a ping every 20 ms; counts calls and cancels. */
function answering(texts: string[], options: { open?: boolean; json?: boolean; ping?: string } = {}) {
  const seen = { calls: 0, cancelled: 0, bodies: [] as string[] };
  const fetch = (async (_url: unknown, init?: RequestInit) => {
    seen.bodies.push(String(init?.body));
    const text = texts[Math.min(seen.calls++, texts.length - 1)] as string;
    let timer: ReturnType<typeof setInterval> | undefined;
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(text));
        if (!options.open) controller.close();
        else if (options.ping) timer = setInterval(() => controller.enqueue(encoder.encode(options.ping as string)), 20);
      },
      cancel() {
        clearInterval(timer);
        seen.cancelled++;
      },
    });
    return new Response(body, { headers: { 'content-type': options.json ? 'application/json' : 'text/event-stream' } });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

const textOf = (chunks: ChatChunk[]) => chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.delta : '')).join('');

const responses = (fetch: typeof globalThis.fetch, extra: object = {}) => createOpenAIResponsesClient({ baseURL: 'https://openai.test/v1', apiKey: API_KEY, model: 'gpt-5-mini', fetch, retry: false, ...extra });
const anthropic = (fetch: typeof globalThis.fetch, extra: object = {}) => createAnthropicClient({ baseURL: 'https://anthropic.test', apiKey: API_KEY, model: 'claude-x', maxTokens: 100, fetch, retry: false, ...extra });
const chat = (fetch: typeof globalThis.fetch, extra: object = {}) => createOpenAICompatibleClient({ baseURL: 'https://chat.test/v1', apiKey: API_KEY, model: 'm', fetch, retry: false, ...extra });
const anthropicStart = ev('message_start', { message: { id: 'msg_a', model: 'claude-x', content: [], usage: { input_tokens: 1, output_tokens: 1 } } });

const finals: Record<string, { client: (fetch: typeof globalThis.fetch, extra: object) => ChatClient; body: string; ping: string }> = {
  'Chat Completions': {
    client: chat,
    body: `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Hi' } }] })}\n\ndata: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`,
    ping: ': keep-alive\n\n',
  },
  'Anthropic Messages': {
    client: anthropic,
    body:
      anthropicStart +
      ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
      ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hi' } }) +
      ev('content_block_stop', { index: 0 }) +
      ev('message_delta', { delta: { stop_reason: 'end_turn' } }) +
      ev('message_stop'),
    ping: ev('ping'),
  },
  'OpenAI Responses': {
    client: responses,
    body: ev('response.output_item.added', { output_index: 0, item: { ...msg(''), content: [] } }) + ev('response.output_text.delta', { output_index: 0, delta: 'Hi' }) + ev('response.completed', { response: { id: 'r', status: 'completed', output: [msg('Hi')] } }),
    ping: ev('response.in_progress', { response: { id: 'r' } }),
  },
};

describe('every client stops reading at the final event (a peer that keeps the connection open after it)', () => {
  for (const [name, { client, body, ping }] of Object.entries(finals)) {
    for (const open of ['silent', 'pinging'] as const) {
      it(`${name}, then ${open}: the answer, promptly, and the body cancelled`, async () => {
        const { fetch, seen } = answering([body], { open: true, ping: open === 'pinging' ? ping : undefined });
        const started = Date.now();
        const response = await collectChatStream(client(fetch, { timeouts: { idleMs: 300, firstChunkMs: 1_000, totalMs: 5_000 } }).stream(ask));
        expect(response).toMatchObject({ message: { content: 'Hi' }, finishReason: 'stop' });
        expect(Date.now() - started).toBeLessThan(250);
        expect(seen.cancelled).toBe(1);
      });
    }
  }
});

describe('OpenAI Responses: items announced twice, never, or only in the final output', () => {
  it('text deltas without output_item.added are not repeated from response.completed', async () => {
    const body = ev('response.output_text.delta', { output_index: 0, delta: 'Hello' }) + ev('response.completed', { response: { id: 'r', status: 'completed', output: [msg('Hello')] } });
    expect(textOf((await readAll(responses(answering([body]).fetch).stream(ask))).chunks)).toBe('Hello');
  });

  it('a repeated output_item.done does not repeat the text or its replay slot', async () => {
    const item = msg('Hello');
    const reasoning = { id: 'rs_1', type: 'reasoning', summary: [] };
    const body =
      ev('response.output_item.done', { output_index: 0, item: reasoning }) +
      ev('response.output_item.added', { output_index: 1, item: { ...item, content: [] } }) +
      ev('response.output_item.done', { output_index: 1, item }) +
      ev('response.output_item.done', { output_index: 1, item }) +
      ev('response.completed', { response: { id: 'r', status: 'completed', output: [reasoning, item] } });
    const response = await collectChatStream(responses(answering([body]).fetch).stream(ask));
    expect(response.message.content).toBe('Hello');
    expect(response.message.replay?.map((slot) => slot.item.type)).toEqual(['reasoning', 'message']);
  });

  it('a function_call never added, done only — or only in response.completed — is decoded, finish tool_calls', async () => {
    const call = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'lookup', arguments: '{"q":1}', status: 'completed' };
    const opening = ev('response.output_item.added', { output_index: 0, item: { ...msg(''), content: [] } }) + ev('response.output_text.delta', { output_index: 0, delta: 'Looking.' }) + ev('response.output_item.done', { output_index: 0, item: msg('Looking.') });
    const completed = ev('response.completed', { response: { id: 'r', status: 'completed', output: [msg('Looking.'), call] } });
    for (const body of [opening + ev('response.output_item.done', { output_index: 1, item: call }) + completed, opening + completed]) {
      const response = await collectChatStream(responses(answering([body]).fetch).stream(ask));
      expect(response).toMatchObject({ finishReason: 'tool_calls', message: { content: 'Looking.', toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"q":1}' }] } });
    }
  });

  it('a repeated output_item.added for one call opens it once: every start has its end', async () => {
    const added = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'lookup', arguments: '' };
    const body =
      ev('response.output_item.added', { output_index: 0, item: added }) +
      ev('response.output_item.added', { output_index: 0, item: added }) +
      ev('response.function_call_arguments.delta', { output_index: 0, delta: '{}' }) +
      ev('response.output_item.done', { output_index: 0, item: { ...added, arguments: '{}' } }) +
      ev('response.completed', { response: { id: 'r', status: 'completed', output: [{ ...added, arguments: '{}' }] } });
    const { chunks } = await readAll(responses(answering([body]).fetch).stream(ask));
    expect(chunks.filter((chunk) => chunk.type === 'tool-call-start')).toHaveLength(1);
    expect(chunks.filter((chunk) => chunk.type === 'tool-call-end')).toHaveLength(1);
  });

  it('tool calls that share an id (a transcript from another provider) each go out once', () => {
    const { fetch, seen } = answering([finals['OpenAI Responses']?.body as string]);
    const request: ChatRequest = {
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'call_0', name: 'a', arguments: '{}' }, { id: 'call_0', name: 'b', arguments: '{"x":1}' }] },
        { role: 'tool', toolCallId: 'call_0', content: 'A' },
        { role: 'tool', toolCallId: 'call_0', content: 'B' },
      ],
    };
    return collectChatStream(responses(fetch).stream(request)).then(() => {
      const input = (JSON.parse(seen.bodies[0] as string) as { input: Array<{ type?: string; name?: string }> }).input;
      expect(input.filter((item) => item.type === 'function_call').map((item) => item.name)).toEqual(['a', 'b']);
    });
  });
});

describe('remote codes that are prototype keys are plain strings, never a lookup hit', () => {
  const keys = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
  const errorEvents: Record<string, { client: (fetch: typeof globalThis.fetch) => ChatClient; body: (code: string) => string }> = {
    'Anthropic Messages': { client: (fetch) => anthropic(fetch, { retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 2 } }), body: (code) => anthropicStart + ev('error', { error: { type: code, message: 'boom' } }) },
    'OpenAI Responses': { client: (fetch) => responses(fetch, { retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 2 } }), body: (code) => ev('error', { code, message: 'boom' }) },
    'Chat Completions': { client: (fetch) => chat(fetch, { retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 2 } }), body: (code) => `data: ${JSON.stringify({ error: { code, message: 'boom' } })}\n\n` },
  };
  for (const [name, { client, body }] of Object.entries(errorEvents)) {
    it(`${name}: an error event with each such code is not retried and carries no function`, async () => {
      for (const key of keys) {
        const { fetch, seen } = answering([body(key)]);
        const { error } = await readAll(client(fetch).stream(ask));
        expect(error, key).toMatchObject({ name: 'StreamError', reason: 'provider_error' });
        expect(JSON.stringify(error), key).not.toMatch(/native code|function/);
        expect(seen.calls, key).toBe(1);
      }
    });
  }

  it('Anthropic complete(): an odd stop_reason is excerpted and redacted like every remote text', async () => {
    const body = JSON.stringify({ id: 'm', type: 'message', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'hi' }], stop_reason: `weird ${API_KEY} ${'x'.repeat(5000)}`, usage: { input_tokens: 1, output_tokens: 1 } });
    const response = await anthropic(answering([body], { json: true }).fetch).complete(ask);
    expect(response.finishReason).not.toContain(API_KEY);
    expect(response.finishReason.length).toBeLessThanOrEqual(100);
  });
});

describe('Anthropic: tool_use edge orders', () => {
  it('a ping between an empty tool_use and its max_tokens stop leaves the call cut (arguments ""), finish length', async () => {
    const body = anthropicStart + ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} } }) + ev('content_block_stop', { index: 0 }) + ev('ping') + ev('message_delta', { delta: { stop_reason: 'max_tokens' } }) + ev('message_stop');
    const { chunks } = await readAll(anthropic(answering([body]).fetch).stream(ask));
    expect(chunks.find((chunk) => chunk.type === 'tool-call-end')).toMatchObject({ arguments: '' });
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', reason: 'length' });
  });

  it('a tool_use whose whole input came in content_block_start (a gateway) keeps it', async () => {
    const body = anthropicStart + ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { order: 'A-1' } } }) + ev('content_block_stop', { index: 0 }) + ev('message_delta', { delta: { stop_reason: 'tool_use' } }) + ev('message_stop');
    const response = await collectChatStream(anthropic(answering([body]).fetch).stream(ask));
    expect(response.message.toolCalls).toEqual([{ id: 'toolu_1', name: 'lookup', arguments: '{"order":"A-1"}' }]);
  });

  it('the output tool called twice: the first call is the answer, in the stream and in complete() alike', async () => {
    const request: ChatRequest = { ...ask, responseFormat: { name: 'answer', schema: { type: 'object' } } };
    const use = (index: number, id: string, input: string) =>
      ev('content_block_start', { index, content_block: { type: 'tool_use', id, name: 'answer', input: {} } }) + ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: input } }) + ev('content_block_stop', { index });
    const stream = anthropicStart + use(0, 't1', '{"a":1}') + use(1, 't2', '{"a":2}') + ev('message_delta', { delta: { stop_reason: 'tool_use' } }) + ev('message_stop');
    const whole = JSON.stringify({ id: 'm', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'answer', input: { a: 1 } }, { type: 'tool_use', id: 't2', name: 'answer', input: { a: 2 } }], stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } });
    const streamed = await collectChatStream(anthropic(answering([stream]).fetch).stream(request));
    const completed = await anthropic(answering([whole], { json: true }).fetch).complete(request);
    for (const response of [streamed, completed]) {
      expect(response.message.content).toMatch(/^\{"a":\s?1\}$/);
      expect(response.message).not.toHaveProperty('toolCalls');
      expect(response.finishReason).toBe('stop');
    }
  });
});

describe('the SSE line bound is a number every client can use', () => {
  for (const [name, make] of Object.entries({ chat, anthropic, responses })) {
    it(`${name}: NaN, 0, 1.5 and a string are ConfigErrors; Infinity is accepted`, () => {
      for (const bad of [Number.NaN, 0, 1.5, '100' as unknown as number]) expect(() => make(fetch, { maxLineLength: bad }), String(bad)).toThrow(ConfigError);
      expect(() => make(fetch, { maxLineLength: Infinity })).not.toThrow();
    });
  }
});
