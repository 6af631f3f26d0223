/**
 * @internal Wakes a run's loop while it waits on something else (a model call before its first output, the tools of a
 * round) when items were queued for it — retries and fallbacks — so they reach the run's reader as they happen.
 */
export class Waker {
  private resolve: (() => void) | undefined;

  /** A promise the next {@link wake} resolves. */
  next(): Promise<void> {
    return new Promise<void>((resolve) => (this.resolve = resolve));
  }

  /** Resolves the waiting promise, if any. */
  wake(): void {
    const resolve = this.resolve;
    this.resolve = undefined;
    resolve?.();
  }
}
