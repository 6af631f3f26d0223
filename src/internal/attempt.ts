import { AbortRace, linkedController } from './delay.js';

/**
 * @internal One attempt of a remote call (A2A, MCP: a call, the scope of a whole stream, a card discovery): its own controller
 * linked to the caller's signal (a time limit cancels only this attempt), `race()` of its operations against its
 * abort (leak-free: see `AbortRace`), and its timer. `close()` releases everything — the listener on the caller's signal included — and aborts whatever of
 * the attempt is still in flight. What only the A2A client does with an attempt (`rearmAttempt`, `attemptBody`) are
 * functions beside the class, so the MCP client, which does neither, does not bundle them (a method cannot be left out).
 */
export class Attempt {
  // Declared only (`declare`): each is set in the constructor, and a bundle carries no field definitions for them.
  declare readonly controller: AbortController;
  /** Its controller's signal (the one every operation of the attempt is given). */
  declare readonly signal: AbortSignal;
  declare private readonly racer: AbortRace;
  declare private readonly detach: () => void;
  /** @internal Its time limit's timer (`rearmAttempt` replaces it). */
  declare timer: ReturnType<typeof setTimeout> | undefined;

  constructor(signal: AbortSignal | undefined, arm: (controller: AbortController) => ReturnType<typeof setTimeout> | undefined) {
    const { controller, dispose } = linkedController(signal);
    this.controller = controller;
    this.signal = controller.signal;
    this.detach = dispose;
    this.racer = new AbortRace(controller.signal);
    this.timer = arm(controller);
  }

  /** `promise`, or this attempt's abort reason when it aborts first (a limit, the caller, `close()`). */
  race<T>(promise: Promise<T>): Promise<T> {
    return this.racer.race(promise);
  }

  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.controller.signal.aborted) this.controller.abort(new DOMException('The attempt was closed', 'AbortError'));
    this.racer.dispose();
    this.detach();
  }
}

/** Replaces the timer of `attempt` (the idle limit after each event of a stream). */
export function rearmAttempt(attempt: Attempt, arm: () => ReturnType<typeof setTimeout> | undefined): void {
  if (attempt.timer !== undefined) clearTimeout(attempt.timer);
  attempt.timer = arm();
}

/**
 * The body of `response`, cancelled when `attempt` aborts. A limit that fires while a body trickles in must release
 * the connection, and not every `fetch` ends a body that is being read when its signal aborts.
 */
export function attemptBody(attempt: Attempt, response: Response): Pick<Response, 'body' | 'bodyUsed'> {
  if (!response.body || response.bodyUsed) return response;
  return { body: response.body.pipeThrough(new TransformStream(), { signal: attempt.signal }), bodyUsed: false };
}
