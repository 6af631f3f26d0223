// faultline/testing: every fault of anthropicFaultHandlers through createAnthropicClient (and the agent loop for the
// tool round), with the outcome each one promises (ANTHROPIC_FAULTS describes them; a fault without a test here fails
// the coverage check at the end); the streams in the documented event flow; the API's own checks (key, version,
// browser access); and the bound on the run ids the handlers remember.
import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentBuilder, collectAgentRun } from '../../src/agent/index.js';
import { collectChatStream, createAnthropicClient, type AnthropicClientOptions, type ChatChunk, type ChatRetryNotice } from '../../src/chat/index.js';
import { ChatClientError, StreamError } from '../../src/errors/index.js';
import { ANTHROPIC_FAULTS, anthropicFaultHandlers } from '../../src/testing/index.js';
import { defineTool, jsonSchema } from '../../src/tools/index.js';

const CLAUDE = 'https://claude-faults.test/anthropic';
const KEY = 'sk-ant-fault-0123456789abcdef';
const server = setupServer(...anthropicFaultHandlers({ baseURL: CLAUDE }));
const posts: Array<{ path: string; body: Record<string, unknown> }> = [];
server.events.on('request:start', ({ request }) => {
  if (request.method !== 'POST') return;
  const path = new URL(request.url).pathname;
  void request
    .clone()
    .json()
    .then((body) => posts.push({ path, body: body as Record<string, unknown> }));
});

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  posts.length = 0;
});
afterAll(() => server.close());

let runs = 0;
const tested = new Set<string>();
const fastRetry = { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 5, jitter: 'none' as const };
function client(fault: string, options: Partial<AnthropicClientOptions> = {}) {
  tested.add(fault);
  return createAnthropicClient({ baseURL: `${CLAUDE}/${fault}/run-${++runs}`, apiKey: KEY, model: 'claude-sonnet-4-5', maxTokens: 256, retry: fastRetry, ...options });
}
const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

async function drain(stream: ReadableStream<ChatChunk>): Promise<{ chunks: ChatChunk[]; error: unknown }> {
  const chunks: ChatChunk[] = [];
  try {
    for await (const chunk of stream as unknown as AsyncIterable<ChatChunk>) chunks.push(chunk);
    return { chunks, error: undefined };
  } catch (error) {
    return { chunks, error };
  }
}
const text = (chunks: ChatChunk[]) => chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : [])).join('');

