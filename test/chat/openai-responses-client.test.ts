// createOpenAIResponsesClient (issue 14): OpenAI's Responses API as a ChatClient. Recorded-shape streams in
// test/fixtures/responses-*.sse (each citing the documented event format), served by msw.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpResponse, type HttpResponseResolver } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collectChatStream, createOpenAIResponsesClient, type ChatChunk, type ChatRequest, type ChatRetryNotice, type OpenAIResponsesClientOptions } from '../../src/chat/index.js';
import { ChatClientError, ConfigError, StreamError } from '../../src/errors/index.js';
import { modelEndpoint } from '../helpers/agent-run.js';
import { dripBody } from '../helpers/async.js';
import { readAll } from '../helpers/chat-stream.js';

const API_KEY = 'sk-proj-PLANTED-SECRET-0123456789abcdefABCDEF';
const ROOT = 'https://openai.test/v1';
const RESPONSES_URL = `${ROOT}/responses`;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', name), 'utf8');
const fastRetry = { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 5 };
const client = (overrides: Partial<OpenAIResponsesClientOptions> = {}) => createOpenAIResponsesClient({ baseURL: ROOT, apiKey: API_KEY, model: 'gpt-5-mini', retry: fastRetry, ...overrides });
const ask: ChatRequest = { messages: [{ role: 'user', content: 'Hi' }] };

