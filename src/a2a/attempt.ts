import { abortPromise, linkedController } from '../internal/delay.js';

/**
 * @internal One attempt of an A2A call: its own controller linked to the caller's signal (a time limit cancels only
 * this attempt), a promise that rejects when it aborts, and its timer. `close()` releases everything and aborts
 * whatever of the attempt is still in flight.
 */
export class Attempt {
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
    if (!this.controller.signal.aborted) this.controller.abort(new DOMException('The A2A attempt was closed', 'AbortError'));
    this.detach();
  }
}
