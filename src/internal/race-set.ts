/**
 * Races promises against an abort the owner triggers itself — no `AbortSignal`, no listener. The owner of an operation
 * (a chat attempt) knows when it aborts (its own timers, its scope), so it rejects the pending races directly instead
 * of listening to its own signal. Like `AbortRace`, a settled race is forgotten at once (a read loop keeps no chunk
 * alive), and a promise that settled before the abort still wins, as with `Promise.race`.
 * @example `const races = new RaceSet(); const chunk = await races.race(reader.read()); races.abort(reason);`
 */
export class RaceSet {
  private readonly pending = new Set<(reason: unknown) => void>();
  private aborted = false;
  declare private reason: unknown; // set when it aborts: declared only, no field definition to bundle

  /** `promise`, or the abort reason when {@link abort} comes first. */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.aborted) {
      const aborted = Promise.reject(this.reason);
      aborted.catch(() => {});
      return Promise.race([promise, aborted]);
    }
    return new Promise<T>((resolve, reject) => {
      this.pending.add(reject);
      promise.then(
        (value) => {
          this.pending.delete(reject);
          resolve(value);
        },
        (error: unknown) => {
          this.pending.delete(reject);
          reject(error);
        },
      );
    });
  }

  /** Rejects every pending race (and every later one) with `reason`; a second call is ignored. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const pending = [...this.pending];
    this.pending.clear();
    // After the reactions already queued: a promise that settled before the abort still wins.
    queueMicrotask(() => {
      for (const reject of pending) reject(reason);
    });
  }

  /** Forgets the pending races (the operation is over). */
  clear(): void {
    this.pending.clear();
  }
}
