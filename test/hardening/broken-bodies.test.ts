/**
 * A body that fails before its end — a connection reset after part of a JSON text — is the connection's failure, in
 * every reader of a whole body: never "not JSON", "malformed" or a parse error blaming the sender for bytes it never
 * finished sending. Rows: the three chat clients' `complete()` (a dropped answer is a `StreamError` `read_failed`,
 * retried like any failure before output), and our three servers' request readers (the A2A handler, the MCP handler,
 * `readChatRequest`), which answer HTTP 400 saying the body could not be read to its end, never a JSON-RPC parse
 * error (-32700) or `not_json`; and the A2A client's unary answers and agent card (a network `A2ATransportError`,
 * retried where the call is safe to repeat). The MCP client's readers: test/mcp/cut-bodies.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createA2AClient, createA2AHandler, fetchAgentCard } from '../../src/a2a/index.js';
import { A2ATransportError } from '../../src/errors/index.js';
import { AgentBuilder } from '../../src/agent/index.js';
import { createAnthropicClient, createOpenAICompatibleClient, createOpenAIResponsesClient, createScriptedChatClient, type ChatClient } from '../../src/chat/index.js';
import { StreamError } from '../../src/errors/index.js';
import { createMCPHandler } from '../../src/mcp/index.js';
import { defineTool, jsonSchema } from '../../src/tools/index.js';
import { readChatRequest, UIMessagesError } from '../../src/ui/index.js';

/** A body that sends `head`, then fails as a reset connection does. */
function broken(head: string): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(head));
      setTimeout(() => controller.error(new TypeError('terminated: other side closed (ECONNRESET)')), 2);
    },
  });
}

const HEADS: Record<string, string> = {
  'Chat Completions': '{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assis',
  Anthropic: '{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","te',
  Responses: '{"id":"resp_1","object":"response","status":"completed","output":[{"type":"mess',
};

const CLIENTS: Array<[string, (fetch: typeof globalThis.fetch) => ChatClient]> = [
  ['Chat Completions', (fetch) => createOpenAICompatibleClient({ baseURL: 'https://api.test/v1', apiKey: 'k', model: 'm', fetch, retry: { maxAttempts: 2, initialDelayMs: 1 } })],
  ['Anthropic', (fetch) => createAnthropicClient({ baseURL: 'https://api.test', apiKey: 'k', model: 'm', maxTokens: 10, fetch, retry: { maxAttempts: 2, initialDelayMs: 1 } })],
  ['Responses', (fetch) => createOpenAIResponsesClient({ baseURL: 'https://api.test/v1', apiKey: 'k', model: 'm', fetch, retry: { maxAttempts: 2, initialDelayMs: 1 } })],
];

describe('a chat answer whose body fails before its end', () => {
  it.each(CLIENTS)('%s complete(): a StreamError read_failed after its retries, not an answer that is not JSON', async (name, make) => {
    let calls = 0;
    const fetch = (async () => {
      calls++;
      return new Response(broken(HEADS[name] as string), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof globalThis.fetch;
    const error = await make(fetch).complete({ messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
    expect(StreamError.isInstance(error), String(error)).toBe(true);
    expect((error as StreamError).reason).toBe('read_failed');
    expect((error as Error).message).toMatch(/dropped while reading the answer/);
    expect(calls).toBe(2); // retried: nothing had reached the caller
  });
});

const post = (body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body, duplex: 'half' } as RequestInit);

describe('a request whose body fails before its end, at our servers', () => {
  it('the A2A handler: HTTP 400 saying the body could not be read, not a parse error', async () => {
    const agent = new AgentBuilder('a').chatClient(createScriptedChatClient([{ text: 'done' }])).build();
    const handler = createA2AHandler({ agent, card: { name: 'a' } });
    const response = await handler(post(broken('{"jsonrpc":"2.0","id":1,"method":"message/se')));
    const text = await response.text();
    expect(response.status, text).toBe(400);
    expect(text).toMatch(/could not be read to its end/);
    expect(text).not.toMatch(/-32700|Parse error/);
  });

  it('the MCP handler: the same', async () => {
    const tool = defineTool({ name: 'ping', description: 'Ping.', parameters: jsonSchema({ type: 'object' }), execute: async () => 'pong' });
    const handler = createMCPHandler({ tools: [tool], serverInfo: { name: 's', version: '1' } });
    const response = await handler(post(broken('{"jsonrpc":"2.0","id":1,"method":"initial')));
    const text = await response.text();
    expect(response.status, text).toBe(400);
    expect(text).toMatch(/could not be read to its end/);
    expect(text).not.toMatch(/-32700|Parse error/);
  });

  it('readChatRequest: a UIMessagesError whose issue says the body could not be read, not not_json', async () => {
    const error = await readChatRequest(post(broken('{"id":"c","messages":['))).catch((caught: unknown) => caught);
    expect(UIMessagesError.isInstance(error), String(error)).toBe(true);
    const refused = error as UIMessagesError;
    expect(refused.status).toBe(400);
    expect(refused.issues.map((issue) => issue.code)).toEqual(['invalid']);
    expect(refused.issues[0]?.message).toMatch(/could not be read to its end/);
  });
});

describe('an A2A answer whose body fails before its end, at our client', () => {
  const task = { kind: 'task', id: 'task-1', contextId: 'ctx-1', status: { state: 'completed' } };
  const card = { name: 'a', url: 'https://agent.test/a2a', version: '1', protocolVersion: '0.3', capabilities: {}, defaultInputModes: ['text'], defaultOutputModes: ['text'], skills: [] };
  const cut = (text: string) => new Response(broken(text.slice(0, 30)), { status: 200, headers: { 'content-type': 'application/json' } });

  it('tasks/get (safe to repeat): retried, and the whole second answer read', async () => {
    let calls = 0;
    const fetch = (async () => (++calls === 1 ? cut(JSON.stringify({ jsonrpc: '2.0', id: 1, result: task })) : new Response(JSON.stringify({ jsonrpc: '2.0', id: 2, result: task }), { headers: { 'content-type': 'application/json' } }))) as typeof globalThis.fetch;
    const client = createA2AClient({ url: 'https://agent.test/a2a', fetch, protocolVersion: '0.3', retry: { maxAttempts: 2, initialDelayMs: 1 } });
    expect(await client.getTask({ id: 'task-1' })).toMatchObject({ id: 'task-1' });
    expect(calls).toBe(2);
  });

  it('message/send (not repeated): a network A2ATransportError, not an answer that is not JSON', async () => {
    let calls = 0;
    const fetch = (async () => (calls++, cut(JSON.stringify({ jsonrpc: '2.0', id: 1, result: task })))) as typeof globalThis.fetch;
    const client = createA2AClient({ url: 'https://agent.test/a2a', fetch, protocolVersion: '0.3', retry: { maxAttempts: 2, initialDelayMs: 1 } });
    const error = await client.sendMessage({ message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } }).catch((caught: unknown) => caught);
    expect(A2ATransportError.isInstance(error), String(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'network', retryable: true });
    expect((error as Error).message).toMatch(/broke off: terminated/);
    expect(calls).toBe(1);
  });

  it('the agent card: a network A2ATransportError, not a card that is not JSON', async () => {
    const fetch = (async () => cut(JSON.stringify(card))) as typeof globalThis.fetch;
    const error = await fetchAgentCard('https://agent.test', { fetch }).catch((caught: unknown) => caught);
    expect(A2ATransportError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/its body broke off/);
  });
});
