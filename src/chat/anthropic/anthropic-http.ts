/**
 * @internal The HTTP side of an Anthropic call, on top of the shared attempt machinery (`Attempt`: per-attempt
 * controller and first-chunk/idle timers): sending the request, mapping a non-2xx answer to a `ChatClientError`
 * that keeps Anthropic's error `type` as `code` (529 `overloaded_error` retryable like 429, with `retry-after`),
 * and reading the stream in batches, where only an SSE event counts as progress.
 * @see https://docs.anthropic.com/en/api/errors
 */
import { ChatClientError } from '../../errors/chat-client-error.js';
import { parseProviderError, readBoundedBody, requestIdOf } from '../../internal/http-body.js';
import { isRetryableStatus, statusText } from '../../internal/http-status.js';
import { parseRetryAfter } from '../../internal/retry-after.js';
import type { Attempt } from '../openai-attempt.js';
import type { CallConfig } from '../call.js';
import type { ChatChunk } from '../types.js';
import { AnthropicStreamDecoder } from './anthropic-stream-decoder.js';

/** Anthropic's overload status (`overloaded_error`): transient, retried like 429 and 5xx. */
const OVERLOADED = 529;

/**
 * A non-2xx answer as a `ChatClientError`: status, retryable (408/409/429/5xx and 529), `retry-after`, the
 * `request-id`, and the provider's message and error `type` (kept as `code`), credentials removed.
 */
export async function anthropicErrorFromResponse(response: Response, config: CallConfig, attempt: number, signal: AbortSignal): Promise<ChatClientError> {
  const provider = parseProviderError((await readBoundedBody(response, undefined, { signal })).text, config.secrets);
  const said = provider.message ?? (provider.text === '' ? undefined : provider.text);
  const status = response.status;
  return new ChatClientError(`${config.label} returned ${statusText(status, status === OVERLOADED ? 'Overloaded' : response.statusText)}${said ? `: ${said}` : ''}`, {
    status,
    retryable: status === OVERLOADED || isRetryableStatus(status),
    retryAfterMs: parseRetryAfter(response.headers),
    requestId: requestIdOf(response.headers, config.secrets),
    providerMessage: provider.message,
    code: provider.type ?? provider.code,
    model: config.model,
    attempts: attempt,
  });
}

/**
 * Sends one attempt's request (the shared `Attempt.send`, with Anthropic's error mapping): network failures and
 * timeouts as the attempt maps them, a non-2xx answer as {@link anthropicErrorFromResponse}.
 */
export async function sendAttempt(attempt: Attempt, config: CallConfig, body: string, accept: string): Promise<Response> {
  let response: Response;
  try {
    response = await Promise.race([
      config.fetch(config.url, { method: 'POST', headers: { ...config.headers, 'content-type': 'application/json', accept }, body, signal: attempt.controller.signal }),
      attempt.aborted,
    ]);
  } catch (error) {
    const failure = attempt.failure(error, 'fetch');
    attempt.close();
    throw failure;
  }
  if (!response.ok) {
    try {
      throw await Promise.race([anthropicErrorFromResponse(response, config, attempt.number, attempt.controller.signal), attempt.aborted]);
    } finally {
      attempt.close();
    }
  }
  return response;
}

/** Reads a streamed answer in batches of chunks (the shared `StreamReader`, with the Anthropic decoder). */
export class AnthropicStreamReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder: AnthropicStreamDecoder;
  private finished = false;
  private ended = false;

  constructor(
    private readonly attempt: Attempt,
    response: Response & { body: ReadableStream<Uint8Array> },
    config: CallConfig,
  ) {
    this.reader = response.body.getReader();
    this.decoder = new AnthropicStreamDecoder({
      maxLineLength: config.maxLineLength,
      secrets: config.secrets,
      label: config.label,
      model: config.model,
      requestId: requestIdOf(response.headers, config.secrets),
      attempt: attempt.number,
    });
  }

  /** The next non-empty batch, or `undefined` at the end. */
  async next(): Promise<ChatChunk[] | undefined> {
    while (!this.finished) {
      try {
        this.decoder.throwIfPending();
      } catch (error) {
        this.stop();
        throw error;
      }
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await Promise.race([this.reader.read(), this.attempt.aborted]);
      } catch (error) {
        this.stop();
        throw this.attempt.failure(error, 'read');
      }
      if (result.done) {
        this.finished = true;
        this.ended = true;
        this.attempt.close();
        const last = this.decoder.end();
        return last.length > 0 ? last : undefined;
      }
      const events = this.decoder.events;
      let batch: ChatChunk[];
      try {
        batch = this.decoder.push(result.value);
      } catch (error) {
        this.stop();
        throw error;
      }
      // Progress is an SSE event (ping included): comments, blank lines and parts of a line re-arm nothing.
      if (this.decoder.events > events) this.attempt.arm('idle');
      else this.attempt.partial = true;
      if (batch.length > 0) return batch;
    }
    if (this.ended) this.decoder.throwIfPending(); // a failure after the last chunks of the body (no message_stop)
    return undefined;
  }

  stop(): void {
    this.finished = true;
    this.attempt.close();
    this.reader.cancel().catch(() => {});
  }
}
