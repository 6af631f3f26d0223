/**
 * JSON-RPC over HTTP for the A2A client: unary calls and SSE streams, with retries before any output, per-call and
 * idle time limits, and every failure typed: `A2ATransportError` (no answer, or a non-2xx answer that is not a
 * JSON-RPC response — status and headers kept), `JSONRPCError` (a JSON-RPC error, also inside a stream),
 * `SerializeError` (not JSON, not a JSON-RPC response, an id mismatch). An abort surfaces as its reason.
 */
import { A2ATransportError } from '../errors/a2a-transport-error.js';
import { JSONRPCError } from '../errors/jsonrpc-error.js';
import { StreamError } from '../errors/stream-error.js';
import { SerializeError } from '../errors/serialize-error.js';
import { abortPromise, clampDelay, linkedController } from '../internal/delay.js';
import { messageOf, read } from '../internal/error-chain.js';
import { type BoundedText, describeBytes, readBoundedBody } from '../internal/http-body.js';
import { statusText } from '../internal/http-status.js';
import { isPlainObject, truncate } from '../internal/json.js';
import { redactError, redactHeaders, redactText, redactURL, redactValue } from '../internal/redact.js';
import { parseRetryAfter } from '../internal/retry-after.js';
import { retry, type ResolvedRetryOptions } from '../internal/retry.js';
import { SSEParser, type SSEEvent } from '../internal/sse-decoder.js';
import { A2A_VERSION_HEADER, type A2AProtocolVersion } from './constants.js';

/** Largest unary answer read. */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface TransportConfig {
  endpoint: string;
  version: A2AProtocolVersion;
  fetch: typeof fetch;
  headers: Record<string, string>;
  retry: ResolvedRetryOptions;
  timeoutMs: number;
  idleTimeoutMs: number;
  secrets: readonly string[];
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Safe to repeat (reads, cancels): retried on any retryable failure; otherwise only on 429/503. */
  idempotent: boolean;
}

export class A2ATransport {
  private nextId = 0;

  constructor(readonly config: TransportConfig) {}

  private get url(): string {
    return redactURL(this.config.endpoint);
  }

  private classify(idempotent: boolean) {
    return (error: unknown) => {
      if (!A2ATransportError.isInstance(error) || !error.retryable) return { retry: false };
      const safe = idempotent || error.status === 429 || error.status === 503;
      return { retry: safe, retryAfterMs: read(error, 'retryAfterMs') as number | undefined };
    };
  }

  /** One JSON-RPC call; resolves with `result`. */
  async call(method: string, params: unknown, options: CallOptions): Promise<unknown> {
    return retry(
      async () => {
        const id = ++this.nextId;
        const { controller, dispose } = linkedController(options.signal);
        const timer = this.timer(controller, method, 'call');
        const aborted = abortPromise(controller.signal);
        try {
          const response = await Promise.race([this.post(method, id, params, 'application/json', controller.signal), aborted.promise]);
          const body = await Promise.race([readBoundedBody(response, MAX_RESPONSE_BYTES), aborted.promise]);
          return this.resultOf(body, response, method, id);
        } catch (error) {
          throw this.failure(error, controller, options.signal, method);
        } finally {
          if (timer !== undefined) clearTimeout(timer);
          aborted.dispose();
          dispose();
        }
      },
      { options: this.config.retry, signal: options.signal, classify: this.classify(options.idempotent) },
    );
  }

