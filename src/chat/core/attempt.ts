/**
 * One HTTP attempt of a model call and the scope around all attempts: the caller's signal and total timeout
 * (`CallScope`) and per-attempt first-chunk and idle timers (`Attempt`), for every provider. Only progress — an SSE event — ends the first-chunk limit and re-arms the idle one: a provider
 * that sends keep-alive comments, blank lines or a line that never ends times out all the same. Every failure is
 * mapped to a typed error; an abort surfaces as its reason.
 */
import { ChatClientError, type ChatTimeoutLimit } from '../../errors/chat-client-error.js';
import { StreamError } from '../../errors/stream-error.js';
import { AbortRace, clampDelay, linkedController } from '../../internal/delay.js';
import { messageOf } from '../../internal/error-chain.js';
import { describeBytes, readBoundedBody, type BoundedText } from '../../internal/http-body.js';
import { redactError, redactText } from '../../internal/redact.js';
import type { RetryDecision } from '../../internal/retry.js';
import { chatErrorFromResponse } from './chat-error-from-response.js';
import { isFallbackWorthy } from './fallback-worthy.js';
import type { CallConfig } from './call.js';

/** Bound on a non-streamed answer. */
export const MAX_COMPLETION_BYTES = 32 * 1024 * 1024;

/** `partial`: bytes arrived since the last progress, but no event (keep-alives, blank lines, part of a line or body). */
function timeoutError(config: CallConfig, limit: ChatTimeoutLimit, attempt: number, partial = false): ChatClientError {
  const ms = limit === 'total' ? config.timeouts.totalMs : limit === 'idle' ? config.timeouts.idleMs : config.timeouts.firstChunkMs;
  const only = partial ? ', only keep-alives or unfinished data' : '';
  const what =
    limit === 'total'
      ? `did not complete within the total limit of ${ms} ms`
      : limit === 'idle'
        ? `sent ${partial ? 'no event' : 'nothing'} for ${ms} ms mid-stream${only} (idle timeout)`
        : `sent no ${partial ? 'complete ' : ''}first chunk within ${ms} ms${only} (first-chunk timeout)`;
  return new ChatClientError(`${config.label} ${what}`, {
    reason: 'timeout',
    timeout: limit,
    retryable: limit === 'first_chunk',
    attempts: attempt,
    model: config.model,
  });
}

/** The caller's signal plus the total time limit; maps any failure to what the caller should see. */
export class CallScope {
  readonly controller: AbortController;
  private readonly detach: () => void;
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  attempt = 0;

  constructor(
    config: CallConfig,
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

/** Retry exactly what a fallback would move on from, honouring the provider's `Retry-After`. */
export function classify(error: unknown): RetryDecision {
  return { retry: isFallbackWorthy(error), retryAfterMs: ChatClientError.isInstance(error) ? error.retryAfterMs : undefined };
}

/** One HTTP attempt: its own controller (so a timeout can cancel just this attempt) and its timer. */
export class Attempt {
  readonly controller: AbortController;
  private readonly detach: () => void;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly racer: AbortRace;
  /** Bytes arrived since the timer was armed, but no progress: what a timeout error then says. */
  partial = false;

  constructor(
    private readonly config: CallConfig,
    scope: CallScope,
    readonly number: number,
  ) {
    const { controller, dispose } = linkedController(scope.controller.signal);
    this.controller = controller;
    this.detach = dispose;
    this.racer = new AbortRace(controller.signal);
    this.arm('first_chunk');
  }

  /**
   * `promise`, or this attempt's abort reason when it aborts first (a limit, the caller). Leak-free in a read loop: a
   * settled race keeps nothing (see `AbortRace`).
   */
  race<T>(promise: Promise<T>): Promise<T> {
    return this.racer.race(promise);
  }

  /** (Re)starts the timer for `limit`: `first_chunk` when the attempt starts, `idle` at each SSE event after that. */
  arm(limit: 'first_chunk' | 'idle'): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    const ms = limit === 'idle' ? this.config.timeouts.idleMs : this.config.timeouts.firstChunkMs;
    this.partial = false;
    this.timer = Number.isFinite(ms) ? setTimeout(() => this.controller.abort(timeoutError(this.config, limit, this.number, this.partial)), clampDelay(ms)) : undefined;
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
      response = await this.race(
        this.config.fetch(this.config.url, {
          method: 'POST',
          headers: { ...this.config.headers, 'content-type': 'application/json', accept },
          body,
          signal: this.controller.signal,
        }),
      );
    } catch (error) {
      const failure = this.failure(error, 'fetch');
      this.close();
      throw failure;
    }
    if (!response.ok) {
      try {
        throw await this.race(chatErrorFromResponse(response, { ...this.config, attempts: this.number }, this.body(response)));
      } finally {
        this.close();
      }
    }
    return response;
  }

  /** Reads a whole (bounded) body, still under this attempt's timers. */
  async text(response: Response): Promise<string> {
    let body: BoundedText;
    try {
      body = await this.race(readBoundedBody(this.body(response), MAX_COMPLETION_BYTES));
    } catch (error) {
      throw this.failure(error, 'read');
    } finally {
      this.close();
    }
    if (body.exceeded) {
      throw new ChatClientError(`${this.config.label} answered with a body over the ${describeBytes(MAX_COMPLETION_BYTES)} limit`, {
        reason: 'invalid_response',
        retryable: false,
        attempts: this.number,
        model: this.config.model,
      });
    }
    return body.text;
  }

  /**
   * The body of `response`, cancelled when this attempt aborts: a limit that fires while a body trickles in releases
   * the connection (not every `fetch` ends a body that is being read when its signal aborts).
   */
  private body(response: Response): Pick<Response, 'body' | 'bodyUsed'> {
    if (!response.body || response.bodyUsed) return response;
    const noting = new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
      transform: (bytes, controller) => {
        this.partial = true;
        controller.enqueue(bytes);
      },
    });
    return { body: response.body.pipeThrough(noting, { signal: this.controller.signal }), bodyUsed: false };
  }

  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.racer.dispose();
    this.detach();
  }
}
