/**
 * @internal The mechanics of one Anthropic call, as the OpenAI-compatible client does them and with its shared
 * parts (`CallScope`: caller's signal and total timeout; `Attempt`: first-chunk and idle timers; `classify`: retry
 * exactly what a fallback would move on from; the shared retry loop): retries only until the first batch reached
 * the caller, a failure after output marked `afterOutput`, a user abort surfacing as `signal.reason`.
 */
import { ChatClientError } from '../../errors/chat-client-error.js';
import { StreamError } from '../../errors/stream-error.js';
import { describeError } from '../../internal/error-json.js';
import { read } from '../../internal/error-chain.js';
import { redactText } from '../../internal/redact.js';
import { retry, type RetryNotice } from '../../internal/retry.js';
import { responseChunks } from '../collect-chat-stream.js';
import { Attempt, CallScope, classify } from '../openai-attempt.js';
import type { CallConfig } from '../openai-call.js';
import type { ChatChunk, ChatRequest, ChatResponse } from '../types.js';
import { AnthropicStreamReader, sendAttempt } from './anthropic-http.js';
import { decodeMessage, excerpt } from './anthropic-message.js';

function afterOutput(error: unknown): unknown {
  if (StreamError.isInstance(error) && !error.afterOutput) {
    return new StreamError(error.message, { reason: error.reason, afterOutput: true, chunk: error.chunk, code: error.code, cause: error.cause });
  }
  return error;
}

function notify(request: ChatRequest): (notice: RetryNotice) => void {
  return (notice) =>
    request.onRetry?.({ attempt: notice.attempt, delayMs: notice.delayMs, fromRetryAfter: notice.fromRetryAfter, error: describeError(notice.error) as Record<string, unknown> });
}

/** A streamed call: batches of chunks; retried only until the first batch reaches the caller. */
export async function* streamAnthropic(config: CallConfig, request: ChatRequest, body: string, cancel: { scope?: CallScope }): AsyncGenerator<ChatChunk[], void, undefined> {
  const scope = new CallScope(config, request.signal);
  cancel.scope = scope;
  let reader: AnthropicStreamReader | undefined;
  try {
    const first = await retry(
      async (number) => {
        scope.attempt = number;
        const attempt = new Attempt(config, scope, number);
        const response = await sendAttempt(attempt, config, body, 'text/event-stream');
        if ((response.headers.get('content-type') ?? '').includes('application/json')) {
          // A proxy that ignored `stream: true`: the whole Message, as the chunks a stream of it would have given.
          return { chunks: responseChunks(parseMessage(await attempt.text(response), config)), reader: undefined };
        }
        if (!response.body) {
          attempt.close();
          throw new ChatClientError(`${config.label} answered without a body`, { reason: 'invalid_response', retryable: false, attempts: number });
        }
        const streamReader = new AnthropicStreamReader(attempt, response as Response & { body: ReadableStream<Uint8Array> }, config);
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
export async function completeAnthropic(config: CallConfig, request: ChatRequest, body: string): Promise<ChatResponse> {
  const scope = new CallScope(config, request.signal);
  try {
    return await retry(
      async (number) => {
        scope.attempt = number;
        const attempt = new Attempt(config, scope, number);
        const response = await sendAttempt(attempt, config, body, 'application/json');
        return parseMessage(await attempt.text(response), config);
      },
      { options: config.retry, signal: scope.controller.signal, classify, onRetry: notify(request) },
    );
  } catch (error) {
    throw scope.surface(error);
  } finally {
    scope.close();
  }
}

/** A 2xx JSON body: a Message, or an error object some gateways answer with 200. */
function parseMessage(text: string, config: CallConfig): ChatResponse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ChatClientError(`${config.label} answered with a body that is not JSON: ${redactText(text.slice(0, 200), config.secrets)}`, { reason: 'invalid_response', retryable: false, cause: error });
  }
  if (read(json, 'type') === 'error') {
    const detail = read(json, 'error');
    const message = read(detail, 'message');
    const type = read(detail, 'type');
    throw new ChatClientError(`${config.label} answered with an error: ${excerpt(typeof message === 'string' ? message : text, config.secrets, 500)}`, {
      reason: 'invalid_response',
      retryable: false,
      code: typeof type === 'string' ? excerpt(type, config.secrets, 100) : undefined,
    });
  }
  return decodeMessage(json, config.label, config.secrets);
}
