/** @internal The compare-and-swap writes of one Durable Object's storage, applied one at a time. */
import type { DurableObjectStorageLike } from './types.js';

/**
 * The writes under way on each storage, chained: a compare-and-swap reads, then writes, and no other write of the
 * object may come between (made on first use: nothing at module scope).
 */
let queues: WeakMap<DurableObjectStorageLike, Promise<unknown>> | undefined;

/** Runs `work` after every write queued on `storage` before it. */
export function serial<T>(storage: DurableObjectStorageLike, work: () => Promise<T>): Promise<T> {
  queues ??= new WeakMap();
  const next = (queues.get(storage) ?? Promise.resolve()).then(work, work);
  queues.set(storage, next.catch(() => {}));
  return next;
}
