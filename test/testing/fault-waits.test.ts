// Every wait of faultline/testing ends when the client gives up: the first-byte delay, the drop delay and the stall of
// an sseResponse plan, the chat faults' 2 s first byte and 20 ms ticks. A wait that runs on after the client's error
// keeps a node --test or mocha process alive for the rest of it (the suite "hangs" for seconds after its last test).
import { setupServer } from 'msw/node';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatibleClient, type ChatChunk } from '../../src/chat/index.js';
import { ChatClientError } from '../../src/errors/index.js';
import { chatFaultHandlers, sseResponse, textEvents, type StreamPlan } from '../../src/testing/index.js';
import { watchFaultTimers, withFaultTimers } from './fault-timers.js';

const CHAT = 'https://waits.test/chat';
const server = setupServer(...chatFaultHandlers({ baseURL: CHAT }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };
let runs = 0;

/** What a read that has not settled yet looks like. */
const PENDING = Symbol('pending');
const soon = <T>(promise: Promise<T>): Promise<T | typeof PENDING> => Promise.race([promise, new Promise<typeof PENDING>((resolve) => setTimeout(() => resolve(PENDING), 20))]);

/** The plans whose read waits: before the first byte, before a drop, in a stall (each after one event read). */
const WAITING: Array<[string, StreamPlan, number]> = [
  ['firstByteDelayMs', { firstByteDelayMs: 5_000 }, 0],
  ['dropDelayMs', { dropAfter: 1, dropDelayMs: 5_000 }, 1],
  ['stallAfter', { stallAfter: 1 }, 1],
];

describe('sseResponse: every wait of the plan ends when the client gives up', () => {
  it.each(WAITING)('%s: the client cancels the body; nothing is left pending', async (_name, plan, before) => {
    const timers = watchFaultTimers();
    try {
      const reader = sseResponse(textEvents(['late']), plan).body!.getReader();
      for (let index = 0; index < before; index++) await reader.read();
      const waiting = reader.read();
      expect(await soon(waiting)).toBe(PENDING);
      expect(timers.pending(), 'the wait is seen (a stall holds no timer)').toBe(plan.stallAfter === undefined ? 1 : 0);
      await reader.cancel('gave up');
      expect(await waiting).toEqual({ done: true, value: undefined });
      expect(timers.pending(), 'fault timers still pending').toBe(0);
    } finally {
      timers.stop();
    }
  });

  it.each(WAITING)('%s: the request aborts (plan.signal); the read fails with its reason at once', async (_name, plan, before) => {
    const timers = watchFaultTimers();
    try {
      const request = new AbortController();
      const reader = sseResponse(textEvents(['late']), { ...plan, signal: request.signal }).body!.getReader();
      for (let index = 0; index < before; index++) await reader.read();
      const waiting = reader.read();
      expect(await soon(waiting)).toBe(PENDING);
      const reason = new Error('the client went away');
      request.abort(reason);
      expect(timers.pending(), 'fault timers still pending').toBe(0);
      await expect(soon(waiting)).rejects.toBe(reason);
    } finally {
      timers.stop();
    }
  });

  it('a signal aborted before the response: no wait starts at all', async () => {
    const { value, pending } = await withFaultTimers(() => sseResponse(textEvents(['late']), { firstByteDelayMs: 5_000, signal: AbortSignal.abort('gone') }).body!.getReader().read().catch((error: unknown) => error));
    expect([value, pending]).toEqual(['gone', 0]);
  });

  it("a client's first-chunk timeout on a fetch stub's late first byte leaves no timer (the body is cancelled)", async () => {
    const model = createOpenAICompatibleClient({ baseURL: 'https://stub.test', apiKey: 'k', model: 'm', retry: false, timeouts: { firstChunkMs: 50 }, fetch: async () => sseResponse(textEvents(['late']), { firstByteDelayMs: 5_000 }) });
    const { value: error, pending } = await withFaultTimers(() => drain(model.stream(ask)));
    expect(ChatClientError.isInstance(error) && error.timeout).toBe('first_chunk');
    expect(pending, 'fault timers still pending').toBe(0);
  });
});

/** Reads a stream to its end; the error it ended with, if any. */
async function drain(stream: ReadableStream<ChatChunk>): Promise<unknown> {
  const reader = stream.getReader();
  try {
    while (!(await reader.read()).done);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('chatFaultHandlers: a client that gives up mid-wait leaves no timer, streamed or not', () => {
  const modes = [
    ['stream()', (model: ReturnType<typeof createOpenAICompatibleClient>) => drain(model.stream(ask))],
    ['complete()', (model: ReturnType<typeof createOpenAICompatibleClient>) => model.complete(ask).then(() => undefined, (error: unknown) => error)],
  ] as const;
  // The client's limit ends each fault while it waits: the 2 s first byte, the 30 ms before a drop, a 20 ms tick.
  const cases = [
    ['slow-first-byte', { firstChunkMs: 50 }],
    ['cut-mid-stream', { firstChunkMs: 10, idleMs: 10 }],
    ['keep-alive-only', { firstChunkMs: 50 }],
    ['trickle', { firstChunkMs: 50 }],
  ] as const;

  for (const [mode, call] of modes) {
    it.each(cases)(`${mode} %s: a timeout, and nothing left pending right after it`, async (fault, timeouts) => {
      const model = createOpenAICompatibleClient({ baseURL: `${CHAT}/${fault}/wait-${++runs}`, apiKey: 'k', model: 'm', retry: false, timeouts });
      const { value: error, pending } = await withFaultTimers(() => call(model));
      expect(ChatClientError.isInstance(error) && error.reason, String(error)).toBe('timeout');
      expect(pending, 'fault timers still pending').toBe(0);
    });
  }
});

describe('one way to wait', () => {
  it('src/testing arms no timer but through paced-body.ts (waitFor, a body\'s clock): none escapes the client giving up', () => {
    const folder = join(import.meta.dirname, '..', '..', 'src', 'testing');
    const timers = readdirSync(folder)
      .filter((file) => file.endsWith('.ts') && file !== 'paced-body.ts')
      .filter((file) => /\b(setTimeout|setInterval|startTimer|delay)\s*\(|\bdelay\b[^;]*from/.test(readFileSync(join(folder, file), 'utf8')));
    expect(timers).toEqual([]);
  });
});
