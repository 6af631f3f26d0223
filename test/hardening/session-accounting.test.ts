// A session store's bound counts what it holds. A message JSON cannot write (a BigInt, a cycle, a getter that throws)
// was counted as 0 characters and kept whole, so 20 turns of 2 MB each sat in a 1 MB store reporting 700 bytes. Now a
// session keeps the JSON of each message: the store's byte count is always the JSON length of what it gives back, and a
// message with no JSON is a SerializeError before anything of its turn is kept (a Runner or an agent reports it as a
// SessionError when it saves the turn).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InMemorySessionStore } from '../../src/agent/index.js';
import type { ChatMessage } from '../../src/chat/index.js';
import { SerializeError } from '../../src/errors/serialize-error.js';
import { Runner, createEvent, type RunnableAgent } from '../../src/runner/index.js';

const cycle = (): Record<string, unknown> => {
  const value: Record<string, unknown> = { a: 1 };
  value.self = value;
  return value;
};
const throwing = () => ({
  get broken(): never {
    throw new Error('getter');
  },
});
/** Extra fields a caller's message may carry: JSON or not, large or not. */
const extra = fc.oneof(
  fc.constant(1n),
  fc.constant(undefined),
  fc.constant(() => 'fn'),
  fc.constant(new Map([['k', 'v'.repeat(10_000)]])),
  fc.constant(new Date(0)),
  fc.string({ maxLength: 20_000 }),
  fc.integer(),
  fc.constant(null),
).chain((value) => fc.oneof(fc.constant(value), fc.constant([value]), fc.constant({ nested: value }), fc.constant(cycle()), fc.constant(throwing())));

describe('session accounting', () => {
  it('the byte count is the JSON length of what the store gives back; a message with no JSON keeps nothing of its turn', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.tuple(fc.string({ maxLength: 5_000 }), extra), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 }), async (turns) => {
        const store = new InMemorySessionStore({ maxBytes: 200_000 });
        for (const turn of turns) {
          const before = store.size.bytes;
          const kept = (await store.load('s')).length;
          const messages = turn.map(([content, trace]) => ({ role: 'user', content, trace }) as unknown as ChatMessage);
          const failure = await store.append('s', messages).then(() => undefined, (error: unknown) => error);
          if (failure !== undefined) {
            expect(SerializeError.isInstance(failure)).toBe(true);
            expect(store.size.bytes).toBe(before);
            expect((await store.load('s')).length).toBe(kept);
          }
          const held = await store.load('s');
          expect(store.size.bytes).toBe(held.reduce((sum, message) => sum + JSON.stringify(message).length, 0));
          expect(store.size.bytes).toBeLessThanOrEqual(200_000);
        }
      }),
      { seed: 11, numRuns: 150 },
    );
  });

  it('a Runner turn whose message has no JSON is not kept, is reported, and leaves the bound whole', async () => {
    const store = new InMemorySessionStore({ maxBytes: 1_000_000 });
    const agent: RunnableAgent = {
      name: 'echo',
      async *runEvents(invocation) {
        yield createEvent({ invocationId: invocation.invocationId, author: 'echo' }, { response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: 'ok' } }] } });
      },
    };
    const runner = new Runner({ appName: 'app', agent, sessionStore: store });
    const errors: string[] = [];
    for (let index = 0; index < 20; index++) {
      const message = { role: 'user', content: 'x'.repeat(200_000), trace: { id: BigInt(index) } } as unknown as ChatMessage;
      const reported: string[] = [];
      for await (const event of runner.run({ userId: 'u', sessionId: 's', message })) if (event.response?.error) reported.push(event.response.error.message);
      errors.push(reported[0] ?? 'not reported');
    }
    expect(new Set(errors).size).toBe(1);
    expect(errors[0]).toMatch(/^Could not save session "s": A message of this turn cannot be kept in the session: JSON cannot write it \(/);
    expect(store.size).toEqual({ sessions: 0, bytes: 0 });
  });
});