function responses(...answers: HttpResponseResolver[]) {
  const endpoint = modelEndpoint(RESPONSES_URL, ...answers);
  server.use(endpoint.handler);
  return {
    bodies: endpoint.bodies,
    get calls() {
      return endpoint.calls;
    },
    get headers() {
      return endpoint.requests.map((request) => request.headers);
    },
  };
}
const sse = (text: string) => () => new HttpResponse(text, { headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req_resp_stream' } });
const event = (type: string, data: Record<string, unknown> = {}) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

function expectNoSecret(value: unknown): void {
  expect(JSON.stringify(value) + String((value as Error)?.message) + String((value as Error)?.stack)).not.toContain(API_KEY);
}

describe('createOpenAIResponsesClient: streaming', () => {
  it('a text stream: output_text deltas, usage with cached and reasoning tokens, one finish with ids', async () => {
    responses(sse(fixture('responses-text.sse')));
    const { chunks, error } = await readAll(client().stream(ask));
    expect(error).toBeUndefined();
    const usage = { promptTokens: 52, completionTokens: 38, totalTokens: 90, cachedPromptTokens: 16, reasoningTokens: 24 };
    expect(chunks).toEqual([
      { type: 'text-delta', delta: 'Hello, café 🥐!' },
      { type: 'usage', usage },
      { type: 'finish', reason: 'stop', usage, responseId: 'resp_68af1c2a9e0c8190a1b2c3d4e5f60718', model: 'gpt-5-mini-2025-08-07', requestId: 'req_resp_stream' },
    ]);
  });

  it('a function call: start, argument deltas, one end; the reasoning summary is reasoning; the turn is kept for replay', async () => {
    responses(sse(fixture('responses-function-call.sse')));
    const { chunks } = await readAll(client().stream(ask));
    const kinds = chunks.map((chunk) => chunk.type);
    expect(kinds).toEqual(['reasoning-delta', 'tool-call-start', 'tool-call-delta', 'tool-call-end', 'usage', 'finish']);
    expect(chunks.find((chunk) => chunk.type === 'tool-call-end')).toEqual({ type: 'tool-call-end', index: 0, id: 'call_Qx8vN2kP4rT6wY1zB3dF5hJ7', name: 'get_weather', arguments: '{"city":"Paris"}' });
    responses(sse(fixture('responses-function-call.sse')));
    const response = await collectChatStream(client().stream(ask));
    expect(response.finishReason).toBe('tool_calls');
    expect(response.message.reasoning).toBe('The user asks for the weather; call get_weather.');
    expect(response.message.replay).toEqual([
      {
        protocol: 'openai-responses',
        item: { id: 'rs_68af1c2c11ac8190c1d2e3f405162738', type: 'reasoning', summary: [{ type: 'summary_text', text: 'The user asks for the weather; call get_weather.' }], encrypted_content: 'gAAAAABor1wsEncryptedReasoningBlob0123456789==' },
      },
      { protocol: 'openai-responses', item: { type: 'function_call', id: 'fc_68af1c2d7b3c8190d1e2f30415263748', call_id: 'call_Qx8vN2kP4rT6wY1zB3dF5hJ7' } },
    ]);
  });

  it('an answer without reasoning keeps no replay: its transcript is plain items', async () => {
    responses(sse(fixture('responses-text.sse')));
    expect((await collectChatStream(client().stream(ask))).message).toEqual({ role: 'assistant', content: 'Hello, café 🥐!' });
  });

  it('response.incomplete by max_output_tokens mid call: the call ends with the partial arguments, finish length', async () => {
    responses(sse(fixture('responses-incomplete-tool-call.sse')));
    const response = await collectChatStream(client().stream(ask));
    expect(response.finishReason).toBe('length');
    expect(response.message.toolCalls).toEqual([{ id: 'call_Cut0ff4tTheOutputLimit01', name: 'lookup', arguments: '{"order":"A-10' }]);
  });

  it('response.incomplete by content_filter: the text that came, finish content_filter', async () => {
    responses(sse(fixture('responses-content-filter.sse')));
    const response = await collectChatStream(client().stream(ask));
    expect(response).toMatchObject({ message: { content: 'I can tell you that' }, finishReason: 'content_filter' });
  });

  it('a refusal: its words as text and the finish refusal, never an empty stop', async () => {
    responses(sse(fixture('responses-refusal.sse')));
    const response = await collectChatStream(client().stream(ask));
    expect(response).toMatchObject({ message: { content: "I'm sorry, I can't help with that." }, finishReason: 'refusal' });
  });

  it('response.failed (server_error) before any output: a retryable ChatClientError, retried, then the answer', async () => {
    const seen = responses(sse(fixture('responses-failed-before-output.sse')), sse(fixture('responses-text.sse')));
    const notices: ChatRetryNotice[] = [];
    const response = await collectChatStream(client().stream({ ...ask, onRetry: (notice) => notices.push(notice) }));
    expect(response.message.content).toBe('Hello, café 🥐!');
    expect(seen.calls).toBe(2);
    expect(notices[0]?.error).toMatchObject({ name: 'ChatClientError', retryable: true, status: 500, code: 'server_error', requestId: 'req_resp_stream' });
    responses(sse(fixture('responses-failed-before-output.sse')));
    const { error } = await readAll(client({ retry: false }).stream(ask));
    expect(error).toMatchObject({ name: 'ChatClientError', retryable: true, code: 'server_error' });
  });

  it('response.failed after text: a StreamError provider_error after output with the code, the text kept, never replayed', async () => {
    const seen = responses(sse(fixture('responses-failed-after-text.sse')));
    const { chunks, error } = await readAll(client().stream(ask));
    expect(chunks).toEqual([{ type: 'text-delta', delta: 'Partial answer' }]);
    expect(error).toMatchObject({ name: 'StreamError', reason: 'provider_error', code: 'server_error', afterOutput: true });
    expect(seen.calls).toBe(1);
  });

  it('an error event: rate_limit_exceeded before output is retryable (429); a code that is not transient is a provider_error', async () => {
    const seen = responses(sse(fixture('responses-error-event.sse')), sse(fixture('responses-text.sse')));
    expect((await collectChatStream(client().stream(ask))).message.content).toBe('Hello, café 🥐!');
    expect(seen.calls).toBe(2);
    responses(sse(event('error', { code: 'invalid_prompt', message: 'Invalid prompt: flagged.', param: null })));
    const { error } = await readAll(client().stream(ask));
    expect(error).toMatchObject({ name: 'StreamError', reason: 'provider_error', code: 'invalid_prompt' });
  });

  it('a stream that ends without response.completed is an incomplete StreamError after output', async () => {
    responses(sse(fixture('responses-no-completed.sse')));
    const { chunks, error } = await readAll(client({ retry: false }).stream(ask));
    expect(chunks).toEqual([{ type: 'text-delta', delta: 'Hello the' }]);
    expect(error).toMatchObject({ name: 'StreamError', reason: 'incomplete', afterOutput: true });
    expect((error as Error).message).toMatch(/without response\.completed, response\.incomplete or response\.failed/);
  });

  it('an output item of an unknown type is a malformed_chunk naming it; OpenAI-run tool items are skipped', async () => {
    responses(sse(event('response.created', { response: { id: 'resp_1' } }) + event('response.output_item.added', { output_index: 0, item: { type: 'computer_call', id: 'cu_1' } })));
    const { error } = await readAll(client({ retry: false }).stream(ask));
    expect(StreamError.isInstance(error) && error.reason === 'malformed_chunk' && /computer_call/.test(error.message)).toBe(true);
    responses(
      sse(
        event('response.output_item.added', { output_index: 0, item: { type: 'web_search_call', id: 'ws_1', status: 'in_progress' } }) +
          event('response.web_search_call.searching', { output_index: 0, item_id: 'ws_1' }) +
          event('response.output_item.done', { output_index: 0, item: { type: 'web_search_call', id: 'ws_1', status: 'completed' } }) +
          event('response.output_item.added', { output_index: 1, item: { type: 'message', id: 'msg_1', content: [] } }) +
          event('response.output_text.delta', { output_index: 1, item_id: 'msg_1', content_index: 0, delta: 'Found it.' }) +
          event('response.completed', { response: { id: 'resp_2', status: 'completed', output: [] } }),
      ),
    );
    expect(await collectChatStream(client().stream(ask))).toMatchObject({ message: { content: 'Found it.' }, finishReason: 'stop' });
  });

  it('shapes that carry the answer differently are decoded, never an empty success', async () => {
    // Text only in output_item.done (no deltas), arguments only in .done, and a server that sends only response.completed.
    responses(
      sse(
        event('response.output_item.added', { output_index: 0, item: { type: 'message', id: 'msg_1', content: [] } }) +
          event('response.output_item.done', { output_index: 0, item: { type: 'message', id: 'msg_1', content: [{ type: 'output_text', text: 'Whole text.' }] } }) +
          event('response.output_item.added', { output_index: 1, item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '' } }) +
          event('response.function_call_arguments.done', { output_index: 1, item_id: 'fc_1', arguments: '{"a":1}' }) +
          event('response.completed', { response: { id: 'resp_3', status: 'completed', output: [] } }),
      ),
    );
    const response = await collectChatStream(client().stream(ask));
    expect(response.message).toEqual({ role: 'assistant', content: 'Whole text.', toolCalls: [{ id: 'call_1', name: 'f', arguments: '{"a":1}' }] });
    responses(sse(event('response.completed', { response: { id: 'resp_4', status: 'completed', output: [{ type: 'message', id: 'msg_9', content: [{ type: 'output_text', text: 'Only at the end.' }] }] } })));
    expect((await collectChatStream(client().stream(ask))).message.content).toBe('Only at the end.');
  });

  it('a long answer: response.completed repeats it on one 2.5 MB line, within the default line bound (8 MiB)', async () => {
    const text = 'é'.repeat(2_500_000);
    const item = { type: 'message', id: 'msg_1', content: [{ type: 'output_text', text }] };
    responses(
      sse(
        event('response.output_item.added', { output_index: 0, item: { ...item, content: [] } }) +
          event('response.output_text.delta', { output_index: 0, delta: text }) +
          event('response.output_item.done', { output_index: 0, item }) +
          event('response.completed', { response: { id: 'resp_long', status: 'completed', output: [item] } }),
      ),
    );
    expect((await collectChatStream(client().stream(ask))).message.content).toHaveLength(2_500_000);
  });

  it('malformed events and a delta for a call never opened are malformed_chunk errors', async () => {
    responses(sse('event: response.created\ndata: {"type":"response.created",\n\n'));
    expect((await readAll(client({ retry: false }).stream(ask))).error).toMatchObject({ name: 'StreamError', reason: 'malformed_chunk' });
    responses(sse(event('response.function_call_arguments.delta', { output_index: 3, delta: '{' })));
    expect((await readAll(client({ retry: false }).stream(ask))).error).toMatchObject({ name: 'StreamError', reason: 'malformed_chunk' });
  });

  it('an error event that echoes the key never leaks it', async () => {
    responses(sse(event('response.output_item.added', { output_index: 0, item: { type: 'message', id: 'm', content: [] } }) + event('response.output_text.delta', { output_index: 0, delta: 'Hi' }) + event('error', { code: 'server_error', message: `upstream said ${API_KEY}` })));
    const { error } = await readAll(client().stream(ask));
    expect(error).toMatchObject({ name: 'StreamError', reason: 'provider_error', afterOutput: true });
    expectNoSecret(error);
    expectNoSecret((error as StreamError).chunk);
  });

  it('keep-alive comments are not progress: a stream that sends only those after some text times out idle', async () => {
    const opening = event('response.output_item.added', { output_index: 0, item: { type: 'message', id: 'm', content: [] } }) + event('response.output_text.delta', { output_index: 0, delta: 'Hi' });
    responses(() => new HttpResponse(dripBody(opening, () => ': keep-alive\n\n', 10), { headers: { 'content-type': 'text/event-stream' } }));
    const { chunks, error } = await readAll(client({ timeouts: { idleMs: 60 } }).stream(ask));
    expect(chunks).toEqual([{ type: 'text-delta', delta: 'Hi' }]);
    expect(error).toMatchObject({ name: 'ChatClientError', reason: 'timeout', timeout: 'idle', retryable: false });
  });
});

describe('createOpenAIResponsesClient: HTTP errors', () => {
  it('429 with retry-after: retried, then the answer; giving up keeps status, code and request id', async () => {
    const limited = () =>
      HttpResponse.json(
        { error: { message: 'Rate limit reached for gpt-5-mini on requests per min (RPM).', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
        { status: 429, headers: { 'retry-after-ms': '20', 'x-request-id': 'req_429' } },
      );
    const notices: ChatRetryNotice[] = [];
    const seen = responses(limited, sse(fixture('responses-text.sse')));
    await collectChatStream(client().stream({ ...ask, onRetry: (notice) => notices.push(notice) }));
    expect(seen.calls).toBe(2);
    expect(notices[0]).toMatchObject({ delayMs: 20, fromRetryAfter: true, error: { status: 429, code: 'rate_limit_exceeded' } });
    responses(limited);
    const { error } = await readAll(client().stream(ask));
    expect(error).toMatchObject({ name: 'ChatClientError', status: 429, code: 'rate_limit_exceeded', retryable: true, attempts: 3, requestId: 'req_429' });
  });

  it('401 echoing the key: not retried, the key appears nowhere', async () => {
    const seen = responses(() => HttpResponse.json({ error: { message: `Incorrect API key provided: ${API_KEY}.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }, { status: 401 }));
    const { error } = await readAll(client().stream(ask));
    expect(error).toMatchObject({ name: 'ChatClientError', status: 401, code: 'invalid_api_key', retryable: false, attempts: 1 });
    expect(seen.calls).toBe(1);
    expectNoSecret(error);
  });

  it('400 for a function_call sent without its reasoning item: the provider message kept, type as code when code is null', async () => {
    responses(() =>
      HttpResponse.json(
        { error: { message: "Item 'fc_1' of type 'function_call' was provided without its required 'reasoning' item: 'rs_1'.", type: 'invalid_request_error', param: 'input', code: null } },
        { status: 400 },
      ),
    );
    const { error } = await readAll(client().stream(ask));
    expect(error).toMatchObject({ name: 'ChatClientError', status: 400, code: 'invalid_request_error', retryable: false });
    expect((error as ChatClientError).providerMessage).toMatch(/without its required 'reasoning' item/);
  });
});

describe('createOpenAIResponsesClient: complete()', () => {
  it('decodes reasoning, message and function_call items, usage and the finish; sends no stream flag', async () => {
    const seen = responses(() =>
      HttpResponse.json(
        {
          id: 'resp_c1',
          object: 'response',
          status: 'completed',
          model: 'gpt-5-mini-2025-08-07',
          output: [
            { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Need weather.' }] },
            { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Checking.', annotations: [] }] },
            { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_9', name: 'get_weather', arguments: '{"city":"Paris"}' },
          ],
          usage: { input_tokens: 10, output_tokens: 20, total_tokens: 30 },
        },
        { headers: { 'x-request-id': 'req_c1' } },
      ),
    );
    const response = await client().complete(ask);
    expect(response).toEqual({
      message: {
        role: 'assistant',
        content: 'Checking.',
        reasoning: 'Need weather.',
        toolCalls: [{ id: 'call_9', name: 'get_weather', arguments: '{"city":"Paris"}' }],
        replay: [
          { protocol: 'openai-responses', item: { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Need weather.' }] } },
          { protocol: 'openai-responses', item: { type: 'message', id: 'msg_1' } },
          { protocol: 'openai-responses', item: { type: 'function_call', id: 'fc_1', call_id: 'call_9' } },
        ],
      },
      finishReason: 'tool_calls',
      usage: { promptTokens: 10, completionTokens: 20, totalTokens: 30 },
      responseId: 'resp_c1',
      model: 'gpt-5-mini-2025-08-07',
      requestId: 'req_c1',
    });
    expect(seen.bodies[0]).not.toHaveProperty('stream');
  });

  it('a failed response: server_error retried, another code a typed error with the code; incomplete is length', async () => {
    const failed = (code: string) => () => HttpResponse.json({ id: 'r', status: 'failed', output: [], error: { code, message: `failed: ${code}` } });
    const seen = responses(failed('server_error'), () => HttpResponse.json({ id: 'r2', status: 'completed', output: [{ type: 'message', id: 'm', content: [{ type: 'output_text', text: 'ok' }] }] }));
    expect((await client().complete(ask)).message.content).toBe('ok');
    expect(seen.calls).toBe(2);
    responses(failed('invalid_image'));
    await expect(client().complete(ask)).rejects.toMatchObject({ name: 'ChatClientError', code: 'invalid_image', retryable: false });
    responses(() => HttpResponse.json({ id: 'r3', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{"a":' }] }));
    expect(await client().complete(ask)).toMatchObject({ finishReason: 'length', message: { toolCalls: [{ arguments: '{"a":' }] } });
  });

  it('an unknown output item or message part is an invalid_response error naming it', async () => {
    responses(() => HttpResponse.json({ id: 'r', status: 'completed', output: [{ type: 'hologram' }] }));
    await expect(client().complete(ask)).rejects.toSatisfy((error) => ChatClientError.isInstance(error) && error.reason === 'invalid_response' && /hologram/.test(error.message));
    responses(() => HttpResponse.json({ id: 'r', status: 'completed', output: [{ type: 'message', content: [{ type: 'output_audio' }] }] }));
    await expect(client().complete(ask)).rejects.toSatisfy((error) => ChatClientError.isInstance(error) && /output_audio/.test(error.message));
  });
});

describe('createOpenAIResponsesClient: request encoding', () => {
  it('input items: role messages, function_call and function_call_output; tools, tool_choice, text.format, max_output_tokens', async () => {
    const seen = responses(sse(fixture('responses-text.sse')));
    await collectChatStream(
      client({ maxOutputTokens: 500 }).stream({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: 'Checking.', reasoning: 'not sent alone', toolCalls: [{ id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
          { role: 'tool', content: '{"ok":false,"error":{"type":"ToolExecutionFailed","message":"station down"}}', toolCallId: 'call_a' },
        ],
        tools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
        toolChoice: { name: 'get_weather' },
        parallelToolCalls: false,
        responseFormat: { name: 'answer', schema: { type: 'object' } },
        temperature: 0.3,
      }),
    );
    expect(seen.bodies[0]).toEqual({
      model: 'gpt-5-mini',
      stream: true,
      input: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: 'Checking.' },
        { type: 'function_call', call_id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_a', output: '{"ok":false,"error":{"type":"ToolExecutionFailed","message":"station down"}}' },
      ],
      tools: [{ type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false }],
      parallel_tool_calls: false,
      tool_choice: { type: 'function', name: 'get_weather' },
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: false } },
      temperature: 0.3,
      max_output_tokens: 500,
    });
    expect(seen.headers[0]?.get('authorization')).toBe(`Bearer ${API_KEY}`);
  });

  it('replay: the turn is rebuilt in order (reasoning verbatim, message and function_call with their ids); other protocols never', async () => {
    const seen = responses(sse(fixture('responses-text.sse')));
    const reasoning = { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAA==' };
    await collectChatStream(
      client({ store: false }).stream({
        messages: [
          { role: 'user', content: 'Weather?' },
          {
            role: 'assistant',
            content: 'Checking.',
            toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
            replay: [
              { protocol: 'anthropic-messages', item: { type: 'thinking', thinking: 'x', signature: 'ANTHROPIC-SIG' } },
              { protocol: 'openai-responses', item: reasoning },
              { protocol: 'openai-responses', item: { type: 'message', id: 'msg_1' } },
              { protocol: 'openai-responses', item: { type: 'function_call', id: 'fc_1', call_id: 'call_1' } },
            ],
          },
          { role: 'tool', content: '{"ok":true,"data":21}', toolCallId: 'call_1' },
        ],
      }),
    );
    const body = seen.bodies[0] as { input: unknown[]; store: boolean; include: string[] };
    expect(body.store).toBe(false);
    expect(body.include).toEqual(['reasoning.encrypted_content']);
    expect(body.input).toEqual([
      { role: 'user', content: 'Weather?' },
      reasoning,
      { type: 'message', role: 'assistant', id: 'msg_1', status: 'completed', content: [{ type: 'output_text', text: 'Checking.', annotations: [] }] },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', id: 'fc_1' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"ok":true,"data":21}' },
    ]);
    expect(JSON.stringify(body)).not.toContain('ANTHROPIC-SIG');
  });

  it('bad options and requests are ConfigErrors listing every problem, before anything is sent', () => {
    expect(() => createOpenAIResponsesClient({ model: '', baseURL: 'ftp://x', store: 'no' as unknown as boolean, maxOutputTokens: 0 })).toThrow(ConfigError);
    try {
      createOpenAIResponsesClient({ model: '', baseURL: 'ftp://x', store: 'no' as unknown as boolean, maxOutputTokens: 0 });
    } catch (error) {
      const message = (error as Error).message;
      for (const part of ['baseURL must be an http(s) URL', 'model must be a non-empty string', 'store must be a boolean', 'maxOutputTokens must be an integer']) expect(message).toContain(part);
    }
    expect(() => client().stream({ messages: [{ role: 'tool', content: 'x' } as never] })).toThrow(/tool message without toolCallId/);
    expect(() => client().stream({ messages: [] })).toThrow(ConfigError);
  });

  it('a cut-off call goes back with {} arguments next to its InputValidationError result', async () => {
    const seen = responses(sse(fixture('responses-text.sse')));
    const cut = JSON.stringify({ ok: false, error: { type: 'InputValidationError', message: 'cut off', context: { tool: 'lookup', cutOffAtOutputLimit: true } } });
    await collectChatStream(
      client().stream({
        messages: [
          { role: 'user', content: 'Order?' },
          { role: 'assistant', content: null, toolCalls: [{ id: 'call_cut', name: 'lookup', arguments: '{"order":"A-10' }] },
          { role: 'tool', content: cut, toolCallId: 'call_cut' },
        ],
      }),
    );
    expect((seen.bodies[0] as { input: unknown[] }).input[1]).toEqual({ type: 'function_call', call_id: 'call_cut', name: 'lookup', arguments: '{}' });
  });
});
