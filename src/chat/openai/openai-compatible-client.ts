import { ConfigError } from '../../errors/config-error.js';
import { createId } from '../../internal/ids.js';
import { isPlainObject } from '../../internal/json.js';
import { headerSecrets } from '../../internal/redact.js';
import { resolveRetryOptions, retryOptionProblems, type ResolvedRetryOptions, type RetryOptions } from '../../internal/retry.js';
import { completeCall, streamCall, type CallConfig, type ChatTimeouts } from '../core/call.js';
import { CHAT_COMPLETIONS } from './openai-call.js';
import { encodeRequest } from './openai-wire.js';
import { batchClient, type ChatBatches } from '../core/chat-batches.js';
import type { ChatClient, ChatRequest, ChatResponse } from '../core/types.js';

/** Options of {@link createOpenAICompatibleClient}. */
export interface OpenAICompatibleClientOptions {
  /** The API root, e.g. `https://api.openai.com/v1` or `https://api.deepseek.com`. */
  baseURL: string;
  /** Sent as `Authorization: Bearer …`; never appears in any error, log or event. */
  apiKey?: string | undefined;
  /** The model id, e.g. `gpt-4o-mini` or `deepseek-chat`. */
  model: string;
  /** Extra request headers (values of credential-like headers are treated as secrets). */
  headers?: Record<string, string> | undefined;
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /** Retries before any output: network errors, 408/409/429/5xx, dropped or empty streams, first-chunk timeouts. @default { maxAttempts: 3, initialDelayMs: 500, maxDelayMs: 8000 } */
  retry?: RetryOptions | false | undefined;
  /**
   * Time limits: the whole call (`totalMs`), the first SSE event of an attempt (`firstChunkMs`), and between two SSE
   * events (`idleMs`). Events, not bytes: keep-alive comments, blank lines and a line that never ends do not count.
   * @default { totalMs: 600000, firstChunkMs: 120000, idleMs: 60000 }
   */
  timeouts?: ChatTimeouts | undefined;
  /** A label for errors and logs. @default the host of `baseURL` */
  name?: string | undefined;
  /** Ask for a final usage chunk (`stream_options.include_usage`). @default true */
  includeUsage?: boolean | undefined;
  /** Extra top-level request fields (e.g. `{ seed: 7 }`); the SDK's own fields win. */
  extraBody?: Record<string, unknown> | undefined;
  /** Bound on one SSE line, in characters. @default 1048576 */
  maxLineLength?: number | undefined;
  /**
   * What of the model's reasoning is sent back (the provider's rule): `'tool-calls'` — every assistant message that
   * called tools carries its `reasoning_content` (`""` when it had none), as DeepSeek's and Moonshot's thinking modes
   * require (they answer 400 "Missing `reasoning_content` field" otherwise); `'none'` — reasoning is never sent (OpenAI
   * and most servers refuse unknown message fields).
   * @default 'tool-calls' for api.deepseek.com and api.moonshot.*, else 'none'
   */
  reasoningReplay?: 'tool-calls' | 'none' | undefined;
}

/** The providers whose thinking mode needs reasoning sent back on tool-call turns. */
function defaultReasoningReplay(baseURL: string): 'tool-calls' | 'none' {
  try {
    const host = new URL(baseURL).hostname;
    return /(^|\.)deepseek\.com$|(^|\.)moonshot\.(ai|cn)$/.test(host) ? 'tool-calls' : 'none';
  } catch {
    return 'none';
  }
}

/** Header values: visible Latin-1 plus space and tab, no line breaks. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Retry defaults of model calls.
 * @example `createOpenAICompatibleClient({ ...options, retry: { ...DEFAULT_CHAT_RETRY, maxAttempts: 5 } })`
 */
export const DEFAULT_CHAT_RETRY: ResolvedRetryOptions = Object.freeze({
  maxAttempts: 3,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  multiplier: 2,
  jitter: 'full',
  maxRetryAfterMs: 60_000,
});

/**
 * Timeout defaults of model calls.
 * @example `createOpenAICompatibleClient({ ...options, timeouts: { ...DEFAULT_CHAT_TIMEOUTS, idleMs: 15_000 } })`
 */
export const DEFAULT_CHAT_TIMEOUTS: Required<ChatTimeouts> = Object.freeze({ totalMs: 600_000, firstChunkMs: 120_000, idleMs: 60_000 });

