import type { RetryOptions } from '../../internal/retry.js';
import { batchClient, type ChatBatches } from '../core/chat-batches.js';
import { completeCall, streamCall, type CallConfig, type ChatTimeouts } from '../core/call.js';
import { resolveHttpChat } from '../core/client-options.js';
import type { ChatClient, ChatRequest, ChatResponse } from '../core/types.js';
import { ANTHROPIC_MESSAGES } from './anthropic-call.js';
import { outputAsText, outputResponseAsText, outputToolName } from './anthropic-output-tool.js';
import { encodeAnthropicRequest, type AnthropicEncodeSettings } from './anthropic-request.js';
import type { ResilienceOptions } from '../../resilience/guard.js';
import { refusedValue } from '../../internal/json.js';

/**
 * The API version this client speaks (`anthropic-version`).
 * @example `createAnthropicClient({ ...options, headers: { 'anthropic-version': ANTHROPIC_VERSION } })`
 */
export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * Options of {@link createAnthropicClient}.
 * @example
 * ```ts
 * const options: AnthropicClientOptions = { apiKey, model: 'claude-sonnet-4-5', maxTokens: 1024 };
 * ```
 */
export interface AnthropicClientOptions extends ResilienceOptions {
  /** Sent as `x-api-key`; never appears in any error, log or event. */
  apiKey?: string | undefined;
  /** The API root (a proxy or gateway may stand in). @default 'https://api.anthropic.com' */
  baseURL?: string | undefined;
  /** The model id, e.g. `claude-sonnet-4-5` or `claude-haiku-4-5`. */
  model: string;
  /** `max_tokens` of each call, which Anthropic requires; a request's own `maxTokens` wins. */
  maxTokens: number;
  /** Extra request headers (e.g. `anthropic-beta`); values of credential-like headers are treated as secrets. */
  headers?: Record<string, string> | undefined;
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /**
   * Retries before any output: network errors, 408/409/429/5xx and 529 (`overloaded_error`, with `retry-after`
   * honoured), an `overloaded_error`/`api_error`/`rate_limit_error` event before any output, dropped or empty
   * streams, first-chunk timeouts. @default { maxAttempts: 3, initialDelayMs: 500, maxDelayMs: 8000 }
   */
  retry?: RetryOptions | false | undefined;
  /**
   * Time limits: the whole call (`totalMs`), the first SSE event of an attempt (`firstChunkMs`), and between two SSE
   * events (`idleMs`; Anthropic's `ping` events count). Comments, blank lines and a line that never ends do not.
   * @default { totalMs: 600000, firstChunkMs: 120000, idleMs: 60000 }
   */
  timeouts?: ChatTimeouts | undefined;
  /**
   * Calling from a web page: sends `anthropic-dangerous-direct-browser-access: true`, the header without which
   * Anthropic refuses cross-origin (CORS) requests from a browser. Anthropic calls it "dangerous" because the API key
   * then lives in the page, where every visitor can read it: use it with a key the user pasted in themselves, or
   * behind a proxy that adds the key, never with your own key shipped in a bundle. @default false
   */
  browser?: boolean | undefined;
  /** A label for errors and logs. @default the host of `baseURL` */
  name?: string | undefined;
  /** Extra top-level request fields (e.g. `{ metadata: { user_id } }`); the SDK's own fields win. */
  extraBody?: Record<string, unknown> | undefined;
  /** Bound on one SSE line, in characters. @default 1048576 */
  maxLineLength?: number | undefined;
}

