import { AbortRace, linkedController } from './delay.js';

/**
 * @internal One attempt of a remote call (A2A, MCP: a call, the scope of a whole stream, a card discovery): its own controller
 * linked to the caller's signal (a time limit cancels only this attempt), `race()` of its operations against its
 * abort (leak-free: see `AbortRace`), and its timer. `close()` releases everything — the listener on the caller's signal included — and aborts whatever of
 * the attempt is still in flight.
 */
export class Attempt {
  readonly controller: AbortController;
  private readonly racer: AbortRace;
  private readonly detach: () => void;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(signal: AbortSignal | undefined, arm: (controller: AbortController) => ReturnType<typeof setTimeout> | undefined) {
    const { controller, dispose } = linkedController(signal);
    this.controller = controller;
    this.detach = dispose;
    this.racer = new AbortRace(controller.signal);
    this.timer = arm(controller);
  }

  /** `promise`, or this attempt's abort reason when it aborts first (a limit, the caller, `close()`). */
  race<T>(promise: Promise<T>): Promise<T> {
    return this.racer.race(promise);
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
    if (!this.controller.signal.aborted) this.controller.abort(new DOMException('The attempt was closed', 'AbortError'));
    this.racer.dispose();
    this.detach();
  }
}
