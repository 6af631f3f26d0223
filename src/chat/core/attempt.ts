/**
 * One HTTP attempt of a model call (`Attempt`), for every provider: sending, its first-chunk and idle limits, reading a
 * whole body, the typed failure of each step (the scope around all attempts is `CallScope`). Only progress — an SSE
 * event — ends the first-chunk limit and moves the idle one: a provider that sends keep-alive comments, blank lines or
 * a line that never ends times out all the same. Every failure is mapped to a typed error; an abort surfaces as its
 * reason.
 */
import { ChatClientError } from '../../errors/chat-client-error.js';
import { StreamError } from '../../errors/stream-error.js';
import type { Deadline } from '../../internal/deadlines.js';
import { clampDelay } from '../../internal/delay.js';
import { NO_REDIRECTS } from '../../internal/http-status.js';
import { RaceSet } from '../../internal/race-set.js';
import { messageOf } from '../../internal/error-chain.js';
import { describeBytes, readBoundedBody, type BoundedText } from '../../internal/http-body.js';
import { redactError, redactText } from '../../internal/redact.js';
import type { RetryDecision } from '../../internal/retry.js';
import { chatErrorFromResponse } from './chat-error-from-response.js';
import { isFallbackWorthy } from './fallback-worthy.js';
import type { CallConfig } from './call-config.js';
import { timeoutError, type CallScope } from './call-scope.js';

/** Bound on a non-streamed answer: 32 MiB, written out (an app bundler keeps module-scope arithmetic even unread). */
export const MAX_COMPLETION_BYTES = 33_554_432;

/**
 * Bound on a streamed answer's body: 64 MiB, about twice the longest answer a provider streams today (128k output
 * tokens at ~280 bytes per Chat Completions chunk). It bounds what the decoders and the agent keep of one answer —
 * text, reasoning, every tool call's arguments, calls opened and never closed — whatever the peer sends.
 */
export const MAX_STREAM_BYTES = 67_108_864;

/** Retry exactly what a fallback would move on from, honouring the provider's `Retry-After`. */
export function classify(error: unknown): RetryDecision {
  return { retry: isFallbackWorthy(error), retryAfterMs: ChatClientError.isInstance(error) ? error.retryAfterMs : undefined };
}

/**
 * One HTTP attempt: the controller its `fetch` gets (so a limit can cancel just this attempt; lent by the scope, and
 * given back for the next fetch when the attempt ends without an abort) and one limit on the scope's
 * {@link Deadlines}. Progress moves the limit's deadline later, which arms no timer; the first-chunk limit is first
 * checked at the idle limit when that is shorter, so the first event too only moves it later — however many events,
 * an attempt adds no timer to its run's (or its call's) one.
 */
export class Attempt {
  readonly controller: AbortController;
  private entry: Deadline | undefined;
  /** Of the first-chunk limit, what is left after its first check (at the idle limit). */
  private remaining = 0;
  private limit: 'first_chunk' | 'idle' = 'first_chunk';
  private readonly races = new RaceSet();
  private closed = false;
  private aborted = false;
  private reason: unknown;
  private readonly onDeadline = (): void => this.expire();
  /** Told the abort's reason on the microtask queue (after the reactions already queued, as a race would be). */
  private abortHook: ((reason: unknown) => void) | undefined;
  /** Bytes arrived since the limit was last moved, but no progress: what a timeout error then says. */
  partial = false;

