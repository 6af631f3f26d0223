/**
 * @internal Calls and failures over a sliding window, in ten buckets: constant memory per dependency, no timer. A
 * bucket older than the window is cleared when its slot comes round again or when the totals are read.
 */
const BUCKETS = 10;

export class SlidingCounts {
  private readonly bucketMs: number;
  private readonly starts = new Array<number>(BUCKETS).fill(-Infinity);
  private readonly calls = new Array<number>(BUCKETS).fill(0);
  private readonly failures = new Array<number>(BUCKETS).fill(0);

  constructor(private readonly windowMs: number) {
    this.bucketMs = Math.max(1, windowMs / BUCKETS);
  }

  /** Counts one call at clock time `at` (a failure when `failed`). */
  add(at: number, failed: boolean): void {
    const slot = Math.floor(at / this.bucketMs);
    const index = ((slot % BUCKETS) + BUCKETS) % BUCKETS;
    if (this.starts[index] !== slot) {
      this.starts[index] = slot;
      this.calls[index] = 0;
      this.failures[index] = 0;
    }
    this.calls[index] = (this.calls[index] ?? 0) + 1;
    if (failed) this.failures[index] = (this.failures[index] ?? 0) + 1;
  }

  /** Calls and failures of the buckets inside the window ending at `at`. */
  totals(at: number): { calls: number; failures: number } {
    const oldest = Math.floor((at - this.windowMs) / this.bucketMs);
    let calls = 0;
    let failures = 0;
    for (let index = 0; index < BUCKETS; index++) {
      if ((this.starts[index] as number) <= oldest) continue;
      calls += this.calls[index] as number;
      failures += this.failures[index] as number;
    }
    return { calls, failures };
  }

  /** Forgets every count. */
  clear(): void {
    this.starts.fill(-Infinity);
    this.calls.fill(0);
    this.failures.fill(0);
  }
}