  /**
   * A streaming call: yields each `result` of the SSE stream (or the single result of a JSON answer). Retried only
   * until the first result; a JSON-RPC error inside the stream ends it with a `JSONRPCError`.
   */
  async *stream(method: string, params: unknown, options: CallOptions): AsyncGenerator<unknown, void, undefined> {
    type Opened = { attempt: StreamAttempt; single?: unknown; first?: IteratorResult<unknown>; events?: AsyncGenerator<unknown, void, undefined> };
    let current: StreamAttempt | undefined;
    try {
      const opened: Opened = await retry(
        async () => {
          const id = ++this.nextId;
          const attempt: StreamAttempt = new StreamAttempt(options.signal, (controller) => this.timer(controller, method, 'first event'));
          current = attempt;
          try {
            const response = await Promise.race([this.post(method, id, params, 'text/event-stream', attempt.controller.signal), attempt.aborted]);
            if (!response.ok || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
              const body = await Promise.race([readBoundedBody(response, MAX_RESPONSE_BYTES), attempt.aborted]);
              return { attempt, single: this.resultOf(body, response, method, id) };
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
        { options: this.config.retry, signal: options.signal, classify: this.classify(options.idempotent) },
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

  private async *events(body: ReadableStream<Uint8Array>, attempt: StreamAttempt, method: string, id: number): AsyncGenerator<unknown, void, undefined> {
    const reader = body.getReader();
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true }); // the SSE parser strips the one BOM the spec allows
    const queue: SSEEvent[] = [];
    const parser = new SSEParser({ onEvent: (event) => queue.push(event) });
    try {
      for (;;) {
        while (queue.length > 0) yield this.streamItem(queue.shift() as SSEEvent, method, id);
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await Promise.race([reader.read(), attempt.aborted]);
        } catch (error) {
          if (attempt.controller.signal.aborted) throw attempt.controller.signal.reason;
          throw new A2ATransportError(`The A2A stream from ${this.url} dropped: ${redactText(messageOf(error), this.config.secrets)}`, {
            reason: 'network',
            url: this.url,
            method,
            cause: redactError(error, this.config.secrets),
          });
        }
        attempt.rearm(() => this.timer(attempt.controller, method, 'idle'));
        try {
          if (chunk.done) {
            parser.feed(decoder.decode());
            parser.end();
          } else {
            parser.feed(decoder.decode(chunk.value, { stream: true }));
          }
        } catch (error) {
          // A bound broken (StreamError line_too_long): the events completed before it are delivered first.
          while (queue.length > 0) yield this.streamItem(queue.shift() as SSEEvent, method, id);
          throw error;
        }
        if (chunk.done) {
          while (queue.length > 0) yield this.streamItem(queue.shift() as SSEEvent, method, id);
          return;
        }
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  private streamItem(event: SSEEvent, method: string, id: number): unknown {
    let envelope: unknown;
    try {
      envelope = JSON.parse(event.data);
    } catch (error) {
      throw new SerializeError(`The A2A stream from ${this.url} sent data that is not JSON: ${truncate(redactText(event.data, this.config.secrets), 200)}`, { subject: 'A2A stream event', cause: error });
    }
    return this.unwrap(envelope, method, id, true, 200);
  }

  private resultOf({ text, exceeded }: BoundedText, response: Response, method: string, id: number): unknown {
    if (exceeded && response.ok) {
      throw new SerializeError(`The A2A answer from ${this.url} to ${method} is over the ${describeBytes(MAX_RESPONSE_BYTES)} limit`, { subject: 'A2A response' });
    }
    let envelope: unknown;
    try {
      envelope = JSON.parse(text);
    } catch (error) {
      if (!response.ok) throw this.httpError(response, method, text);
      throw new SerializeError(`The A2A answer from ${this.url} is not JSON: ${truncate(redactText(text, this.config.secrets), 200)}`, { subject: 'A2A response', cause: error });
    }
    // A failed HTTP answer is JSON-RPC only when it says so; a gateway's `{"error": …}` body is an HTTP failure.
    if (!response.ok && !(isPlainObject(envelope) && envelope.jsonrpc === '2.0' && isPlainObject(envelope.error))) throw this.httpError(response, method, text);
    return this.unwrap(envelope, method, id, false, response.status);
  }

  private unwrap(envelope: unknown, method: string, id: number, inStream: boolean, status: number): unknown {
    if (!isPlainObject(envelope) || envelope.jsonrpc !== '2.0') {
      throw new SerializeError(`The A2A answer from ${this.url} is not a JSON-RPC 2.0 response`, {
        subject: 'A2A response',
        issues: [{ code: 'invalid_type', path: 'jsonrpc', message: 'expected "2.0"' }],
      });
    }
    const error = envelope.error;
    if (isPlainObject(error)) {
      const code = typeof error.code === 'number' ? error.code : -32603;
      const message = typeof error.message === 'string' ? error.message : 'Unknown JSON-RPC error';
      throw new JSONRPCError(code, redactText(message, this.config.secrets), { data: redactValue(error.data, this.config.secrets), method, status, inStream });
    }
    if (envelope.id !== undefined && envelope.id !== null && envelope.id !== id) {
      throw new SerializeError(`The A2A answer from ${this.url} has id ${JSON.stringify(envelope.id)}, not ${id}`, {
        subject: 'A2A response',
        issues: [{ code: 'invalid_value', path: 'id', message: `expected ${id}` }],
      });
    }
    if (!('result' in envelope)) {
      throw new SerializeError(`The A2A answer from ${this.url} has neither result nor error`, {
        subject: 'A2A response',
        issues: [{ code: 'invalid_type', path: 'result', message: 'expected a result' }],
      });
    }
    return envelope.result;
  }

  private httpError(response: Response, method: string, body: string): A2ATransportError {
    const said = body.trim() === '' ? '' : `: ${truncate(redactText(body.trim(), this.config.secrets), 300)}`;
    return Object.assign(
      new A2ATransportError(`A2A request to ${this.url} failed with ${statusText(response.status, response.statusText)}${said}`, {
        status: response.status,
        headers: redactHeaders(response.headers),
        url: this.url,
        method,
      }),
      { retryAfterMs: parseRetryAfter(response.headers) },
    );
  }

  private post(method: string, id: number, params: unknown, accept: string, signal: AbortSignal): Promise<Response> {
    return this.config.fetch(this.config.endpoint, {
      method: 'POST',
      headers: { ...this.config.headers, 'content-type': 'application/json', accept, [A2A_VERSION_HEADER]: this.config.version },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      signal,
    });
  }

  private timer(controller: AbortController, method: string, what: 'call' | 'first event' | 'idle'): ReturnType<typeof setTimeout> | undefined {
    const ms = what === 'idle' ? this.config.idleTimeoutMs : this.config.timeoutMs;
    if (!Number.isFinite(ms)) return undefined;
    return setTimeout(
      () =>
        controller.abort(
          new A2ATransportError(`A2A ${method} to ${this.url} timed out (${what === 'idle' ? `no event for ${ms} ms` : `${what} not received within ${ms} ms`})`, {
            reason: 'timeout',
            url: this.url,
            method,
            retryable: what !== 'idle',
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
    return new A2ATransportError(`A2A request to ${this.url} failed: ${redactText(messageOf(error), this.config.secrets)}`, {
      reason: 'network',
      url: this.url,
      method,
      cause: redactError(error, this.config.secrets),
    });
  }
}

/** One attempt of a streaming call: its own controller (a timeout cancels only this attempt) and its timer. */
class StreamAttempt {
  readonly controller: AbortController;
  readonly aborted: Promise<never>;
  private readonly detach: () => void;
  private readonly disposeAbort: () => void;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(signal: AbortSignal | undefined, arm: (controller: AbortController) => ReturnType<typeof setTimeout> | undefined) {
    const { controller, dispose } = linkedController(signal);
    this.controller = controller;
    this.detach = dispose;
    const abort = abortPromise(controller.signal);
    this.aborted = abort.promise;
    this.disposeAbort = abort.dispose;
    this.timer = arm(controller);
  }

  rearm(arm: () => ReturnType<typeof setTimeout> | undefined): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = arm();
  }

  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.disposeAbort();
    if (!this.controller.signal.aborted) this.controller.abort(new DOMException('The A2A stream was closed', 'AbortError'));
    this.detach();
  }
}
