// What a decoder keeps beyond a batch — a call's arguments, a thinking block's text — is made of strings of their own,
// never of views of the network reads its fast paths sliced them from (the chunks' deltas are detached per batch,
// test/chat/delta-retention.test.ts). Each read here is a 64 KiB keep-alive comment and one argument (or thinking)
// delta in the form the fast path takes; keeping only the call's end (and the answer's replay) must not hold the reads.
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { AnthropicStreamDecoder } from '../../src/chat/anthropic/anthropic-stream-decoder.js';
import type { StreamDecoder } from '../../src/chat/core/stream-reader.js';
import type { ChatChunk } from '../../src/chat/index.js';
import { ResponsesStreamDecoder } from '../../src/chat/openai-responses/responses-stream-decoder.js';
import { OpenAIStreamDecoder } from '../../src/chat/openai/openai-stream-decoder.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const MB = 1024 * 1024;
const READS = 200;
const PADDING = `: ${'é'.repeat(64 * 1024)}\n\n`; // two-byte text: 128 KiB of heap per read
const context = { secrets: [], label: 'Provider API (provider.test)', model: 'm', attempt: 1 };
const parts = Array.from({ length: READS }, (_, index) => `piece number ${index} of the argument text, `);
const args = parts.join('');

const anthropic = (type: string, payload: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
const chat = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
let sequence = 0;
const responses = (type: string, payload: object) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...payload })}\n\n`;

const cases: { title: string; decoder: () => StreamDecoder; opening: string[]; piece: (part: string) => string; closing: string[]; kept: (chunk: ChatChunk) => boolean; check: (kept: ChatChunk[]) => void }[] = [
  {
    title: 'Anthropic Messages: a tool_use block of input_json_delta frames',
    decoder: () => new AnthropicStreamDecoder(context),
    opening: [anthropic('message_start', { message: { id: 'msg_1', model: 'm', usage: { input_tokens: 1, output_tokens: 1 } } }), anthropic('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'tool_0', input: {} } })],
    piece: (part) => anthropic('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: part } }),
    closing: [anthropic('content_block_stop', { index: 0 }), anthropic('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 2 } }), anthropic('message_stop', {})],
    kept: (chunk) => chunk.type === 'tool-call-end',
    check: (kept) => expect(kept.some((chunk) => chunk.type === 'tool-call-end' && chunk.arguments === args)).toBe(true),
  },
  {
    title: 'Anthropic Messages: a thinking block of thinking_delta frames (kept for replay)',
    decoder: () => new AnthropicStreamDecoder(context),
    opening: [anthropic('message_start', { message: { id: 'msg_1', model: 'm', usage: { input_tokens: 1, output_tokens: 1 } } }), anthropic('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } })],
    piece: (part) => anthropic('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: part } }),
    closing: [
      anthropic('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'sig' } }),
      anthropic('content_block_stop', { index: 0 }),
      anthropic('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }),
      anthropic('message_stop', {}),
    ],
    kept: (chunk) => chunk.type === 'finish',
    check: (kept) => expect(JSON.stringify(kept.find((chunk) => chunk.type === 'finish'))).toContain(parts[READS - 1]),
  },
  {
    title: 'OpenAI Chat Completions: a call of argument frames (read from a learned template)',
    decoder: () => new OpenAIStreamDecoder({ createId: () => 'call_generated' }),
    opening: [chat({ role: 'assistant', content: null }), chat({ tool_calls: [{ index: 0, id: 'call_0', type: 'function', function: { name: 'tool_0', arguments: '' } }] })],
    piece: (part) => chat({ tool_calls: [{ index: 0, function: { arguments: part } }] }),
    closing: [chat({}, 'tool_calls'), 'data: [DONE]\n\n'],
    kept: (chunk) => chunk.type === 'tool-call-end',
    check: (kept) => expect(kept.some((chunk) => chunk.type === 'tool-call-end' && chunk.arguments === args)).toBe(true),
  },
  {
    title: 'OpenAI Responses: a function_call of argument delta events (read from a learned template)',
    decoder: () => new ResponsesStreamDecoder(context),
    opening: [responses('response.created', { response: { id: 'resp_1', model: 'm', output: [] } }), responses('response.output_item.added', { output_index: 0, item: { id: 'fc_1', type: 'function_call', call_id: 'call_0', name: 'tool_0', arguments: '' } })],
    piece: (part) => responses('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 0, delta: part }),
    closing: [responses('response.completed', { response: { id: 'resp_1', model: 'm', status: 'completed', output: [{ id: 'fc_1', type: 'function_call', call_id: 'call_0', name: 'tool_0', arguments: args }] } })],
    kept: (chunk) => chunk.type === 'tool-call-end',
    check: (kept) => expect(kept.some((chunk) => chunk.type === 'tool-call-end' && chunk.arguments === args)).toBe(true),
  },
];

function heapAfterGC(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / MB;
}

describe('what a decoder keeps beyond a batch holds only itself', () => {
  for (const { title, decoder: make, opening, piece, closing, kept: keep, check } of cases) {
    it(`${title}: ${READS} reads of 128 KiB, one delta each, are not held by what is kept`, () => {
      const encoder = new TextEncoder();
      const decoder = make();
      const kept: ChatChunk[] = [];
      const before = heapAfterGC();
      const reads = [...opening, ...parts.map(piece), ...closing];
      for (const read of reads) for (const chunk of decoder.push(encoder.encode(PADDING + read))) if (keep(chunk)) kept.push(chunk);
      for (const chunk of decoder.end()) if (keep(chunk)) kept.push(chunk);
      const growth = heapAfterGC() - before;
      check(kept);
      expect(growth).toBeLessThan(6); // the reads: > 25 MB
    });
  }
});
