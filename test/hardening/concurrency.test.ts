/**
 * Same-session concurrency: 120 turns at once on one session — through `agent.run`, through the `Runner`, and as A2A
 * `message/send` requests on one `contextId` — with model answers finishing in random order. Every message of every
 * turn is kept, each turn's messages stay together, nothing is duplicated. A load/save store (last writer wins, as
 * documented) is shown to lose turns under the same load, which is why the default store appends.
 */
import { describe, expect, it } from 'vitest';
import { createA2AHandler } from '../../src/a2a/index.js';
import { AgentBuilder, InMemorySessionStore, lastWriterWinsSessionStore, type LoadSaveSessionStore } from '../../src/agent/index.js';
import { createScriptedChatClient, type ChatMessage } from '../../src/chat/index.js';
import { Runner } from '../../src/runner/index.js';
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
          new Request('https://agent.example/', {
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

  it('rejects bounds that are not positive integers', () => {
    expect(() => new InMemorySessionStore({ maxSessions: 0 })).toThrow(/maxSessions must be an integer > 0/);
    expect(() => new InMemorySessionStore({ maxBytes: 1.5 })).toThrow(/maxBytes must be an integer > 0/);
  });
});
