import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { streamFromBatches } from '../../src/internal/streams.js';

/** A generator of `batches` that records whether it was returned early and whether its `finally` ran. */
function source(batches: readonly (readonly number[])[], failAfter?: number) {
  const seen = { finallyRan: false, cancelled: [] as unknown[] };
  async function* generate(): AsyncGenerator<readonly number[], void, undefined> {
    try {
      for (let index = 0; index < batches.length; index++) {
        if (failAfter === index) throw new Error('boom');
        await Promise.resolve();
        yield batches[index] as readonly number[];
      }
      if (failAfter === batches.length) throw new Error('boom');
    } finally {
      seen.finallyRan = true;
    }
  }
  const stream = streamFromBatches(generate(), (reason) => seen.cancelled.push(reason));
  return { stream, seen };
}

async function viaReader(stream: ReadableStream<number>): Promise<number[]> {
  const reader = stream.getReader();
  const items: number[] = [];
  for (let next = await reader.read(); !next.done; next = await reader.read()) items.push(next.value);
  return items;
}

const batchLists = fc.array(fc.array(fc.integer(), { maxLength: 6 }), { maxLength: 12 });

describe('streamFromBatches: for await reads the batches directly, and behaves as the standard iterator', () => {
  it('gives every item, in order, across batches of any size (empty ones included), as getReader() does', async () => {
    await fc.assert(
      fc.asyncProperty(batchLists, async (batches) => {
        const direct: number[] = [];
        for await (const item of source(batches).stream) direct.push(item);
        expect(direct).toEqual(batches.flat());
        expect(await viaReader(source(batches).stream)).toEqual(batches.flat());
      }),
    );
  });

  it('serves next() calls made before the last one settled in order, nothing lost or repeated', async () => {
    await fc.assert(
      fc.asyncProperty(batchLists, fc.integer({ min: 1, max: 8 }), async (batches, burst) => {
        const iterator = source(batches).stream[Symbol.asyncIterator]();
        const items: number[] = [];
        for (;;) {
          const results = await Promise.all(Array.from({ length: burst }, () => iterator.next()));
          for (const result of results) if (!result.done) items.push(result.value);
          if (results.some((result) => result.done)) break;
        }
        expect(items).toEqual(batches.flat());
      }),
    );
  });

  it('locks the stream while iterating and closes it at the end', async () => {
    const { stream } = source([[1, 2], [3]]);
    const iterator = stream[Symbol.asyncIterator]();
    expect(stream.locked).toBe(true);
    expect(() => stream.getReader()).toThrow(TypeError);
    while (!(await iterator.next()).done);
    expect(stream.locked).toBe(false);
    expect(await stream.getReader().read()).toEqual({ done: true, value: undefined });
  });

  it('breaking out cancels the work once: onCancel, then the generator returns (its finally runs)', async () => {
    const { stream, seen } = source([[1, 2], [3], [4]]);
    const items: number[] = [];
    for await (const item of stream) {
      items.push(item);
      if (item === 3) break;
    }
    expect(items).toEqual([1, 2, 3]);
    expect(seen.cancelled).toHaveLength(1);
    expect(seen.finallyRan).toBe(true);
  });

  it('a generator error is thrown from the loop after the items before it, and ends the iteration', async () => {
    const { stream, seen } = source([[1], [2]], 1);
    const items: number[] = [];
    await expect(
      (async () => {
        for await (const item of stream) items.push(item);
      })(),
    ).rejects.toThrow('boom');
    expect(items).toEqual([1]);
    expect(seen.finallyRan).toBe(true);
    expect(seen.cancelled).toEqual([]); // an error is not a cancel
  });

  // The iteration closes the stream through its controller (no cancel round trip): in every way it can end, and on a
  // stream that was already closed or cancelled before it was iterated.
  it('ends closed and unlocked however the iteration ends: finished, broken out of, failed', async () => {
    const ends: Array<(stream: ReadableStream<number> & AsyncIterable<number>) => Promise<unknown>> = [
      async (stream) => {
        for await (const _ of stream);
      },
      async (stream) => {
        for await (const _ of stream) break;
      },
      async (stream) => {
        const iterator = stream[Symbol.asyncIterator]();
        await iterator.next();
        return iterator.return?.();
      },
    ];
    for (const end of ends) {
      const { stream } = source([[1, 2], [3]]);
      await end(stream);
      expect(stream.locked).toBe(false);
      const reader = stream.getReader();
      expect(await reader.read()).toEqual({ done: true, value: undefined });
      await expect(reader.closed).resolves.toBeUndefined();
    }
    const failing = source([[1]], 1).stream;
    await expect((async () => { for await (const _ of failing); })()).rejects.toThrow('boom');
    expect(failing.locked).toBe(false);
    expect(await failing.getReader().read()).toEqual({ done: true, value: undefined });
  });

  it('iterating a stream cancelled or read to its end before gives nothing more and throws nothing', async () => {
    const cancelled = source([[1], [2]]);
    await cancelled.stream.cancel('stop');
    const items: number[] = [];
    for await (const item of cancelled.stream) items.push(item);
    expect(items).toEqual([]);
    expect(cancelled.stream.locked).toBe(false);

    const drained = source([[1], [2]]);
    const reader = drained.stream.getReader(); // via the stream's own source, which closes it at the end
    const read: number[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) read.push(next.value);
    reader.releaseLock();
    expect(read).toEqual([1, 2]);
    for await (const item of drained.stream) items.push(item);
    expect(items).toEqual([]);
    expect(drained.stream.locked).toBe(false);
  });

  it('cancelling the stream (not iterated) still returns the generator through onCancel', async () => {
    const { stream, seen } = source([[1], [2]]);
    await stream.cancel('stop');
    expect(seen.cancelled).toEqual(['stop']);
  });
});
