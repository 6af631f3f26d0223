// One user's conversation is never another's: the session key joins app, user and session with `/`, each part's `%`
// and `/` escaped, so it is one-to-one. Joined bare, user `acme/alice`'s session `c1` and user `acme`'s session
// `alice/c1` were one key — and an A2A caller names its own contextId, so it could read another user's history.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createA2AHandler } from '../../src/a2a/index.js';
import { Runner, createEvent, type RunnableAgent } from '../../src/runner/index.js';
import { sessionKeyOf } from '../../src/runner/run-options.js';

/** An agent that records the history each run was given and answers "noted". */
function recorder(): { agent: RunnableAgent; seen: Array<{ user: string; history: unknown[] }> } {
  const seen: Array<{ user: string; history: unknown[] }> = [];
  const agent: RunnableAgent = {
    name: 'echo',
    async *runEvents(invocation) {
      seen.push({ user: invocation.userId, history: invocation.history.map((message) => message.content) });
      yield createEvent({ invocationId: invocation.invocationId, author: 'echo' }, { response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: 'noted' } }] } });
    },
  };
  return { agent, seen };
}

const part = fc.string({ unit: fc.constantFrom('a', 'b', '/', '%', '2', 'F', '5'), minLength: 1, maxLength: 8 });

describe('session keys', () => {
  it('are one-to-one: every key splits on `/` into exactly its three parts, each read back as it was', () => {
    const unescape = (text: string) => text.replace(/%2F|%25/g, (escape) => (escape === '%2F' ? '/' : '%'));
    fc.assert(
      fc.property(part, part, part, (app, user, session) => {
        const parts = sessionKeyOf(app, user, session).split('/');
        expect(parts.map(unescape)).toEqual([app, user, session]);
      }),
      { seed: 7, numRuns: 5_000 },
    );
    expect(sessionKeyOf('shop', 'u1', 's1')).toBe('shop/u1/s1'); // ids without `/` or `%` are kept as they are
  });

  it('a Runner: user "org" naming session "alice/s1" does not see user "org/alice"\'s session "s1"', async () => {
    const { agent, seen } = recorder();
    const runner = new Runner({ appName: 'shop', agent });
    for await (const _ of runner.run({ userId: 'org/alice', sessionId: 's1', message: 'alice private: card 4111' }));
    for await (const _ of runner.run({ userId: 'org', sessionId: 'alice/s1', message: 'hi' }));
    expect(seen[1]).toEqual({ user: 'org', history: [] });
  });

  it('the A2A handler: a caller naming contextId "alice/c1" does not read user "acme/alice"\'s conversation "c1"', async () => {
    const { agent, seen } = recorder();
    const handler = createA2AHandler({ agent, card: { name: 'shop' }, userId: (request) => request.headers.get('x-verified-user') ?? 'anonymous' });
    const send = async (user: string, contextId: string, text: string) => {
      const message = { kind: 'message', role: 'user', messageId: crypto.randomUUID(), contextId, parts: [{ kind: 'text', text }] };
      const response = await handler(new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json', 'x-verified-user': user }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message } }) }));
      return ((await response.json()) as { result?: { status?: { state?: string } } }).result?.status?.state;
    };
    expect(await send('acme/alice', 'c1', 'alice secret: my SSN is 078-05-1120')).toBe('completed');
    expect(await send('acme', 'alice/c1', 'what did I say?')).toBe('completed');
    expect(seen[1]).toEqual({ user: 'acme', history: [] });
    expect(JSON.stringify(seen[1])).not.toContain('078-05-1120');
  });
});
