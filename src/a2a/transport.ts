/**
 * JSON-RPC over HTTP for the A2A client: unary calls and SSE streams, with retries before any output, time limits —
 * a unary call, a stream's first event, the time between two events, a whole stream — that only progress resets (an
 * SSE event, never a comment, a blank line or part of a line), and every failure typed: `A2ATransportError` (no
 * answer, a limit that fired, or a non-2xx answer that is not a JSON-RPC response — status and headers kept),
 * `JSONRPCError` (a JSON-RPC error, also inside a stream), `SerializeError` (not JSON, not a JSON-RPC response, an id
 * mismatch). An abort surfaces as its reason.
 */
import { A2ATransportError, type A2ATimeoutLimit } from '../errors/a2a-transport-error.js';
import { JSONRPCError } from '../errors/jsonrpc-error.js';
import { StreamError } from '../errors/stream-error.js';
import { SerializeError } from '../errors/serialize-error.js';
import { startTimer } from '../internal/delay.js';
import { readBody } from '../internal/http-body.js';
import { NO_REDIRECTS } from '../internal/http-status.js';
import type { URLView } from '../internal/redact.js';
import { resolveRetryOptions, retry } from '../internal/retry.js';
import { dependencyOf, resilienceGuard } from '../resilience/guard.js';
import type { AgentEndpoint } from './agent-card.js';
import type { A2AClientOptions } from './client-options.js';
import { SSEParser, type SSEEvent } from '../wire/sse-decoder.js';
import { Attempt, attemptBody, rearmAttempt } from '../internal/attempt.js';
import { A2A_VERSION_HEADER } from './constants.js';
import { encodeParams, requestBody } from '../wire/jsonrpc-request.js';
import { MAX_RESPONSE_BYTES, networkError, resultOf, streamItem, type AnswerContext } from './transport-response.js';

/**
 * Per limit: what did not happen in time (for its error message), the option that sets it, and its default (the
 * option's documented one).
 */
const LIMITS: Record<A2ATimeoutLimit, readonly [string, 'timeoutMs' | 'idleTimeoutMs' | 'streamTimeoutMs', number]> = {
  call: ['no complete answer within', 'timeoutMs', 60_000],
  first_event: ['no first event within', 'timeoutMs', 60_000],
  idle: ['no event for', 'idleTimeoutMs', 300_000],
  total: ['the stream did not end within', 'streamTimeoutMs', 1_800_000],
};

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Safe to repeat (reads, cancels): retried on any retryable failure; otherwise only on 429/503. */
  idempotent: boolean;
  /** The W3C `traceparent` of the caller's span, sent so the remote's spans are its children. */
  traceparent?: string | undefined;
  /**
   * A unary call: asks for JSON, reads the answer as one JSON-RPC response whatever its content type, under the call
   * limit (`timeoutMs`) instead of the first-event one.
   */
  unary?: boolean | undefined;
}

/** The A2A client's JSON-RPC transport to one endpoint (see {@link createTransport}). */
export interface A2ATransport {
  /**
   * The scope of one call, a logical stream's resubscriptions included: an attempt linked to the caller's signal
   * whose only timer is a stream's total limit (`streamTimeoutMs`; none for a unary call). Pass its signal to each
   * {@link A2ATransport.stream} of it; close it at the end.
   */
  scope(signal: AbortSignal | undefined, method: string, unary: boolean): Attempt;
  /**
   * A call: yields each `result` of the SSE stream (or the single result of a JSON answer, which a unary call always
   * reads). Retried only until the first result; a JSON-RPC error inside the stream ends it with a `JSONRPCError`.
   * Its first-event limit ends at the first SSE event; from then on the idle limit is re-armed by each event, and by
   * nothing else. A unary call's limit (`call`) covers its whole answer.
   */
  stream(method: string, params: unknown, options: CallOptions): AsyncGenerator<unknown, void, undefined>;
}

/**
 * The transport of `endpoint` for a client of `settings` (its headers, copied now; its retries; its circuit breaker /
 * retry budget, one circuit per endpoint as shown; its time limits), calling `fetch`, keeping `secrets` out of every
 * error; errors name the endpoint as `view` shows it (its credentials masked).
 * Closures, not a class: their names minify, class members would not.
 */
