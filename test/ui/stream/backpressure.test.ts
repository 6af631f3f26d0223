// A client that reads slowly or not at all: the run is read only as fast as the stream is (backpressure reaches the
// run), frames that outgrow `maxBufferedBytes` end the stream with a typed error and `finish`, and a client that goes
// away cancels the run — its tools stop and no timer is left.
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { AgentBuilder, type AgentRunItem } from '../../../src/agent/index.js';
import { createScriptedChatClient } from '../../../src/chat/index.js';
import { ConfigError } from '../../../src/errors/index.js';
import { defineTool } from '../../../src/tools/index.js';
import { DEFAULT_MAX_BUFFERED_BYTES, faultlineErrors, toUIMessageStream, toUIMessageStreamResponse } from '../../../src/ui/index.js';
import { STALL_MS } from '../../../src/ui/stream-pump.js';
import { checkedBody } from './ui-stream.js';

/** A run that never ends on its own: a text delta per pull, counted. */
function endlessRun(): { stream: ReadableStream<AgentRunItem>; pulls: () => number; cancelled: () => unknown } {
  let pulls = 0;
  let reason: unknown = 'not cancelled';
  const stream = new ReadableStream<AgentRunItem>(
    {
      pull(controller) {
        pulls++;
        controller.enqueue({ type: 'text-delta', iteration: 1, delta: `word${pulls} ` });
      },
      cancel(why) {
        reason = why;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulls: () => pulls, cancelled: () => reason };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

afterEach(() => {
  vi.useRealTimers();
});

describe('backpressure reaches the run', () => {
  it('a reader that stops reading: the run is not read further', async () => {
    const run = endlessRun();
    const reader = toUIMessageStream(run.stream).getReader();
    for (let index = 0; index < 5; index++) await reader.read();
    await settle();
    const afterStop = run.pulls();
    await settle();
    expect(run.pulls()).toBe(afterStop);
    expect(afterStop).toBeLessThan(1_000); // at most the read-ahead of 16 KiB of frames
    await reader.cancel();
  });

  it('a reader that never reads: the run is read at most the read-ahead, memory stays bounded', async () => {
    const run = endlessRun();
    const stream = toUIMessageStream(run.stream);
    await settle();
    const pulled = run.pulls();
    await settle();
    expect(run.pulls()).toBe(pulled);
    expect(pulled * 'data: {"type":"text-delta","id":"t1-1","delta":"word100 "}\n\n'.length).toBeLessThan(16_384 * 2);
    await stream.cancel();
  });

  it('a reader that reads as frames come holds nothing: a large output goes through', async () => {
    const big = defineTool({ name: 'dump', description: 'Returns a lot.', parameters: z.object({}), execute: () => 'x'.repeat(200_000) });
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_big', name: 'dump', arguments: {} }] }, { text: 'Dumped.' }]);
    const agent = new AgentBuilder('big').chatClient(model).tools([big]).toolLogger(false).build();
    const body = await checkedBody(toUIMessageStream(agent.run('Dump it.'), { maxBufferedBytes: 100_000 }));
    expect(body.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('frames that outgrow maxBufferedBytes while the reader is away (none taken for STALL_MS): the run is stopped, the stream ends with a buffer_full StreamError, error and finish', async () => {
    vi.useFakeTimers();
    const big = defineTool({ name: 'dump', description: 'Returns a lot.', parameters: z.object({}), execute: () => 'x'.repeat(200_000) });
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_big', name: 'dump', arguments: {} }] }, { text: 'never asked' }]);
    const agent = new AgentBuilder('big').chatClient(model).tools([big]).toolLogger(false).build();
    const stream = toUIMessageStream(agent.run('Dump it.'), { maxBufferedBytes: 100_000 });
    await vi.advanceTimersByTimeAsync(0); // nobody reads: the frames wait in the stream
    await vi.advanceTimersByTimeAsync(STALL_MS); // … and nobody takes them
    vi.useRealTimers();
    const body = await checkedBody(stream);
    const [error] = faultlineErrors(body.message).filter((entry) => entry.scope === 'run');
    expect(error).toMatchObject({ type: 'StreamError', kind: 'stream', retryable: false });
    expect(error?.message).toMatch(/more than maxBufferedBytes \(100000\); the run was stopped/);
    expect(body.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'error' });
    expect(model.requests).toHaveLength(1); // the run was stopped: no second model call
  });

  it('the default bound is 1 MiB, and a bound that is not a positive integer is a ConfigError', () => {
    expect(DEFAULT_MAX_BUFFERED_BYTES).toBe(1_048_576);
    const run = () => endlessRun().stream;
    for (const maxBufferedBytes of [0, -1, 1.5, Number.NaN, '1000']) {
      expect(() => toUIMessageStream(run(), { maxBufferedBytes } as never)).toThrow(ConfigError);
    }
    expect(() => toUIMessageStream(run(), { expose: 'everything' } as never)).toThrow(/expose must be 'model' or 'developer'/);
    expect(() => toUIMessageStream(run(), { maxSteps: 3 } as never)).toThrow(/unknown option "maxSteps"/);
    expect(() => toUIMessageStream('not a run' as never)).toThrow(/run must be the stream of agent.run/);
    const locked = run();
    locked.getReader();
    expect(() => toUIMessageStream(locked)).toThrow(/already being read/);
    expect(() => toUIMessageStreamResponse(run(), { status: 99 })).toThrow(/status must be an HTTP status/);
  });
});

describe('a client that goes away', () => {
  it('cancelling the stream cancels the run with the reason', async () => {
    const run = endlessRun();
    const reader = toUIMessageStream(run.stream).getReader();
    await reader.read();
    const why = new Error('the tab was closed');
    await reader.cancel(why);
    expect(run.cancelled()).toBe(why);
  });

  it('cancelling mid-tool aborts the agent run: the tool sees the abort, and no timer is left (fake timers)', async () => {
    vi.useFakeTimers();
    let seen: AbortSignal | undefined;
    const slow = defineTool({
      name: 'slow',
      description: 'Waits a minute.',
      parameters: z.object({}),
      execute: (_args, { signal }) => {
        seen = signal;
        return new Promise((resolve) => setTimeout(resolve, 60_000, 'late'));
      },
    });
    const model = createScriptedChatClient([{ toolCalls: [{ id: 'call_slow', name: 'slow', arguments: {} }] }, { text: 'done' }]);
    const agent = new AgentBuilder('slow').chatClient(model).tools([slow]).toolLogger(false).build();
    const reader = toUIMessageStream(agent.run('Wait.')).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('tool-input-available')) text += decoder.decode((await reader.read()).value);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen?.aborted).toBe(false);
    expect(vi.getTimerCount()).toBeGreaterThan(0); // the tool's wait and its time limit
    await reader.cancel(new Error('gone'));
    await vi.advanceTimersByTimeAsync(0);
    expect(seen?.aborted).toBe(true);
    vi.clearAllTimers(); // the tool's own setTimeout is the tool's: it ignores its signal
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(model.requests).toHaveLength(1);
  });

  it('with signal: the run is cancelled and the stream ends with abort and [DONE]', async () => {
    const run = endlessRun();
    const controller = new AbortController();
    const reader = toUIMessageStream(run.stream, { signal: controller.signal }).getReader();
    await reader.read();
    controller.abort(new Error('stop pressed'));
    let text = '';
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    expect(text.endsWith('data: {"type":"abort","reason":"The run was cancelled: stop pressed"}\n\ndata: [DONE]\n\n')).toBe(true);
    expect(run.cancelled()).toMatchObject({ message: 'stop pressed' });
  });

  it('a signal aborted before the start: start, abort, [DONE], and the run is cancelled at once', async () => {
    const run = endlessRun();
    const body = await checkedBody(toUIMessageStream(run.stream, { signal: AbortSignal.abort(new Error('too late')) }));
    expect(body.chunks.map((chunk) => chunk.type)).toEqual(['start', 'abort']);
    expect(run.pulls()).toBe(0);
  });
});
