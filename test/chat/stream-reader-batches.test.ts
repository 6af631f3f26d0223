// The stream reader decodes bytes that are already waiting in the body into one batch (src/chat/core/stream-reader.ts):
// a consumer that fell behind gets a burst as one batch, one that keeps up gets each read at once, and a failure met
// after chunks of a burst comes after those chunks — nothing lost, nothing reordered, every failure typed.
import { describe, expect, it } from 'vitest';
import { openChatBatches } from '../../src/chat/core/chat-batches.js';
import { MAX_READS_PER_BATCH } from '../../src/chat/core/stream-reader.js';
import { createOpenAICompatibleClient, type ChatChunk, type ChatClient } from '../../src/chat/index.js';
import { StreamError } from '../../src/errors/index.js';
import { chunk } from '../../src/testing/openai-stream.js';

const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
const encoder = new TextEncoder();
const frame = (value: unknown): Uint8Array => encoder.encode(`data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`);
const word = (index: number): Uint8Array => frame(chunk({ content: `w${index} ` }));
const words = (count: number, from = 0): string => Array.from({ length: count }, (_, index) => `w${from + index} `).join('');

function clientOver(body: () => ReadableStream<Uint8Array>, timeouts?: { idleMs?: number }): ChatClient {
  return createOpenAICompatibleClient({
    baseURL: 'http://reader.test/v1',
    model: 'm',
    retry: false,
    timeouts,
    fetch: async () => new Response(body(), { headers: { 'content-type': 'text/event-stream' } }),
  });
}

/** A body whose reads are all waiting at once (enqueued before the first read). */
const queued = (reads: readonly Uint8Array[]) => () =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const bytes of reads) controller.enqueue(bytes);
      controller.close();
    },
  });

const textOf = (batch: readonly ChatChunk[]): string => batch.map((piece) => (piece.type === 'text-delta' ? piece.delta : '')).join('');

/** Reads every batch: the text they carried, and the failure that ended them (if one did). */
async function drainText(batches: AsyncIterable<readonly ChatChunk[]>): Promise<{ text: string; failure: unknown }> {
  let text = '';
  try {
    for await (const batch of batches) text += textOf(batch);
  } catch (failure) {
    return { text, failure };
  }
  return { text, failure: undefined };
}

describe('StreamReader batches', () => {
  it('decodes reads already waiting into one batch, at most MAX_READS_PER_BATCH of them, each read its own chunk', async () => {
    const count = MAX_READS_PER_BATCH * 2 + 5;
    const reads = [...Array.from({ length: count }, (_, index) => word(index)), frame(chunk({}, 'stop')), frame('[DONE]')];
    const { batches } = openChatBatches(clientOver(queued(reads)), request);
    const seen: ChatChunk[][] = [];
    for await (const batch of batches) seen.push([...batch]);
    expect(seen[0]).toEqual(Array.from({ length: MAX_READS_PER_BATCH }, (_, index) => ({ type: 'text-delta', delta: `w${index} ` })));
    expect(seen.map(textOf).join('')).toBe(words(count));
    expect(seen.length).toBeLessThan(count / 10);
    expect(seen.at(-1)?.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
  });

  it('does not wait for bytes that are not there yet: a read that keeps pace is a batch at once', async () => {
    let push!: (bytes: Uint8Array) => void;
    let close!: () => void;
    const body = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          push = (bytes) => controller.enqueue(bytes);
          close = () => controller.close();
          controller.enqueue(word(0));
        },
      });
    const { batches } = openChatBatches(clientOver(body), request);
    expect((await batches.next()).value).toEqual([{ type: 'text-delta', delta: 'w0 ' }]); // the rest is not sent yet
    const next = batches.next();
    push(word(1));
    expect((await next).value).toEqual([{ type: 'text-delta', delta: 'w1 ' }]);
    push(frame(chunk({}, 'stop')));
    push(frame('[DONE]'));
    close();
    expect((await batches.next()).value).toMatchObject([{ type: 'finish', reason: 'stop' }]);
    expect((await batches.next()).done).toBe(true);
  });

  it('a malformed frame after chunks of the same burst: the chunks first, then the typed failure', async () => {
    const reads = [word(0), word(1), word(2), frame('{"not json'), word(3)];
    const { batches } = openChatBatches(clientOver(queued(reads)), request);
    const first = await batches.next();
    expect(first.value).toEqual([0, 1, 2].map((index) => ({ type: 'text-delta', delta: `w${index} ` })));
    const failure = await batches.next().catch((error: unknown) => error);
    expect(StreamError.isInstance(failure) && failure.reason).toBe('malformed_chunk');
    expect(StreamError.isInstance(failure) && failure.afterOutput).toBe(true);
  });

  it('a connection that drops after chunks of a burst: the chunks first, then read_failed', async () => {
    let pulls = 0;
    const body = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulls < 3) controller.enqueue(word(pulls++));
          else throw new TypeError('terminated');
        },
      });
    const { batches } = openChatBatches(clientOver(body), request);
    const { text, failure } = await drainText(batches);
    expect(text).toBe(words(3));
    expect(StreamError.isInstance(failure) && failure.reason).toBe('read_failed');
  });

  it('the idle limit still fires after a burst when the peer then sends bytes but no event', async () => {
    let keepAlive: ReturnType<typeof setInterval> | undefined;
    const body = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let index = 0; index < 5; index++) controller.enqueue(word(index));
          keepAlive = setInterval(() => controller.enqueue(encoder.encode(': ping\n\n')), 10);
        },
        cancel() {
          clearInterval(keepAlive);
        },
      });
    const { batches } = openChatBatches(clientOver(body, { idleMs: 80 }), request);
    const { text, failure } = await drainText(batches);
    clearInterval(keepAlive);
    expect(text).toBe(words(5));
    expect(failure).toMatchObject({ name: 'ChatClientError', reason: 'timeout', timeout: 'idle' });
  });

  it('cancelling between batches releases the body (a read asked for ahead is not left pending)', async () => {
    let cancelled: unknown = 'not cancelled';
    const body = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(word(0));
        },
        cancel(reason) {
          cancelled = reason;
        },
      });
    const call = openChatBatches(clientOver(body), request);
    expect((await call.batches.next()).value).toEqual([{ type: 'text-delta', delta: 'w0 ' }]);
    call.cancel(new Error('stop'));
    await call.batches.return(undefined);
    expect(cancelled).not.toBe('not cancelled');
  });
});
