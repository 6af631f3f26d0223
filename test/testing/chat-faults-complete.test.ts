// chatFaultHandlers answer a request that is not streamed (client.complete(): no "stream": true) the way a provider
// answers one: the whole chat.completion as JSON, and each fault as it would happen to such a request — never an SSE
// body, which complete() can only report as "a body that is not JSON", hiding the fault. Every fault of CHAT_FAULTS
// through complete(), with the typed error docs/chat.md promises for it (a fault without a test fails the coverage
// check at the end); the streamed side is fault-handlers.test.ts.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatibleClient } from '../../src/chat/index.js';
import { ChatClientError, StreamError } from '../../src/errors/index.js';
import { CHAT_FAULTS, chatFaultHandlers } from '../../src/testing/index.js';

const CHAT = 'https://complete.test/chat';
const KEY = 'sk-fault-0123456789abcdef';
const server = setupServer(...chatFaultHandlers({ baseURL: CHAT }));
const posts: string[] = [];
server.events.on('request:start', ({ request }) => posts.push(new URL(request.url).pathname));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  posts.length = 0;
});
afterAll(() => server.close());

let runs = 0;
const fastRetry = { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 5, jitter: 'none' as const };
function client(fault: string, options: Partial<Parameters<typeof createOpenAICompatibleClient>[0]> = {}) {
  return createOpenAICompatibleClient({ baseURL: `${CHAT}/${fault}/complete-${++runs}`, apiKey: KEY, model: 'gpt-test', retry: fastRetry, ...options });
}
const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };
/** What complete() rejected with (a failure when it resolved). */
const failure = (model: ReturnType<typeof client>) =>
  model.complete(ask).then(
    (response) => {
      throw new Error(`expected a failure, got ${JSON.stringify(response)}`);
    },
    (error: unknown) => error,
  );

/** The first `count` network chunks of a fault's raw answer to a request that is not streamed, then a cancel. */
async function rawChunks(fault: string, count: number): Promise<{ contentType: string | null; chunks: string[] }> {
  const response = await fetch(`${CHAT}/${fault}/raw-${++runs}/chat/completions`, { method: 'POST', body: '{"stream":false}' });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: string[] = [];
  for (let index = 0; index < count; index++) chunks.push(new TextDecoder().decode((await reader.read()).value));
  reader.cancel().catch(() => {});
  return { contentType: response.headers.get('content-type'), chunks };
}

const tested = new Set<string>();

