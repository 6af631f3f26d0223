// A peer that keeps streaming valid events — tool-call arguments that never end, tool calls opened and never closed,
// text for ever — makes progress by every limit of time (each event is one), so only a bound on the answer itself
// ends it: past 64 MiB of body a streamed answer stops with a typed StreamError `too_large` on every wire, and the
// agent reports it as the run's error — never an untyped RangeError or the process out of memory.
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/index.js';
import { createAnthropicClient, createOpenAICompatibleClient, createOpenAIResponsesClient, type ChatClient } from '../../src/chat/index.js';
import { MAX_STREAM_BYTES } from '../../src/chat/core/attempt.js';
import { StreamError } from '../../src/errors/index.js';

const PIECE = 'x'.repeat(256 * 1024); // under the SSE line bound (1 MiB)
const sse = (event: string | undefined, data: unknown) => `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;

/** Each wire's opening frames and a frame it repeats for ever (`index` numbers frames that open something new). */
const WIRES: Record<string, { make: (fetch: typeof globalThis.fetch) => ChatClient; first: string; endless: Record<string, (index: number) => string> }> = {
  'Chat Completions': {
    make: (fetch) => createOpenAICompatibleClient({ baseURL: 'https://llm.test/v1', apiKey: 'k', model: 'm', retry: false, fetch }),
    first: sse(undefined, { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_0', type: 'function', function: { name: 'lookup', arguments: '' } }] }, finish_reason: null }] }),
    endless: {
      arguments: () => sse(undefined, { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: PIECE } }] }, finish_reason: null }] }),
      text: () => sse(undefined, { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: PIECE }, finish_reason: null }] }),
      'calls opened': (index) => sse(undefined, { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls: [{ index: index + 1, id: `call_${index + 1}`, type: 'function', function: { name: 'lookup', arguments: '{' } }] }, finish_reason: null }] }),
    },
  },
  Anthropic: {
    make: (fetch) => createAnthropicClient({ baseURL: 'https://llm.test', apiKey: 'k', model: 'm', maxTokens: 10, retry: false, fetch }),
    first: sse('message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } } }),
    endless: {
      arguments: (index) =>
        (index === 0 ? sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_0', name: 'lookup', input: {} } }) : '') +
        sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: PIECE } }),
      text: (index) =>
        (index === 0 ? sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) : '') +
        sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: PIECE } }),
      'calls opened': (index) => sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_${index}`, name: 'lookup', input: {} } }),
    },
  },
  Responses: {
    make: (fetch) => createOpenAIResponsesClient({ baseURL: 'https://llm.test/v1', apiKey: 'k', model: 'm', retry: false, fetch }),
    first: sse('response.created', { type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } }),
    endless: {
      arguments: (index) =>
        (index === 0 ? sse('response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', id: 'fc_0', call_id: 'call_0', name: 'lookup', arguments: '' } }) : '') +
        sse('response.function_call_arguments.delta', { type: 'response.function_call_arguments.delta', output_index: 0, item_id: 'fc_0', delta: PIECE }),
      text: (index) =>
        (index === 0 ? sse('response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: { type: 'message', id: 'msg_0', role: 'assistant', content: [] } }) : '') +
        sse('response.output_text.delta', { type: 'response.output_text.delta', output_index: 0, content_index: 0, item_id: 'msg_0', delta: PIECE }),
      'calls opened': (index) => sse('response.output_item.added', { type: 'response.output_item.added', output_index: index, item: { type: 'function_call', id: `fc_${index}`, call_id: `call_${index}`, name: 'lookup', arguments: '' } }),
    },
  },
};

/** A body that starts with `first`, then repeats `frame(i)` for ever (in reads of about 1 MiB), counting what it sent. */
function endlessBody(first: string, frame: (index: number) => string, sent: { bytes: number }): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(first));
    },
    pull(controller) {
      let text = '';
      while (text.length < 1_048_576) text += frame(index++);
      const bytes = encoder.encode(text);
      sent.bytes += bytes.byteLength;
      controller.enqueue(bytes);
    },
  });
}

describe('a streamed answer past its bound', () => {
  for (const [wire, { make, first, endless }] of Object.entries(WIRES)) {
    it.each(Object.keys(endless))(`${wire}: endless %s end in a StreamError too_large just past 64 MiB`, async (kind) => {
      const sent = { bytes: 0 };
      const client = make(async () => new Response(endlessBody(first, endless[kind] as (index: number) => string, sent), { headers: { 'content-type': 'text/event-stream' } }));
      const error = await (async () => {
        for await (const _chunk of client.stream({ messages: [{ role: 'user', content: 'hi' }] })) {
          // the caller keeps nothing: whatever is held, the client holds
        }
      })().catch((caught: unknown) => caught);
      expect(StreamError.isInstance(error), String(error)).toBe(true);
      expect(error).toMatchObject({ reason: 'too_large', afterOutput: true });
      expect((error as Error).message).toMatch(/over the 64 MiB \(67108864 bytes\) limit/);
      expect(sent.bytes).toBeGreaterThan(MAX_STREAM_BYTES - 2_097_152);
      expect(sent.bytes).toBeLessThan(MAX_STREAM_BYTES + 4_194_304); // it stopped reading there
    });
  }

  it('an agent whose model streams text for ever fails with the typed error as its run error', async () => {
    const sent = { bytes: 0 };
    const { make, first, endless } = WIRES['Chat Completions'] as (typeof WIRES)[string];
    const model = make(async () => new Response(endlessBody(first.replace(/"tool_calls":\[[^\]]*\]/, '"content":""'), endless.text as (index: number) => string, sent), { headers: { 'content-type': 'text/event-stream' } }));
    const error = await runAgent({ model, prompt: 'hi' }).catch((caught: unknown) => caught);
    expect(StreamError.isInstance(error), String(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'too_large' });
  });
});
