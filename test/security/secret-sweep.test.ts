/**
 * A planted secret traced from EVERY field a remote party controls to EVERY output, in every form it can come back
 * in. The secret is configured the documented way (the chat client's `apiKey`, the A2A client's `Authorization`
 * header, a tool's `secrets`) and is not token-shaped, so only configuration can catch it. Each remote field — of a
 * model provider's HTTP errors and streams, of a remote A2A agent's answers, of a tool's HTTP API — is filled with
 * each form of it: as is, base64, base64url, inside a longer base64 text (`Basic base64(user:secret)`), URL-encoded,
 * JSON-escaped. Everything the SDK produces is collected (every rendering of every error of the chain, agent events
 * and items, runner events, tool log records) and, for the chat and A2A surfaces, what our own A2A handler sends a
 * remote client when it serves that agent. No form may appear anywhere.
 *
 * Not checked, by design: a model's own answer text (content, not an error) and decoded A2A payloads handed back
 * as data (the runner events made from them are checked).
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createA2AAgent, createA2AClient, createA2AHandler, fetchAgentCard } from '../../src/a2a/index.js';
import { createMCPClient } from '../../src/mcp/index.js';
import { AgentBuilder, type AgentEvents, type AgentRunItem } from '../../src/agent/index.js';
import { createOpenAICompatibleClient } from '../../src/chat/index.js';
import { createErrorEvent, createEvent, Runner, type RunEvent, type RunnableAgent } from '../../src/runner/index.js';
import { createGraphAgent, ExecutionErrorCollector, StateGraph, StateSchema } from '../../src/graph/index.js';
import { chunk, sseText } from '../../src/testing/openai-stream.js';
import { toolErrorFromResponse } from '../../src/tools/index.js';
import { Evidence } from '../helpers/evidence.js';

/** Not token-shaped: only the configuration catches it. */
const SECRET = 'plant-7f3a9c1e5b2d4680-zeta';