  constructor(
    private readonly config: CallConfig,
    private readonly scope: CallScope,
    readonly number: number,
  ) {
    this.controller = scope.lendController();
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

  /** Aborts this attempt (its `fetch`, its body, every race) with `reason`; nothing once it is closed. */
  abort(reason: unknown): void {
    if (this.aborted || this.closed) return;
    this.aborted = true;
    this.reason = reason;
    this.controller.abort(reason);
    this.races.abort(reason);
    const hook = this.abortHook;
    this.abortHook = undefined;
    if (hook !== undefined) queueMicrotask(() => hook(reason));
  }

  /**
   * Calls `hook` with the reason when this attempt aborts, or soon when it already has; never once it closed without
   * an abort. What a race against a promise that never settles did, without the promises (a reader cancelling its body).
   */
  whenAborted(hook: (reason: unknown) => void): void {
    if (this.aborted) {
      const reason = this.reason;
      queueMicrotask(() => hook(reason));
    } else if (!this.closed) this.abortHook = hook;
  }

  /**
   * Takes the idle limit off the scope's deadlines (no timer is cleared) while the consumer holds what was read: the
   * limit measures the provider, not the consumer. True when it was paused; `resumeIdle` puts it back.
   */
  pauseIdle(): boolean {
    if (this.entry === undefined || this.limit !== 'idle' || this.closed || this.aborted) return false;
    this.scope.deadlines.cancel(this.entry);
    return true;
  }

  /** Puts the paused idle limit back, `idleMs` from now, as an event does; what arrived without progress is kept. */
  resumeIdle(): void {
    const partial = this.partial;
    this.arm('idle');
    this.partial = partial;
  }

  /** (Re)starts the limit `limit`: `first_chunk` when the attempt starts, `idle` at each SSE event after that. */
  arm(limit: 'first_chunk' | 'idle'): void {
    if (this.closed) return;
    const { idleMs, firstChunkMs } = this.config.timeouts;
    const ms = limit === 'idle' ? idleMs : firstChunkMs;
    this.limit = limit;
    this.partial = false;
    this.remaining = 0;
    if (!Number.isFinite(ms)) {
      if (this.entry !== undefined) this.scope.deadlines.cancel(this.entry);
      this.entry = undefined;
      return;
    }
    let wait = clampDelay(ms);
    if (limit === 'first_chunk' && idleMs < ms) {
      this.remaining = wait - clampDelay(idleMs);
      wait = clampDelay(idleMs);
    }
    if (this.entry === undefined) this.entry = this.scope.deadlines.add(wait, this.onDeadline);
    else this.scope.deadlines.move(this.entry, wait);
  }

  /** The limit's deadline came: the rest of the first-chunk limit is waited for, or the limit is reached. */
  private expire(): void {
    this.entry = undefined;
    if (this.closed || this.aborted) return;
    if (this.remaining > 0) {
      const rest = this.remaining;
      this.remaining = 0;
      this.entry = this.scope.deadlines.add(rest, this.onDeadline);
      return;
    }
    this.abort(timeoutError(this.config, this.limit, this.number, this.partial));
  }

  /** The error to raise when an operation of this attempt failed with `error`. */
  failure(error: unknown, phase: 'fetch' | 'read'): unknown {
    if (this.aborted) return this.reason;
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
          redirect: NO_REDIRECTS,
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
  /** The failure of a streamed answer whose body passed {@link MAX_STREAM_BYTES}: the reading stopped there. */
  streamTooLarge(): StreamError {
    return new StreamError(`${this.config.label} streamed an answer over the ${describeBytes(MAX_STREAM_BYTES)} limit; reading stopped there`, { reason: 'too_large' });
  }

  async text(response: Response): Promise<string> {
    let body: BoundedText;
    try {
      body = await this.race(readBoundedBody(this.body(response), MAX_COMPLETION_BYTES));
    } catch (error) {
      throw this.failure(error, 'read');
    } finally {
      this.close();
    }
    // A body that failed before its end is the connection's failure, not an answer that is not JSON.
    if (body.failed) throw this.failure(body.failed.error, 'read');
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
    if (this.closed) return;
    this.closed = true;
    if (this.entry !== undefined) this.scope.deadlines.cancel(this.entry);
    this.entry = undefined;
    this.races.clear();
    this.abortHook = undefined;
    if (this.scope.current === this) this.scope.current = undefined;
    if (!this.aborted) this.scope.giveBack(this.controller);
  }
}
