/** Small async helpers for tests. */

/** A promise with its resolve function outside. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Fails instead of hanging when `promise` does not settle within `ms`. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `check` until it returns something truthy, every 10 ms; fails saying `what` after `ms`. */
export async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, ms = 10_000, what = 'the condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A body that sends `first`, then `every()` `everyMs` after each read: pull-based, so nothing ticks once the reader
 * stops, and a cancel clears the pending timer. Alive, and useless unless what it drips is progress — the peer that
 * sends bytes but makes none.
 */
export function dripBody(first: string, every: () => string, everyMs = 10): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (first !== '') controller.enqueue(encoder.encode(first));
      },
      pull(controller) {
        return new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            controller.enqueue(encoder.encode(every()));
            resolve();
          }, everyMs);
        });
      },
      cancel() {
        clearTimeout(timer);
      },
    },
    { highWaterMark: 0 },
  );
}
