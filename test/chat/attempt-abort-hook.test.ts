// An attempt tells its body reader of its abort through `whenAborted` (src/chat/core/attempt.ts) instead of a race
// against a promise that never settles: the hook must fire exactly when the race did (once, with the reason, after
// the reactions already queued, never after a clean close). And each fetch gets request headers of its own: no fetch
// may see what an earlier one did to its headers.
import { describe, expect, it } from 'vitest';
import { Attempt } from '../../src/chat/core/attempt.js';
import { CallScope } from '../../src/chat/core/call-scope.js';
import { resolveHttpChat } from '../../src/chat/core/client-options.js';
import { createOpenAICompatibleClient } from '../../src/chat/index.js';
import { chunk } from '../../src/testing/openai-stream.js';

const config = resolveHttpChat({ baseURL: 'http://hook.test/v1', model: 'm', fetch: async () => new Response('') }, {
  what: 'test',
  exampleBaseURL: 'http://hook.test/v1',
  path: '/x',
  label: () => 'test',
  auth: () => ({}),
}).config;

function attemptOf(): { attempt: Attempt; scope: CallScope } {
  const scope = new CallScope(config, undefined);
  return { attempt: new Attempt(config, scope, 1), scope };
}

describe('Attempt.whenAborted', () => {
  it('tells the reason once, on the microtask queue after reactions already queued, not synchronously', async () => {
    const { attempt, scope } = attemptOf();
    const seen: string[] = [];
    attempt.whenAborted((reason) => seen.push(`hook:${String(reason)}`));
    const settled = Promise.resolve().then(() => seen.push('queued before'));
    attempt.abort('first');
    attempt.abort('second');
    expect(seen).toEqual([]);
    await settled;
    await Promise.resolve();
    expect(seen).toEqual(['queued before', 'hook:first']);
    scope.close();
  });

  it('an attempt that already aborted tells a hook registered later, once', async () => {
    const { attempt, scope } = attemptOf();
    attempt.abort('early');
    const seen: unknown[] = [];
    attempt.whenAborted((reason) => seen.push(reason));
    expect(seen).toEqual([]);
    await Promise.resolve();
    expect(seen).toEqual(['early']);
    attempt.abort('again');
    await Promise.resolve();
    expect(seen).toEqual(['early']);
    scope.close();
  });

  it('a scope abort reaches the hook of the attempt in flight; a clean close never calls it', async () => {
    const { attempt, scope } = attemptOf();
    const seen: unknown[] = [];
    attempt.whenAborted((reason) => seen.push(reason));
    scope.abort('caller');
    await Promise.resolve();
    expect(seen).toEqual(['caller']);
    scope.close();

    const other = attemptOf();
    const never: unknown[] = [];
    other.attempt.whenAborted((reason) => never.push(reason));
    other.attempt.close();
    other.attempt.abort('late');
    other.attempt.whenAborted((reason) => never.push(reason));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(never).toEqual([]);
    other.scope.close();
  });
});

describe('request headers', () => {
  const sse = `data: ${JSON.stringify(chunk({ content: 'hi' }, 'stop'))}\n\ndata: [DONE]\n\n`;
  const json = JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }] });

  it('every fetch gets its own headers, as written before (order included), whatever an earlier fetch did to its own', async () => {
    const sent: Array<Array<[string, string]>> = [];
    const client = createOpenAICompatibleClient({
      baseURL: 'http://headers.test/v1',
      model: 'm',
      apiKey: 'sk-test',
      headers: { 'x-team': 'a', accept: 'ignored' },
      retry: false,
      fetch: async (_url, init) => {
        const headers = init?.headers as Record<string, string>;
        sent.push(Object.entries(headers));
        headers['x-mutated'] = 'yes'; // a fetch wrapper that changes what it was given
        delete headers.authorization;
        const streamed = headers.accept === 'text/event-stream';
        return new Response(streamed ? sse : json, { headers: { 'content-type': streamed ? 'text/event-stream' : 'application/json' } });
      },
    });
    const drain = async () => {
      for await (const _ of client.stream({ messages: [{ role: 'user', content: 'hi' }] }));
    };
    await drain();
    await client.complete({ messages: [{ role: 'user', content: 'hi' }] });
    await drain();
    await drain();
    await client.complete({ messages: [{ role: 'user', content: 'hi' }] });
    const expected = (accept: string) => [['x-team', 'a'], ['accept', accept], ['authorization', 'Bearer sk-test'], ['content-type', 'application/json']];
    // `{ ...config.headers, 'content-type': …, accept }`: a user `accept` keeps its place, the SDK's value wins.
    expect(sent).toEqual([expected('text/event-stream'), expected('application/json'), expected('text/event-stream'), expected('text/event-stream'), expected('application/json')]);
  });
});
