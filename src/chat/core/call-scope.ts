/**
 * The scope around every attempt of one model call: the caller's abort (a signal, or the `AbortSource` of the run the
 * call belongs to), the total time limit, and what the caller sees of a failure. Its limits live on a
 * {@link Deadlines}: the run's when the call belongs to a run (one timer for every limit of the run), else one of its
 * own (one timer for the call's total limit and its attempts' limits together).
 */
import { ChatClientError, type ChatTimeoutLimit } from '../../errors/chat-client-error.js';
import { AbortSource, watchParent, type AbortParent } from '../../internal/abort-source.js';
import { Deadlines, type Deadline } from '../../internal/deadlines.js';
import { watchAbort } from '../../internal/delay.js';
import type { CallConfig } from './call-config.js';

/** `partial`: bytes arrived since the last progress, but no event (keep-alives, blank lines, part of a line or body). */
export function timeoutError(config: CallConfig, limit: ChatTimeoutLimit, attempt: number, partial = false): ChatClientError {
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

const noop = (): void => {};

/**
 * The caller's abort plus the total time limit; maps any failure to what the caller should see. It makes no
 * `AbortController` of its own unless one is asked for (`signal`, `controller`: back-off waits, a cancel): an abort —
 * the caller's, the total limit, a cancel — goes straight to the attempt in flight (two linked controllers and three
 * listeners per model call would cost a tenth of the agent loop).
 */
export class CallScope {
  private lazyController: AbortController | undefined;
  private readonly stopWatching: () => void;
  private readonly source: AbortSource | undefined;
  private ownDeadlines: Deadlines | undefined;
  private readonly total: Deadline | undefined;
  /** A fetch controller an attempt gave back (calls without a run source). */
  private spare: AbortController | undefined;
  private reason: unknown;
  /** The attempt in flight, which an abort of the scope aborts with the same reason. */
  current: { abort(reason: unknown): void } | undefined;
  aborted = false;
  attempt = 0;

  constructor(
    config: CallConfig,
    private readonly parent: AbortParent | undefined,
  ) {
    this.source = parent instanceof AbortSource ? parent : undefined;
    this.stopWatching = parent ? watchParent(parent, () => this.abort(parent.reason)) : noop;
    if (parent?.aborted) this.abort(parent.reason);
    const totalMs = config.timeouts.totalMs;
    this.total = Number.isFinite(totalMs) ? this.deadlines.add(totalMs, () => this.abort(timeoutError(config, 'total', this.attempt))) : undefined;
  }

  /** Where the call's limits live: the run's, or the scope's own (made on first use). */
  get deadlines(): Deadlines {
    if (this.source !== undefined) return this.source.deadlines;
    this.ownDeadlines ??= new Deadlines();
    return this.ownDeadlines;
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

  /** The controller for an attempt's fetch: one a finished attempt gave back (the run's, or this call's), or a new one. */
  lendController(): AbortController {
    if (this.source !== undefined) return this.source.lend();
    const spare = this.spare;
    this.spare = undefined;
    return spare ?? new AbortController();
  }

  /** An attempt is over: its controller serves the next fetch, unless it was aborted. */
  giveBack(controller: AbortController): void {
    if (controller.signal.aborted) return;
    if (this.source !== undefined) this.source.giveBack(controller);
    else if (!this.aborted) this.spare = controller;
  }

  /** The error the caller sees: the exact abort reason, a timeout, or the error itself. */
  surface(error: unknown): unknown {
    if (this.parent?.aborted) return this.parent.reason;
    if (this.aborted && ChatClientError.isInstance(this.reason)) return this.reason;
    return error;
  }

  close(): void {
    if (this.total !== undefined) this.deadlines.cancel(this.total);
    this.ownDeadlines?.close();
    this.spare = undefined;
    this.stopWatching();
  }
}
