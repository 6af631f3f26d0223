import { abortPromise, linkedController } from './delay.js';

/**
 * @internal One attempt of a remote call (A2A, MCP: a call, the scope of a whole stream, a card discovery): its own controller
 * linked to the caller's signal (a time limit cancels only this attempt), a promise that rejects when it aborts, and
 * its timer. `close()` releases everything — the listener on the caller's signal included — and aborts whatever of
 * the attempt is still in flight.
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

  /** Replaces the timer (the idle limit after each event of a stream). */
  rearm(arm: () => ReturnType<typeof setTimeout> | undefined): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = arm();
  }

  /**
   * The body of `response`, cancelled when this attempt aborts. A limit that fires while a body trickles in must
   * release the connection, and not every `fetch` ends a body that is being read when its signal aborts.
   */
  body(response: Response): Pick<Response, 'body' | 'bodyUsed'> {
    if (!response.body || response.bodyUsed) return response;
    return { body: response.body.pipeThrough(new TransformStream(), { signal: this.controller.signal }), bodyUsed: false };
  }

  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.disposeAbort();
    if (!this.controller.signal.aborted) this.controller.abort(new DOMException('The attempt was closed', 'AbortError'));
    this.detach();
  }
}
