/**
 * Same-session concurrency: 120 turns at once on one session — through `agent.run`, through the `Runner`, and as A2A
 * `message/send` requests on one `contextId` — with model answers finishing in random order. Every message of every
 * turn is kept, each turn's messages stay together, nothing is duplicated. A load/save store (last writer wins, as
 * documented) is shown to lose turns under the same load, which is why the default store appends. And no listener
 * growth per call: 40 parallel tool calls with retries leave one listener on the caller's signal and no
 * MaxListenersExceededWarning.
 */
import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createA2AHandler } from '../../src/a2a/index.js';
import { AgentBuilder, InMemorySessionStore, lastWriterWinsSessionStore, type LoadSaveSessionStore } from '../../src/agent/index.js';
import { createScriptedChatClient, type ChatMessage } from '../../src/chat/index.js';
import { delay, linkedController, watchAbort } from '../../src/internal/delay.js';
import { Runner } from '../../src/runner/index.js';
import { defineTool, NetworkError } from '../../src/tools/index.js';
import { readRun } from '../helpers/agent-run.js';

const TURNS = 120;

/** A model that answers "answer to <the user's text>" after 0–20 ms, so turns finish in any order. */
function echoModel() {
  return createScriptedChatClient(
    [
      async (request) => {
        const last = [...request.messages].reverse().find((message) => message.role === 'user');
        await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 20)));
        return { text: `answer to ${last?.content ?? ''}` };
      },
    ],
    { loop: true },
  );
}

/** Every turn's user message is followed by its own answer, each exactly once. */
function expectEveryTurn(messages: readonly ChatMessage[], turns: readonly string[]): void {
  expect(messages).toHaveLength(turns.length * 2);
  for (const turn of turns) {
    const index = messages.findIndex((message) => message.role === 'user' && message.content === turn);
    expect(index, `the user message ${turn}`).toBeGreaterThanOrEqual(0);
    expect(messages[index + 1]).toMatchObject({ role: 'assistant', content: `answer to ${turn}` });
    expect(messages.filter((message) => message.content === turn)).toHaveLength(1);
  }
}

const turnTexts = Array.from({ length: TURNS }, (_, index) => `turn ${index}`);

describe(`${TURNS} concurrent turns on one session`, () => {
  it('agent.run keeps every message of every turn', async () => {
    const store = new InMemorySessionStore();
    const agent = new AgentBuilder('concurrent').chatClient(echoModel()).sessionStore(store).build();
    await Promise.all(turnTexts.map(async (text) => readRun(await agent.run(text, { session: 'same' }))));
    expectEveryTurn(await store.load('same'), turnTexts);
  });

  it('the Runner keeps every message of every turn', async () => {
    const store = new InMemorySessionStore();
    const agent = new AgentBuilder('concurrent').chatClient(echoModel()).build();
    const runner = new Runner({ appName: 'app', agent, sessionStore: store });
    await Promise.all(
      turnTexts.map(async (text) => {
        for await (const _event of runner.run({ userId: 'u', sessionId: 'same', message: text })) void _event;
      }),
    );
    expectEveryTurn(await store.load('app/u/same'), turnTexts);
  });

  it('A2A message/send on one contextId keeps every message of every turn', async () => {
    const store = new InMemorySessionStore();
    const agent = new AgentBuilder('concurrent').chatClient(echoModel()).build();
    const handler = createA2AHandler({ runner: new Runner({ appName: 'a2a', agent, sessionStore: store }), card: { name: 'concurrent' } });
    const answers = await Promise.all(
      turnTexts.map(async (text, index) => {
        const response = await handler(
          new Request('http://127.0.0.1/', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: index, method: 'message/send', params: { message: { kind: 'message', messageId: `m-${index}`, role: 'user', contextId: 'ctx-same', parts: [{ kind: 'text', text }] } } }),
          }),
        );
        return ((await response.json()) as { result: { status: { state: string } } }).result.status.state;
      }),
    );
    expect(new Set(answers)).toEqual(new Set(['completed']));
    expectEveryTurn(await store.load('a2a/a2a-user/ctx-same'), turnTexts);
  });

  it('a load/save store, wrapped as last writer wins, loses turns under the same load (as documented)', async () => {
    const saved = new Map<string, ChatMessage[]>();
    const loadSave: LoadSaveSessionStore = {
      load: async (id) => [...(saved.get(id) ?? [])],
      save: async (id, messages) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        saved.set(id, [...messages]);
      },
    };
    const agent = new AgentBuilder('concurrent').chatClient(echoModel()).sessionStore(lastWriterWinsSessionStore(loadSave)).build();
    await Promise.all(turnTexts.map(async (text) => readRun(await agent.run(text, { session: 'same' }))));
    expect((saved.get('same') ?? []).length).toBeLessThan(TURNS * 2);
  });
});

