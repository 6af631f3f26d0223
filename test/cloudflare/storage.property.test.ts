// Property tests of what the Durable Object layer writes: any JSON value round-trips through storage within the
// platform's limits on every call (the fake storage throws past 128 keys, 2 KiB keys or 128 KiB values), replacing a
// value leaves no stale part, and concurrent session appends keep every turn whole and in order, under the bound.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/chat/core/types.js';
import { SessionStorage } from '../../src/cloudflare/session-storage.js';
import { getJSON, putJSON } from '../../src/cloudflare/storage-codec.js';
import { FakeStorage } from './fake-platform.js';

const bigText = fc.oneof(fc.string({ maxLength: 50 }), fc.nat({ max: 400_000 }).map((length) => 'é🙂x'.repeat(Math.ceil(length / 4)).slice(0, length)));
const value = fc.oneof(fc.jsonValue({ maxDepth: 8 }), fc.array(bigText, { maxLength: 4 }), bigText);

describe('Durable Object storage codec', () => {
  it('round-trips any JSON value, large ones in parts, within the platform limits on every call', async () => {
    await fc.assert(
      fc.asyncProperty(value, value, async (first, second) => {
        const storage = new FakeStorage();
        await putJSON(storage, 'k', first);
        expect(await getJSON(storage, 'k')).toEqual(JSON.parse(JSON.stringify(first)));
        await putJSON(storage, 'k', second);
        expect(await getJSON(storage, 'k')).toEqual(JSON.parse(JSON.stringify(second)));
        const parts = [...storage.data.keys()].filter((key) => key.startsWith('k#'));
        const header = storage.data.get('k') as { parts?: number } | string;
        expect(parts).toHaveLength(typeof header === 'string' ? 0 : (header.parts as number)); // no stale part of `first`
      }),
      { seed: 1212, numRuns: 60 },
    );
  });

  it('refuses, with a TypeError naming the key, a value whose part went missing', async () => {
    const storage = new FakeStorage();
    await putJSON(storage, 'big', 'x'.repeat(100_000));
    storage.data.delete('big#1');
    await expect(getJSON(storage, 'big')).rejects.toThrow(TypeError);
    await expect(getJSON(storage, 'big')).rejects.toThrow('the value stored under "big" is damaged: part 1 of its 4 is missing');
    storage.data.set('bad', '{not json');
    await expect(getJSON(storage, 'bad')).rejects.toThrow('the value stored under "bad" is damaged: its text is not JSON');
  });
});

type Turn = ChatMessage[];
const turn = (index: number): fc.Arbitrary<Turn> =>
  fc.tuple(bigText, fc.array(bigText, { maxLength: 2 })).map(([user, rest]) => [
    { role: 'user', content: `turn ${index}: ${user}` },
    ...rest.map((content, at): ChatMessage => ({ role: at % 2 === 0 ? 'assistant' : 'tool', content, toolCallId: at % 2 === 0 ? undefined : `call-${index}` })),
  ]);
const turns = fc.integer({ min: 1, max: 12 }).chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => turn(index))));

function expectWholeTurns(loaded: readonly ChatMessage[], sent: readonly Turn[]): void {
  const byIndex = new Map(sent.map((messages, index) => [index, messages]));
  let at = 0;
  while (at < loaded.length) {
    const match = /^turn (\d+): /.exec(String(loaded[at]?.content));
    expect(match, `message ${at} starts a turn`).not.toBeNull();
    const expected = byIndex.get(Number(match?.[1])) as Turn;
    expect(loaded.slice(at, at + expected.length)).toEqual(JSON.parse(JSON.stringify(expected)));
    byIndex.delete(Number(match?.[1]));
    at += expected.length;
  }
}

describe('Durable Object session storage', () => {
  it('keeps every turn of concurrent appends whole and in order of arrival', async () => {
    await fc.assert(
      fc.asyncProperty(turns, async (sent) => {
        const sessions = new SessionStorage(new FakeStorage(), 1 << 30);
        await Promise.all(sent.map(async (messages) => sessions.append(messages)));
        const loaded = await sessions.load();
        expect(loaded).toHaveLength(sent.flat().length);
        expectWholeTurns(loaded, sent);
      }),
      { seed: 3434, numRuns: 40 },
    );
  });

  it('holds a session within its bound, dropping the oldest messages first, never starting at a tool answer', async () => {
    await fc.assert(
      fc.asyncProperty(turns, fc.integer({ min: 10_000, max: 600_000 }), async (sent, bound) => {
        const storage = new FakeStorage();
        const sessions = new SessionStorage(storage, bound);
        for (const messages of sent) await sessions.append(messages);
        const loaded = await sessions.load();
        const size = loaded.reduce((sum, message) => sum + JSON.stringify(message).length, 0);
        expect(size <= bound || loaded.length <= sent.at(-1)!.length).toBe(true);
        if (loaded.length > 0) expect(loaded[0]?.role).not.toBe('tool');
        const all = JSON.parse(JSON.stringify(sent.flat()));
        expect(loaded.length).toBeGreaterThan(0); // the newest message is always kept
        expect(loaded).toEqual(all.slice(all.length - loaded.length)); // what is kept is the newest part, unchanged
        const meta = storage.data.get('session:meta') as { bytes: number };
        expect(meta.bytes).toBe(size); // the recorded size is the real one
      }),
      { seed: 5656, numRuns: 40 },
    );
  });
});