const FORMS: ReadonlyArray<[string, string]> = [
  ['as is', SECRET],
  ['base64', btoa(SECRET)],
  ['base64url', btoa(SECRET).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')],
  ['inside a longer base64 text', btoa(`user:${SECRET}:tail`)],
  ['URL-encoded', encodeURIComponent(`${SECRET}/x y`)],
  ['JSON-escaped', JSON.stringify(`"${SECRET}"`).slice(1, -1)],
];

/**
 * Every form, as the needles to look for (the longer base64 text is searched by the secret's own base64 core), and
 * the secret's first 10 characters: what V8 quotes of a text `JSON.parse` refused, in the error kept as a cause.
 */
const NEEDLES = [SECRET, SECRET.slice(0, 10), btoa(SECRET).slice(0, 24), btoa(SECRET).replace(/\+/g, '-').replace(/\//g, '_').slice(0, 24), btoa(`user:${SECRET}:tail`).slice(8, 32), encodeURIComponent(SECRET)];

const LLM = 'https://llm.sweep.test';
const REMOTE = 'https://remote.sweep.test';
const API = 'https://api.sweep.test';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const sse = (text: string) => new HttpResponse(text, { headers: { 'content-type': 'text/event-stream' } });

/** Model-provider fields: each makes the provider's answer carry `value` there. */
const CHAT_FIELDS: ReadonlyArray<[string, (value: string) => Response]> = [
  ['error.message of a 401', (value) => HttpResponse.json({ error: { message: `bad key ${value}` } }, { status: 401 })],
  ['error.code of a 401', (value) => HttpResponse.json({ error: { message: 'bad key', code: value } }, { status: 401 })],
  ['error.type of a 400', (value) => HttpResponse.json({ error: { message: 'bad', type: value } }, { status: 400 })],
  ['error.param of a 400', (value) => HttpResponse.json({ error: { message: 'bad', param: value } }, { status: 400 })],
  ['detail of a problem+json 403', (value) => HttpResponse.json({ title: 'Forbidden', detail: `token ${value}` }, { status: 403 })],
  ['a plain-text 502 body', (value) => new HttpResponse(`gateway saw ${value}`, { status: 502 })],
  ['the x-request-id header', (value) => HttpResponse.json({ error: { message: 'no' } }, { status: 401, headers: { 'x-request-id': value } })],
  ['a mid-stream error message', (value) => sse(sseText([chunk({ content: 'Hel' }), { error: { message: `revoked ${value}` } }]))],
  ['a mid-stream error code', (value) => sse(sseText([chunk({ content: 'Hel' }), { error: { message: 'revoked', code: `Bearer ${value}` } }]))],
  ['an `event: error` frame', (value) => sse(`${sseText([chunk({ content: 'Hel' })])}event: error\ndata: expired ${value}\n\n`)],
  ['a malformed chunk', (value) => sse(`${sseText([chunk({ content: 'Hel' })])}data: {"broken": "${value}\n\n`)],
  ['the reason phrase of a 401', (value) => new HttpResponse('', { status: 401, statusText: `bad key ${value}` })],
  ['a stream frame that is not JSON (V8 quotes its start)', (value) => sse(`${sseText([chunk({ content: 'Hel' })])}data: ${value}\n\n`)],
  ['the id of a chunk (the response id)', (value) => sse(sseText([{ ...chunk({ content: 'Hel' }), id: value }, { error: { message: 'then failed' } }]))],
];

/** Remote A2A fields: each makes the remote agent's answer carry `value` there. */
const A2A_FIELDS: ReadonlyArray<[string, (value: string) => Response]> = [
  ['a JSON-RPC error message', (value) => HttpResponse.json({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: `failed for ${value}` } })],
  ['a JSON-RPC error data', (value) => HttpResponse.json({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'failed', data: { echoed: value } } })],
  ['an HTTP 500 body', (value) => new HttpResponse(`proxy saw ${value}`, { status: 500 })],
  ['the reason phrase of a 401', (value) => new HttpResponse('', { status: 401, statusText: `bad key ${value}` })],
  ['a 200 body that is not JSON (V8 quotes its start)', (value) => new HttpResponse(value, { headers: { 'content-type': 'application/json' } })],
  ['the id of the answer', (value) => HttpResponse.json({ jsonrpc: '2.0', id: `echo ${value}`, result: {} })],
  ['a stream event that is not JSON (V8 quotes its start)', (value) => sse(`data: ${value}\n\n`)],
  ['the id of a stream event', (value) => sse(`data: ${JSON.stringify({ jsonrpc: '2.0', id: `echo ${value}`, result: {} })}\n\n`)],
  ['a www-authenticate header of a 401', (value) => new HttpResponse('', { status: 401, headers: { 'www-authenticate': `Bearer error_description="token ${value} expired"` } })],
  ['an x-debug header of a 403', (value) => new HttpResponse('', { status: 403, headers: { 'x-debug': `received Bearer ${value}` } })],
  ['error_message of a failed task', (value) => failedTask({ error_message: `denied ${value}` })],
  ['error_code of a failed task', (value) => failedTask({ error_code: value })],
  ['error_type of a failed task', (value) => failedTask({ error_type: value })],
  ['error_param of a failed task', (value) => failedTask({ error_param: value })],
  ['the status message text of a failed task', (value) => failedTask({}, `denied for ${value}`)],
  ['the state_delta of a failed task', (value) => failedTask({ state_delta: { note: { encoding: 'bytes', payload: btoa(JSON.stringify(`saw ${value}`)) } } })],
];

function failedTask(metadata: Record<string, unknown>, text = 'denied'): Response {
  return HttpResponse.json({
    jsonrpc: '2.0',
    id: 1,
    result: {
      kind: 'task',
      id: 'task-1',
      contextId: 'ctx-1',
      status: { state: 'failed', message: { kind: 'message', role: 'agent', messageId: 'm-1', parts: [{ kind: 'text', text }] } },
      metadata: { object_type: 'error', error_type: 'flow_error', error_message: 'denied', ...metadata },
    },
  });
}

/** Remote MCP server fields: each makes the server's answer to `initialize` carry `value` there. */
const MCP_FIELDS: ReadonlyArray<[string, (value: string) => Response]> = [
  ['an HTTP 500 body', (value) => new HttpResponse(`proxy saw ${value}`, { status: 500 })],
  ['the reason phrase of a 401', (value) => new HttpResponse('', { status: 401, statusText: `bad key ${value}` })],
  ['a 200 body that is not JSON (V8 quotes its start)', (value) => new HttpResponse(value, { headers: { 'content-type': 'application/json' } })],
  ['a JSON-RPC error message', (value) => HttpResponse.json({ jsonrpc: '2.0', id: 0, error: { code: -32603, message: `failed for ${value}` } })],
  ['a JSON-RPC error data', (value) => HttpResponse.json({ jsonrpc: '2.0', id: 0, error: { code: -32603, message: 'failed', data: { echoed: value } } })],
  ['a stream event that is not JSON (V8 quotes its start)', (value) => sse(`data: ${value}\n\n`)],
];

/** Agent card fields: each makes the card endpoint's answer carry `value` there. */
const CARD_FIELDS: ReadonlyArray<[string, (value: string) => Response]> = [
  ['an HTTP 500 body', (value) => new HttpResponse(`proxy saw ${value}`, { status: 500 })],
  ['the reason phrase of a 401', (value) => new HttpResponse('', { status: 401, statusText: `bad key ${value}` })],
  ['a 200 body that is not JSON (V8 quotes its start)', (value) => new HttpResponse(value, { headers: { 'content-type': 'application/json' } })],
];

/** Tool HTTP API fields. */
const TOOL_FIELDS: ReadonlyArray<[string, (value: string) => Response]> = [
  ['error.message', (value) => HttpResponse.json({ error: { message: `bad key ${value}` } }, { status: 401 })],
  ['error.code', (value) => HttpResponse.json({ error: { message: 'bad', code: value } }, { status: 400 })],
  ['detail', (value) => HttpResponse.json({ detail: `saw ${value}` }, { status: 403 })],
  ['a plain-text body', (value) => new HttpResponse(`upstream saw ${value}`, { status: 500 })],
  ['the request-id header', (value) => new HttpResponse('', { status: 404, headers: { 'request-id': value } })],
  ['the reason phrase', (value) => new HttpResponse('', { status: 418, statusText: `saw ${value}` })],
];

function expectClean(evidence: Evidence): void {
  expect(evidence.sightings()).toEqual([]);
}

/** What our A2A handler answers a remote client's `message/send` and `message/stream` of "go", as raw text. */
async function answers(handler: ReturnType<typeof createA2AHandler>): Promise<string> {
  let all = '';
  for (const method of ['message/send', 'message/stream']) {
    const response = await handler(
      new Request('http://127.0.0.1/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'go' }] } } }),
      }),
    );
    all += await response.text();
  }
  return all;
}

