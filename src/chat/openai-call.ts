/**
 * The mechanics of one model call over HTTP: the call scope (caller's signal + total timeout), attempts with
 * first-chunk (until the first SSE event) and idle (between events) timeouts, retries only before any output reached
 * the caller (decisions.md point 12), and the mapping of every failure to a typed error. A user abort always surfaces
 * as `signal.reason`, unwrapped.
 */
import { ChatClientError } from '../errors/chat-client-error.js';
import { StreamError } from '../errors/stream-error.js';
import { describeError } from '../internal/error-json.js';
import { messageOf, read } from '../internal/error-chain.js';
import { redactText } from '../internal/redact.js';
import { retry, type ResolvedRetryOptions } from '../internal/retry.js';
import { Attempt, CallScope, classify, StreamReader } from './openai-attempt.js';
import { responseChunks } from './collect-chat-stream.js';
import { decodeCompletion } from './openai-wire.js';
import type { ChatChunk, ChatRequest, ChatResponse } from './types.js';

/**
 * Time limits of a model call, in ms; `Infinity` disables one. Only progress counts: an SSE event of the stream.
 * Keep-alive comments, blank lines and a line that never ends are bytes, not events, so a provider that sends only
 * those still times out. The error says which limit fired (`ChatClientError.timeout`).
 * @example `createOpenAICompatibleClient({ ...options, timeouts: { firstChunkMs: 30_000, idleMs: 15_000 } })`
 */
export interface ChatTimeouts {
  /** The whole call, retries and back-off waits included (`timeout: 'total'`, not retried). @default 600000 */
  totalMs?: number | undefined;
  /**
   * Per attempt, from sending the request to the first SSE event of its answer; for `complete()` (and a JSON answer to
   * a stream), to the end of the whole answer (`timeout: 'first_chunk'`, retried before any output). @default 120000
   */
  firstChunkMs?: number | undefined;
  /** Between two SSE events of a streamed answer (`timeout: 'idle'`, not retried). @default 60000 */
  idleMs?: number | undefined;
}

export interface CallConfig {
  url: string;
  label: string;
  model: string;
  headers: Record<string, string>;
  fetch: typeof fetch;
  retry: ResolvedRetryOptions;
  timeouts: Required<ChatTimeouts>;
  secrets: readonly string[];
  maxLineLength?: number | undefined;
  createId: () => string;
}

function afterOutput(error: unknown): unknown {
  if (StreamError.isInstance(error) && !error.afterOutput) {
    return new StreamError(error.message, { reason: error.reason, afterOutput: true, chunk: error.chunk, code: error.code, cause: error.cause });
  }
  return error;
}

/** A streamed call: batches of chunks; retried only until the first batch reaches the caller. */
export async function* streamCall(config: CallConfig, request: ChatRequest, body: string, cancel: { scope?: CallScope }): AsyncGenerator<ChatChunk[], void, undefined> {
  const scope = new CallScope(config, request.signal);
  cancel.scope = scope;
  let reader: StreamReader | undefined;
  try {
    const first = await retry(
      async (number) => {
        scope.attempt = number;
        const attempt = new Attempt(config, scope, number);
        const response = await attempt.send(body, 'text/event-stream');
        if ((response.headers.get('content-type') ?? '').includes('application/json')) {
          return { chunks: responseChunks(parseCompletion(await attempt.text(response), config)), reader: undefined };
        }
        if (!response.body) {
          attempt.close();
          throw new ChatClientError(`${config.label} answered without a body`, { reason: 'invalid_response', retryable: false, attempts: number });
        }
        const streamReader = new StreamReader(attempt, response.body, config);
        const batch = await streamReader.next();
        return { chunks: batch ?? [], reader: streamReader };
      },
      {
        options: config.retry,
        signal: scope.controller.signal,
        classify,
        onRetry: (notice) =>
          request.onRetry?.({ attempt: notice.attempt, delayMs: notice.delayMs, fromRetryAfter: notice.fromRetryAfter, error: describeError(notice.error) as Record<string, unknown> }),
      },
    );
    reader = first.reader;
    yield first.chunks;
    if (!reader) return;
    for (;;) {
      let batch: ChatChunk[] | undefined;
      try {
        batch = await reader.next();
      } catch (error) {
        throw afterOutput(error);
      }
      if (!batch) return;
      yield batch;
    }
  } catch (error) {
    throw scope.surface(error);
  } finally {
    reader?.stop();
    scope.close();
  }
}

/** A non-streamed call, retried as a whole. */
export async function completeCall(config: CallConfig, request: ChatRequest, body: string): Promise<ChatResponse> {
  const scope = new CallScope(config, request.signal);
  try {
    return await retry(
      async (number) => {
        scope.attempt = number;
        const attempt = new Attempt(config, scope, number);
        const response = await attempt.send(body, 'application/json');
        return parseCompletion(await attempt.text(response), config);
      },
      {
        options: config.retry,
        signal: scope.controller.signal,
        classify,
        onRetry: (notice) =>
          request.onRetry?.({ attempt: notice.attempt, delayMs: notice.delayMs, fromRetryAfter: notice.fromRetryAfter, error: describeError(notice.error) as Record<string, unknown> }),
      },
    );
  } catch (error) {
    throw scope.surface(error);
  } finally {
    scope.close();
  }
}

function parseCompletion(text: string, config: CallConfig): ChatResponse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ChatClientError(`${config.label} answered with a body that is not JSON: ${redactText(text.slice(0, 200), config.secrets)}`, {
      reason: 'invalid_response',
      retryable: false,
      cause: error,
    });
  }
  const providerError = read(json, 'error');
  if (providerError !== undefined && providerError !== null) {
    const message = read(providerError, 'message');
    throw new ChatClientError(`${config.label} answered with an error: ${redactText(typeof message === 'string' ? message : messageOf(providerError), config.secrets)}`, {
      reason: 'invalid_response',
      retryable: false,
    });
  }
  return decodeCompletion(json, config.label, config.createId, config.secrets);
}
