/**
 * @internal The scope of one tool attempt: the caller's signal and the attempt's time limit, and the `AbortSignal`
 * the tool gets — created only when the tool reads `context.signal`. A tool that never looks at its signal costs no
 * `AbortController` and no listener of its own (issue 17: an abort scope per call was the tool path's largest cost);
 * the time limit and the caller's abort still end the attempt, whether the tool listens or not.
 */
import { clampDelay, watchAbort } from '../internal/delay.js';

/** One attempt's scope: `stopped` rejects when the caller aborts or the time limit fires. */
export class ToolAttempt {
  private controller: AbortController | undefined;
  private reason: unknown;
  private aborted = false;
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly stopWatching: () => void;
  private rejectStop: (reason: unknown) => void = () => {};
  /** Rejects with the abort reason (the caller's, or the time limit's `TimeoutError` DOMException). */
  readonly stopped: Promise<never>;
  /** True once the time limit fired. */
  timedOut = false;

  constructor(parent: AbortSignal | undefined, timeoutMs: number, toolName: string) {
    this.stopped = new Promise<never>((_resolve, reject) => {
      this.rejectStop = reject;
    });
    this.stopped.catch(() => {});
    this.stopWatching = parent ? watchAbort(parent, () => this.abort(parent.reason)) : () => {};
    this.timer = Number.isFinite(timeoutMs)
      ? setTimeout(() => {
          this.timedOut = true;
          this.abort(new DOMException(`Tool '${toolName}' timed out after ${timeoutMs} ms`, 'TimeoutError'));
        }, clampDelay(timeoutMs))
      : undefined;
  }

  /** The tool's signal: aborts when the attempt does (made on first use; already aborted if the attempt was). */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  private abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason); // the tool's own listeners first, as when its signal was linked to the caller's
    this.rejectStop(reason);
  }

  /** Stops the timer and the watch on the caller's signal. */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.stopWatching();
  }
}