export function createTransport(endpoint: AgentEndpoint, view: URLView, settings: A2AClientOptions, fetch: typeof globalThis.fetch, secrets: readonly string[]): A2ATransport {
  let nextId = 0;
  const headers = { ...settings.headers };
  const retryOptions = resolveRetryOptions(settings.retry);
  const guard = resilienceGuard(dependencyOf(view), settings);
  /** The endpoint as shown (`view`: its credentials masked), and the secrets: what answers are decoded with. */
  const answer: AnswerContext = { url: view.url, secrets };
  const { url } = answer;

  /**
   * Arms `limit` on `controller` (nothing for an infinite one). Its error names the limit and the option that sets it;
   * only the call and first-event limits are retryable.
   */
  const timer = (controller: AbortController, method: string, limit: A2ATimeoutLimit): ReturnType<typeof setTimeout> | undefined => {
    const [what, option, fallback] = LIMITS[limit];
    const ms = settings[option] ?? fallback;
    if (!Number.isFinite(ms)) return undefined;
    return startTimer(
      () =>
        controller.abort(
          new A2ATransportError(`A2A ${method} to ${url} timed out: ${what} ${ms} ms (${limit} limit, ${option})`, {
            reason: 'timeout',
            timeout: limit,
            url,
            method,
            retryable: limit === 'call' || limit === 'first_event',
          }),
        ),
      ms,
    );
  };

  /** The error the caller sees: the abort reason, a timeout (the attempt's `signal` aborted), or a typed failure. */
  const failure = (error: unknown, signal: AbortSignal, userSignal: AbortSignal | undefined, method: string): unknown => {
    if (userSignal?.aborted) return userSignal.reason;
    if (signal.aborted && A2ATransportError.isInstance(signal.reason)) return signal.reason;
    if (A2ATransportError.isInstance(error) || JSONRPCError.isInstance(error) || SerializeError.isInstance(error) || StreamError.isInstance(error)) return error;
    return networkError(`A2A request to ${url} failed`, url, error, secrets, method);
  };

  /**
   * Attempts of one request until one succeeds or a failure is not retried: each POSTs the call under its own attempt
   * (its limit: `limit`) and hands the answer to `read`. The attempt is closed on failure; on success only when `read`
   * says so (a stream keeps it open while it is read).
   */
  const attempts = <T>(
    method: string,
    params: unknown,
    options: CallOptions,
    accept: string,
    limit: A2ATimeoutLimit,
    read: (response: Response, attempt: Attempt, id: number) => Promise<T>,
  ): Promise<T> => {
    const encoded = encodeParams(`A2A ${method} request to ${url}`, params, secrets);
    return retry(
      async () => {
        const id = ++nextId;
        const attempt = new Attempt(options.signal, (controller) => timer(controller, method, limit));
        try {
          const sent: Record<string, string> = { ...headers, 'content-type': 'application/json', accept, [A2A_VERSION_HEADER]: endpoint.version };
          if (options.traceparent !== undefined) sent.traceparent = options.traceparent;
          const response = await attempt.race(
            fetch(endpoint.url, { method: 'POST', headers: sent, body: requestBody(id, method, encoded), signal: attempt.signal, redirect: NO_REDIRECTS }),
          );
          return await read(response, attempt, id);
        } catch (error) {
          const thrown = failure(error, attempt.signal, options.signal, method);
          attempt.close();
          throw thrown;
        }
      },
      {
        options: retryOptions,
        signal: options.signal,
        // Safe to repeat (reads, cancels): retried on any retryable failure; otherwise only on 429/503.
        classify: (error) =>
          A2ATransportError.isInstance(error) && error.retryable
            ? { retry: options.idempotent || error.status === 429 || error.status === 503, retryAfterMs: error.retryAfterMs }
            : { retry: false },
        guard,
      },
    );
  };

  /** The whole unary answer, bounded, decoded. */
  const unary = async (response: Response, attempt: Attempt, method: string, id: number): Promise<unknown> =>
    resultOf(answer, await attempt.race(readBody(attemptBody(attempt, response), MAX_RESPONSE_BYTES)), response, method, id);

  async function* events(body: ReadableStream<Uint8Array>, attempt: Attempt, method: string, id: number): AsyncGenerator<unknown, void, undefined> {
    const reader = body.getReader();
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true }); // the SSE parser strips the one BOM the spec allows
    const queue: SSEEvent[] = [];
    // One bound for an answer, streamed or not: an event may be as large as a unary answer (a line, its field name more).
    const parser = new SSEParser({ onEvent: (event) => queue.push(event), maxEventLength: MAX_RESPONSE_BYTES, maxLineLength: MAX_RESPONSE_BYTES + 16 });
    let ended = false;
    let broken: { error: unknown } | undefined;
    try {
      for (;;) {
        while (queue.length > 0) yield streamItem(answer, queue.shift() as SSEEvent, method, id);
        // A bound broken (StreamError line_too_long): the events completed before it are delivered first.
        if (broken) throw broken.error;
        if (ended) return;
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await attempt.race(reader.read());
        } catch (error) {
          if (attempt.signal.aborted) throw attempt.signal.reason;
          throw networkError(`The A2A stream from ${url} dropped`, url, error, secrets, method);
        }
        ended = chunk.done;
        try {
          if (chunk.done) {
            parser.feed(decoder.decode());
            parser.end();
          } else {
            parser.feed(decoder.decode(chunk.value, { stream: true }));
          }
        } catch (error) {
          broken = { error };
          continue;
        }
        // Progress is an SSE event: comments (keep-alives), blank lines and parts of a line re-arm nothing.
        if (!ended && queue.length > 0) rearmAttempt(attempt, () => timer(attempt.controller, method, 'idle'));
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  return {
    scope: (signal, method, unary) => new Attempt(signal, (controller) => (unary ? undefined : timer(controller, method, 'total'))),

    async *stream(method, params, options) {
      let current: Attempt | undefined;
      try {
        const { unary: once } = options;
        // The first result, and the events after it (none after a JSON answer); `current` is the attempt that gave them.
        type Opened = [first: { done?: boolean; value: unknown }, rest?: AsyncGenerator<unknown, void, undefined>];
        const [first, rest] = await attempts<Opened>(method, params, options, once ? 'application/json' : 'text/event-stream', once ? 'call' : 'first_event', async (response, attempt, id) => {
          current = attempt;
          if (once || !response.ok || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) return [{ value: await unary(response, attempt, method, id) }];
          if (!response.body) throw new SerializeError(`The A2A stream from ${url} has no body`, { subject: 'A2A stream' });
          const stream = events(response.body, attempt, method, id);
          return [await stream.next(), stream];
        });
        if (first.done) return;
        yield first.value;
        while (rest) {
          let next: IteratorResult<unknown>;
          try {
            next = await rest.next();
          } catch (error) {
            throw failure(error, (current as Attempt).signal, options.signal, method);
          }
          if (next.done) return;
          yield next.value;
        }
      } finally {
        current?.close();
      }
    },
  };
}
