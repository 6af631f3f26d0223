// One classification of a provider's error code (src/chat/core/provider-error-codes.ts), whichever way it arrives:
// every (status, code) pair of the table, as an HTTP answer to every client and as an error event before any output in
// the streams that carry one (Anthropic's `event: error`; Responses' `error` and `response.failed`), gives the same
// ChatClientError — the pair's status and code, the same `retryable` — and the same number of attempts: all of them,
// each after its back-off, for a transient code; one for a code that says the limit will not pass (OpenAI's
// `insufficient_quota` on a 429). msw answers; vitest's fake timers run the back-off.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LASTING, TRANSIENT } from '../../src/chat/core/provider-error-codes.js';
import { createAnthropicClient, createOpenAICompatibleClient, createOpenAIResponsesClient, type ChatClient } from '../../src/chat/index.js';
import { readAll } from '../helpers/chat-stream.js';

const URLS = { chat: 'https://chat.test/v1/chat/completions', anthropic: 'https://anthropic.test/v1/messages', responses: 'https://openai.test/v1/responses' };
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

const DELAY_MS = 1_000;
const MAX_ATTEMPTS = 3;
const retry = { maxAttempts: MAX_ATTEMPTS, initialDelayMs: DELAY_MS, maxDelayMs: DELAY_MS, jitter: 'none' as const };
const clients: Record<keyof typeof URLS, () => ChatClient> = {
  chat: () => createOpenAICompatibleClient({ baseURL: 'https://chat.test/v1', apiKey: 'k', model: 'm', retry }),
  anthropic: () => createAnthropicClient({ baseURL: 'https://anthropic.test', apiKey: 'k', model: 'claude-x', maxTokens: 100, retry }),
  responses: () => createOpenAIResponsesClient({ baseURL: 'https://openai.test/v1', apiKey: 'k', model: 'gpt-x', retry }),
};

/** Every pair of the table: its code, the HTTP status it is (the stream form of), and whether a retry may help. */
const PAIRS = [
  ...Object.entries(TRANSIENT).map(([code, status]) => ({ code, status, retryable: true })),
  ...Object.entries(LASTING).map(([code, status]) => ({ code, status, retryable: false })),
];

const sse = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;

/** Each way a provider says `code`: its HTTP error answer, or an error event in a stream before any output. */
const ANSWERS: Record<string, { client: keyof typeof URLS; answer: (code: string, status: number) => Response }> = {
  'Chat Completions, HTTP': { client: 'chat', answer: (code, status) => HttpResponse.json({ error: { message: 'no', type: 'requests', param: null, code } }, { status }) },
  'Anthropic, HTTP': { client: 'anthropic', answer: (code, status) => HttpResponse.json({ type: 'error', error: { type: code, message: 'no' }, request_id: 'req_1' }, { status }) },
  'Responses, HTTP': { client: 'responses', answer: (code, status) => HttpResponse.json({ error: { message: 'no', type: 'requests', param: null, code } }, { status }) },
  'Anthropic, event: error before output': {
    client: 'anthropic',
    answer: (code) =>
      new HttpResponse(sse({ type: 'message_start', message: { id: 'msg_1', model: 'claude-x', content: [], usage: { input_tokens: 1, output_tokens: 1 } } }) + sse({ type: 'error', error: { type: code, message: 'no' } }), {
        headers: { 'content-type': 'text/event-stream' },
      }),
  },
  'Responses, error event before output': {
    client: 'responses',
    answer: (code) => new HttpResponse(sse({ type: 'response.created', response: { id: 'r', status: 'in_progress' } }) + sse({ type: 'error', code, message: 'no' }), { headers: { 'content-type': 'text/event-stream' } }),
  },
  'Responses, response.failed before output': {
    client: 'responses',
    answer: (code) => new HttpResponse(sse({ type: 'response.failed', response: { id: 'r', status: 'failed', error: { code, message: 'no' }, output: [] } }), { headers: { 'content-type': 'text/event-stream' } }),
  },
};

/** Runs `work` under fake timers (and a fake clock), advancing them until it settles. */
async function underFakeTimers<T>(work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  let settled = false;
  const pending = work().finally(() => (settled = true));
  for (let step = 0; step < 200 && !settled; step++) await vi.advanceTimersByTimeAsync(100);
  expect(settled, 'the call settled').toBe(true);
  return pending;
}

describe('a provider error code is classified the same as an HTTP answer and as a stream error event', () => {
  for (const [way, { client, answer }] of Object.entries(ANSWERS)) {
    it(`${way}: each pair's status, code and retryable, after ${MAX_ATTEMPTS} attempts a back-off apart when transient, after 1 when lasting`, async () => {
      // The table has both kinds (the matrix is not vacuous).
      expect(PAIRS).toContainEqual({ code: 'insufficient_quota', status: 429, retryable: false });
      expect(PAIRS).toContainEqual({ code: 'rate_limit_exceeded', status: 429, retryable: true });
      for (const { code, status, retryable } of PAIRS) {
        const requests: number[] = [];
        server.use(
          http.post(URLS[client], () => {
            requests.push(Date.now());
            return answer(code, status);
          }),
        );
        const { chunks, error } = await underFakeTimers(() => readAll(clients[client]().stream({ messages: [{ role: 'user', content: 'Hi' }] })));
        expect(chunks, code).toEqual([]);
        expect(error, code).toMatchObject({ name: 'ChatClientError', reason: 'http', status, code, retryable });
        expect(requests, code).toHaveLength(retryable ? MAX_ATTEMPTS : 1);
        expect((error as { attempts?: number }).attempts, code).toBe(retryable ? MAX_ATTEMPTS : 1);
        requests.slice(1).forEach((at, index) => expect(at - (requests[index] as number), code).toBeGreaterThanOrEqual(DELAY_MS));
        vi.useRealTimers();
      }
    });
  }
});
