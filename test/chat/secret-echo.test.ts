// A provider (or a proxy in between) that echoes the client's API key into the fields an error quotes — a tool's name,
// the keys on the path to arguments nested too deep, the type of a content part, a value where an index belongs, an
// error object without a message — never gets it into the error: not its message, not its cause. The key planted is
// not credential-shaped, so only the client's configured redaction can catch it; and remote text in a message is
// bounded, however long the field.
import { describe, expect, it } from 'vitest';
import { createAnthropicClient, createOpenAICompatibleClient, createOpenAIResponsesClient, type ChatClient } from '../../src/chat/index.js';
import { describeError } from '../../src/internal/error-json.js';

const KEY = 'my-provider-key-0001';
const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
const sse = (frames: unknown[]) => frames.map((frame) => `data: ${typeof frame === 'string' ? frame : JSON.stringify(frame)}\n\n`).join('');
const answer = (body: string, type: string) => (async () => new Response(body, { headers: { 'content-type': type } })) as typeof fetch;
const streamed = (body: string) => answer(body, 'text/event-stream');
const whole = (body: unknown) => answer(JSON.stringify(body), 'application/json');

const chat = (fetch: typeof globalThis.fetch) => createOpenAICompatibleClient({ baseURL: 'http://x.test/v1', apiKey: KEY, model: 'm', retry: false, fetch });
const anthropic = (fetch: typeof globalThis.fetch) => createAnthropicClient({ baseURL: 'http://x.test', apiKey: KEY, model: 'm', maxTokens: 5, retry: false, fetch });
const responses = (fetch: typeof globalThis.fetch) => createOpenAIResponsesClient({ baseURL: 'http://x.test/v1', apiKey: KEY, model: 'm', retry: false, fetch });

/** `{KEY: {KEY: … 1}}`: arguments nested past the 100 levels taken, every key on the path the secret. */
function deep(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = { [KEY]: value };
  return value;
}
const toolName = `echo_${KEY}`;
const partType = `echo:${KEY}:${'x'.repeat(100_000)}`;

async function failure(client: ChatClient, how: 'stream' | 'complete'): Promise<Error> {
  if (how === 'complete') return client.complete(request).then(() => Promise.reject(new Error('no failure')), (error: Error) => error);
  try {
    for await (const _ of client.stream(request));
  } catch (error) {
    return error as Error;
  }
  throw new Error('no failure');
}

/** Each echoed field, the client and call that reads it, and the typed error it must end in. */
const CASES: Array<{ field: string; how: 'stream' | 'complete'; client: () => ChatClient; error: Record<string, unknown> }> = [
  {
    field: 'Chat Completions stream: the tool name and argument keys of arguments nested too deep',
    how: 'stream',
    client: () => chat(streamed(sse([{ id: 'c', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: toolName, arguments: deep(150) } }] } }] }, '[DONE]']))),
    error: { name: 'StreamError', reason: 'malformed_chunk' },
  },
  {
    field: 'Chat Completions complete(): the tool name and argument keys of arguments nested too deep',
    how: 'complete',
    client: () => chat(whole({ id: 'c', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: toolName, arguments: deep(150) } }] }, finish_reason: 'tool_calls' }] })),
    error: { name: 'StreamError', reason: 'malformed_chunk' },
  },
  {
    field: 'Anthropic stream: the tool name and input keys of a tool_use input nested too deep',
    how: 'stream',
    client: () =>
      anthropic(
        streamed(
          sse([
            { type: 'message_start', message: { id: 'msg_1', model: 'm', usage: { input_tokens: 1 } } },
            { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: toolName, input: deep(150) } },
          ]),
        ),
      ),
    error: { name: 'StreamError', reason: 'malformed_chunk' },
  },
  {
    field: 'Anthropic complete(): the tool name and input keys of a tool_use input nested too deep',
    how: 'complete',
    client: () => anthropic(whole({ id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [{ type: 'tool_use', id: 'toolu_1', name: toolName, input: deep(150) }], stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } })),
    error: { name: 'StreamError', reason: 'malformed_chunk' },
  },
  {
    field: 'Chat Completions stream: the type of a content part this client does not decode',
    how: 'stream',
    client: () => chat(streamed(sse([{ id: 'c', choices: [{ index: 0, delta: { content: [{ type: partType }] } }] }, '[DONE]']))),
    error: { name: 'StreamError', reason: 'malformed_chunk' },
  },
  {
    field: 'Chat Completions complete(): the type of a content part this client does not decode',
    how: 'complete',
    client: () => chat(whole({ id: 'c', choices: [{ index: 0, message: { role: 'assistant', content: [{ type: partType }] }, finish_reason: 'stop' }] })),
    error: { name: 'ChatClientError', reason: 'invalid_response' },
  },
  {
    field: 'Chat Completions stream: an object with the key as its key where a tool call index belongs',
    how: 'stream',
    client: () => chat(streamed(sse([{ id: 'c', choices: [{ index: 0, delta: { tool_calls: [{ index: { [KEY]: 1 } }] } }] }, '[DONE]']))),
    error: { name: 'StreamError', reason: 'malformed_chunk' },
  },
  {
    field: 'Responses stream: an object holding the key where an output_index belongs',
    how: 'stream',
    client: () => responses(streamed(sse([{ type: 'response.output_item.added', output_index: { at: KEY }, item: { type: 'message' } }]))),
    error: { name: 'StreamError', reason: 'malformed_chunk' },
  },
  {
    field: 'Anthropic complete(): 5,000 content blocks each of its own unknown type',
    how: 'complete',
    client: () => anthropic(whole({ id: 'msg', type: 'message', role: 'assistant', content: Array.from({ length: 5_000 }, (_, index) => ({ type: `${KEY}-${index}` })), stop_reason: 'end_turn' })),
    error: { name: 'ChatClientError', reason: 'invalid_response' },
  },
  {
    field: 'Responses complete(): 5,000 output items each of its own unknown type',
    how: 'complete',
    client: () => responses(whole({ id: 'r', status: 'completed', output: Array.from({ length: 5_000 }, (_, index) => ({ type: `${KEY}-${index}` })) })),
    error: { name: 'ChatClientError', reason: 'invalid_response' },
  },
  {
    field: 'Responses complete(): an error object without a message in a failed response',
    how: 'complete',
    client: () => responses(whole({ id: 'r', status: 'failed', output: [], error: { [KEY]: KEY, detail: partType } })),
    error: { name: 'ChatClientError', reason: 'invalid_response' },
  },
];

describe('secrets a provider echoes never reach an error', () => {
  for (const { field, how, client, error: expected } of CASES) {
    it(`${field}: a typed error with neither the key (message, cause) nor an unbounded quote`, async () => {
      const error = await failure(client(), how);
      expect(error).toMatchObject(expected);
      expect(`${error.message}\n${JSON.stringify(describeError(error))}`).not.toContain(KEY);
      expect(error.message.length).toBeLessThan(2_000);
    });
  }
});