/**
 * A chat client for OpenAI-compatible chat completions APIs (OpenAI, DeepSeek, and compatible servers) over `fetch`
 * and Web Streams: tools and `tool_choice`, streaming with tool calls assembled by index, usage, finish reasons and
 * DeepSeek's `reasoning_content`. Failures are typed: `ChatClientError` (HTTP status, network, timeouts — each
 * naming its limit; only SSE events count as progress, so a provider sending nothing but keep-alives times out),
 * `StreamError` (malformed chunk, mid-stream provider error, a stream that ends without finishing). Retries happen
 * only before output reached the caller; a user abort ends everything promptly and is never retried.
 *
 * @example
 * ```ts
 * const client = createOpenAICompatibleClient({ baseURL: 'https://api.deepseek.com', apiKey: key, model: 'deepseek-chat' });
 * for await (const chunk of client.stream({ messages: [{ role: 'user', content: 'Hello' }] })) {
 *   if (chunk.type === 'text-delta') write(chunk.delta);
 * }
 * ```
 */
export function createOpenAICompatibleClient(options: OpenAICompatibleClientOptions): ChatClient {
  const config = resolveConfig(options);
  const extra = { includeUsage: options.includeUsage ?? true, body: options.extraBody, reasoningReplay: options.reasoningReplay ?? defaultReasoningReplay(options.baseURL) };
  const open = (request: ChatRequest): ChatBatches => {
    const body = encodeRequest(request, config.model, true, extra);
    const handle: Parameters<typeof streamCall>[3] = {};
    return { batches: streamCall(config, request, body, handle, CHAT_COMPLETIONS), cancel: (reason) => handle.scope?.controller.abort(reason) };
  };
  return batchClient<ChatClient>({
    name: `${options.name ?? new URL(options.baseURL).host}/${config.model}`,
    complete(request: ChatRequest): Promise<ChatResponse> {
      let body: string;
      try {
        body = encodeRequest(request, config.model, false, extra);
      } catch (error) {
        return Promise.reject(error);
      }
      return completeCall(config, request, body, CHAT_COMPLETIONS);
    },
  }, open);
}

function resolveConfig(options: OpenAICompatibleClientOptions): CallConfig {
  const problems: string[] = [];
  const settings: Partial<OpenAICompatibleClientOptions> = isPlainObject(options) ? options : {};
  if (!isPlainObject(options)) problems.push('options must be an object');
  let url: URL | undefined;
  try {
    url = new URL(String(settings.baseURL));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push(`baseURL must be an http(s) URL (got ${url.protocol})`);
  } catch {
    problems.push(`baseURL must be an absolute URL such as https://api.openai.com/v1 (got ${JSON.stringify(settings.baseURL) ?? 'nothing'})`);
  }
  if (typeof settings.model !== 'string' || settings.model.trim() === '') problems.push('model must be a non-empty string');
  if (settings.apiKey !== undefined && typeof settings.apiKey !== 'string') problems.push('apiKey must be a string');
  else if (settings.apiKey !== undefined && !HEADER_VALUE.test(settings.apiKey)) problems.push('apiKey contains characters an HTTP header cannot carry (a line break, a control character, or non-Latin-1 text)');
  if (settings.headers !== undefined && (!isPlainObject(settings.headers) || Object.values(settings.headers).some((value) => typeof value !== 'string'))) {
    problems.push('headers must be an object of strings');
  } else if (settings.headers !== undefined) {
    for (const [name, value] of Object.entries(settings.headers)) {
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) problems.push(`header name ${JSON.stringify(name)} is not a valid HTTP header name`);
      else if (!HEADER_VALUE.test(value)) problems.push(`header ${JSON.stringify(name)} has a value an HTTP header cannot carry`);
    }
  }
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
  if (problems.length > 0 || !url) throw ConfigError.fromProblems('OpenAI-compatible client options', problems);
  const headers: Record<string, string> = { ...settings.headers };
  const secrets: string[] = [];
  if (settings.apiKey) {
    headers.authorization = `Bearer ${settings.apiKey}`;
    secrets.push(settings.apiKey);
  }
  secrets.push(...headerSecrets(settings.headers));
  const base = url.toString().replace(/\/+$/, '');
  return {
    url: `${base}/chat/completions`,
    label: `Chat API (${settings.name ?? url.host})`,
    model: settings.model as string,
    headers,
    fetch: (input, init) => fetchImpl(input, init),
    retry: resolveRetryOptions(settings.retry, DEFAULT_CHAT_RETRY),
    timeouts,
    secrets,
    maxLineLength: settings.maxLineLength,
    createId: () => createId('call'),
  };
}
