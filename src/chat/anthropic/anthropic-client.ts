import { ConfigError } from '../../errors/config-error.js';
import { createId } from '../../internal/ids.js';
import { isPlainObject } from '../../internal/json.js';
import { headerSecrets } from '../../internal/redact.js';
import { resolveRetryOptions, retryOptionProblems, type RetryOptions } from '../../internal/retry.js';
import { batchClient, type ChatBatches } from '../core/chat-batches.js';
import type { CallConfig, ChatTimeouts } from '../core/call.js';
import { DEFAULT_CHAT_RETRY, DEFAULT_CHAT_TIMEOUTS } from '../openai/openai-compatible-client.js';
import type { ChatClient, ChatRequest, ChatResponse } from '../core/types.js';
import { completeCall, streamCall } from '../core/call.js';
import { ANTHROPIC_MESSAGES } from './anthropic-call.js';
import { encodeAnthropicRequest, type AnthropicEncodeSettings } from './anthropic-request.js';

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
export interface AnthropicClientOptions {
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

/** Header values: visible Latin-1 plus space and tab, no line breaks. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * A chat client for Anthropic's Messages API over `fetch` and Web Streams: system prompt, tools (`tool_use` /
 * `tool_result` blocks, `is_error` on failed tool results so the model sees our structured error), `tool_choice`,
 * streaming (`text_delta`, `input_json_delta`, `thinking_delta`), usage with cache tokens, and finish reasons
 * (`max_tokens` → `length`, `refusal`, `pause_turn`). Failures are typed like every client's: `ChatClientError`
 * (HTTP status with Anthropic's error `type` as `code`, network, timeouts; 529 and 429 retried with `retry-after`),
 * `StreamError` (`provider_error` for an `event: error` after output, `incomplete` without `message_stop`,
 * `malformed_chunk`). Retries happen only before output reached the caller; the API key never appears in an error.
 *
 * Thinking blocks go back as Anthropic requires (extended thinking with tools): each signed `thinking` block and each
 * `redacted_thinking` block of an answer is kept in the assistant message's `replay` and sent back unmodified, first in
 * that message's content; reasoning text from other providers is not sent.
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
    return { batches: streamCall(config, request, body, handle, ANTHROPIC_MESSAGES), cancel: (reason) => handle.scope?.controller.abort(reason) };
  };
  return batchClient<ChatClient>(
    {
      name: `${options.name ?? host}/${config.model}`,
      complete(request: ChatRequest): Promise<ChatResponse> {
        let body: string;
        try {
          body = encodeAnthropicRequest(request, { ...encode, stream: false });
        } catch (error) {
          return Promise.reject(error);
        }
        return completeCall(config, request, body, ANTHROPIC_MESSAGES);
      },
    },
    open,
  );
}

function resolveConfig(options: AnthropicClientOptions): { config: CallConfig; encode: Omit<AnthropicEncodeSettings, 'stream'>; host: string } {
  const problems: string[] = [];
  const settings: Partial<AnthropicClientOptions> = isPlainObject(options) ? options : {};
  if (!isPlainObject(options)) problems.push('options must be an object');
  let url: URL | undefined;
  const baseURL = settings.baseURL ?? 'https://api.anthropic.com';
  try {
    url = new URL(String(baseURL));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push(`baseURL must be an http(s) URL (got ${url.protocol})`);
  } catch {
    problems.push(`baseURL must be an absolute URL such as https://api.anthropic.com (got ${JSON.stringify(baseURL) ?? 'nothing'})`);
  }
  if (typeof settings.model !== 'string' || settings.model.trim() === '') problems.push('model must be a non-empty string');
  if (typeof settings.maxTokens !== 'number' || !Number.isInteger(settings.maxTokens) || settings.maxTokens < 1) {
    problems.push(`maxTokens must be an integer ≥ 1: Anthropic requires max_tokens on every call (got ${String(settings.maxTokens)})`);
  }
  if (settings.apiKey !== undefined && typeof settings.apiKey !== 'string') problems.push('apiKey must be a string');
  else if (settings.apiKey !== undefined && !HEADER_VALUE.test(settings.apiKey)) problems.push('apiKey contains characters an HTTP header cannot carry (a line break, a control character, or non-Latin-1 text)');
  if (settings.headers !== undefined && (!isPlainObject(settings.headers) || Object.values(settings.headers).some((value) => typeof value !== 'string'))) {
    problems.push('headers must be an object of strings');
  } else if (settings.headers !== undefined) {
    for (const [name, value] of Object.entries(settings.headers)) {
      if (!HEADER_NAME.test(name)) problems.push(`header name ${JSON.stringify(name)} is not a valid HTTP header name`);
      else if (!HEADER_VALUE.test(value)) problems.push(`header ${JSON.stringify(name)} has a value an HTTP header cannot carry`);
    }
  }
  if (settings.browser !== undefined && typeof settings.browser !== 'boolean') problems.push('browser must be a boolean');
  if (settings.extraBody !== undefined && !isPlainObject(settings.extraBody)) problems.push('extraBody must be an object');
  const fetchImpl = settings.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') problems.push('fetch must be a function (no global fetch in this runtime)');
  problems.push(...retryOptionProblems(settings.retry, 'retry'));
  const timeouts = { ...DEFAULT_CHAT_TIMEOUTS };
  if (settings.timeouts !== undefined) {
    if (!isPlainObject(settings.timeouts)) problems.push('timeouts must be an object');
    else
      for (const key of ['totalMs', 'firstChunkMs', 'idleMs'] as const) {
        const value = settings.timeouts[key];
        if (value === undefined) continue;
        if (typeof value !== 'number' || !(value > 0)) problems.push(`timeouts.${key} must be a number > 0 or Infinity (got ${String(value)})`);
        else timeouts[key] = value;
      }
  }
  if (problems.length > 0 || !url) throw ConfigError.fromProblems('Anthropic client options', problems);
  const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION, ...settings.headers };
  const secrets: string[] = [];
  if (settings.apiKey) {
    headers['x-api-key'] = settings.apiKey;
    secrets.push(settings.apiKey);
  }
  if (settings.browser) headers['anthropic-dangerous-direct-browser-access'] = 'true';
  secrets.push(...headerSecrets(settings.headers));
  const base = url.toString().replace(/\/+$/, '');
  const config: CallConfig = {
    url: `${base}/v1/messages`,
    label: `Anthropic API (${settings.name ?? url.host})`,
    model: settings.model as string,
    headers,
    fetch: (input, init) => fetchImpl(input, init),
    retry: resolveRetryOptions(settings.retry, DEFAULT_CHAT_RETRY),
    timeouts,
    secrets,
    maxLineLength: settings.maxLineLength,
    createId: () => createId('call'),
  };
  return { config, encode: { model: config.model, maxTokens: settings.maxTokens as number, body: settings.extraBody }, host: url.host };
}
