// The Anthropic decoder's fast path for `content_block_delta` frames (src/chat/anthropic/anthropic-delta-frame.ts):
// it takes exactly the API's compact template and reads what JSON.parse of the whole frame reads; every other frame
// is left to JSON.parse, so a malformed one is still a typed StreamError naming it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readDeltaFrame, type DeltaFrame } from '../../src/chat/anthropic/anthropic-delta-frame.js';
import { AnthropicStreamDecoder } from '../../src/chat/anthropic/anthropic-stream-decoder.js';
import { decodeAll } from './stream-decoder-drive.js';

const read = (raw: string): DeltaFrame | undefined => {
  const into: DeltaFrame = { index: -1, kind: 'text_delta', value: '' };
  return readDeltaFrame(raw, into) ? into : undefined;
};
const frame = (index: number, type: string, key: string, value: string) => JSON.stringify({ type: 'content_block_delta', index, delta: { type, [key]: value } });

describe('readDeltaFrame', () => {
  it('reads the three delta kinds in the compact form, escapes included', () => {
    expect(read(frame(0, 'text_delta', 'text', 'Hello, café 🥐'))).toEqual({ index: 0, kind: 'text_delta', value: 'Hello, café 🥐' });
    expect(read(frame(12, 'input_json_delta', 'partial_json', '{"city": "Pa'))).toEqual({ index: 12, kind: 'input_json_delta', value: '{"city": "Pa' });
    expect(read(frame(3, 'thinking_delta', 'thinking', 'a\\b\n"}}'))).toEqual({ index: 3, kind: 'thinking_delta', value: 'a\\b\n"}}' });
    expect(read(frame(0, 'text_delta', 'text', ''))).toEqual({ index: 0, kind: 'text_delta', value: '' });
  });

  it('leaves every other frame to JSON.parse', () => {
    const others = [
      '{"type": "content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}', // a space
      '{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"a"}}', // not a JSON number
      '{"type":"content_block_delta","index":-1,"delta":{"type":"text_delta","text":"a"}}',
      '{"type":"content_block_delta","index":1.5,"delta":{"type":"text_delta","text":"a"}}',
      '{"type":"content_block_delta","index":1234567890,"delta":{"type":"text_delta","text":"a"}}', // past 9 digits
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"b"}}', // a quote unescaped
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\tb"}}', // a raw control character
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\\"}}', // the closing quote escaped
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\\x"}}', // an invalid escape
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"},"x":"y"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a","x":1}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"a"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"}}',
      '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
    ];
    for (const raw of others) expect([raw, read(raw)]).toEqual([raw, undefined]);
  });

  it('reads what JSON.parse of the whole frame reads, for any text', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom(['text_delta', 'text'], ['input_json_delta', 'partial_json'], ['thinking_delta', 'thinking']), (index, value, [type, key]) => {
        const raw = frame(index, type as string, key as string, value);
        const parsed = JSON.parse(raw) as { index: number; delta: Record<string, string> };
        expect(read(raw)).toEqual({ index: parsed.index, kind: type, value: parsed.delta[key as string] });
      }),
      { seed: 20261230, numRuns: 500 },
    );
  });
});

