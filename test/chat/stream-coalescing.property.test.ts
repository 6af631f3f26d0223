// Properties of the stream decoders of every wire (test/helpers/provider-wire.ts writes the exact SSE each provider
// sends): however the network cuts a stream, and whether a frame takes a decoder's fast path (Anthropic's compact
// `content_block_delta`) or the full JSON.parse path, coalescing the deltas of one read never changes the
// concatenated text or any call's arguments, every call ends before the finish, calls keep their order, and the
// chunks are those of the stream read at once. Text pieces include what a hand-written reader gets wrong: quotes,
// backslashes, the `"}}` that ends a frame, control characters, lone surrogates, non-ASCII. Fixed seeds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnthropicStreamDecoder } from '../../src/chat/anthropic/anthropic-stream-decoder.js';
import type { StreamDecoder } from '../../src/chat/core/stream-reader.js';
import type { ChatChunk } from '../../src/chat/index.js';
import { ResponsesStreamDecoder } from '../../src/chat/openai-responses/responses-stream-decoder.js';
import { OpenAIStreamDecoder } from '../../src/chat/openai/openai-stream-decoder.js';
import { WIRES, type Wire } from '../helpers/provider-wire.js';
import { cutAt, decodeAll, merged } from './stream-decoder-drive.js';

const context = { secrets: [], label: 'Provider API (provider.test)', model: 'm', attempt: 1 };

function decoderOf(wire: Wire): StreamDecoder {
  if (wire.id === 'anthropic-messages') return new AnthropicStreamDecoder(context);
  if (wire.id === 'openai-responses') return new ResponsesStreamDecoder(context);
  let ids = 0;
  return new OpenAIStreamDecoder({ createId: () => `call_generated_${ids++}` });
}

const piece = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('"', '\\', '"}}', '\\"}}', '\u0000', '\u001f', '\n', '\r\n', '\ud83e', '\udd50', 'é', 'データ', '🥐', '\u2028', '{"a": [1, "b"]}', 'data: x'),
);
const turn = fc.record({
  text: fc.array(piece, { maxLength: 10 }),
  calls: fc.array(fc.array(piece, { maxLength: 4 }).map((parts) => `{"q":${JSON.stringify(parts.join(''))}}`), { maxLength: 3 }),
});
/** Cut points as fractions of the stream's length. */
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 });

/** Every `data: {"type":` frame written with a space, so that no frame matches a compact fast path. */
const spaced = (sse: string): string => sse.replaceAll('data: {"type":', 'data: { "type":');

interface Reading {
  text: string;
  reasoning: string;
  /** Per call, in the order they started: id, name, the deltas joined, the final arguments. */
  calls: { id: string; name: string; deltas: string; arguments: string | undefined }[];
  order: string[];
}

function reading(chunks: readonly ChatChunk[]): Reading {
  const result: Reading = { text: '', reasoning: '', calls: [], order: [] };
  const byId = new Map<string, Reading['calls'][number]>();
  for (const chunk of chunks) {
    result.order.push(chunk.type);
    if (chunk.type === 'text-delta') result.text += chunk.delta;
    else if (chunk.type === 'reasoning-delta') result.reasoning += chunk.delta;
    else if (chunk.type === 'tool-call-start') {
      const call = { id: chunk.id, name: chunk.name, deltas: '', arguments: undefined };
      byId.set(chunk.id, call);
      result.calls.push(call);
    } else if (chunk.type === 'tool-call-delta') (byId.get(chunk.id) as Reading['calls'][number]).deltas += chunk.argumentsDelta;
    else if (chunk.type === 'tool-call-end') (byId.get(chunk.id) as Reading['calls'][number]).arguments = chunk.arguments;
  }
  return result;
}

describe('coalescing deltas in the stream decoders', () => {
  for (const [position, wire] of WIRES.entries()) {
    it(`${wire.title}: any cut gives the text, the arguments and the order of the stream read at once, on either frame path`, () => {
      fc.assert(
        fc.property(turn, cuts, fc.boolean(), ({ text, calls }, fractions, space) => {
          const toolCalls = calls.map((args, index) => ({ id: `call_${index}`, name: `tool_${index}`, arguments: args }));
          const compact = wire.stream({ text, toolCalls });
          const bytes = new TextEncoder().encode(space ? spaced(compact) : compact);
          const offsets = [...new Set(fractions.map((fraction) => Math.floor(fraction * bytes.length)))].sort((a, b) => a - b);
          const cut = decodeAll(decoderOf(wire), cutAt(bytes, offsets));
          const whole = decodeAll(decoderOf(wire), [new TextEncoder().encode(spaced(compact))]);
          expect(cut.error).toBeUndefined();
          expect(whole.error).toBeUndefined();
          expect(merged(cut.chunks)).toEqual(merged(whole.chunks));
          const read = reading(cut.chunks);
          expect(read.text).toBe(text.join(''));
          expect(read.calls.map((call) => call.name)).toEqual(toolCalls.map((call) => call.name));
          for (const [index, call] of read.calls.entries()) {
            expect(call.deltas).toBe(toolCalls[index]?.arguments);
            expect(call.arguments).toBe(toolCalls[index]?.arguments);
          }
          // The finish is last, after every call's end.
          expect(read.order[read.order.length - 1]).toBe('finish');
          expect(read.order.lastIndexOf('tool-call-end')).toBeLessThan(read.order.length - 1);
          expect(read.order.filter((type) => type === 'finish')).toHaveLength(1);
        }),
        { seed: 20261217 + position, numRuns: 250 },
      );
    });
  }
});
