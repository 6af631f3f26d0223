// A remote agent's streamed text may quote a credential we sent it, and the stream may cut that credential anywhere:
// across two deltas, or three. createA2AAgent's events never carry it — not in any delta, not in the final message —
// and no text is lost: the deltas put together are the final message. Every cut position through the secret is tried.
import { describe, expect, it } from 'vitest';
import { createA2AAgent, type A2AClient, type A2AEventStream, type A2AStreamEvent } from '../../src/a2a/index.js';
import type { Invocation, RunEvent } from '../../src/runner/index.js';

const TOKEN = 'sk-live-4f9a2c7e1b8d';
const TEXT = `The inventory service refused the key ${TOKEN} we were given, so no stock was reserved.`;
const at = TEXT.indexOf(TOKEN);

const delta = (text: string) => ({ kind: 'artifact-update', taskId: 't1', contextId: 'c1', artifact: { artifactId: 'a1', parts: [{ kind: 'text', text }] }, append: true });
const completed = { kind: 'status-update', taskId: 't1', contextId: 'c1', status: { state: 'completed' }, final: true };

function scripted(events: readonly unknown[]): A2AClient {
  const stream = () => (async function* () {
    for (const event of events) yield event as A2AStreamEvent;
  })() as unknown as A2AEventStream;
  const refuse = async () => {
    throw new Error('not scripted');
  };
  return { getAgentCard: async () => undefined, sendMessage: refuse, streamMessage: stream, getTask: refuse, cancelTask: refuse, resubscribe: stream };
}

async function run(chunks: readonly string[], how: 'secrets' | 'header'): Promise<RunEvent[]> {
  const client = scripted([...chunks.map(delta), completed]);
  const agent = createA2AAgent(how === 'secrets' ? { url: 'https://remote.test', name: 'inventory', streaming: true, client, secrets: [TOKEN] }
    : { url: 'https://remote.test', name: 'inventory', streaming: true, client, headers: { authorization: `Bearer ${TOKEN}` } });
  const invocation: Invocation = { invocationId: 'i1', appName: 'shop', userId: 'u1', sessionId: 's1', message: { role: 'user', content: 'Reserve 2.' }, history: [], signal: new AbortController().signal };
  const events: RunEvent[] = [];
  for await (const event of agent.runEvents(invocation)) events.push(event);
  return events;
}

/** Every way to cut TEXT into two chunks at a position inside or at the edge of the token, and into three. */
function cuts(): string[][] {
  const splits: string[][] = [];
  for (let i = at; i <= at + TOKEN.length; i++) splits.push([TEXT.slice(0, i), TEXT.slice(i)]);
  for (let i = at + 1; i < at + TOKEN.length; i += 3) for (let j = i + 1; j < at + TOKEN.length; j += 4) splits.push([TEXT.slice(0, i), TEXT.slice(i, j), TEXT.slice(j)]);
  return splits;
}

describe('createA2AAgent: a credential cut across streamed deltas never reaches an event', () => {
  it.each(['secrets', 'header'] as const)('given as %s', async (how) => {
    const all = cuts();
    expect(all.length).toBeGreaterThan(30);
    for (const chunks of all) {
      const events = await run(chunks, how);
      const where = JSON.stringify(chunks);
      expect(JSON.stringify(events), where).not.toContain(TOKEN);
      expect(JSON.stringify(events), where).not.toContain(TOKEN.slice(0, 12)); // no recognisable part of it either
      const deltas = events.filter((event) => event.response?.partial).map((event) => event.response?.choices?.[0]?.delta?.content ?? '').join('');
      const final = events.find((event) => event.response?.done)?.response?.choices?.[0]?.message?.content;
      expect(final, where).toBe(TEXT.replace(TOKEN, '[REDACTED]'));
      expect(deltas, where).toBe(final);
    }
  });

  it('lets text through delta by delta when no credential is in play', async () => {
    const client = scripted([delta('Hello'), delta(' world'), completed]);
    const agent = createA2AAgent({ url: 'https://remote.test', name: 'inventory', streaming: true, client });
    const invocation: Invocation = { invocationId: 'i1', appName: 'shop', userId: 'u1', sessionId: 's1', message: { role: 'user', content: 'Hi' }, history: [], signal: new AbortController().signal };
    const deltas: string[] = [];
    for await (const event of agent.runEvents(invocation)) if (event.response?.partial) deltas.push(event.response.choices?.[0]?.delta?.content ?? '');
    expect(deltas).toEqual(['Hello', ' world']);
  });
});
