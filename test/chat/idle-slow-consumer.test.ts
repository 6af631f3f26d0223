// The idle limit (`timeouts.idleMs`) measures the provider, not the consumer (src/chat/core/stream-reader.ts): it runs
// while a read of the body is pending and pauses while the consumer holds a batch. A consumer slower than `idleMs` on
// a stream whose bytes have all arrived gets the whole answer; a provider that goes silent while the reader waits still
// times out; the total limit still counts everything.
import { describe, expect, it } from 'vitest';
import { streamAgent } from '../../src/agent/index.js';
import { createOpenAICompatibleClient, type ChatClient, type ChatTimeouts } from '../../src/chat/index.js';
import { chunk } from '../../src/testing/openai-stream.js';

const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
const encoder = new TextEncoder();
const frame = (value: unknown): Uint8Array => encoder.encode(`data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const answer = (...words: string[]): Uint8Array[] => [...words.map((word) => frame(chunk({ content: word }))), frame(chunk({}, 'stop')), frame('[DONE]')];

function clientOver(body: () => ReadableStream<Uint8Array>, timeouts: Partial<ChatTimeouts>): ChatClient {
  return createOpenAICompatibleClient({
    baseURL: 'http://idle.test/v1',
    model: 'm',
    retry: false,
    timeouts,
    fetch: async () => new Response(body(), { headers: { 'content-type': 'text/event-stream' } }),
  });
}

/** Each frame its own network read, `gapMs` apart; `silentAfter`: the body then stays open and sends nothing more. */
function paced(frames: readonly Uint8Array[], gapMs: number, silentAfter?: number) {
  return () =>
    new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const [index, bytes] of frames.entries()) {
          if (index === silentAfter) return;
          controller.enqueue(bytes);
          await sleep(gapMs);
        }
        controller.close();
      },
    });
}

/** Every frame waiting at once (enqueued before the first read). */
function queued(frames: readonly Uint8Array[]) {
  return () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const bytes of frames) controller.enqueue(bytes);
        controller.close();
      },
    });
}

/** Reads the stream, waiting `holdMs` per chunk: the text it got, how it ended, when. */
async function consume(client: ChatClient, holdMs: number): Promise<{ text: string; finish: string | undefined; error: unknown; ms: number }> {
  const started = performance.now();
  let text = '';
  let finish: string | undefined;
  try {
    for await (const piece of client.stream(request)) {
      if (piece.type === 'text-delta') text += piece.delta;
      if (piece.type === 'finish') finish = piece.reason;
      if (holdMs > 0) await sleep(holdMs);
    }
  } catch (error) {
    return { text, finish, error, ms: performance.now() - started };
  }
  return { text, finish, error: undefined, ms: performance.now() - started };
}

describe('idle limit and a slow consumer', () => {
  it('a consumer slower than idleMs gets the whole answer when the provider sent it at its own pace', async () => {
    // The reviewer's repro: every frame, [DONE] included, sent by ~40 ms; the consumer takes 150 ms per chunk.
    const run = await consume(clientOver(paced(answer('Hello', ' world', '!'), 10), { idleMs: 60 }), 150);
    expect(run.error).toBeUndefined();
    expect(run.text).toBe('Hello world!');
    expect(run.finish).toBe('stop');
  });

  it('a consumer slower than idleMs gets the whole answer when every byte was already waiting', async () => {
    const run = await consume(clientOver(queued(answer('a', 'b', 'c')), { idleMs: 40 }), 100);
    expect(run.error).toBeUndefined();
    expect(run.text).toBe('abc');
  });

  it('the bytes of a slow provider are judged by the time the reader waits, not by the consumer holding chunks', async () => {
    // Frames 30 ms apart (under idleMs), a consumer 100 ms per chunk (over it): the provider is never idle.
    const run = await consume(clientOver(paced(answer('one ', 'two ', 'three ', 'four'), 30), { idleMs: 70 }), 100);
    expect(run.error).toBeUndefined();
    expect(run.text).toBe('one two three four');
  });

  it('a provider that goes silent mid-stream still times out a consumer that reads promptly', async () => {
    const run = await consume(clientOver(paced(answer('Hel', 'lo'), 5, 1), { idleMs: 60 }), 0);
    expect(run.text).toBe('Hel');
    expect(run.error).toMatchObject({ name: 'ChatClientError', reason: 'timeout', timeout: 'idle', message: 'Chat API (idle.test) sent nothing for 60 ms mid-stream (idle timeout)' });
    expect(run.ms).toBeLessThan(1_000);
  });

  it('a provider that goes silent while the consumer holds a chunk times out too: a read was pending all along', async () => {
    const run = await consume(clientOver(paced(answer('Hel', 'lo'), 5, 1), { idleMs: 50 }), 150);
    expect(run.text).toBe('Hel');
    expect(run.error).toMatchObject({ name: 'ChatClientError', reason: 'timeout', timeout: 'idle' });
  });

  it('a provider silent after the consumer came back times out idleMs from then, not earlier and not never', async () => {
    // The read asked for ahead settles (a keep-alive) while the consumer holds the first chunk: no read is pending, the
    // limit pauses; the next read restarts it and the silence that follows ends it.
    const body = () =>
      new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(frame(chunk({ content: 'Hel' })));
          await sleep(10);
          controller.enqueue(encoder.encode(': keep-alive\n\n'));
        },
      });
    const run = await consume(clientOver(body, { idleMs: 50 }), 120);
    expect(run.text).toBe('Hel');
    expect(run.error).toMatchObject({
      name: 'ChatClientError',
      reason: 'timeout',
      timeout: 'idle',
      message: 'Chat API (idle.test) sent no event for 50 ms mid-stream, only keep-alives or unfinished data (idle timeout)',
    });
    expect(run.ms).toBeGreaterThanOrEqual(120 + 45);
  });

  it('the total limit still counts the time the consumer holds chunks', async () => {
    // 20 words 20 ms apart (under idleMs), 100 ms per chunk: the total limit ends the call while the consumer holds one.
    const words = Array.from({ length: 20 }, (_, index) => `w${index} `);
    const run = await consume(clientOver(paced(answer(...words), 20), { idleMs: 80, totalMs: 250 }), 100);
    expect(run.error).toMatchObject({ name: 'ChatClientError', reason: 'timeout', timeout: 'total' });
    expect(run.text.length).toBeLessThan(words.join('').length);
  });

  it('streamAgent with a consumer slower than idleMs finishes the run', async () => {
    const model = clientOver(paced(answer('Hello', ' world', '!'), 10), { idleMs: 60 });
    const items: string[] = [];
    let text: string | undefined;
    for await (const item of streamAgent({ model, prompt: 'hi' })) {
      items.push(item.type);
      if (item.type === 'error') throw item.error;
      if (item.type === 'finish') text = item.text;
      await sleep(100);
    }
    expect(text).toBe('Hello world!');
  });
});