/** Runs `agent` under the Runner (events collected) and through our A2A handler (the raw answers collected). */
async function runEverywhere(agent: RunnableAgent | ReturnType<AgentBuilder['build']>, evidence: Evidence): Promise<void> {
  const runner = new Runner({ appName: 'sweep', agent });
  for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'go' })) evidence.runEvent(event as RunEvent);
  evidence.text('our A2A answers', await answers(createA2AHandler({ agent, card: { name: 'sweep' } })));
}

describe.each(FORMS)('the secret %s', (_form, planted) => {
  describe.each(CHAT_FIELDS)('in the model provider field: %s', (_field, respond) => {
    it('reaches no error, event, item, runner event or A2A payload', async () => {
      server.use(http.post(`${LLM}/v1/chat/completions`, () => respond(planted)));
      const evidence = new Evidence(NEEDLES);
      const agent = new AgentBuilder('sweep')
        .chatClient(createOpenAICompatibleClient({ baseURL: `${LLM}/v1`, apiKey: SECRET, model: 'm', retry: false }))
        .toolLogger((record) => evidence.record(record))
        .build();
      for (const name of ['model-request', 'model-response', 'retry', 'error'] as Array<keyof AgentEvents>) agent.on(name, (payload: unknown) => evidence.event(name, payload));
      for await (const item of await agent.run('go')) evidence.item(item as AgentRunItem);
      await runEverywhere(agent, evidence);
      expectClean(evidence);
    });
  });

  describe.each(A2A_FIELDS)('in the remote A2A field: %s', (_field, respond) => {
    it('reaches no error, runner event or A2A payload of ours', async () => {
      server.use(http.post(`${REMOTE}/`, () => respond(planted)));
      const evidence = new Evidence(NEEDLES);
      const options = { url: `${REMOTE}/`, headers: { authorization: `Bearer ${SECRET}` }, retry: false as const };
      try {
        evidence.value('A2A result', await createA2AClient(options).sendMessage('go'));
      } catch (error) {
        evidence.error('A2A client failure', error); // headers, data, cause chain and toJSON included
      }
      try {
        for await (const event of createA2AClient(options).streamMessage('go')) evidence.value('A2A stream event', event);
      } catch (error) {
        evidence.error('A2A stream failure', error);
      }
      await runEverywhere(createA2AAgent({ ...options, streaming: false }), evidence);
      expectClean(evidence);
    });
  });

  describe.each(MCP_FIELDS)('in the MCP server field: %s', (_field, respond) => {
    it('reaches no error of the MCP client', async () => {
      server.use(http.post(`${REMOTE}/mcp`, () => respond(planted)));
      const evidence = new Evidence(NEEDLES);
      const client = createMCPClient({ url: `${REMOTE}/mcp`, headers: { authorization: `Bearer ${SECRET}` }, retry: false });
      await client.listTools().then((tools) => evidence.value('tools', tools), (error: unknown) => evidence.error('MCP client failure', error));
      expect(evidence.counts.errors).toBe(1);
      expectClean(evidence);
    });
  });

  describe.each(CARD_FIELDS)('in the agent card field: %s', (_field, respond) => {
    it('reaches no error of fetchAgentCard or of the A2A client', async () => {
      server.use(http.get(`${REMOTE}/.well-known/agent-card.json`, () => respond(planted)));
      const evidence = new Evidence(NEEDLES);
      const headers = { authorization: `Bearer ${SECRET}` };
      await fetchAgentCard(REMOTE, { fetch, headers }).then((card) => evidence.value('card', card), (error: unknown) => evidence.error('fetchAgentCard failure', error));
      await createA2AClient({ agentCardUrl: REMOTE, headers, retry: false }).sendMessage('go').then((result) => evidence.value('A2A result', result), (error: unknown) => evidence.error('A2A client failure', error));
      expect(evidence.counts.errors).toBe(2);
      expectClean(evidence);
    });
  });

  describe.each(TOOL_FIELDS)('in the tool API field: %s', (_field, respond) => {
    it('reaches neither the model-facing failure nor its developer-side cause', async () => {
      server.use(http.get(`${API}/v1/items`, () => respond(planted)));
      const response = await fetch(`${API}/v1/items`, { headers: { authorization: `Bearer ${SECRET}` } });
      const failure = await toolErrorFromResponse(response, { service: 'Items API', secrets: [SECRET] });
      const evidence = new Evidence(NEEDLES);
      evidence.error('tool failure', failure);
      evidence.value('model-facing', failure.toErrorInfo());
      evidence.value('cause', failure.cause);
      expectClean(evidence);
    });
  });
});

