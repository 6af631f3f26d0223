/**
 * The mechanics of one model call over HTTP, for every provider: the call scope (caller's signal + total timeout),
 * attempts with first-chunk (until the first SSE event) and idle (between events) timeouts, retries only before any
 * output reached the caller (decisions.md point 12), and the mapping of every failure to a typed error. A user abort
 * always surfaces as `signal.reason`, unwrapped. What differs per provider is its `CallProtocol`.
 */
import { ChatClientError } from '../errors/chat-client-error.js';
import { StreamError } from '../errors/stream-error.js';
import { describeError } from '../internal/error-json.js';
import { retry, type ResolvedRetryOptions, type RetryNotice } from '../internal/retry.js';
import { Attempt, CallScope, classify } from './openai-attempt.js';
import { responseChunks } from './collect-chat-stream.js';
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

/**
 * What differs between providers in one call: how an attempt is sent, how a whole JSON answer is read, and how a
 * stream's body becomes batches of chunks. Everything else — the scope, retries only before output, the timers,
 * typed failures — is this module's, for every provider.
 */
export interface CallProtocol {
  send(attempt: Attempt, body: string, accept: string, config: CallConfig): Promise<Response>;
  parse(text: string, config: CallConfig): ChatResponse;
  reader(attempt: Attempt, response: Response & { body: ReadableStream<Uint8Array> }, config: CallConfig): { next(): Promise<ChatChunk[] | undefined>; stop(): void };
}

function notify(request: ChatRequest): (notice: RetryNotice) => void {
  return (notice) =>
    request.onRetry?.({ attempt: notice.attempt, delayMs: notice.delayMs, fromRetryAfter: notice.fromRetryAfter, error: describeError(notice.error) as Record<string, unknown> });
}

/** A streamed call: batches of chunks; retried only until the first batch reaches the caller. */
export async function* streamCall(
  config: CallConfig,
  request: ChatRequest,
  body: string,
  cancel: { scope?: CallScope },
  protocol: CallProtocol,
): AsyncGenerator<ChatChunk[], void, undefined> {
  const scope = new CallScope(config, request.signal);
  cancel.scope = scope;
  let reader: ReturnType<CallProtocol['reader']> | undefined;
  try {
    const first = await retry(
      async (number) => {
        scope.attempt = number;
        const attempt = new Attempt(config, scope, number);
        const response = await protocol.send(attempt, body, 'text/event-stream', config);
        if ((response.headers.get('content-type') ?? '').includes('application/json')) {
          // A proxy that ignored `stream: true`: the whole answer, as the chunks a stream of it would have given.
          return { chunks: responseChunks(protocol.parse(await attempt.text(response), config)), reader: undefined };
        }
        if (!response.body) {
          attempt.close();
          throw new ChatClientError(`${config.label} answered without a body`, { reason: 'invalid_response', retryable: false, attempts: number });
        }
        const streamReader = protocol.reader(attempt, response as Response & { body: ReadableStream<Uint8Array> }, config);
        const batch = await streamReader.next();
        return { chunks: batch ?? [], reader: streamReader };
      },
      { options: config.retry, signal: scope.controller.signal, classify, onRetry: notify(request) },
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
export async function completeCall(config: CallConfig, request: ChatRequest, body: string, protocol: CallProtocol): Promise<ChatResponse> {
  const scope = new CallScope(config, request.signal);
  try {
    return await retry(
      async (number) => {
        scope.attempt = number;
        const attempt = new Attempt(config, scope, number);
        const response = await protocol.send(attempt, body, 'application/json', config);
        return protocol.parse(await attempt.text(response), config);
      },
      { options: config.retry, signal: scope.controller.signal, classify, onRetry: notify(request) },
    );
  } catch (error) {
    throw scope.surface(error);
  } finally {
    scope.close();
  }
}
