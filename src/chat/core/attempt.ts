/**
 * One HTTP attempt of a model call and the scope around all attempts: the caller's signal and total timeout
 * (`CallScope`) and per-attempt first-chunk and idle timers (`Attempt`), for every provider. Only progress — an SSE event — ends the first-chunk limit and re-arms the idle one: a provider
 * that sends keep-alive comments, blank lines or a line that never ends times out all the same. Every failure is
 * mapped to a typed error; an abort surfaces as its reason.
 */
import { ChatClientError, type ChatTimeoutLimit } from '../../errors/chat-client-error.js';
import { StreamError } from '../../errors/stream-error.js';
import { monotonic } from '../../internal/clock.js';
import { clampDelay, watchAbort } from '../../internal/delay.js';
import { RaceSet } from '../../internal/race-set.js';
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

/**
 * The caller's signal plus the total time limit; maps any failure to what the caller should see. It makes no
 * `AbortController` of its own unless one is asked for (`signal`, `controller`: back-off waits, a cancel): an abort —
 * the caller's, the total limit, a cancel — goes straight to the attempt in flight (issue 17: two linked controllers
 * and three listeners per model call were a tenth of the agent loop).
 */
export class CallScope {
  private lazyController: AbortController | undefined;
  private readonly stopWatching: () => void;
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private reason: unknown;
  /** The attempt in flight, which an abort of the scope aborts with the same reason. */
  current: Attempt | undefined;
  aborted = false;
  attempt = 0;

  constructor(
    config: CallConfig,
    private readonly userSignal: AbortSignal | undefined,
  ) {
    this.stopWatching = userSignal ? watchAbort(userSignal, () => this.abort(userSignal.reason)) : () => {};
    if (userSignal?.aborted) this.abort(userSignal.reason);
    const total = config.timeouts.totalMs;
    this.timer = Number.isFinite(total) ? setTimeout(() => this.abort(timeoutError(config, 'total', this.attempt)), clampDelay(total)) : undefined;
  }

  /** Aborts the call: the attempt in flight, any wait, and every later attempt. A second call is ignored. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.current?.abort(reason);
    this.lazyController?.abort(reason);
  }

  /** The reason of the abort, once aborted. */
  get abortReason(): unknown {
    return this.reason;
  }

  /**
   * A controller of the scope, made on first use: its signal aborts with the scope, and aborting it aborts the scope
   * (a client's `cancel`).
   */
  get controller(): AbortController {
    if (this.lazyController === undefined) {
      const controller = new AbortController();
      this.lazyController = controller;
      if (this.aborted) controller.abort(this.reason);
      else watchAbort(controller.signal, () => this.abort(controller.signal.reason));
    }
    return this.lazyController;
  }

  /** The scope's signal (for waits between attempts), made on first use. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The error the caller sees: the exact abort reason, a timeout, or the error itself. */
  surface(error: unknown): unknown {
    if (this.userSignal?.aborted) return this.userSignal.reason;
    if (this.aborted && ChatClientError.isInstance(this.reason)) return this.reason;
    return error;
  }

  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.stopWatching();
  }
}

/** Retry exactly what a fallback would move on from, honouring the provider's `Retry-After`. */
export function classify(error: unknown): RetryDecision {
  return { retry: isFallbackWorthy(error), retryAfterMs: ChatClientError.isInstance(error) ? error.retryAfterMs : undefined };
}

/**
 * One HTTP attempt: its own controller (the signal `fetch` gets, so a timeout can cancel just this attempt) and one
 * timer. The timer is not re-armed per event: progress moves a deadline, and a timer that fires before it is set
 * again for the rest — one timer for the first chunk, one more when the idle limit is shorter, however many events.
 */
export class Attempt {
  readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private deadline = Number.POSITIVE_INFINITY;
  private limit: 'first_chunk' | 'idle' = 'first_chunk';
  private moved = false;
  private readonly races = new RaceSet();
  private closed = false;
  /** Bytes arrived since the timer was armed, but no progress: what a timeout error then says. */
  partial = false;

  constructor(
    private readonly config: CallConfig,
    private readonly scope: CallScope,
    readonly number: number,
  ) {
    scope.current = this;
    if (scope.aborted) this.abort(scope.abortReason);
    else this.arm('first_chunk');
  }

  /**
   * `promise`, or this attempt's abort reason when it aborts first (a limit, the caller). Leak-free in a read loop: a
   * settled race keeps nothing (see `RaceSet`).
   */
  race<T>(promise: Promise<T>): Promise<T> {
    return this.races.race(promise);
  }

  /** Aborts this attempt (its `fetch`, its body, every race) with `reason`. */
  abort(reason: unknown): void {
    if (this.controller.signal.aborted) return;
    this.controller.abort(reason);
    this.races.abort(reason);
  }

  /** (Re)starts the limit `limit`: `first_chunk` when the attempt starts, `idle` at each SSE event after that. */
  arm(limit: 'first_chunk' | 'idle'): void {
    if (this.closed) return;
    const ms = limit === 'idle' ? this.config.timeouts.idleMs : this.config.timeouts.firstChunkMs;
    this.limit = limit;
    this.partial = false;
    if (!Number.isFinite(ms)) {
      this.deadline = Number.POSITIVE_INFINITY;
      return;
    }
    const delayMs = clampDelay(ms);
    this.deadline = monotonic() + delayMs;
    if (this.timer === undefined || this.deadline < this.timerAt) this.schedule(delayMs);
    else this.moved = true;
  }

  private limitMs(): number {
    return clampDelay(this.limit === 'idle' ? this.config.timeouts.idleMs : this.config.timeouts.firstChunkMs);
  }

  private schedule(delayMs: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.moved = false;
    this.timerAt = monotonic() + delayMs;
    this.timer = setTimeout(() => this.expire(), delayMs);
  }

  /**
   * The timer fired: the limit is reached, or progress since it was set moved the deadline and the rest is waited for
   * (once per progress: with mocked timers and a real clock the limit still fires, at most one period late).
   */
  private expire(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    if (this.closed || this.deadline === Number.POSITIVE_INFINITY) return;
    if (this.moved) {
      const left = Math.min(this.deadline - monotonic(), this.limitMs());
      if (left > 1) {
        this.schedule(left);
        return;
      }
    }
    this.abort(timeoutError(this.config, this.limit, this.number, this.partial));
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
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.races.clear();
    if (this.scope.current === this) this.scope.current = undefined;
  }
}