describe('what our A2A handler sends', () => {
  const leakingAgent = (error: { type: string; message: string; code?: string }, text: string): RunnableAgent => ({
    name: 'leaky',
    async *runEvents(invocation) {
      const origin = { invocationId: invocation.invocationId, author: 'leaky' };
      yield createEvent(origin, { response: { object: 'chat.completion.chunk', done: false, partial: true, choices: [{ index: 0, delta: { content: text } }] } });
      yield createErrorEvent(origin, error);
    },
  });

  it('masks a credential-shaped value in a terminal error before it becomes error_code or error_message', async () => {
    const key = 'sk-live-0123456789abcdefghij';
    const all = await answers(createA2AHandler({ agent: leakingAgent({ type: 'stream_error', message: `provider said Bearer ${key}`, code: `Bearer ${key}` }, 'partial'), card: { name: 'leaky' } }));
    expect(all).not.toContain(key);
    expect(all).toContain('"error_code":"Bearer [REDACTED]"');
  });

  it("masks a credential-shaped value in a graph's execution-error records, which leave in state_delta", async () => {
    const token = 'abcdefghijklmnop0123456789';
    const graph = new StateGraph(new StateSchema())
      .use(new ExecutionErrorCollector())
      .addNode('call', () => {
        throw Object.assign(new Error(`upstream refused Bearer ${token}`), { code: `Bearer ${token}` });
      })
      .setEntryPoint('call')
      .setFinishPoint('call');
    const all = await answers(createA2AHandler({ agent: createGraphAgent('graph', graph.compile()), card: { name: 'graph' } }));
    const decoded = [...all.matchAll(/"payload":"([A-Za-z0-9+/=]+)"/g)].map((match) => atob(match[1] as string)).join('\n');
    expect(decoded).toContain('upstream refused Bearer [REDACTED]');
    expect(`${all}${decoded}`).not.toContain(token);
  });

  it.each(FORMS)('removes a configured secret %s from everything it sends', async (_form, planted) => {
    const all = await answers(
      createA2AHandler({ agent: leakingAgent({ type: 'flow_error', message: `failed with ${planted}`, code: planted }, `text quoting ${planted}`), card: { name: 'leaky' }, secrets: [SECRET] }),
    );
    const evidence = new Evidence(NEEDLES);
    evidence.text('our A2A answers', all);
    expectClean(evidence);
  });
});
