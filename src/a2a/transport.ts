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
import { clampDelay } from '../internal/delay.js';
import { readBoundedBody } from '../internal/http-body.js';
import { redactURL } from '../internal/redact.js';
import { retry, type ResolvedRetryOptions, type RetryGuard } from '../internal/retry.js';
import { SSEParser, type SSEEvent } from '../wire/sse-decoder.js';
import { Attempt } from '../internal/attempt.js';
import { A2A_VERSION_HEADER, type A2AProtocolVersion } from './constants.js';
import { MAX_RESPONSE_BYTES, networkError, resultOf, streamItem, type AnswerContext } from './transport-response.js';

export interface TransportConfig {
  endpoint: string;
  version: A2AProtocolVersion;
  fetch: typeof fetch;
  headers: Record<string, string>;
  retry: ResolvedRetryOptions;
  /** The client's circuit breaker / retry budget, if any (one circuit per agent endpoint). */
  guard?: RetryGuard | undefined;
  /** A unary call, and a stream's first event. */
  timeoutMs: number;
  /** Between two events of a stream. */
  idleTimeoutMs: number;
  /** A whole stream, resubscriptions included (see {@link A2ATransport.streamScope}). */
  streamTimeoutMs: number;
  secrets: readonly string[];
}

/** Per limit: what did not happen in time (for its error message), and the option that sets it. */
const LIMITS: Record<A2ATimeoutLimit, readonly [string, 'timeoutMs' | 'idleTimeoutMs' | 'streamTimeoutMs']> = {
  call: ['no complete answer within', 'timeoutMs'],
  first_event: ['no first event within', 'timeoutMs'],
  idle: ['no event for', 'idleTimeoutMs'],
  total: ['the stream did not end within', 'streamTimeoutMs'],
};

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Safe to repeat (reads, cancels): retried on any retryable failure; otherwise only on 429/503. */
  idempotent: boolean;
  /** The W3C `traceparent` of the caller's span, sent so the remote's spans are its children. */
  traceparent?: string | undefined;
}

export class A2ATransport {
  private nextId = 0;

  constructor(readonly config: TransportConfig) {
    this.answer = { url: redactURL(config.endpoint), secrets: config.secrets };
  }

  /** The endpoint without credentials, and the secrets: what answers are decoded with. */
  private readonly answer: AnswerContext;

  private get url(): string {
    return this.answer.url;
  }

  private classify(idempotent: boolean) {
    return (error: unknown) => {
      if (!A2ATransportError.isInstance(error) || !error.retryable) return { retry: false };
      const safe = idempotent || error.status === 429 || error.status === 503;
      return { retry: safe, retryAfterMs: error.retryAfterMs };
    };
  }

  /** One JSON-RPC call; resolves with `result`. */
  async call(method: string, params: unknown, options: CallOptions): Promise<unknown> {
    return retry(
      async () => {
        const id = ++this.nextId;
        const attempt = new Attempt(options.signal, (controller) => this.timer(controller, method, 'call'));
        try {
          const response = await attempt.race(this.post(method, id, params, 'application/json', attempt.controller.signal, options.traceparent));
          const body = await attempt.race(readBoundedBody(attempt.body(response), MAX_RESPONSE_BYTES));
          return resultOf(this.answer, body, response, method, id);
        } catch (error) {
          throw this.failure(error, attempt.controller, options.signal, method);
        } finally {
          attempt.close();
        }
      },
      { options: this.config.retry, signal: options.signal, classify: this.classify(options.idempotent), guard: this.config.guard },
    );
  }

  /**
   * The scope of one logical stream, resubscriptions included: an attempt linked to the caller's signal whose only
   * timer is the total limit (`streamTimeoutMs`). Pass its signal to each {@link stream} of it; close it at the end.
   */
  streamScope(signal: AbortSignal | undefined, method: string): Attempt {
    return new Attempt(signal, (controller) => this.timer(controller, method, 'total'));
  }

