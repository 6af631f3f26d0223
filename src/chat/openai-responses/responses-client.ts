import type { RetryOptions } from '../../internal/retry.js';
import { batchClient, type ChatBatches } from '../core/chat-batches.js';
import { completeCall, streamCall, type ChatTimeouts } from '../core/call.js';
import { resolveHttpChat } from '../core/client-options.js';
import type { ChatClient, ChatRequest, ChatResponse } from '../core/types.js';
import { OPENAI_RESPONSES } from './responses-call.js';
import { encodeResponsesRequest, type ResponsesEncodeSettings } from './responses-request.js';
import type { ResilienceOptions } from '../../resilience/guard.js';
import { refusedValue } from '../../internal/json.js';

/**
 * Options of {@link createOpenAIResponsesClient}.
 * @example
 * ```ts
 * const options: OpenAIResponsesClientOptions = { apiKey, model: 'gpt-5-mini', store: false };
 * ```
 */
export interface OpenAIResponsesClientOptions extends ResilienceOptions {
  /** Sent as `Authorization: Bearer …`; never appears in any error, log or event. */
  apiKey?: string | undefined;
  /** The API root (a proxy or gateway may stand in). @default 'https://api.openai.com/v1' */
  baseURL?: string | undefined;
  /** The model id, e.g. `gpt-5-mini` or `o4-mini`. */
  model: string;
  /**
   * `false` sends `store: false` (OpenAI keeps nothing; zero data retention) and asks for
   * `reasoning.encrypted_content`, so reasoning items carry what the next request needs. Leave it unset for OpenAI's
   * default (responses stored, reasoning items resolvable by id) or for models that refuse encrypted reasoning.
   * @default undefined (the API's default)
   */
  store?: boolean | undefined;
  /** `max_output_tokens` of each call; a request's own `maxTokens` wins. @default none (the model's limit) */
  maxOutputTokens?: number | undefined;
  /** Extra request headers (e.g. `OpenAI-Organization`); values of credential-like headers are treated as secrets. */
  headers?: Record<string, string> | undefined;
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /**
   * Retries before any output: network errors, 408/409/429/5xx (with `retry-after`), a `response.failed` or `error`
   * event with `server_error` / `rate_limit_exceeded` before any output, dropped or empty streams, first-chunk
   * timeouts. @default { maxAttempts: 3, initialDelayMs: 500, maxDelayMs: 8000 }
   */
  retry?: RetryOptions | false | undefined;
  /**
   * Time limits: the whole call (`totalMs`), the first SSE event of an attempt (`firstChunkMs`), and between two SSE
   * events (`idleMs`). Comments, blank lines and a line that never ends do not count.
   * @default { totalMs: 600000, firstChunkMs: 120000, idleMs: 60000 }
   */
  timeouts?: ChatTimeouts | undefined;
  /** A label for errors and logs. @default the host of `baseURL` */
  name?: string | undefined;
  /** Extra top-level request fields (e.g. `{ reasoning: { effort: 'low', summary: 'auto' } }`); the SDK's own fields win. */
  extraBody?: Record<string, unknown> | undefined;
  /**
   * Bound on one SSE line, in characters. Higher than the other clients' because the final events repeat the whole
   * answer on one line (`response.completed` carries every output item, encrypted reasoning included). @default 8388608
   */
  maxLineLength?: number | undefined;
}

/** The default line bound: `response.completed` repeats the whole answer, so a long answer makes a long line. */
const RESPONSES_MAX_LINE = 8_388_608; // 8 MiB, written out: a bundler keeps module-scope arithmetic

/**
 * A chat client for OpenAI's Responses API over `fetch` and Web Streams: function tools (`function_call` /
 * `function_call_output` items), `tool_choice`, structured output (`text.format: json_schema`), streaming
 * (`response.output_text.delta`, `response.function_call_arguments.delta/done`, reasoning summaries), usage with
 * cached and reasoning tokens, and finish reasons (`response.incomplete` by `max_output_tokens` → `length`, by
 * `content_filter` → `content_filter`, a refusal → `refusal`). Failures are typed like every client's:
 * `ChatClientError` (HTTP status with OpenAI's error code, network, timeouts; 429/5xx retried with `retry-after`, but
 * never an `insufficient_quota`; a `response.failed` with `server_error` before any output retried), `StreamError`
 * (`provider_error` for a failure after output or an unlisted code, `incomplete` for a stream that ends without its
 * final event, `malformed_chunk`). Retries happen only before output reached the caller; the API key never appears in
 * an error.
 *
 * Reasoning items go back as the API requires: an answer with reasoning keeps its output items in the assistant
 * message's `replay` (each reasoning item verbatim, the ids of the others), and the next request rebuilds that turn
 * from them; other providers' items are not sent. What goes back is bounded: an item id, call id or name of at most
 * 4,096 characters, a reasoning item (its `encrypted_content` included) of at most 4,194,304 as JSON; past either, the
 * answer is a typed error (`malformed_chunk`, or `invalid_response` for `complete()`).
 *
 * @example
 * ```ts
 * const client = createOpenAIResponsesClient({ apiKey, model: 'gpt-5-mini' });
 * for await (const chunk of client.stream({ messages: [{ role: 'user', content: 'Hello' }] })) {
 *   if (chunk.type === 'text-delta') write(chunk.delta);
 * }
 * ```
 */
export function createOpenAIResponsesClient(options: OpenAIResponsesClientOptions): ChatClient {
  const { config, host, settings } = resolveHttpChat(options, {
    what: 'OpenAI Responses client options',
    keys: ['store', 'maxOutputTokens'],
    defaultBaseURL: 'https://api.openai.com/v1',
    exampleBaseURL: 'https://api.openai.com/v1',
    path: '/responses',
    label: (name) => `Responses API (${name})`,
    auth: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
    check: (given, problems) => {
      if (given.store !== undefined && typeof given.store !== 'boolean') problems.push('store must be a boolean');
      const max = given.maxOutputTokens;
      if (max !== undefined && (typeof max !== 'number' || !Number.isInteger(max) || max < 1)) problems.push(`maxOutputTokens must be an integer ≥ 1 (got ${refusedValue(max)})`);
    },
  });
  config.maxLineLength ??= RESPONSES_MAX_LINE;
  const encode: Omit<ResponsesEncodeSettings, 'stream'> = { model: config.model, store: settings.store, maxOutputTokens: settings.maxOutputTokens, body: settings.extraBody };
  const open = (request: ChatRequest): ChatBatches => {
    const body = encodeResponsesRequest(request, { ...encode, stream: true });
    const handle: Parameters<typeof streamCall>[3] = {};
    return { batches: streamCall(config, request, body, handle, OPENAI_RESPONSES), cancel: (reason) => handle.scope?.controller.abort(reason) };
  };
  return batchClient<ChatClient>(
    {
      name: `${options.name ?? host}/${config.model}`,
      model: config.model,
      provider: 'openai',
      host,
      complete(request: ChatRequest): Promise<ChatResponse> {
        let body: string;
        try {
          body = encodeResponsesRequest(request, { ...encode, stream: false });
        } catch (error) {
          return Promise.reject(error);
        }
        return completeCall(config, request, body, OPENAI_RESPONSES);
      },
    },
    open,
  );
}
