// The body a UI message stream is pumped into (src/ui/stream-pump.ts), where the reader and the run meet: the caller's
// `signal` ends the stream at once even while the run has not answered a read, `maxBufferedBytes` stops a run only
// for a reader that stopped reading (a reader that reads takes every frame, whatever its size), and however many
// streams watch one signal, the signal carries one abort listener.
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, type AgentRunItem } from '../../../src/agent/index.js';
import { createScriptedChatClient } from '../../../src/chat/index.js';
import { defineTool } from '../../../src/tools/index.js';
import { STALL_MS } from '../../../src/ui/stream-pump.js';
import { faultlineErrors, toUIMessageStream, toUIMessageStreamResponse } from '../../../src/ui/index.js';
import { checkedBody } from './ui-stream.js';

const ABORT_END = 'data: {"type":"abort","reason":"The run was cancelled: stop pressed"}\n\ndata: [DONE]\n\n';

afterEach(() => {
  vi.useRealTimers();
});

/** Reads a body to its end, or gives up after `ms` (real time): a stream that never ends fails the test, not the run. */
async function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<{ text: string; ended: boolean }> {
  const decoder = new TextDecoder();
  let text = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(resolve, ms, 'late');
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next === 'late') return { text, ended: false };
      if (next.done) return { text, ended: true };
      text += decoder.decode(next.value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Unhandled rejections seen from now until `stop()`. */
function watchUnhandled(): { seen: unknown[]; stop: () => void } {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  return { seen, stop: () => process.off('unhandledRejection', listener) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('signal, on a run read as an async iterable whose next() is pending', () => {
  it('an async generator stuck in a call that ignores the signal: the stream ends at once with abort and [DONE]', async () => {
    let resumed = false;
    async function* stuck(): AsyncGenerator<AgentRunItem> {
      yield { type: 'text-delta', iteration: 1, delta: 'Thinking ' };
      await new Promise(() => {}); // a model call or tool that does not watch this signal
      resumed = true;
    }
    const controller = new AbortController();
    const reader = toUIMessageStream(stuck(), { signal: controller.signal }).getReader();
    await reader.read(); // start: the run is now being read, its next() pending
    await tick();
    controller.abort(new Error('stop pressed'));
    const { text, ended } = await readWithin(reader, 1_000);
    expect(ended).toBe(true);
    expect(text.endsWith(ABORT_END)).toBe(true);
    expect(resumed).toBe(false);
  });

  it('the pending next() settling or rejecting after the abort: nothing of it reaches the stream, no unhandled rejection, return() called with the reason', async () => {
    for (const outcome of ['resolve', 'reject'] as const) {
      const unhandled = watchUnhandled();
      let settle: ((value: IteratorResult<AgentRunItem>) => void) | undefined;
      let fail: ((error: unknown) => void) | undefined;
      const returned: unknown[] = [];
      let calls = 0;
      const run: AsyncIterable<AgentRunItem> = {
        [Symbol.asyncIterator]: () => ({
          next: () => {
            calls++;
            if (calls === 1) return Promise.resolve({ done: false, value: { type: 'text-delta', iteration: 1, delta: 'Thinking ' } as AgentRunItem });
            return new Promise<IteratorResult<AgentRunItem>>((resolve, reject) => {
              settle = resolve;
              fail = reject;
            });
          },
          return: (reason?: unknown) => {
            returned.push(reason);
            return new Promise<IteratorResult<AgentRunItem>>(() => {}); // waits behind next(), as a generator's does
          },
        }),
      };
      const controller = new AbortController();
      const reader = toUIMessageStreamResponse(run, { signal: controller.signal }).body!.getReader();
      await reader.read();
      await tick();
      expect(settle).toBeDefined(); // the second next() is pending
      const why = new Error('stop pressed');
      controller.abort(why);
      const { text, ended } = await readWithin(reader, 1_000);
      expect(ended, outcome).toBe(true);
      expect(text.endsWith(ABORT_END), outcome).toBe(true);
      expect(returned).toEqual([why]);
      if (outcome === 'resolve') settle?.({ done: false, value: { type: 'text-delta', iteration: 1, delta: 'late ' } });
      else fail?.(new Error('the stuck call failed at last'));
      await tick();
      unhandled.stop();
      expect(unhandled.seen, outcome).toEqual([]);
      expect(text).not.toContain('late');
      expect(calls).toBe(2); // nothing was read after the abort
    }
  });

  it('an abort with no read in flight still cancels the run at once, and the next read gets abort and [DONE]', async () => {
    const returned: unknown[] = [];
    async function* slow(): AsyncGenerator<AgentRunItem> {
      try {
        for (;;) yield { type: 'text-delta', iteration: 1, delta: 'Thinking ' };
      } finally {
        returned.push('finally');
      }
    }
    const controller = new AbortController();
    const stream = toUIMessageStream(slow(), { signal: controller.signal });
    await tick(); // read ahead (16 KiB): the generator is suspended at a yield, no next() pending
    controller.abort(new Error('stop pressed'));
    await tick();
    expect(returned).toEqual(['finally']);
    const body = await checkedBody(stream);
    expect(body.errors).toEqual([]);
    expect(body.chunks.at(-1)).toMatchObject({ type: 'abort', reason: 'The run was cancelled: stop pressed' });
  });
});

/** An agent whose one tool returns `size` characters, then answers. */
function bigToolAgent(size: number) {
  let toolSignal: AbortSignal | undefined;
  const big = defineTool({
    name: 'dump',
    description: 'Returns a lot.',
    parameters: z.object({}),
    execute: (_args, { signal }) => {
      toolSignal = signal;
      return 'x'.repeat(size);
    },
  });
  const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_big', name: 'dump', arguments: {} }] }, { text: 'Dumped.' }]);
  const agent = new AgentBuilder('big').chatClient(model).tools([big]).toolLogger(false).build();
  return { agent, model, toolSignal: () => toolSignal };
}

/** Reads every frame, pausing `pauseMs` (a timer, as a socket write would) after each. */
async function readPausing(stream: ReadableStream<Uint8Array>, pauseMs: number): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

const finishReason = (text: string) => /"type":"finish","finishReason":"(\w+)"/.exec(text)?.[1];

/** The items of a real run of {@link bigToolAgent} (read with real timers), to replay where time is faked. */
async function recordedRun(size: number): Promise<AgentRunItem[]> {
  const items: AgentRunItem[] = [];
  for await (const item of bigToolAgent(size).agent.run('Dump it.')) items.push(item);
  return items;
}

/** `items` as a run read lazily: one item per pull, how many were read, and the reason it was cancelled with. */
function replay(items: readonly AgentRunItem[]): { stream: ReadableStream<AgentRunItem>; read: () => number; cancelled: () => unknown } {
  let read = 0;
  let reason: unknown = 'not cancelled';
  const stream = new ReadableStream<AgentRunItem>(
    {
      pull(controller) {
        if (read === items.length) controller.close();
        else controller.enqueue(items[read++] as AgentRunItem);
      },
      cancel(why) {
        reason = why;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, read: () => read, cancelled: () => reason };
}

describe('maxBufferedBytes', () => {
  it('a reader that reads every frame, pausing between reads, is never stopped by a frame larger than the bound', async () => {
    for (const pauseMs of [0, 1, 5]) {
      const { agent, model } = bigToolAgent(200_000); // a tool-output frame of ~400 KB, 4 times the bound
      const text = await readPausing(toUIMessageStream(agent.run('Dump it.'), { maxBufferedBytes: 100_000 }), pauseMs);
      expect(text, `pause ${pauseMs} ms`).not.toContain('buffer_full');
      expect(text).not.toContain('maxBufferedBytes');
      expect(finishReason(text), `pause ${pauseMs} ms`).toBe('stop');
      expect(model.requests).toHaveLength(2);
    }
  });

  it('the default bound (1 MiB) and a 2 MB tool output: a reader pausing 1 ms between reads gets the whole answer', async () => {
    const { agent, model } = bigToolAgent(2_000_000);
    const text = await readPausing(toUIMessageStream(agent.run('Dump it.')), 1);
    expect(finishReason(text)).toBe('stop');
    expect(text).toContain('x'.repeat(2_000_000));
    expect(model.requests).toHaveLength(2);
  });

  it('a reader that stops reading and comes back before the grace: nothing is lost (fake timers)', async () => {
    const items = await recordedRun(200_000); // a tool-output frame of ~400 KB, 4 times the bound
    vi.useFakeTimers();
    const run = replay(items);
    const stream = toUIMessageStream(run.stream, { maxBufferedBytes: 100_000 });
    await vi.advanceTimersByTimeAsync(0); // read ahead: the big frame waits in the stream
    expect(run.read()).toBeLessThan(items.length);
    await vi.advanceTimersByTimeAsync(STALL_MS - 1);
    expect(run.cancelled()).toBe('not cancelled');
    vi.useRealTimers();
    const body = await checkedBody(stream);
    expect(body.errors).toEqual([]);
    expect(faultlineErrors(body.message)).toEqual([]);
    expect(body.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(run.read()).toBe(items.length);
  });

  it('a reader that stops reading: more than the bound left untaken for the grace stops the run; the stream ends with a buffer_full StreamError, error and finish (fake timers)', async () => {
    const items = await recordedRun(200_000);
    vi.useFakeTimers();
    const run = replay(items);
    const reader = toUIMessageStream(run.stream, { maxBufferedBytes: 100_000 }).getReader();
    await reader.read(); // it read once, then stopped
    await vi.advanceTimersByTimeAsync(0);
    const readAhead = run.read();
    expect(vi.getTimerCount()).toBe(1); // the grace
    await vi.advanceTimersByTimeAsync(STALL_MS);
    expect(vi.getTimerCount()).toBe(0);
    expect(run.cancelled()).toMatchObject({ name: 'StreamError', reason: 'buffer_full' }); // the run was stopped
    expect(run.read()).toBe(readAhead);
    vi.useRealTimers();
    const { text, ended } = await readWithin(reader, 5_000);
    expect(ended).toBe(true);
    const chunks = text
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: {'))
      .map((frame) => JSON.parse(frame.slice('data: '.length)) as { type: string; data?: { type?: string; scope?: string; message?: string }; finishReason?: string });
    const error = chunks.find((chunk) => chunk.type === 'data-faultline-error' && chunk.data?.scope === 'run')?.data;
    expect(error).toMatchObject({ type: 'StreamError' });
    expect(error?.message).toMatch(/did not take for 10000 ms, more than maxBufferedBytes \(100000\); the run was stopped/);
    expect(chunks.map((chunk) => chunk.type).slice(-2)).toEqual(['error', 'finish']);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'error' });
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('a reader that cancels while frames wait past the bound leaves no timer (fake timers)', async () => {
    const items = await recordedRun(200_000);
    vi.useFakeTimers();
    const run = replay(items);
    const stream = toUIMessageStream(run.stream, { maxBufferedBytes: 100_000 });
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    const why = new Error('gone');
    await stream.cancel(why);
    expect(vi.getTimerCount()).toBe(0);
    expect(run.cancelled()).toBe(why);
  });
});

describe('abort listeners on the caller signal', () => {
  it('20 streams open on one signal add one abort listener, gone once they end; the abort ends all 20', async () => {
    const pending = () => new ReadableStream<AgentRunItem>({ pull() {} }, { highWaterMark: 0 }); // a run still thinking
    const shared = new AbortController();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const streams = Array.from({ length: 20 }, () => toUIMessageStream(pending(), { signal: shared.signal }));
    await tick();
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(1);
    await Promise.all(streams.slice(0, 10).map((stream) => stream.cancel()));
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(1);
    shared.abort(new Error('stop pressed'));
    const bodies = await Promise.all(streams.slice(10).map((stream) => readWithin(stream.getReader(), 1_000)));
    for (const body of bodies) expect(body.ended && body.text.endsWith(ABORT_END)).toBe(true);
    process.off('warning', onWarning);
    expect(warnings).toEqual([]);

    const other = new AbortController();
    const more = Array.from({ length: 20 }, () => toUIMessageStream(pending(), { signal: other.signal }));
    await tick();
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(1);
    await Promise.all(more.map((stream) => stream.cancel()));
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
  });
});
