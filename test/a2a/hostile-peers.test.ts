// A2A against peers that misbehave: a card quoting the token we sent (in its name, in its description), a stream that
// sends an event of another task, a remote echoing a URL credential split across two deltas, and a client sending a
// huge or credential-shaped A2A-Version header. Each is a typed refusal or a clean value — never our secret, never
// another task's end taken for ours.
import { describe, expect, it } from 'vitest';
import { createA2AAgent, createA2AClient, createA2AHandler, type A2AStreamEvent } from '../../src/a2a/index.js';
import { SerializeError } from '../../src/errors/index.js';
import { createEvent, type RunEvent } from '../../src/runner/event.js';
import type { Invocation, RunnableAgent } from '../../src/runner/runnable-agent.js';

const TOKEN = 'sk-live-PLANTED0123456789abcdef';
const BASE = 'https://agent.test';

function sse(...results: unknown[]): Response {
  return new Response(results.map((result) => `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result })}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } });
}
/** A remote whose card is `card` and whose every call answers `answer()`. */
function remote(card: Record<string, unknown>, answer: () => Response = () => new Response('no', { status: 500 })): typeof fetch {
  return (async (input: RequestInfo | URL) => (String(input).includes('.well-known') ? Response.json(card) : answer())) as typeof fetch;
}

describe('the A2A client against a hostile agent', () => {
  it('refuses a card with no endpoint without quoting its name (which may quote our token)', async () => {
    const client = createA2AClient({ agentCardUrl: BASE, fetch: remote({ name: `echo Bearer ${TOKEN}` }), headers: { authorization: `Bearer ${TOKEN}` }, retry: false });
    const error = await client.sendMessage('hi').then(() => undefined, (failure: unknown) => failure);
    expect(SerializeError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('The agent card names no JSON-RPC endpoint');
    expect(JSON.stringify(error)).not.toContain(TOKEN);
  });

  it('hands back a card with our credentials removed (getAgentCard)', async () => {
    const client = createA2AClient({ agentCardUrl: BASE, fetch: remote({ name: 'x', url: `${BASE}/a2a`, description: `you sent ${TOKEN}` }), headers: { authorization: `Bearer ${TOKEN}` }, retry: false });
    const card = await client.getAgentCard();
    expect(card?.description).toBe('you sent [REDACTED]');
    expect(JSON.stringify(card)).not.toContain(TOKEN);
  });

  it('refuses a stream event of another task: typed, naming both, never taken as the end of its own', async () => {
    const answer = () =>
      sse(
        { kind: 'task', id: 'task-A', contextId: 'c', status: { state: 'working' } },
        { kind: 'status-update', taskId: 'task-OTHER', contextId: 'c', status: { state: 'completed' }, final: true },
        { kind: 'status-update', taskId: 'task-A', contextId: 'c', status: { state: 'failed' }, final: true },
      );
    const client = createA2AClient({ agentCardUrl: BASE, fetch: remote({ name: 'x', url: `${BASE}/a2a` }, answer), retry: false });
    const seen: A2AStreamEvent[] = [];
    const outcome = await (async () => {
      for await (const event of client.streamMessage('hi')) seen.push(event);
    })().then(() => 'ended', (failure: unknown) => failure);
    expect(SerializeError.isInstance(outcome)).toBe(true);
    expect((outcome as Error).message).toBe('The A2A stream of task "task-A" sent an event of task "task-OTHER"');
    expect(seen.map((event) => event.kind)).toEqual(['task']);
  });

  it('createA2AAgent keeps a URL credential out of the run even when the remote echoes it split across two deltas', async () => {
    const key = 'sk-abcdefABCDEF0123456789';
    const answer = () =>
      sse(
        { kind: 'task', id: 't', contextId: 'c', status: { state: 'working' } },
        { kind: 'artifact-update', taskId: 't', contextId: 'c', artifact: { artifactId: 'a', parts: [{ kind: 'text', text: `your key is ${key.slice(0, 10)}` }] }, append: false, lastChunk: false },
        { kind: 'artifact-update', taskId: 't', contextId: 'c', artifact: { artifactId: 'a', parts: [{ kind: 'text', text: `${key.slice(10)} ok` }] }, append: true, lastChunk: false },
        { kind: 'status-update', taskId: 't', contextId: 'c', status: { state: 'completed' }, final: true },
      );
    const agent = createA2AAgent({ agentCardUrl: `${BASE}/?api_key=${key}`, fetch: remote({ name: 'x', url: `${BASE}/a2a`, capabilities: { streaming: true } }, answer), retry: false });
    const events: RunEvent[] = [];
    for await (const event of agent.runEvents({ invocationId: 'inv', branch: 'x', message: { role: 'user', content: 'hi' }, history: [], signal: new AbortController().signal, sessionId: 's' } as never)) events.push(event);
    expect(events.length).toBeGreaterThan(1);
    expect(JSON.stringify(events)).not.toContain(key);
    expect(JSON.stringify(events)).not.toContain(key.slice(0, 10) + key.slice(10, 14)); // not even half of it joined
  });
});

describe('the A2A handler against a hostile caller', () => {
  const agent: RunnableAgent = {
    name: 'probe',
    async *runEvents(invocation: Invocation) {
      yield createEvent({ invocationId: invocation.invocationId, author: 'probe' }, { response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: 'ok' } }] } } as never);
    },
  };
  const rpc = (headers: Record<string, string>) =>
    new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } } }) });

  it('quotes an unsupported A2A-Version header at most 200 characters, credential shapes masked', async () => {
    const handler = createA2AHandler({ agent, card: { name: 'probe' } });
    for (const header of [`9.${'x'.repeat(5_000)}`, `9 ${TOKEN}`]) {
      const body = (await (await handler(rpc({ 'A2A-Version': header }))).json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(-32009);
      expect(body.error.message.length).toBeLessThan(300);
      expect(body.error.message).not.toContain(TOKEN);
    }
  });
});

describe('the A2A handler keeps each task its starter’s', () => {
  const slowAgent: RunnableAgent = {
    name: 'probe',
    async *runEvents(invocation: Invocation) {
      if (invocation.message?.content === 'slow') {
        await new Promise((resolve) => invocation.signal.addEventListener('abort', resolve, { once: true }));
        return;
      }
      yield createEvent({ invocationId: invocation.invocationId, author: 'probe' }, { response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: 'ok' } }] } } as never);
    },
  };
  let n = 0;
  const call = (method: string, params: unknown, user: string) =>
    new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json', 'x-user': user }, body: JSON.stringify({ jsonrpc: '2.0', id: ++n, method, params }) });
  const send = (text: string, blocking = true) => ({ message: { kind: 'message', messageId: `m${++n}`, role: 'user', parts: [{ kind: 'text', text }] }, configuration: { blocking } });

  it('a running task stays refused to another user after 10,000 newer tasks (its owner is never forgotten while it runs)', async () => {
    const handler = createA2AHandler({ agent: slowAgent, card: { name: 'probe' }, userId: (request) => request.headers.get('x-user') ?? 'anon' });
    const victim = ((await (await handler(call('message/send', send('slow', false), 'alice'))).json()) as { result: { id: string } }).result.id;
    for (let i = 0; i < 10_001; i++) await handler(call('message/send', send('hi'), 'bob'));
    for (const [method, params] of [['tasks/get', { id: victim }], ['tasks/cancel', { id: victim }]] as const) {
      const body = (await (await handler(call(method, params, 'bob'))).json()) as { result?: unknown; error?: { code: number } };
      expect(body.error?.code, method).toBe(-32001);
    }
    const own = (await (await handler(call('tasks/cancel', { id: victim }, 'alice'))).json()) as { result?: { status: { state: string } } };
    expect(own.result?.status.state).toBe('canceled');
  }, 60_000);
});