describe('readDeltaFrame against JSON.parse of the whole frame', () => {
  const kinds = fc.constantFrom(['text_delta', 'text'], ['input_json_delta', 'partial_json'], ['thinking_delta', 'thinking']);
  const value = fc.oneof(fc.string({ unit: 'binary', maxLength: 20 }), fc.constantFrom('', '"', '\\', '\\"', '"}}', '\u0000', '\u001f', '\ud83e', '\u2028', 'データ'));
  /** What JSON.parse says of `raw`, in the reader's terms, when it is a delta frame of the three kinds (else `undefined`). */
  const parsedFrame = (raw: string): DeltaFrame | undefined => {
    let parsed: { type?: unknown; index?: unknown; delta?: Record<string, unknown> };
    try {
      parsed = JSON.parse(raw) as typeof parsed;
    } catch {
      return undefined;
    }
    const key = { text_delta: 'text', input_json_delta: 'partial_json', thinking_delta: 'thinking' }[String(parsed?.delta?.type)];
    if (parsed?.type !== 'content_block_delta' || key === undefined || typeof parsed.delta?.[key] !== 'string' || typeof parsed.index !== 'number') return undefined;
    return { index: parsed.index, kind: parsed.delta.type as DeltaFrame['kind'], value: parsed.delta[key] as string };
  };

  it('takes no edited frame that JSON.parse would read differently, and reads the ones it takes the same', () => {
    const edit = fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), remove: fc.nat({ max: 2 }), insert: fc.constantFrom('', '"', '\\', '\\\\', '\\"', ' ', '0', '7', '-', '\t', 'x', '}', '\\u00e9', '\\q', '\\u12') });
    fc.assert(
      fc.property(fc.nat(1_000), value, kinds, fc.array(edit, { minLength: 1, maxLength: 3 }), (index, text, [type, key], edits) => {
        let raw = frame(index, type as string, key as string, text);
        for (const { at, remove, insert } of edits) {
          const position = Math.floor(at * raw.length);
          raw = raw.slice(0, position) + insert + raw.slice(position + remove);
        }
        const taken = read(raw);
        if (taken !== undefined) expect(taken).toEqual(parsedFrame(raw));
      }),
      { seed: 20261231, numRuns: 3000 },
    );
  });

  it('reads long escaped values exactly, and leaves frames past 65,536 characters to JSON.parse (a bounded match)', () => {
    for (const text of ['"'.repeat(30_000), '\\"\n'.repeat(9_000) + 'é😀', 'a'.repeat(65_000)]) expect(read(frame(0, 'input_json_delta', 'partial_json', text))?.value).toBe(text);
    expect(read(frame(0, 'input_json_delta', 'partial_json', '"'.repeat(40_000)))).toBeUndefined(); // past the bound
  });
});

describe('the Anthropic decoder on frames the fast path leaves', () => {
  const start = 'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","model":"claude","usage":{"input_tokens":1}}}\n\n';
  const block = 'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n';
  const decode = (...events: string[]) =>
    decodeAll(new AnthropicStreamDecoder({ secrets: [], label: 'Anthropic API (anthropic.test)', model: 'm', attempt: 1 }), [new TextEncoder().encode(start + block + events.join(''))]);

  it('a delta with a raw control character is a typed malformed_chunk naming the frame', () => {
    const decoded = decode('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\u0001b"}}\n\n');
    expect(decoded.error).toMatchObject({ name: 'StreamError', reason: 'malformed_chunk' });
    expect(decoded.error?.message).toContain('an event that is not JSON');
    expect(decoded.error?.message).toContain('text_delta');
  });

  it('a delta past the fast path\'s bound is decoded by JSON.parse into the same text', () => {
    const long = '"\\'.repeat(40_000);
    const decoded = decode(`event: content_block_delta\ndata: ${frame(0, 'text_delta', 'text', long)}\n\n`, 'event: message_stop\ndata: {"type":"message_stop"}\n\n');
    expect(decoded.error).toBeUndefined();
    expect(decoded.chunks.filter((chunk) => chunk.type === 'text-delta').map((chunk) => (chunk as { delta: string }).delta).join('')).toBe(long);
  });

  it('a compact delta for a block never started is still malformed_chunk', () => {
    const decoded = decode('event: content_block_delta\ndata: {"type":"content_block_delta","index":7,"delta":{"type":"text_delta","text":"a"}}\n\n');
    expect(decoded.error).toMatchObject({ name: 'StreamError', reason: 'malformed_chunk' });
    expect(decoded.error?.message).toContain('never started');
  });

  it('text that arrived before a broken frame of the same read is delivered, the failure raised after it', () => {
    const decoded = decode(
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"kept"}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"b"}}\n\n',
    );
    expect(decoded.chunks).toEqual([{ type: 'text-delta', delta: 'kept' }]);
    expect(decoded.error).toMatchObject({ name: 'StreamError', reason: 'malformed_chunk' });
  });
});
