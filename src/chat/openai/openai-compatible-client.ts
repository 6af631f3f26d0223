import type { RetryOptions } from '../../internal/retry.js';
import { completeCall, streamCall, type CallConfig, type ChatTimeouts } from '../core/call.js';
import { resolveHttpChat } from '../core/client-options.js';
import { CHAT_COMPLETIONS } from './openai-call.js';
import { encodeRequest } from './openai-wire.js';
import { batchClient, type ChatBatches } from '../core/chat-batches.js';
import type { ChatClient, ChatRequest, ChatResponse } from '../core/types.js';
import type { ResilienceOptions } from '../../resilience/guard.js';

/** Options of {@link createOpenAICompatibleClient}. */
export interface OpenAICompatibleClientOptions extends ResilienceOptions {
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

/**
 * A chat client for OpenAI-compatible chat completions APIs (OpenAI, DeepSeek, and compatible servers) over `fetch`
 * and Web Streams: tools and `tool_choice`, streaming with tool calls assembled by index, usage, finish reasons and
 * DeepSeek's `reasoning_content`. Failures are typed: `ChatClientError` (HTTP status, network, timeouts — each
 * naming its limit; only SSE events count as progress, so a provider sending nothing but keep-alives times out),
 * `StreamError` (malformed chunk, mid-stream provider error, a stream that ends without finishing). Retries happen
 * only before output reached the caller, never for a code that says the limit will not pass (a 429
 * `insufficient_quota`); a user abort ends everything promptly and is never retried. A tool call id or name over 4,096
 * characters (sent back with the next request) is a typed error, not kept.
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
  const { config, host } = resolveConfig(options);
  const extra = { includeUsage: options.includeUsage ?? true, body: options.extraBody, reasoningReplay: options.reasoningReplay ?? defaultReasoningReplay(options.baseURL) };
  const open = (request: ChatRequest): ChatBatches => {
    const body = encodeRequest(request, config.model, true, extra);
    const handle: Parameters<typeof streamCall>[3] = {};
    return { batches: streamCall(config, request, body, handle, CHAT_COMPLETIONS), cancel: (reason) => handle.scope?.controller.abort(reason) };
  };
  return batchClient<ChatClient>({
    name: `${options.name ?? host}/${config.model}`,
    model: config.model,
    provider: host === 'api.openai.com' ? 'openai' : host,
    host,
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

function resolveConfig(options: OpenAICompatibleClientOptions): { config: CallConfig; host: string } {
  return resolveHttpChat(options, {
    what: 'OpenAI-compatible client options',
    keys: ['includeUsage', 'reasoningReplay'],
    exampleBaseURL: 'https://api.openai.com/v1',
    path: '/chat/completions',
    label: (host) => `Chat API (${host})`,
    auth: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  });
}