/**
 * A chat client for Anthropic's Messages API over `fetch` and Web Streams: system prompt, tools (`tool_use` /
 * `tool_result` blocks, `is_error` on failed tool results so the model sees our structured error), `tool_choice`,
 * streaming (`text_delta`, `input_json_delta`, `thinking_delta`), usage with cache tokens, and finish reasons
 * (`max_tokens` → `length`, `refusal`, `pause_turn`). Failures are typed like every client's: `ChatClientError`
 * (HTTP status with Anthropic's error `type` as `code`, network, timeouts; 529 and 429 retried with `retry-after`, a
 * `billing_error` never), `StreamError` (`provider_error` for an `event: error` after output, `incomplete` without
 * `message_stop`, `malformed_chunk`: content blocks out of their index order, a delta for a block that is not open).
 * Retries happen only before output reached the caller; the API key never appears in an error.
 *
 * Thinking blocks go back as Anthropic requires (extended thinking with tools): each signed `thinking` block and each
 * `redacted_thinking` block of an answer is kept in the assistant message's `replay` and sent back unmodified, first in
 * that message's content; reasoning text from other providers is not sent. What goes back is bounded: a tool_use id or
 * tool name of at most 4,096 characters, a thinking block (text and signature, or redacted data) of at most 4,194,304;
 * past either, the answer is a typed error (`malformed_chunk`, or `invalid_response` for `complete()`).
 *
 * @example
 * ```ts
 * const client = createAnthropicClient({ apiKey: pastedKey, model: 'claude-sonnet-4-5', maxTokens: 1024, browser: true });
 * for await (const chunk of client.stream({ messages: [{ role: 'user', content: 'Hello' }] })) {
 *   if (chunk.type === 'text-delta') write(chunk.delta);
 * }
 * ```
 */
export function createAnthropicClient(options: AnthropicClientOptions): ChatClient {
  const { config, encode, host } = resolveConfig(options);
  const open = (request: ChatRequest): ChatBatches => {
    const body = encodeAnthropicRequest(request, { ...encode, stream: true });
    const handle: Parameters<typeof streamCall>[3] = {};
    const output = outputToolName(request);
    const batches = streamCall(config, request, body, handle, ANTHROPIC_MESSAGES);
    return { batches: output ? outputAsText(batches, output) : batches, cancel: (reason) => handle.scope?.controller.abort(reason) };
  };
  return batchClient<ChatClient>(
    {
      name: `${options.name ?? host}/${config.model}`,
      model: config.model,
      provider: 'anthropic',
      host,
      complete(request: ChatRequest): Promise<ChatResponse> {
        let body: string;
        try {
          body = encodeAnthropicRequest(request, { ...encode, stream: false });
        } catch (error) {
          return Promise.reject(error);
        }
        const output = outputToolName(request);
        const answer = completeCall(config, request, body, ANTHROPIC_MESSAGES);
        return output ? answer.then((response) => outputResponseAsText(response, output)) : answer;
      },
    },
    open,
  );
}

function resolveConfig(options: AnthropicClientOptions): { config: CallConfig; encode: Omit<AnthropicEncodeSettings, 'stream'>; host: string } {
  const { config, host, settings } = resolveHttpChat(options, {
    what: 'Anthropic client options',
    keys: ['maxTokens', 'browser'],
    defaultBaseURL: 'https://api.anthropic.com',
    exampleBaseURL: 'https://api.anthropic.com',
    path: '/v1/messages',
    label: (name) => `Anthropic API (${name})`,
    auth: (apiKey) => ({ 'x-api-key': apiKey }),
    headers: { 'anthropic-version': ANTHROPIC_VERSION },
    check: (given, problems) => {
      if (typeof given.maxTokens !== 'number' || !Number.isInteger(given.maxTokens) || given.maxTokens < 1) {
        problems.push(`maxTokens must be an integer ≥ 1: Anthropic requires max_tokens on every call (got ${refusedValue(given.maxTokens)})`);
      }
      if (given.browser !== undefined && typeof given.browser !== 'boolean') problems.push('browser must be a boolean');
    },
  });
  if (settings.browser) config.headers['anthropic-dangerous-direct-browser-access'] = 'true';
  return { config, encode: { model: config.model, maxTokens: settings.maxTokens as number, body: settings.extraBody }, host };
}