describe('InMemorySessionStore bounds', () => {
  const message = (text: string): ChatMessage => ({ role: 'user', content: text });

  it('forgets the least recently used sessions past maxSessions', async () => {
    const store = new InMemorySessionStore({ maxSessions: 3 });
    for (const id of ['a', 'b', 'c']) await store.append(id, [message(id)]);
    await store.load('a'); // a is now the most recently used
    await store.append('d', [message('d')]);
    expect(store.sessionIds).toEqual(['c', 'a', 'd']);
  });

  it('stays within maxBytes, forgetting whole sessions, and trims a session over a quarter of it at a turn boundary', async () => {
    const store = new InMemorySessionStore({ maxBytes: 40_000 });
    for (let index = 0; index < 50; index++) await store.append(`s${index}`, [message('x'.repeat(2_000))]);
    expect(store.size.bytes).toBeLessThanOrEqual(40_000);
    expect(store.size.sessions).toBeLessThan(50);
    for (let index = 0; index < 20; index++) await store.append('long', [message(`q${index} ${'y'.repeat(1_000)}`), { role: 'assistant', content: `a${index}` }]);
    const kept = await store.load('long');
    expect(JSON.stringify(kept).length).toBeLessThanOrEqual(10_000 + 2_000);
    expect(kept[0]?.role).toBe('user');
    expect(kept.at(-1)?.content).toBe('a19');
  });

  it('never leaves a transcript that starts with a tool answer, and holds the bound for one endless turn', async () => {
    const store = new InMemorySessionStore({ maxBytes: 4_000 });
    await store.append('s', [message('first'), { role: 'assistant', content: 'ok' }]);
    await store.append('s', [
      message('second'),
      { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c1', content: 'x'.repeat(1_200) },
    ]);
    expect((await store.load('s')).map((kept) => kept.role)).toEqual(['assistant', 'tool']);
    await store.append('t', [message('y'.repeat(600)), { role: 'assistant', content: 'z'.repeat(600) }]);
    expect((await store.load('t'))[0]?.role).not.toBe('tool');
    const endless = new InMemorySessionStore({ maxBytes: 40_000 });
    await endless.append('e', [message('start')]);
    for (let index = 0; index < 200; index++) await endless.append('e', [{ role: 'assistant', content: 'x'.repeat(1_000) }]);
    expect(endless.size.bytes).toBeLessThanOrEqual(10_000 + 1_100);
    expect((await endless.load('e'))[0]?.role).toBe('assistant');
  });

  it('rejects bounds that are not positive integers', () => {
    expect(() => new InMemorySessionStore({ maxSessions: 0 })).toThrow(/maxSessions must be an integer > 0/);
    expect(() => new InMemorySessionStore({ maxBytes: 1.5 })).toThrow(/maxBytes must be an integer > 0/);
  });
});

describe('no listener growth per call', () => {
  it('runs 40 parallel tool calls with retries on one caller signal without a MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      let calls = 0;
      const flaky = defineTool({
        name: 'flaky',
        description: 'Fails once, then answers.',
        parameters: z.object({ n: z.number() }),
        retry: { maxAttempts: 2, initialDelayMs: 1, jitter: 'none' },
        execute: async ({ n }) => {
          calls++;
          if (calls % 2 === 1) throw new NetworkError('blip');
          await new Promise((resolve) => setTimeout(resolve, 5));
          return { n };
        },
      });
      const caller = new AbortController();
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, getEventListeners(caller.signal, 'abort').length)), 1);
      const agent = new AgentBuilder('parallel')
        .chatClient(createScriptedChatClient([{ toolCalls: Array.from({ length: 40 }, (_, n) => ({ id: `call_${n}`, name: 'flaky', arguments: { n } })) }, { text: 'done' }]))
        .tools([flaky])
        .toolLogger(() => {})
        .build();
      const items = await readRun(await agent.run('go', { signal: caller.signal }));
      clearInterval(sampler);
      expect(items.filter((item) => item.type === 'tool-result')).toHaveLength(40);
      expect(peak).toBeLessThanOrEqual(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
      expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('runs a watcher of an already-aborted signal once, soon, and skips a watcher stopped during the same dispatch', async () => {
    const aborted = AbortSignal.abort(new Error('before'));
    let ran = 0;
    watchAbort(aborted, () => ran++);
    const stopped = watchAbort(aborted, () => ran++);
    stopped();
    expect(ran).toBe(0);
    await Promise.resolve();
    expect(ran).toBe(1);
    expect(getEventListeners(aborted, 'abort')).toHaveLength(0);

    const parent = new AbortController();
    const calls: string[] = [];
    let stopSecond = () => {};
    watchAbort(parent.signal, () => {
      calls.push('first');
      stopSecond();
    });
    stopSecond = watchAbort(parent.signal, () => calls.push('second'));
    parent.abort();
    expect(calls).toEqual(['first']);
  });

  it('watches one signal from any number of operations with one listener, aborts them all, and detaches when they end', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 200 }), fc.boolean(), async (count, abortIt) => {
        const parent = new AbortController();
        const children = Array.from({ length: count }, () => linkedController(parent.signal));
        const waits = Array.from({ length: count }, () => delay(10_000, parent.signal).then(() => 'resolved', (reason: unknown) => reason));
        expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1);
        if (abortIt) {
          parent.abort(new Error('stop'));
          expect(children.every(({ controller }) => controller.signal.aborted && (controller.signal.reason as Error).message === 'stop')).toBe(true);
          expect((await Promise.all(waits)).every((outcome) => (outcome as Error).message === 'stop')).toBe(true);
        } else {
          for (const child of children) child.dispose();
          expect(getEventListeners(parent.signal, 'abort')).toHaveLength(1); // the delays still watch
          parent.abort(new Error('late'));
          await Promise.all(waits);
          expect(children.some(({ controller }) => controller.signal.aborted)).toBe(false);
        }
        expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
      }),
      { seed: 1104, numRuns: 40 },
    );
  });
});