  /**
   * A streaming call: yields each `result` of the SSE stream (or the single result of a JSON answer). Retried only
   * until the first result; a JSON-RPC error inside the stream ends it with a `JSONRPCError`. Its first-event limit
   * ends at the first SSE event; from then on the idle limit is re-armed by each event, and by nothing else.
   */
  async *stream(method: string, params: unknown, options: CallOptions): AsyncGenerator<unknown, void, undefined> {
    type Opened = { attempt: Attempt; single?: unknown; first?: IteratorResult<unknown>; events?: AsyncGenerator<unknown, void, undefined> };
    let current: Attempt | undefined;
    try {
      const opened: Opened = await retry(
        async () => {
          const id = ++this.nextId;
          const attempt: Attempt = new Attempt(options.signal, (controller) => this.timer(controller, method, 'first_event'));
          current = attempt;
          try {
            const response = await attempt.race(this.post(method, id, params, 'text/event-stream', attempt.controller.signal, options.traceparent));
            if (!response.ok || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
              const body = await attempt.race(readBoundedBody(attempt.body(response), MAX_RESPONSE_BYTES));
              return { attempt, single: resultOf(this.answer, body, response, method, id) };
            }
            if (!response.body) throw new SerializeError(`The A2A stream from ${this.url} has no body`, { subject: 'A2A stream' });
            const events = this.events(response.body, attempt, method, id);
            return { attempt, first: await events.next(), events };
          } catch (error) {
            const failure = this.failure(error, attempt.controller, options.signal, method);
            attempt.close();
            throw failure;
          }
        },
        { options: this.config.retry, signal: options.signal, classify: this.classify(options.idempotent), guard: this.config.guard },
      );
      if (!opened.events) {
        yield opened.single;
        return;
      }
      if (opened.first?.done) return;
      yield opened.first?.value;
      for (;;) {
        let next: IteratorResult<unknown>;
        try {
          next = await opened.events.next();
        } catch (error) {
          throw this.failure(error, opened.attempt.controller, options.signal, method);
        }
        if (next.done) return;
        yield next.value;
      }
    } finally {
      current?.close();
    }
  }

  private async *events(body: ReadableStream<Uint8Array>, attempt: Attempt, method: string, id: number): AsyncGenerator<unknown, void, undefined> {
    const reader = body.getReader();
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true }); // the SSE parser strips the one BOM the spec allows
    const queue: SSEEvent[] = [];
    const parser = new SSEParser({ onEvent: (event) => queue.push(event) });
    let ended = false;
    let broken: { error: unknown } | undefined;
    try {
      for (;;) {
        while (queue.length > 0) yield streamItem(this.answer, queue.shift() as SSEEvent, method, id);
        // A bound broken (StreamError line_too_long): the events completed before it are delivered first.
        if (broken) throw broken.error;
        if (ended) return;
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await attempt.race(reader.read());
        } catch (error) {
          if (attempt.controller.signal.aborted) throw attempt.controller.signal.reason;
          throw networkError(`The A2A stream from ${this.url} dropped`, this.url, error, this.config.secrets, method);
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
        if (!ended && queue.length > 0) attempt.rearm(() => this.timer(attempt.controller, method, 'idle'));
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  private post(method: string, id: number, params: unknown, accept: string, signal: AbortSignal, traceparent: string | undefined): Promise<Response> {
    const headers: Record<string, string> = { ...this.config.headers, 'content-type': 'application/json', accept, [A2A_VERSION_HEADER]: this.config.version };
    if (traceparent !== undefined) headers.traceparent = traceparent;
    return this.config.fetch(this.config.endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      signal,
    });
  }

  /**
   * Arms `limit` on `controller` (nothing for an infinite one). Its error names the limit and the option that sets it;
   * only the call and first-event limits are retryable.
   */
  private timer(controller: AbortController, method: string, limit: A2ATimeoutLimit): ReturnType<typeof setTimeout> | undefined {
    const [what, option] = LIMITS[limit];
    const ms = this.config[option];
    if (!Number.isFinite(ms)) return undefined;
    return setTimeout(
      () =>
        controller.abort(
          new A2ATransportError(`A2A ${method} to ${this.url} timed out: ${what} ${ms} ms (${limit} limit, ${option})`, {
            reason: 'timeout',
            timeout: limit,
            url: this.url,
            method,
            retryable: limit === 'call' || limit === 'first_event',
          }),
        ),
      clampDelay(ms),
    );
  }

  /** The error the caller sees: the abort reason, a timeout, or a typed failure. */
  private failure(error: unknown, controller: AbortController, userSignal: AbortSignal | undefined, method: string): unknown {
    if (userSignal?.aborted) return userSignal.reason;
    if (controller.signal.aborted && A2ATransportError.isInstance(controller.signal.reason)) return controller.signal.reason;
    if (A2ATransportError.isInstance(error) || JSONRPCError.isInstance(error) || SerializeError.isInstance(error) || StreamError.isInstance(error)) return error;
    return networkError(`A2A request to ${this.url} failed`, this.url, error, this.config.secrets, method);
  }
}
