/** Web Streams helpers: async iteration everywhere, and streams driven by async generators. */

/**
 * Makes a `ReadableStream` async-iterable even where the runtime lacks `ReadableStream.prototype[Symbol.asyncIterator]`
 * (Safari). Breaking out of a `for await` cancels the stream, as the standard iterator does.
 */
export function iterableStream<T>(stream: ReadableStream<T>): ReadableStream<T> & AsyncIterable<T> {
  const target = stream as ReadableStream<T> & Partial<AsyncIterable<T>>;
  if (typeof target[Symbol.asyncIterator] === 'function') return target as ReadableStream<T> & AsyncIterable<T>;
  Object.defineProperty(target, Symbol.asyncIterator, {
    configurable: true,
    value: function (this: ReadableStream<T>): AsyncIterator<T> {
      const reader = this.getReader();
      return {
        async next() {
          const result = await reader.read();
          if (result.done) reader.releaseLock();
          return result.done ? { done: true, value: undefined } : { done: false, value: result.value };
        },
        async return(value?: unknown) {
          await reader.cancel(value).catch(() => {});
          reader.releaseLock();
          return { done: true, value: undefined };
        },
      };
    },
  });
  return target as ReadableStream<T> & AsyncIterable<T>;
}

/**
 * A pull-based stream over an async generator of batches: each pull takes one batch and enqueues its items, so
 * per-item overhead stays low. Generator errors error the stream; cancelling the stream returns the generator.
 */
export function streamFromBatches<T>(batches: AsyncGenerator<readonly T[], void, undefined>, onCancel?: (reason: unknown) => void): ReadableStream<T> & AsyncIterable<T> {
  return iterableStream(
    new ReadableStream<T>(
      {
        async pull(controller) {
          for (;;) {
            const next = await batches.next();
            if (next.done) {
              controller.close();
              return;
            }
            if (next.value.length === 0) continue;
            for (const item of next.value) controller.enqueue(item);
            return;
          }
        },
        async cancel(reason) {
          onCancel?.(reason);
          await batches.return(undefined).catch(() => {});
        },
      },
      { highWaterMark: 0 },
    ),
  );
}
