// One timer per run and one fetch controller per run (issue 17): the limits still fire on time and typed, an attempt
// that timed out never hands its aborted controller to the next fetch, and the run's signal is real when read.
import * as z from 'zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentBuilder } from '../../src/agent/agent-builder.js';
import { requestUnder, abortParentOf } from '../../src/chat/core/request-abort.js';
import { createOpenAICompatibleClient } from '../../src/chat/openai/openai-compatible-client.js';
import { ChatClientError } from '../../src/errors/chat-client-error.js';
import { AbortSource } from '../../src/internal/abort-source.js';
import { Deadlines } from '../../src/internal/deadlines.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { ChatClient, ChatRequest, ChatStream } from '../../src/chat/core/types.js';

const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-test' };
const frame = (payload: unknown) => `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
const ANSWER = [frame({ ...head, choices: [{ index: 0, delta: { content: 'Sunny.' }, finish_reason: null }] }), frame({ ...head, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }), frame('[DONE]')].join('');
const TOOL_TURN = [
  frame({ ...head, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'slow', arguments: '{}' } }] }, finish_reason: null }] }),
  frame({ ...head, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
  frame('[DONE]'),
].join('');
const sse = (text: string) => new Response(new TextEncoder().encode(text), { headers: { 'content-type': 'text/event-stream' } });
const silent = () => new Response(new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) }), { headers: { 'content-type': 'text/event-stream' } });

afterEach(() => vi.useRealTimers());

describe('Deadlines: many limits, one timer', () => {
  it('fires each limit at its time (mocked clock), earliest first, and a moved limit at its new time', async () => {
    vi.useFakeTimers();
    const deadlines = new Deadlines();
    const fired: string[] = [];
    deadlines.add(300, () => fired.push('300'));
    deadlines.add(100, () => fired.push('100'));
    const moved = deadlines.add(200, () => fired.push('moved'));
    await vi.advanceTimersByTimeAsync(150);
    expect(fired).toEqual(['100']);
    deadlines.move(moved, 500); // now at 650
    await vi.advanceTimersByTimeAsync(200);
    expect(fired).toEqual(['100', '300']);
    await vi.advanceTimersByTimeAsync(299);
    expect(fired).toEqual(['100', '300']);
    await vi.advanceTimersByTimeAsync(1);
    expect(fired).toEqual(['100', '300', 'moved']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a cancelled limit never fires; release clears the timer once nothing is pending; close stops everything', async () => {
    vi.useFakeTimers();
    const deadlines = new Deadlines();
    let fired = 0;
    const entry = deadlines.add(100, () => fired++);
    await vi.advanceTimersByTimeAsync(0);
    deadlines.cancel(entry);
    deadlines.release();
    expect(vi.getTimerCount()).toBe(0);
    deadlines.add(50, () => fired++);
    deadlines.close();
    await vi.advanceTimersByTimeAsync(500);
    expect(fired).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a limit that throws does not stop the others of the same firing', async () => {
    vi.useFakeTimers();
    const deadlines = new Deadlines();
    const fired: number[] = [];
    deadlines.add(10, () => {
      throw new Error('boom');
    });
    deadlines.add(10, () => fired.push(2));
    await vi.advanceTimersByTimeAsync(10);
    expect(fired).toEqual([2]);
  });
});

describe('AbortSource: the run’s abort without listeners', () => {
  it('follows the caller’s signal with its reason, runs watchers in order, and its signal is real and aborted with it', async () => {
    const caller = new AbortController();
    const source = new AbortSource(caller.signal);
    const seen: string[] = [];
    source.watch(() => seen.push('a'));
    const stop = source.watch(() => seen.push('b'));
    source.watch(() => seen.push('c'));
    stop();
    const signal = source.signal;
    caller.abort('bye');
    expect(seen).toEqual(['a', 'c']);
    expect(signal.aborted && signal.reason).toBe('bye');
    expect(source.reason).toBe('bye');
    source.dispose();
    const late: string[] = [];
    source.watch(() => late.push('late'));
    await Promise.resolve();
    expect(late).toEqual(['late']); // on a source already aborted, on the microtask queue
  });

  it('lends one controller in turn, never an aborted one', () => {
    const source = new AbortSource();
    const first = source.lend();
    source.giveBack(first);
    expect(source.lend()).toBe(first);
    first.abort('limit');
    source.giveBack(first);
    expect(source.lend()).not.toBe(first);
  });

  it('a run request: signal made when read, replaced by assignment; copies carry the real signal', () => {
    const source = new AbortSource();
    const request = requestUnder([{ role: 'user', content: 'hi' }], {}, source);
    expect(abortParentOf(request)).toBe(source);
    const copy: ChatRequest = { ...request };
    expect(copy.signal).toBe(source.signal);
    expect(abortParentOf(copy)).toBe(source.signal);
    const mine = new AbortController().signal;
    request.signal = mine;
    expect(request.signal).toBe(mine);
    expect(abortParentOf(request)).toBe(mine);
  });
});

describe('limits of a run on one timer, end to end', () => {
  it('a first fetch that times out keeps its aborted controller; the retry gets a fresh one and answers', async () => {
    const signals: AbortSignal[] = [];
    let calls = 0;
    const client = createOpenAICompatibleClient({
      baseURL: 'http://model.test/v1',
      model: 'gpt-test',
      retry: { maxAttempts: 2, initialDelayMs: 0 },
      timeouts: { firstChunkMs: 40 },
      fetch: async (_url, init) => {
        signals.push(init?.signal as AbortSignal);
        return calls++ === 0 ? silent() : sse(ANSWER);
      },
    });
    const agent = new AgentBuilder('a').chatClient(client).build();
    let text = '';
    for await (const item of agent.run('hi')) {
      if (item.type === 'text-delta') text += item.delta;
      if (item.type === 'error') throw item.error;
    }
    expect(text).toBe('Sunny.');
    expect(signals).toHaveLength(2);
    expect(signals[0]?.aborted).toBe(true);
    expect(ChatClientError.isInstance(signals[0]?.reason) && (signals[0]?.reason as ChatClientError).timeout).toBe('first_chunk');
    expect(signals[1]).not.toBe(signals[0]);
    expect(signals[1]?.aborted).toBe(false);
  });

  it('the tool’s limit on the run’s timer still ends a tool that ignores its signal, typed, and the run goes on', async () => {
    let turn = 0;
    const client = createOpenAICompatibleClient({ baseURL: 'http://model.test/v1', model: 'gpt-test', fetch: async () => sse(turn++ === 0 ? TOOL_TURN : ANSWER) });
    const slow = defineTool({ name: 'slow', description: 'Never ends.', parameters: z.object({}), timeoutMs: 30, execute: () => new Promise(() => {}) });
    const agent = new AgentBuilder('a').chatClient(client).tools([slow]).build();
    const outcomes: string[] = [];
    let text = '';
    for await (const item of agent.run('go')) {
      if (item.type === 'tool-result') outcomes.push(item.outcome);
      if (item.type === 'text-delta') text += item.delta;
    }
    expect(outcomes).toEqual(['timeout']);
    expect(text).toBe('Sunny.');
  });

  it('a client of another package reads request.signal: a real signal that aborts with the run', async () => {
    let seen: AbortSignal | undefined;
    const foreign: ChatClient = {
      name: 'foreign',
      model: 'm',
      provider: 'test',
      complete: () => Promise.reject(new Error('unused')),
      stream(request): ChatStream {
        const signal = request.signal as AbortSignal;
        seen = signal;
        return new ReadableStream({ start: (controller) => signal.addEventListener('abort', () => controller.error(signal.reason)) }) as ChatStream;
      },
    } as ChatClient;
    const caller = new AbortController();
    const agent = new AgentBuilder('a').chatClient(foreign).build();
    const items: unknown[] = [];
    const running = (async () => {
      for await (const item of agent.run('hi', { signal: caller.signal })) items.push(item);
    })();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toBeInstanceOf(AbortSignal);
    expect(seen?.aborted).toBe(false);
    caller.abort('stop');
    await running;
    expect(seen?.aborted && seen.reason).toBe('stop');
    expect(items.at(-1)).toMatchObject({ type: 'error', terminal: true, error: 'stop' });
  });
});
