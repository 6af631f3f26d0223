/**
 * The mechanics of one model call over HTTP: the call scope (caller's signal + total timeout), attempts with
 * first-chunk and idle timeouts, retries only before any output reached the caller (decisions.md point 12), and
 * the mapping of every failure to a typed error. A user abort always surfaces as `signal.reason`, unwrapped.
 */
import { ChatClientError, type ChatTimeoutLimit } from '../errors/chat-client-error.js';
import { StreamError } from '../errors/stream-error.js';
import { describeError } from '../internal/error-json.js';
import { abortPromise, clampDelay, linkedController } from '../internal/delay.js';
import { messageOf, read } from '../internal/error-chain.js';
import { readBoundedText } from '../internal/http-body.js';
import { redactError, redactText } from '../internal/redact.js';
import { retry, type ResolvedRetryOptions, type RetryDecision } from '../internal/retry.js';
import { chatErrorFromResponse } from './chat-error-from-response.js';
import { responseChunks } from './collect-chat-stream.js';
import { OpenAIStreamDecoder } from './openai-stream-decoder.js';
import { decodeCompletion } from './openai-wire.js';
import type { ChatChunk, ChatRequest, ChatResponse } from './types.js';

/** Time limits of a model call, in ms; `Infinity` disables one. */
export interface ChatTimeouts {
  /** The whole call, retries included. @default 600000 */
  totalMs?: number | undefined;
  /** From sending a request to the first bytes of its answer (per attempt). @default 120000 */
  firstChunkMs?: number | undefined;
  /** Between two pieces of a streamed answer. @default 60000 */
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

const MAX_COMPLETION_BYTES = 32 * 1024 * 1024;

function timeoutError(config: CallConfig, limit: ChatTimeoutLimit, attempt: number): ChatClientError {
  const ms = limit === 'total' ? config.timeouts.totalMs : limit === 'idle' ? config.timeouts.idleMs : config.timeouts.firstChunkMs;
  const what =
    limit === 'total'
      ? `did not complete within the total limit of ${ms} ms`
      : limit === 'idle'
        ? `sent nothing for ${ms} ms mid-stream (idle timeout)`
        : `sent no first chunk within ${ms} ms (first-chunk timeout)`;
  return new ChatClientError(`${config.label} ${what}`, {
    reason: 'timeout',
    timeout: limit,
    retryable: limit === 'first_chunk',
    attempts: attempt,
    model: config.model,
  });
}

/** The caller's signal plus the total time limit; maps any failure to what the caller should see. */
class CallScope {
  readonly controller: AbortController;
  private readonly detach: () => void;
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  attempt = 0;

  constructor(
    private readonly config: CallConfig,
    private readonly userSignal: AbortSignal | undefined,
  ) {
    const { controller, dispose } = linkedController(userSignal);
    this.controller = controller;
    this.detach = dispose;
    const total = config.timeouts.totalMs;
    this.timer = Number.isFinite(total) ? setTimeout(() => controller.abort(timeoutError(config, 'total', this.attempt)), clampDelay(total)) : undefined;
  }

  /** The error the caller sees: the exact abort reason, a timeout, or the error itself. */
  surface(error: unknown): unknown {
    if (this.userSignal?.aborted) return this.userSignal.reason;
    if (this.controller.signal.aborted && ChatClientError.isInstance(this.controller.signal.reason)) return this.controller.signal.reason;
    return error;
  }

  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.detach();
  }
}

function classify(error: unknown): RetryDecision {
  if (ChatClientError.isInstance(error)) return { retry: error.retryable, retryAfterMs: error.retryAfterMs };
  if (StreamError.isInstance(error)) return { retry: !error.afterOutput && (error.reason === 'incomplete' || error.reason === 'read_failed') };
  return { retry: false };
}

/** One HTTP attempt: its own controller (so a timeout can cancel just this attempt) and its timer. */
class Attempt {
  readonly controller: AbortController;
  private readonly detach: () => void;
  private timer: ReturnType<typeof setTimeout> | undefined;
  readonly aborted: Promise<never>;
  private readonly disposeAbort: () => void;

