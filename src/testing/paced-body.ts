/**
 * @internal How every fault of `faultline/testing` waits: one abortable delay (`waitFor`), and bodies whose waits
 * end the moment nobody wants them any more. A fault's timer must not outlive the client: a test runner that waits
 * for the event loop to drain (node --test, mocha) would otherwise wait out the whole delay after the test ended.
 * "Nobody wants it" is either signal we can see: the client cancels the body (a plain `fetch` stub, a Worker), or
 * aborts the request (`request.signal`; msw keeps a copy of each mocked body, so a cancel never reaches the source).
 * Plain Web streams, no msw: `sseResponse` builds on it too.
 */
import { delay, linkedController, watchAbort } from '../internal/delay.js';

/**
 * Waits `ms`, or less when `signal` aborts first (its timer cleared at once). True when the whole delay passed.
 * @example `if (!(await waitFor(2_000, request.signal))) return HttpResponse.error();`
 */
export async function waitFor(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    await delay(ms, signal);
    return true;
  } catch {
    return false;
  }
}

/** The waits of one body: over, timers cleared, once it is cancelled or its request aborted. */
export interface FaultClock {
  /** Waits `ms`, or until the body is given up (at once when it already was); never rejects. */
  wait(ms: number): Promise<void>;
  /** Waits until the body is given up, holding no timer: a connection that stays open and silent. */
  stall(): Promise<void>;
  /** Whether the body was given up (cancelled, or its request aborted). */
  readonly stopped: boolean;
}

/**
 * What a paced body sends next: text to enqueue, {@link END} to end the body cleanly; a throw errors the body (a
 * dropped connection). What it returns once the body was given up is ignored.
 */
export type NextPiece = (clock: FaultClock) => Promise<string | typeof END> | string | typeof END;

/** Returned by a {@link NextPiece}: the body ends cleanly. */
export const END = null;

/**
 * A pull-based body (one piece per read of the client, so a fault comes only after the reader took what came before
 * it, as on a real connection) whose every wait ends when the client cancels the body or `signal` aborts. A body
 * whose request aborted errors with the signal's reason (the connection is gone); a cancelled one says nothing more.
 * @example `pacedBody(async (clock) => { await clock.wait(20); return ': keep-alive\n\n'; }, request.signal)`
 */
export function pacedBody(next: NextPiece, signal?: AbortSignal): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const { controller: giveUp, dispose } = linkedController(signal);
  const stop = () => {
    giveUp.abort();
    dispose();
  };
  const clock: FaultClock = {
    wait: (ms) => waitFor(ms, giveUp.signal).then(() => undefined),
    stall: () => new Promise<void>((resolve) => void watchAbort(giveUp.signal, resolve)),
    get stopped() {
      return giveUp.signal.aborted;
    },
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let piece: string | typeof END | undefined;
        let failure: { error: unknown } | undefined;
        try {
          piece = await next(clock);
        } catch (error) {
          failure = { error };
        }
        if (clock.stopped) {
          if (signal?.aborted) controller.error(signal.reason);
          return;
        }
        if (failure) {
          stop();
          controller.error(failure.error);
        } else if (piece === END) {
          stop();
          controller.close();
        } else controller.enqueue(encoder.encode(piece as string));
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: 0 },
  );
}

/** Faults to inject into a streamed answer. */
export interface StreamPlan {
  /** Drop the connection (error the body) before event number `dropAfter`. */
  dropAfter?: number;
  /**
   * Wait this long, in ms, before the drop. Real connections do not drop in the microsecond after a write, and some
   * clients (Chromium's fetch under load) can lose bytes that arrived together with the drop.
   */
  dropDelayMs?: number;
  /** End the body cleanly (without a finish) before event number `endAfter`. */
  endAfter?: number;
  /** Send nothing more from event number `stallAfter` on, keeping the connection open. */
  stallAfter?: number;
  /** Wait this long before the first byte, in ms. */
  firstByteDelayMs?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /**
   * The request's signal (`request.signal` in an msw handler): when it aborts, every wait of the plan (the first-byte
   * delay, the drop delay, a stall) ends and the body errors with its reason. A cancel of the body ends them too.
   */
  signal?: AbortSignal;
}

/** `pieces` as a paced body, one per read, with the faults of `plan` (checked by the caller). */
export function plannedBody(pieces: readonly string[], plan: StreamPlan): ReadableStream<Uint8Array> {
  let index = 0;
  return pacedBody(async (clock) => {
    if (index === 0 && plan.firstByteDelayMs) await clock.wait(plan.firstByteDelayMs);
    if (plan.dropAfter === index) {
      if (plan.dropDelayMs) await clock.wait(plan.dropDelayMs);
      throw new TypeError('terminated: other side closed');
    }
    if (plan.endAfter === index || index >= pieces.length) return END;
    if (plan.stallAfter === index) {
      await clock.stall();
      return END; // ignored: a stall ends only when the body was given up
    }
    return pieces[index++] as string;
  }, plan.signal);
}
