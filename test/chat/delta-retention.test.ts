// A delta read without JSON.parse (a learned template, Anthropic's delta frames) is a string of its own, not a view
// of the network read it was cut from (V8 makes a slice of 13+ characters a view of the whole string): a consumer that
// keeps every chunk, and a call's arguments built from them, hold the deltas, not every read's text. Each read here is
// a 64 KiB keep-alive comment and one event; keeping all the chunks of 200 such reads must not hold the 200 reads.
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { AnthropicStreamDecoder } from '../../src/chat/anthropic/anthropic-stream-decoder.js';
import type { StreamDecoder } from '../../src/chat/core/stream-reader.js';
import type { ChatChunk } from '../../src/chat/index.js';
import { ResponsesStreamDecoder } from '../../src/chat/openai-responses/responses-stream-decoder.js';
import { OpenAIStreamDecoder } from '../../src/chat/openai/openai-stream-decoder.js';
import { WIRES, type Wire } from '../helpers/provider-wire.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const MB = 1024 * 1024;
const READS = 200;
const PADDING = `: ${'é'.repeat(64 * 1024)}\n\n`; // two-byte text: 128 KiB of heap per read

function decoderOf(wire: Wire): StreamDecoder {
  const context = { secrets: [], label: 'Provider API (provider.test)', model: 'm', attempt: 1 };
  if (wire.id === 'anthropic-messages') return new AnthropicStreamDecoder(context);
  if (wire.id === 'openai-responses') return new ResponsesStreamDecoder(context);
  return new OpenAIStreamDecoder({ createId: () => 'call_generated' });
}

function heapAfterGC(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / MB;
}

describe('deltas read without JSON.parse hold only themselves', () => {
  for (const wire of WIRES) {
    it(`${wire.title}: keeping every chunk of ${READS} reads of 128 KiB holds far less than the reads`, () => {
      const text = Array.from({ length: READS }, (_, index) => `a delta of some length, number ${index} `);
      const args = `{"q":${JSON.stringify('an argument piece that is long enough '.repeat(4))}}`;
      const events = wire.stream({ text, toolCalls: [{ id: 'call_0', name: 'tool_0', arguments: args }] }).split(/(?<=\n\n)/);
      const encoder = new TextEncoder();
      const decoder = decoderOf(wire);
      const kept: ChatChunk[] = [];
      const before = heapAfterGC();
      for (const event of events) kept.push(...decoder.push(encoder.encode(PADDING + event)));
      kept.push(...decoder.end());
      const growth = heapAfterGC() - before;
      expect(kept.filter((chunk) => chunk.type === 'text-delta').map((chunk) => (chunk.type === 'text-delta' ? chunk.delta : '')).join('')).toBe(text.join(''));
      expect(kept.some((chunk) => chunk.type === 'tool-call-end' && chunk.arguments === args)).toBe(true);
      expect(growth).toBeLessThan(6); // the reads: > 25 MB
    });
  }
});