  constructor(
    private readonly config: CallConfig,
    scope: CallScope,
    readonly number: number,
  ) {
    const { controller, dispose } = linkedController(scope.controller.signal);
    this.controller = controller;
    this.detach = dispose;
    const abort = abortPromise(controller.signal);
    this.aborted = abort.promise;
    this.disposeAbort = abort.dispose;
    this.arm('first_chunk');
  }

  /** (Re)starts the timer for `limit`. */
  arm(limit: 'first_chunk' | 'idle'): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    const ms = limit === 'idle' ? this.config.timeouts.idleMs : this.config.timeouts.firstChunkMs;
    this.timer = Number.isFinite(ms) ? setTimeout(() => this.controller.abort(timeoutError(this.config, limit, this.number)), clampDelay(ms)) : undefined;
  }

  /** The error to raise when an operation of this attempt failed with `error`. */
  failure(error: unknown, phase: 'fetch' | 'read'): unknown {
    if (this.controller.signal.aborted) return this.controller.signal.reason;
    if (phase === 'fetch') {
      return new ChatClientError(`Request to ${this.config.label} failed: ${redactText(messageOf(error), this.config.secrets)}`, {
        reason: 'network',
        cause: redactError(error, this.config.secrets),
        attempts: this.number,
        model: this.config.model,
      });
    }
    return new StreamError(`The connection to ${this.config.label} dropped while reading the answer: ${redactText(messageOf(error), this.config.secrets)}`, {
      reason: 'read_failed',
      cause: redactError(error, this.config.secrets),
    });
  }

  async send(body: string, accept: string): Promise<Response> {
    let response: Response;
    try {
      response = await Promise.race([
        this.config.fetch(this.config.url, {
          method: 'POST',
          headers: { ...this.config.headers, 'content-type': 'application/json', accept },
          body,
          signal: this.controller.signal,
        }),
        this.aborted,
      ]);
    } catch (error) {
      const failure = this.failure(error, 'fetch');
      this.close();
      throw failure;
    }
    if (!response.ok) {
      try {
        throw await Promise.race([chatErrorFromResponse(response, { ...this.config, attempts: this.number }), this.aborted]);
      } finally {
        this.close();
      }
    }
    return response;
  }

  /** Reads a whole (bounded) body, still under this attempt's timers. */
  async text(response: Response): Promise<string> {
    try {
      return await Promise.race([readBoundedText(response, MAX_COMPLETION_BYTES), this.aborted]);
    } catch (error) {
      throw this.failure(error, 'read');
    } finally {
      this.close();
    }
  }

  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.disposeAbort();
    this.detach();
  }
}

/** Reads a streamed answer in batches of chunks. */
class StreamReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder: OpenAIStreamDecoder;
  private receivedBytes = false;
  private finished = false;

  constructor(
    private readonly attempt: Attempt,
    body: ReadableStream<Uint8Array>,
    config: CallConfig,
  ) {
    this.reader = body.getReader();
    this.decoder = new OpenAIStreamDecoder({ maxLineLength: config.maxLineLength, secrets: config.secrets, createId: config.createId });
  }

  /** The next non-empty batch, or `undefined` at the end. */
  async next(): Promise<ChatChunk[] | undefined> {
    while (!this.finished) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await Promise.race([this.reader.read(), this.attempt.aborted]);
      } catch (error) {
        this.stop();
        throw this.attempt.failure(error, 'read');
      }
      if (result.done) {
        this.finished = true;
        this.attempt.close();
        const last = this.decoder.end();
        if (last.length > 0) return last;
        return undefined;
      }
      if (!this.receivedBytes) this.receivedBytes = true;
      this.attempt.arm('idle');
      let batch: ChatChunk[];
      try {
        batch = this.decoder.push(result.value);
      } catch (error) {
        this.stop();
        throw error;
      }
      if (batch.length > 0) return batch;
    }
    return undefined;
  }

  stop(): void {
    this.finished = true;
    this.attempt.close();
    this.reader.cancel().catch(() => {});
  }
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
  return decodeCompletion(json, config.label, config.createId);
}