/** A raw Messages request to a fault, as our client would send it. */
function raw(fault: string, runId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return fetch(`${CLAUDE}/${fault}/${runId}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01', ...headers },
    body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }], stream: true, ...body }),
  });
}

/** The `[event name, data]` pairs of an SSE body. */
function events(sse: string): Array<[string, Record<string, unknown>]> {
  return sse
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const name = /^event: (.*)$/m.exec(frame)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? 'null') as Record<string, unknown>;
      return [name, data];
    });
}

const lookupTool = (seen: unknown[]) =>
  defineTool({
    name: 'lookup',
    description: 'Look up an order.',
    parameters: jsonSchema({ type: 'object', properties: { order: { type: 'string' } }, required: ['order'] }),
    execute: (args) => {
      seen.push(args);
      return { order: (args as { order: string }).order, status: 'shipped' };
    },
  });

describe('anthropicFaultHandlers', () => {
  it('ok: a streamed text answer in the documented event flow, with a request-id', async () => {
    const response = await collectChatStream(client('ok').stream(ask));
    expect(response.message.content).toBe('Hello from the Anthropic fault server.');
    expect(response.finishReason).toBe('stop');
    expect(response.requestId).toMatch(/^req_011Fault\d+$/);

    const answer = await raw('ok', 'shape-1', {});
    expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(answer.headers.get('request-id')).toMatch(/^req_/);
    const flow = events(await answer.text());
    expect(flow.every(([name, data]) => name === data.type)).toBe(true);
    expect(flow.map(([name]) => name)).toEqual([
      'message_start', 'content_block_start', 'content_block_delta', 'ping', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop',
    ]);
    expect(flow[0]?.[1]).toMatchObject({ message: { type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, usage: { input_tokens: 12 } } });
    expect(flow[7]?.[1]).toMatchObject({ delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } });
  });

  it('ok: a request without "stream" gets the whole Message as JSON', async () => {
    const response = await client('ok').complete(ask);
    expect(response.message.content).toBe('Hello from the Anthropic fault server.');
    expect(response.requestId).toMatch(/^req_011Fault/);
  });

  it('tool-round: the agent runs lookup with {order: "A-1"}, sends the tool_result back and gets it quoted', async () => {
    const seen: unknown[] = [];
    const agent = new AgentBuilder('claude').chatClient(client('tool-round')).tools([lookupTool(seen)]).build();
    const result = await collectAgentRun(await agent.run('Where is order A-1?'));
    expect(seen).toEqual([{ order: 'A-1' }]);
    expect(result.toolResults.map((item) => item.content)).toEqual(['{"ok":true,"data":{"order":"A-1","status":"shipped"}}']);
    expect(result.text).toBe('The lookup tool answered: {"ok":true,"data":{"order":"A-1","status":"shipped"}}');
    expect(posts).toHaveLength(2);
    const [toolUse, toolResult] = (posts[1]?.body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>).slice(-2);
    expect(toolUse?.content.find((block) => block.type === 'tool_use')).toMatchObject({ name: 'lookup', input: { order: 'A-1' }, id: expect.stringMatching(/^toolu_01Fault/) });
    expect(toolResult?.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: (toolUse?.content.find((block) => block.type === 'tool_use') as { id: string }).id });
  });

  it('tool-round: a failed tool result is quoted as a failure', async () => {
    const failing = defineTool({
      name: 'lookup',
      description: 'Look up an order.',
      parameters: jsonSchema({ type: 'object', properties: { order: { type: 'string' } } }),
      execute: () => {
        throw new TypeError('boom');
      },
    });
    const agent = new AgentBuilder('claude').chatClient(client('tool-round')).tools([failing]).toolLogger(() => {}).build();
    const result = await collectAgentRun(await agent.run('Where is order A-1?'));
    expect(result.text).toMatch(/^The lookup tool failed: \{"ok":false,"error":\{"type":"ToolInternalError"/);
  });

  it('tool-round: a request offering no lookup tool, and a second request without the tool_result, get HTTP 400', async () => {
    const noTool = await drain(client('tool-round').stream(ask));
    expect(noTool.error).toMatchObject({ name: 'ChatClientError', status: 400, code: 'invalid_request_error', retryable: false });
    expect((noTool.error as ChatClientError).providerMessage).toMatch(/named lookup.*offered: no tools/);

    const tools = [{ name: 'lookup', description: 'Look up an order.', parameters: { type: 'object' } }];
    const round = client('tool-round');
    const first = await collectChatStream(round.stream({ ...ask, tools }));
    expect(first.finishReason).toBe('tool_calls');
    expect(first.message.toolCalls).toEqual([{ id: expect.stringMatching(/^toolu_01FaultLookup/), name: 'lookup', arguments: '{"order":"A-1"}' }]);
    const id = first.message.toolCalls?.[0]?.id as string;
    const without = await drain(round.stream({ messages: [...ask.messages, first.message, { role: 'user', content: 'and?' }], tools }));
    expect(without.error).toMatchObject({ name: 'ChatClientError', status: 400, code: 'invalid_request_error' });
    expect((without.error as ChatClientError).providerMessage).toContain(`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${id}`);
    const forgotten = await drain(round.stream({ ...ask, tools }));
    expect((forgotten.error as ChatClientError).providerMessage).toMatch(/must send back the assistant's tool_use/);
  });

  it('overloaded-mid-stream: the text, then a StreamError provider_error overloaded_error after output, never retried', async () => {
    const notices: ChatRetryNotice[] = [];
    const { chunks, error } = await drain(client('overloaded-mid-stream').stream({ ...ask, onRetry: (notice) => notices.push(notice) }));
    expect(text(chunks)).toBe('The first part of the answer');
    expect(StreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'provider_error', code: 'overloaded_error', afterOutput: true });
    expect(notices).toEqual([]);
    expect(posts).toHaveLength(1);
    const flow = events(await (await raw('overloaded-mid-stream', 'shape-2', {})).text());
    expect(flow.map(([name]) => name)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'ping', 'content_block_delta', 'error']);
    expect(flow.at(-1)?.[1]).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });

  it('overloaded-before-output: the error event before any content is retried, then the answer', async () => {
    const notices: ChatRetryNotice[] = [];
    const response = await collectChatStream(client('overloaded-before-output').stream({ ...ask, onRetry: (notice) => notices.push(notice) }));
    expect(response.message.content).toBe('Hello from the Anthropic fault server.');
    expect(notices.map((notice) => [notice.attempt, notice.error.name, notice.error.code, notice.error.retryable])).toEqual([
      [1, 'ChatClientError', 'overloaded_error', true],
    ]);
    expect(posts).toHaveLength(2);
    const flow = events(await (await raw('overloaded-before-output', 'shape-3', {})).text());
    expect(flow.map(([name]) => name)).toEqual(['message_start', 'ping', 'error']);
  });

  it('overloaded: HTTP 529 with retry-after on the first call, then the answer', async () => {
    const notices: ChatRetryNotice[] = [];
    const response = await collectChatStream(client('overloaded').stream({ ...ask, onRetry: (notice) => notices.push(notice) }));
    expect(response.message.content).toBe('Hello from the Anthropic fault server.');
    expect(notices.map((notice) => [notice.delayMs, notice.fromRetryAfter])).toEqual([[1000, true]]);
    expect(notices[0]?.error).toMatchObject({ name: 'ChatClientError', status: 529, code: 'overloaded_error', retryable: true, requestId: expect.stringMatching(/^req_011Fault/) });
    const first = await raw('overloaded', 'shape-4', {});
    expect(first.status).toBe(529);
    expect(first.headers.get('retry-after')).toBe('1');
    expect(await first.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: first.headers.get('request-id') });
  });

  it('checks what the API checks: the key, the version, the body fields, the fault name', async () => {
    const missingKey = await raw('ok', 'checks', {}, { 'x-api-key': '' });
    expect([missingKey.status, ((await missingKey.json()) as { error: { type: string } }).error.type]).toEqual([401, 'authentication_error']);
    const missingVersion = await raw('ok', 'checks', {}, { 'anthropic-version': '' });
    expect(missingVersion.status).toBe(400);
    const missingMaxTokens = await raw('ok', 'checks', { max_tokens: undefined });
    expect(((await missingMaxTokens.json()) as { error: { message: string } }).error.message).toBe('max_tokens: Field required');
    const unknown = await drain(client('no-such-fault').stream(ask));
    tested.delete('no-such-fault');
    expect(unknown.error).toMatchObject({ status: 404, code: 'not_found_error' });
  });

  it('answers a browser as Anthropic does: refused without the opt-in header, CORS allowed with it', async () => {
    const refused = await raw('ok', 'browser', {}, { origin: 'https://page.test' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(await refused.json()).toMatchObject({ error: { type: 'authentication_error', message: "CORS requests must set 'anthropic-dangerous-direct-browser-access' header" } });
    const allowed = await raw('ok', 'browser', {}, { origin: 'https://page.test', 'anthropic-dangerous-direct-browser-access': 'true' });
    expect([allowed.status, allowed.headers.get('access-control-allow-origin'), allowed.headers.get('access-control-expose-headers')]).toEqual([200, '*', '*']);
    await allowed.text();
    const preflight = await fetch(`${CLAUDE}/ok/browser/v1/messages`, {
      method: 'OPTIONS',
      headers: { origin: 'https://page.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key,anthropic-version' },
    });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin'), preflight.headers.get('access-control-allow-headers')]).toEqual([204, '*', 'x-api-key,anthropic-version']);
    const viaClient = await collectChatStream(client('ok', { browser: true, headers: { origin: 'https://page.test' } }).stream(ask));
    expect(viaClient.message.content).toBe('Hello from the Anthropic fault server.');
  });

  it('remembers at most 10,000 run ids, the oldest forgotten first', async () => {
    const handlers = anthropicFaultHandlers({ baseURL: 'https://bounded.test' });
    const call = async (runId: string) => {
      const request = new Request(`https://bounded.test/overloaded/${runId}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
        body: '{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"hi"}]}',
      });
      return ((await getResponse(handlers, request)) as Response).status;
    };
    expect(await call('run-0')).toBe(529);
    expect(await call('run-0')).toBe(200); // remembered: its first call is over
    for (let index = 1; index <= 10_000; index++) await call(`run-${index}`);
    expect(await call('run-10000')).toBe(200); // the newest is remembered
    expect(await call('run-0')).toBe(529); // the oldest was forgotten: a first call again
  }, 60_000);

  it('has a test for every fault of ANTHROPIC_FAULTS', () => {
    expect([...tested].sort()).toEqual(Object.keys(ANTHROPIC_FAULTS).sort());
  });
});
