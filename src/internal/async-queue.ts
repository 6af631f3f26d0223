/**
 * A push/pull queue: producers `push` items (from concurrent tasks), one consumer iterates them. `close()` ends the
 * iteration after the queued items; `fail(error)` ends it with an error after them.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private rejectWaiting: ((error: unknown) => void) | undefined;
  private closed = false;
  private failure: { error: unknown } | undefined;

  push(item: T): void {
    if (this.closed) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      this.rejectWaiting = undefined;
      resolve({ done: false, value: item });
    } else {
      this.items.push(item);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.waiting && this.items.length === 0) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ done: true, value: undefined });
    }
  }

  fail(error: unknown): void {
    if (this.closed) return;
    this.failure = { error };
    this.closed = true;
    if (this.rejectWaiting && this.items.length === 0) {
      const reject = this.rejectWaiting;
      this.waiting = undefined;
      this.rejectWaiting = undefined;
      reject(error);
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.items.length > 0) return Promise.resolve({ done: false, value: this.items.shift() as T });
    if (this.closed) return this.failure ? Promise.reject(this.failure.error) : Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.rejectWaiting = reject;
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return { next: () => this.next() };
  }
}
