/**
 * @internal The scope of one tool attempt: the caller's abort and the attempt's time limit, and the `AbortSignal` the
 * tool gets — created only when the tool reads `context.signal`. A tool that never looks at its signal costs no
 * `AbortController` and no listener of its own (an abort scope per call would be the tool path's largest cost);
 * the time limit and the caller's abort still end the attempt, whether the tool listens or not. Under a run (an
 * `AbortSource`) the limit is one more deadline on the run's timer, and the run's abort is watched without a listener.
 */
import { AbortSource, watchParent, type AbortParent } from '../internal/abort-source.js';
import { Deadlines, type Deadline } from '../internal/deadlines.js';

const noop = (): void => {};

/** One attempt's scope: `stopped` rejects when the caller aborts or the time limit fires. */
export class ToolAttempt {
  private controller: AbortController | undefined;
  private reason: unknown;
  private aborted = false;
  private readonly deadlines: Deadlines | undefined;
  private readonly ownDeadlines: boolean;
  private readonly limit: Deadline | undefined;
  private readonly stopWatching: () => void;
  private rejectStop: (reason: unknown) => void = noop;
  /** Rejects with the abort reason (the caller's, or the time limit's `TimeoutError` DOMException). */
  readonly stopped: Promise<never>;
  /** True once the time limit fired. */
  timedOut = false;

  constructor(parent: AbortParent | undefined, timeoutMs: number, toolName: string) {
    this.stopped = new Promise<never>((_resolve, reject) => {
      this.rejectStop = reject;
    });
    this.stopped.catch(noop);
    this.stopWatching = parent ? watchParent(parent, () => this.abort(parent.reason)) : noop;
    const source = parent instanceof AbortSource ? parent : undefined;
    this.ownDeadlines = source === undefined;
    this.deadlines = Number.isFinite(timeoutMs) ? (source?.deadlines ?? new Deadlines()) : undefined;
    this.limit = this.deadlines?.add(timeoutMs, () => {
      this.timedOut = true;
      this.abort(new DOMException(`Tool '${toolName}' timed out after ${timeoutMs} ms`, 'TimeoutError'));
    });
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

  /** Stops the time limit and the watch on the caller's abort. */
  dispose(): void {
    if (this.ownDeadlines) this.deadlines?.close();
    else this.deadlines?.cancel(this.limit);
    this.stopWatching();
  }
}
