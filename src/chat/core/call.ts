/**
 * The mechanics of one model call over HTTP, for every provider: the call scope (caller's signal + total timeout),
 * attempts with first-chunk (until the first SSE event) and idle (between events) timeouts, retries only before any
 * output reached the caller (decisions.md point 12), and the mapping of every failure to a typed error. A user abort
 * always surfaces as `signal.reason`, unwrapped. What differs per provider is its `CallProtocol`.
 */
import { ChatClientError } from '../../errors/chat-client-error.js';
import { StreamError } from '../../errors/stream-error.js';
import { describeError } from '../../internal/error-json.js';
import { truncate } from '../../internal/json.js';
import { quietCall } from '../../internal/quiet-call.js';
import { requestIdOf } from '../../internal/http-body.js';
import { redactError, redactText } from '../../internal/redact.js';
import { retry, type RetryNotice } from '../../internal/retry.js';
import { Attempt, classify } from './attempt.js';
import { CallScope } from './call-scope.js';
import { abortParentOf } from './request-abort.js';
import { responseChunks } from './collect-chat-stream.js';
import { StreamReader, type StreamDecoder } from './stream-reader.js';
import type { ChatChunk, ChatRequest, ChatResponse } from './types.js';
import type { CallConfig } from './call-config.js';

export type { CallConfig, ChatTimeouts } from './call-config.js';

function afterOutput(error: unknown): unknown {
  if (StreamError.isInstance(error) && !error.afterOutput) {
    return new StreamError(error.message, { reason: error.reason, afterOutput: true, chunk: error.chunk, code: error.code, cause: error.cause });
  }
  return error;
}

/**
 * What differs between providers in one call: how a whole JSON answer is read and how a stream's events become
 * chunks. Everything else — sending, the HTTP error mapping, the scope, retries only before output, the timers, the
 * batched reading, typed failures — is shared by every provider.
 */
export interface CallProtocol {
  /** A 2xx JSON answer (`complete()`, or a proxy that ignored `stream: true`) as a response; throws a typed error. */
  parse(text: string, config: CallConfig): ChatResponse;
  /** The decoder of one attempt's event stream. */
  decoder(config: CallConfig, requestId: string | undefined, attempt: number): StreamDecoder;
}

/**
 * A 2xx body as JSON, or the typed failure of a body that is not JSON (an excerpt, credentials removed): the first step
 * of every protocol's `parse`.
 */
export function parseJsonBody(text: string, config: CallConfig): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ChatClientError(`${config.label} answered with a body that is not JSON: ${truncate(redactText(text.slice(0, 4096), config.secrets), 200)}`, {
      reason: 'invalid_response',
      retryable: false,
      cause: redactError(error, config.secrets), // V8 quotes the body's start
    });
  }
}

function parsed(protocol: CallProtocol, text: string, config: CallConfig, requestId: string | undefined): ChatResponse {
  const response = protocol.parse(text, config);
  if (requestId !== undefined) response.requestId = requestId;
  return response;
}

function notify(request: ChatRequest): (notice: RetryNotice) => void {
  return (notice) =>
    quietCall(request.onRetry, {
      attempt: notice.attempt,
      delayMs: notice.delayMs,
      fromRetryAfter: notice.fromRetryAfter,
      error: describeError(notice.error) as Record<string, unknown>,
      ...(notice.budgetExhausted ? { budgetExhausted: true } : {}),
    });
}

/** A streamed call: batches of chunks; retried only until the first batch reaches the caller. */
export async function* streamCall(
  config: CallConfig,
  request: ChatRequest,
  body: string,
  cancel: { scope?: CallScope },
  protocol: CallProtocol,
): AsyncGenerator<ChatChunk[], void, undefined> {
  const scope = new CallScope(config, abortParentOf(request));
  cancel.scope = scope;
  let reader: StreamReader | undefined;
  try {
    const first = await retry(
      async (number) => {
        scope.attempt = number;
        const attempt = new Attempt(config, scope, number);
        const response = await attempt.send(body, 'text/event-stream');
        const requestId = requestIdOf(response.headers, config.secrets);
        if ((response.headers.get('content-type') ?? '').includes('application/json')) {
          // A proxy that ignored `stream: true`: the whole answer, as the chunks a stream of it would have given.
          return { chunks: responseChunks(parsed(protocol, await attempt.text(response), config, requestId)), reader: undefined };
        }
        if (!response.body) {
          attempt.close();
          throw new ChatClientError(`${config.label} answered without a body`, { reason: 'invalid_response', retryable: false, attempts: number });
        }
        const streamReader = new StreamReader(attempt, response.body, protocol.decoder(config, requestId, number), requestId);
        const batch = await streamReader.next();
        return { chunks: batch ?? [], reader: streamReader };
      },
      { options: config.retry, signal: () => scope.signal, classify, onRetry: notify(request), guard: config.guard },
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
  const scope = new CallScope(config, abortParentOf(request));
  try {
    return await retry(
      async (number) => {
        scope.attempt = number;
        const attempt = new Attempt(config, scope, number);
        const response = await attempt.send(body, 'application/json');
        return parsed(protocol, await attempt.text(response), config, requestIdOf(response.headers, config.secrets));
      },
      { options: config.retry, signal: () => scope.signal, classify, onRetry: notify(request), guard: config.guard },
    );
  } catch (error) {
    throw scope.surface(error);
  } finally {
    scope.close();
  }
}
