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
 * `observe` sees each batch as it is taken, before its items are delivered.
 *
 * `for await` over it reads the batches directly, without the stream's queue and promise machinery (a Web stream
 * costs ~20 µs for 6 items in Node 20, a generator ~2). The iteration behaves as the standard one: it locks
 * the stream while it runs, breaking out of it cancels the work (`onCancel`, then the generator returns), an error of
 * the generator is thrown from `next()`, and the stream is closed when it ends. `getReader()`, `pipeTo()`, `tee()` and
 * `values()` still use the stream itself.
 */
export function streamFromBatches<T>(
  batches: AsyncGenerator<readonly T[], void, undefined>,
  onCancel?: (reason: unknown) => void,
  observe?: (batch: readonly T[]) => void,
): ReadableStream<T> & AsyncIterable<T> {
  let direct = false; // iterated by `for await`: the stream's own source is not used
  let source!: ReadableStreamDefaultController<T>;
  const stream = new ReadableStream<T>(
    {
      start(controller) {
        source = controller;
      },
      async pull(controller) {
        for (;;) {
          const next = await batches.next();
          if (next.done) {
            controller.close();
            return;
          }
          observe?.(next.value);
          if (next.value.length === 0) continue;
          for (const item of next.value) controller.enqueue(item);
          return;
        }
      },
      async cancel(reason) {
        if (direct) return;
        onCancel?.(reason);
        await batches.return(undefined).catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );
  Object.defineProperty(stream, Symbol.asyncIterator, {
    configurable: true,
    value: function (): AsyncIterator<T> {
      const reader = stream.getReader(); // locked while iterated, as with the standard iterator (throws if locked)
      direct = true;
      let batch: readonly T[] = [];
      let index = 0;
      let finished = false;
      const finish = (): void => {
        finished = true;
        try {
          source.close(); // the stream ends with its iteration (a cancel would cost a round of promises)
        } catch {
          // it was cancelled before it was iterated
        }
        reader.releaseLock();
      };
      let waiting = 0; // next() calls not settled yet
      let tail: Promise<IteratorResult<T, undefined>> | undefined;
      const step = async (): Promise<IteratorResult<T, undefined>> => {
        try {
          while (index >= batch.length) {
            if (finished) return { done: true, value: undefined };
            let next: IteratorResult<readonly T[], void>;
            try {
              next = await batches.next();
            } catch (error) {
              finish();
              throw error;
            }
            if (next.done) {
              finish();
              return { done: true, value: undefined };
            }
            observe?.(next.value);
            batch = next.value;
            index = 0;
          }
          return { done: false, value: batch[index++] as T };
        } finally {
          waiting--;
        }
      };
      return {
        // Calls are served in order, one at a time (a caller may call `next()` again before the last one settled).
        next() {
          if (waiting === 0 && index < batch.length) return Promise.resolve({ done: false, value: batch[index++] as T });
          waiting++;
          tail = waiting === 1 ? step() : (tail as Promise<IteratorResult<T, undefined>>).then(step, step);
          return tail;
        },
        async return(value?: unknown) {
          await tail?.catch(() => {});
          batch = [];
          if (!finished) {
            finish();
            onCancel?.(value);
            await batches.return(undefined).catch(() => {});
          }
          return { done: true, value: undefined };
        },
      };
    },
  });
  return stream as ReadableStream<T> & AsyncIterable<T>;
}

/**
 * Streams that go on with a run that stopped to ask (`agent.resume`, a Runner's `resume`), marked where they are made
 * so a reader that turns them into something else (the web-UI encoder) knows without a word from the caller: their
 * first tool results answer calls an earlier stream announced, and a web UI continues the message that asked.
 */
let resumed: WeakSet<object> | undefined; // made on first use: an entry that never resumes carries no set

/** @internal Marks `stream` as the resume of a stopped run. */
export function markResumedRun(stream: object): void {
  (resumed ??= new WeakSet()).add(stream);
}

/** @internal True when `stream` goes on with a stopped run (false for a stream this copy of the package did not make). */
export function isResumedRun(stream: unknown): boolean {
  return typeof stream === 'object' && stream !== null && resumed?.has(stream) === true;
}

/**
 * The secrets that travel with what runs: an agent, what wraps it (a runnable agent, a compiled graph with agent
 * nodes, a graph agent, a runner) and each run stream they make. A reader that turns a stream into something a remote
 * party sees (the web-UI and AG-UI encoders, the A2A handler) removes the same strings the agent does, without the
 * caller repeating them, however many wrappers sit between the agent and the reader.
 */
let secretsOf: WeakMap<object, readonly string[]> | undefined; // made on first use, as `resumed`

/** @internal Keeps `secrets` for `holder` — an agent, a wrapper of one or a run stream (nothing when there are none). */
export function keepRunSecrets(holder: object, secrets: readonly string[]): void {
  if (secrets.length > 0) (secretsOf ??= new WeakMap()).set(holder, secrets);
}

/** @internal The secrets kept for `holder`: none for an object this copy of the package did not make or was given none. */
export function runSecrets(holder: unknown): readonly string[] {
  return (typeof holder === 'object' && holder !== null && secretsOf?.get(holder)) || [];
}

/** @internal Keeps for `holder` the secrets of every one of `parts` (a wrapper takes on the secrets of what it wraps). */
export function inheritRunSecrets(holder: object, parts: Iterable<unknown>): void {
  const all = new Set<string>();
  for (const part of parts) for (const secret of runSecrets(part)) all.add(secret);
  keepRunSecrets(holder, [...all]);
}
