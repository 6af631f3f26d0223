// What a run costs in abort scopes and timers (issue 17: "lazy or shared abort scopes and timers"), and that the lazy
// scopes still end everything they must. A budget per run that cannot grow with the events of a stream: a change that
// brings back a controller per call, a listener per attempt or a timer per event fails here.
import { getEventListeners } from 'node:events';
import * as z from 'zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentBuilder } from '../../src/agent/agent-builder.js';
import { createOpenAICompatibleClient } from '../../src/chat/openai/openai-compatible-client.js';
import { ChatClientError } from '../../src/errors/chat-client-error.js';
import { RaceSet } from '../../src/internal/race-set.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { runTool } from '../../src/tools/run-tool.js';
import { readAll } from '../helpers/chat-stream.js';

const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-test' };
const frame = (payload: unknown) => `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
const textFrame = (content: string) => frame({ ...head, choices: [{ index: 0, delta: { content }, finish_reason: null }] });
const finishFrame = (reason: string) => frame({ ...head, choices: [{ index: 0, delta: {}, finish_reason: reason }] });
const TOOL_TURN = [
  frame({ ...head, choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }, finish_reason: null }] }),
  finishFrame('tool_calls'),
  frame('[DONE]'),
].join('');
const ANSWER_TURN = [textFrame('Sunny.'), finishFrame('stop'), frame('[DONE]')].join('');

/** A body sending `frames` one read each, `everyMs` apart (0: all at once). */
function body(frames: readonly string[], everyMs = 0): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (index >= frames.length) return; // then silence: the connection stays open
      if (everyMs > 0 && index > 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
      controller.enqueue(encoder.encode(frames[index++]));
    },
  });
}
const sse = (stream: ReadableStream<Uint8Array>) => new Response(stream, { headers: { 'content-type': 'text/event-stream' } });

/** Counts what the code under test creates while `work` runs. */
async function counting(work: () => Promise<void>): Promise<{ controllers: number; timers: number; listeners: number }> {
  const counts = { controllers: 0, timers: 0, listeners: 0 };
  const Original = globalThis.AbortController;
  const setTimer = globalThis.setTimeout;
  const add = EventTarget.prototype.addEventListener;
  globalThis.AbortController = class extends Original {
    constructor() {
      super();
      counts.controllers++;
    }
  };
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => (counts.timers++, setTimer(...args))) as typeof setTimeout;
  EventTarget.prototype.addEventListener = function (this: EventTarget, ...args: Parameters<EventTarget['addEventListener']>) {
    if (this instanceof AbortSignal) counts.listeners++;
    return add.apply(this, args);
  };
  try {
    await work();
  } finally {
    globalThis.AbortController = Original;
    globalThis.setTimeout = setTimer;
    EventTarget.prototype.addEventListener = add;
  }
  return counts;
}

afterEach(() => vi.useRealTimers());

describe('abort scopes and timers per run', () => {
  const weather = defineTool({ name: 'get_weather', description: 'Weather.', parameters: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, sky: 'sunny' }) });
  const agentOn = (fetch: typeof globalThis.fetch) =>
    new AgentBuilder('budget').chatClient(createOpenAICompatibleClient({ baseURL: 'http://model.test/v1', model: 'gpt-test', fetch })).tools([weather]).build();

  it('a 2-step tool run makes 1 controller (its fetches share it), no listener and 1 timer, not one more', async () => {
    const agent = agentOn(async (_url, init) => sse(body([String(init?.body).includes('"role":"tool"') ? ANSWER_TURN : TOOL_TURN])));
    const run = async () => {
      for await (const item of agent.run('Weather?')) if (item.type === 'error') throw item.error;
    };
    await run(); // warm-up
    const counts = await counting(run);
    // The run's limits (each call's total, first-chunk and idle limits, the tool's) are deadlines on one timer; the run
    // is watched without listeners; the second fetch reuses the controller the first gave back (issue 17: was 3/3/7).
    expect(counts).toEqual({ controllers: 1, timers: 1, listeners: 0 });
  });

  it('timers do not grow with the events of a stream: 200 events in 200 reads arm 1 timer', async () => {
    const frames = [...Array.from({ length: 200 }, (_, index) => textFrame(`t${index} `)), finishFrame('stop'), frame('[DONE]')];
    const client = createOpenAICompatibleClient({ baseURL: 'http://model.test/v1', model: 'gpt-test', fetch: async () => sse(body(frames)) });
    let text = '';
    const counts = await counting(async () => {
      const { chunks, error } = await readAll(client.stream({ messages: [{ role: 'user', content: 'hi' }] }));
      if (error) throw error;
      for (const chunk of chunks) if (chunk.type === 'text-delta') text += chunk.delta;
    });
    expect(text).toBe(Array.from({ length: 200 }, (_, index) => `t${index} `).join(''));
    expect(counts.timers).toBe(1); // the call's total and its attempt's limits share it; events only move a deadline later
  });

  it('the idle limit still fires its time after the last event, however many events moved it', async () => {
    const client = createOpenAICompatibleClient({
      baseURL: 'http://model.test/v1',
      model: 'gpt-test',
      retry: false,
      timeouts: { idleMs: 60, firstChunkMs: 1_000 },
      fetch: async () => sse(body(Array.from({ length: 8 }, (_, index) => textFrame(`${index}`)), 15)),
    });
    let lastEvent = 0;
    const stream = client.stream({ messages: [{ role: 'user', content: 'hi' }] });
    const failure = await (async () => {
      try {
        for await (const chunk of stream) if (chunk.type === 'text-delta') lastEvent = performance.now();
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    const silence = performance.now() - lastEvent;
    expect(ChatClientError.isInstance(failure) && failure.timeout).toBe('idle');
    expect(silence).toBeGreaterThanOrEqual(55);
    expect(silence).toBeLessThan(400);
  });

  it('with mocked timers and a real clock the idle limit still fires (at most one period late), never loops', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const frames = [textFrame('a'), textFrame('b')];
    const client = createOpenAICompatibleClient({ baseURL: 'http://model.test/v1', model: 'gpt-test', retry: false, timeouts: { idleMs: 1_000, firstChunkMs: 5_000 }, fetch: async () => sse(body(frames)) });
    const reading = readAll(client.stream({ messages: [{ role: 'user', content: 'hi' }] }));
    await vi.advanceTimersByTimeAsync(2_100);
    const { chunks, error } = await reading;
    expect(chunks.filter((chunk) => chunk.type === 'text-delta')).toHaveLength(2);
    expect(ChatClientError.isInstance(error) && error.timeout).toBe('idle');
  });
});

describe('a tool attempt makes its signal only when the tool reads it', () => {
  it('a tool that never reads its signal costs no controller, and still times out', async () => {
    const slow = defineTool({ name: 'slow', description: 'Never ends.', parameters: z.object({}), timeoutMs: 20, execute: () => new Promise(() => {}) });
    let outcome = '';
    const counts = await counting(async () => {
      outcome = (await runTool(slow, '{}')).outcome;
    });
    expect(outcome).toBe('timeout');
    expect(counts.controllers).toBe(0);
  });

  it('a signal read during the call aborts on the time limit with a TimeoutError, and on the caller’s abort with its reason', async () => {
    const seen: unknown[] = [];
    const listening = defineTool({
      name: 'listening',
      description: 'Waits for its signal.',
      parameters: z.object({}),
      timeoutMs: 20,
      execute: (_args, { signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => (seen.push(signal.reason), reject(signal.reason)))),
    });
    expect((await runTool(listening, '{}')).outcome).toBe('timeout');
    expect((seen[0] as DOMException).name).toBe('TimeoutError');

    const caller = new AbortController();
    const reason = new Error('user left');
    const running = runTool(listening, '{}', { signal: caller.signal, timeoutMs: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    caller.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(seen[1]).toBe(reason);
  });

  it('a signal first read after the attempt was aborted is already aborted, with the same reason', async () => {
    const caller = new AbortController();
    let late: AbortSignal | undefined;
    const lazy = defineTool({
      name: 'lazy',
      description: 'Reads its signal late.',
      parameters: z.object({}),
      execute: async (_args, context) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        late = context.signal;
        return 'done';
      },
    });
    const running = runTool(lazy, '{}', { signal: caller.signal });
    await new Promise((resolve) => setTimeout(resolve, 5)); // the tool runs, without having read its signal
    caller.abort('gone');
    await expect(running).rejects.toBe('gone');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(late?.aborted).toBe(true);
    expect(late?.reason).toBe('gone');
  });

  it('leaves no listener on the caller’s signal after the call', async () => {
    const caller = new AbortController();
    const quick = defineTool({ name: 'quick', description: 'Answers.', parameters: z.object({}), execute: (_args, { signal }) => (signal.aborted ? 'no' : 'yes') });
    for (let index = 0; index < 5; index++) expect((await runTool(quick, '{}', { signal: caller.signal })).outcome).toBe('success');
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });
});

describe('RaceSet (the attempt’s races, aborted by their owner)', () => {
  it('passes values and errors through; an abort rejects every pending race with the exact reason', async () => {
    const races = new RaceSet();
    await expect(races.race(Promise.resolve(7))).resolves.toBe(7);
    const error = new Error('no');
    await expect(races.race(Promise.reject(error))).rejects.toBe(error);
    const pending = [races.race(new Promise(() => {})), races.race(new Promise(() => {}))];
    const reason = new Error('limit');
    races.abort(reason);
    for (const race of pending) await expect(race).rejects.toBe(reason);
    await expect(races.race(new Promise(() => {}))).rejects.toBe(reason); // later races too
    await expect(races.race(Promise.resolve('settled'))).resolves.toBe('settled'); // as Promise.race: a settled promise wins
  });

  it('a promise that settled just before the abort still wins', async () => {
    const races = new RaceSet();
    let resolve!: (value: string) => void;
    const race = races.race(new Promise<string>((done) => (resolve = done)));
    resolve('value');
    races.abort('late');
    await expect(race).resolves.toBe('value');
  });
});