describe('chatFaultHandlers through complete()', () => {
  it('ok: the whole chat.completion as JSON', async () => {
    tested.add('ok');
    const response = await client('ok').complete(ask);
    expect([response.message.content, response.finishReason, response.responseId]).toEqual(['Hello from the fault server.', 'stop', 'chatcmpl-test']);
  });

  it('rate-limit: the 429 with Retry-After, one retry, then the answer', async () => {
    tested.add('rate-limit');
    expect((await client('rate-limit').complete(ask)).message.content).toBe('Hello from the fault server.');
    expect(posts).toHaveLength(2);
    const error = await failure(client('rate-limit', { retry: false }));
    expect(ChatClientError.isInstance(error) && [error.status, error.retryAfterMs]).toEqual([429, 50]);
  });

  it('server-error: 500 twice, then the answer (three attempts)', async () => {
    tested.add('server-error');
    expect((await client('server-error').complete(ask)).message.content).toBe('Hello from the fault server.');
    expect(posts).toHaveLength(3);
  });

  it('unauthorized: a 401 ChatClientError, not retried, without the key it echoed', async () => {
    tested.add('unauthorized');
    const error = await failure(client('unauthorized'));
    expect(ChatClientError.isInstance(error) && [error.status, error.retryable]).toEqual([401, false]);
    expect(JSON.stringify(error) + String((error as Error).message)).not.toContain('0123456789abcdef');
    expect(posts).toHaveLength(1);
  });

  it('cut-mid-stream: the connection drops halfway through the JSON: a StreamError read_failed, retried on every attempt', async () => {
    tested.add('cut-mid-stream');
    const { contentType, chunks } = await rawChunks('cut-mid-stream', 1);
    expect([contentType, chunks[0]?.startsWith('{"id":"chatcmpl-test","object":"chat.completion",')]).toEqual(['application/json', true]);
    posts.length = 0;
    const error = await failure(client('cut-mid-stream'));
    expect(StreamError.isInstance(error) && [error.reason, error.afterOutput]).toEqual(['read_failed', false]);
    expect(posts).toHaveLength(3);
  });

  it('malformed-chunk: a body that is not JSON: a ChatClientError invalid_response, not retried', async () => {
    tested.add('malformed-chunk');
    const error = await failure(client('malformed-chunk'));
    expect(ChatClientError.isInstance(error) && [error.reason, error.retryable]).toEqual(['invalid_response', false]);
    expect((error as Error).message).toBe('Chat API (complete.test) answered with a body that is not JSON: {"id": broken');
    expect(posts).toHaveLength(1);
  });

  it('mid-stream-error: the provider error as HTTP 503: a retryable ChatClientError with its message, retried', async () => {
    tested.add('mid-stream-error');
    const error = await failure(client('mid-stream-error'));
    expect(ChatClientError.isInstance(error) && [error.status, error.retryable, error.providerMessage, error.attempts]).toEqual([503, true, 'The model is overloaded', 3]);
    expect(posts).toHaveLength(3);
  });

  it('invalid-tool-json: a tool call whose arguments are not JSON, then (next call) the answer', async () => {
    tested.add('invalid-tool-json');
    const model = client('invalid-tool-json');
    const first = await model.complete(ask);
    expect([first.message.toolCalls, first.finishReason]).toEqual([[{ id: 'call_1', name: 'get_weather', arguments: '{"city": Paris' }], 'tool_calls']);
    expect((await model.complete(ask)).message.content).toBe('Hello from the fault server.');
  });

  it('slow-first-byte: a first-chunk timeout fires long before the 2 s answer', async () => {
    tested.add('slow-first-byte');
    const error = await failure(client('slow-first-byte', { retry: false, timeouts: { firstChunkMs: 50 } }));
    expect(ChatClientError.isInstance(error) && [error.reason, error.timeout]).toEqual(['timeout', 'first_chunk']);
  });

  it('slow-first-byte: without a limit, the JSON answer after 2 s', async () => {
    const started = performance.now();
    expect((await client('slow-first-byte').complete(ask)).message.content).toBe('Hello from the fault server.');
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_950);
  });

  it('no-finish: the JSON ends cleanly halfway: a ChatClientError invalid_response', async () => {
    tested.add('no-finish');
    const error = await failure(client('no-finish'));
    expect(ChatClientError.isInstance(error) && [error.reason, error.retryable]).toEqual(['invalid_response', false]);
    expect((error as Error).message).toMatch(/^Chat API \(complete\.test\) answered with a body that is not JSON: \{"id":"chatcmpl-test"/);
  });

  it('keep-alive-only: a 200 JSON body of newlines only, a first-chunk timeout saying so', async () => {
    tested.add('keep-alive-only');
    expect(await rawChunks('keep-alive-only', 3)).toEqual({ contentType: 'application/json', chunks: ['\n', '\n', '\n'] });
    const error = await failure(client('keep-alive-only', { retry: false, timeouts: { firstChunkMs: 100 } }));
    expect(ChatClientError.isInstance(error) && [error.reason, error.timeout, error.retryable]).toEqual(['timeout', 'first_chunk', true]);
    expect((error as Error).message).toBe('Chat API (complete.test) sent no complete first chunk within 100 ms, only keep-alives or unfinished data (first-chunk timeout)');
  });

  it('trickle: a JSON answer one byte at a time that never ends, a first-chunk timeout', async () => {
    tested.add('trickle');
    const { contentType, chunks } = await rawChunks('trickle', 12);
    expect([contentType, chunks.every((piece) => piece.length === 1), chunks.join('')]).toEqual(['application/json', true, '{"id":"chatc']);
    const error = await failure(client('trickle', { retry: false, timeouts: { firstChunkMs: 100 } }));
    expect(ChatClientError.isInstance(error) && [error.reason, error.timeout]).toEqual(['timeout', 'first_chunk']);
  });

  it('a body that is not JSON (no "stream": true in it) is answered as a request that is not streamed', async () => {
    const response = await fetch(`${CHAT}/ok/raw-${++runs}/chat/completions`, { method: 'POST', body: 'not json' });
    expect([response.headers.get('content-type'), ((await response.json()) as { object: string }).object]).toEqual(['application/json', 'chat.completion']);
  });

  it('tests every fault CHAT_FAULTS lists', () => {
    expect([...tested].sort()).toEqual(Object.keys(CHAT_FAULTS).sort());
  });
});
