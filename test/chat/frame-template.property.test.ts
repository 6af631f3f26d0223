// Learned frame templates (src/chat/core/frame-template.ts): a delta frame read from a template must read exactly what
// JSON.parse of the whole frame reads, and a decoder that uses them must decode every stream — well-formed or
// mutated byte by byte, cut anywhere — into the same chunks and the same typed failure as the same decoder on the
// full JSON.parse path alone (its templates switched off). Fixed seeds.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { AnthropicStreamDecoder } from '../../src/chat/anthropic/anthropic-stream-decoder.js';
import { isJSONObject } from '../../src/chat/core/event-decoder.js';
import { FrameTemplates, WARMUP_FRAMES, type HotFrame, type TemplateMatch } from '../../src/chat/core/frame-template.js';
import type { StreamDecoder } from '../../src/chat/core/stream-reader.js';
import { ResponsesStreamDecoder } from '../../src/chat/openai-responses/responses-stream-decoder.js';
import { OpenAIStreamDecoder } from '../../src/chat/openai/openai-stream-decoder.js';
import { WIRES, type Wire } from '../helpers/provider-wire.js';
import { cutAt, decodeAll } from './stream-decoder-drive.js';

/** A classifier of Chat-Completions-like text frames: `{"id":…,"seq":N,"delta":{"content":"…"}}`. */
function classify(parsed: unknown): HotFrame<string> | undefined {
  if (!isJSONObject(parsed) || !isJSONObject(parsed.delta) || typeof parsed.delta.content !== 'string') return undefined;
  const numbered = typeof parsed.seq === 'number';
  return { text: parsed.delta.content, textKey: '"content":"', number: parsed.seq, numberKey: numbered ? '"seq":' : undefined, context: String(parsed.id) };
}

const frameOf = (content: string, seq?: number): string => JSON.stringify({ id: 'c1', ...(seq === undefined ? {} : { seq }), delta: { content }, finish: null });

function learned(raw: string): FrameTemplates<string> {
  const templates = new FrameTemplates(classify, 8, 0); // no warm-up: learns from this frame
  templates.learn(raw, JSON.parse(raw));
  return templates;
}

function readWith(templates: FrameTemplates<string>, raw: string): TemplateMatch<string> | undefined {
  const into: TemplateMatch<string> = { text: '', context: '' };
  return templates.match(raw, into) ? { ...into } : undefined;
}

/** Text that JSON.stringify escapes in every way it can, and what hand-written readers get wrong. */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom('', '"', '\\', '\\"', '"}', '","finish":null}', '\u0000', '\t', '\u001f', '\ud83e', '\u2028', 'é', 'データ'),
);

describe('FrameTemplates', () => {
  it('reads a frame of the template exactly as JSON.parse does, with or without a number hole', () => {
    fc.assert(
      fc.property(text, text, fc.boolean(), fc.nat({ max: 10 ** 12 }), (first, next, numbered, seq) => {
        const templates = learned(frameOf(first, numbered ? 7 : undefined));
        const raw = frameOf(next, numbered ? seq : undefined);
        expect(readWith(templates, raw)).toEqual({ text: next, context: 'c1' });
      }),
      { seed: 1712, numRuns: 400 },
    );
  });

  it('matches nothing that JSON.parse would read differently (any edit of a frame of the template)', () => {
    const edit = fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), remove: fc.nat({ max: 2 }), insert: fc.constantFrom('', '"', '\\', ' ', '0', '-', '\t', 'x', '}', ',"x":1', '\\u00e9', '\\q') });
    fc.assert(
      fc.property(text, text, fc.boolean(), fc.array(edit, { minLength: 1, maxLength: 3 }), (first, next, numbered, edits) => {
        const templates = learned(frameOf(first, numbered ? 3 : undefined));
        let raw = frameOf(next, numbered ? 12 : undefined);
        for (const { at, remove, insert } of edits) {
          const position = Math.floor(at * raw.length);
          raw = raw.slice(0, position) + insert + raw.slice(position + remove);
        }
        const read = readWith(templates, raw);
        if (read === undefined) return; // the full path decides it
        const parsed: unknown = JSON.parse(raw); // a match is always valid JSON …
        expect(classify(parsed)?.text).toBe(read.text); // … and reads the same text
        expect(classify(parsed)?.context).toBe(read.context);
      }),
      { seed: 1713, numRuns: 1500 },
    );
  });

  it("matches its fixed text literally, whatever characters it holds (each one is escaped in the template's pattern)", () => {
    // An id of regular-expression syntax: a pattern that took any of it as syntax would match another id too.
    const id = fc.string({ unit: fc.constantFrom(...'.*+?^$()[]{}|\\/-dws0aé\u2028'.split('')), minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(id, fc.nat({ max: 9 }), text, (chosen, at, next) => {
        const frame = (value: string) => JSON.stringify({ id: chosen, delta: { content: value } });
        const templates = new FrameTemplates<string>(classify, 8, 0);
        templates.learn(frame('x'), JSON.parse(frame('x')));
        expect(readWith(templates, frame(next))).toEqual({ text: next, context: chosen });
        const position = at % chosen.length;
        const other = JSON.stringify({ id: chosen.slice(0, position) + (chosen[position] === 'a' ? 'b' : 'a') + chosen.slice(position + 1), delta: { content: next } });
        expect(readWith(templates, other)).toBeUndefined(); // another id is another frame: the full path reads it
      }),
      { seed: 1716, numRuns: 400 },
    );
  });

  it('reads long escaped text exactly, and leaves frames past 65,536 characters to JSON.parse (a bounded match)', () => {
    const templates = learned(frameOf('x'));
    for (const value of ['"'.repeat(30_000), '\\"\n'.repeat(9_000) + 'é😀', 'a'.repeat(65_000)]) expect(readWith(templates, frameOf(value))?.text).toBe(value);
    // 40,000 escapes: past the bound (the pattern's backtracking would grow with them), decided by the full path.
    expect(readWith(templates, frameOf('"'.repeat(40_000)))).toBeUndefined();
    expect(readWith(templates, frameOf('a'.repeat(70_000)))).toBeUndefined();
  });

  it('takes only a hole the sentinel proof confirms', () => {
    // The key twice: not learned. (Inside a string it is escaped, so it is not the key: learned, and read right.)
    expect(readWith(learned('{"id":"c1","delta":{"content":"a"},"x":{"content":"b"}}'), '{"id":"c1","delta":{"content":"z"},"x":{"content":"b"}}')).toBeUndefined();
    expect(readWith(learned('{"id":"c1","delta":{"content":"a"},"x":"\\"content\\":\\"b"}'), '{"id":"c1","delta":{"content":"z"},"x":"\\"content\\":\\"b"}')).toEqual({ text: 'z', context: 'c1' });
    // A classifier whose text is not at its key: the proof fails.
    const lying = new FrameTemplates<string>((parsed) => (isJSONObject(parsed) && typeof parsed.other === 'string' ? { text: parsed.other, textKey: '"content":"', context: '' } : undefined), 8, 0);
    const raw = '{"content":"a","other":"a"}';
    lying.learn(raw, JSON.parse(raw));
    expect(lying.match('{"content":"b","other":"a"}', { text: '', context: '' })).toBe(false);
    // A number hole that is part of a larger number (a fraction): refused.
    const fractional = new FrameTemplates<string>((parsed) => (isJSONObject(parsed) && typeof parsed.t === 'string' ? { text: parsed.t, textKey: '"t":"', number: parsed.n, numberKey: '"n":', context: '' } : undefined), 8, 0);
    const withFraction = '{"n":5.25,"t":"a"}';
    fractional.learn(withFraction, JSON.parse(withFraction));
    expect(fractional.match('{"n":6.25,"t":"b"}', { text: '', context: '' })).toBe(false);
  });

  it('stops learning when templates do not pay off (a nonce in every frame)', () => {
    let classified = 0;
    const templates = new FrameTemplates<string>((parsed) => {
      classified++;
      return classify(parsed);
    });
    for (let index = 0; index < 1000; index++) {
      const raw = JSON.stringify({ id: 'c1', nonce: `n${index}`, delta: { content: 'x' } });
      if (!templates.match(raw, { text: '', context: '' })) templates.learn(raw, JSON.parse(raw));
    }
    expect(classified).toBeLessThan(40); // a few tries (each: the frame and two sentinel documents), then none
  });

  it("learns nothing from a stream's first WARMUP_FRAMES frames: a short stream pays no proof, a long one loses only those", () => {
    let classified = 0;
    const templates = new FrameTemplates<string>((parsed) => {
      classified++;
      return classify(parsed);
    });
    const frames = Array.from({ length: WARMUP_FRAMES + 3 }, (_, index) => frameOf(`t${index}`));
    let fast = 0;
    for (const [index, raw] of frames.entries()) {
      if (templates.match(raw, { text: '', context: '' })) fast++;
      else templates.learn(raw, JSON.parse(raw));
      if (index < WARMUP_FRAMES) expect(classified).toBe(0);
    }
    expect(classified).toBe(3); // the frame after the warm-up, and its two sentinel documents
    expect(fast).toBe(2); // every frame after it
  });

  it('a short Chat Completions stream (an agent step: role, two text deltas, finish) parses each frame once and nothing more', () => {
    const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const body = [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hello' }), chunk({ content: ' there' }), chunk({}, 'stop'), 'data: [DONE]\n\n'].join('');
    const parse = vi.spyOn(JSON, 'parse');
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const decoder = new OpenAIStreamDecoder({ createId: () => 'call_generated' });
      const chunks = [...decoder.push(new TextEncoder().encode(body)), ...decoder.end()];
      expect(chunks.filter((item) => item.type === 'text-delta').map((item) => (item.type === 'text-delta' ? item.delta : '')).join('')).toBe('Hello there');
      expect(parse).toHaveBeenCalledTimes(4);
      expect(stringify).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
      stringify.mockRestore();
    }
  });
});

const context = { secrets: [], label: 'Provider API (provider.test)', model: 'm', attempt: 1 };

function decoderOf(wire: Wire, templates: boolean): StreamDecoder {
  const decoder: StreamDecoder =
    wire.id === 'anthropic-messages'
      ? new AnthropicStreamDecoder(context)
      : wire.id === 'openai-responses'
        ? new ResponsesStreamDecoder(context)
        : new OpenAIStreamDecoder({ createId: (() => {
            let ids = 0;
            return () => `call_generated_${ids++}`;
          })() });
  if (!templates) {
    const off = (decoder as unknown as { templates?: { match: () => boolean; learn: () => void } }).templates;
    if (off) {
      off.match = () => false;
      off.learn = () => {};
    }
  }
  return decoder;
}

const piece = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('"', '\\', '"}', '\\"}', '\u0000', '\u001f', '\n', '\ud83e', 'é', 'データ', '{"a": [1, "b"]}'),
);
const turn = fc.record({
  text: fc.array(piece, { maxLength: 12 }),
  calls: fc.array(fc.array(piece, { maxLength: 5 }).map((parts) => `{"q":${JSON.stringify(parts.join(''))}}`), { maxLength: 3 }),
});
const mutation = fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), remove: fc.nat({ max: 2 }), insert: fc.constantFrom('', '"', '\\', '\t', ' ', '0', '}', 'x', '\n', '\n\n') });
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 });

describe('a decoder with templates decodes as the full JSON.parse path', () => {
  for (const [position, wire] of WIRES.entries()) {
    it(`${wire.title}: the same chunks and the same failure, for any stream, any edit, any cut`, () => {
      fc.assert(
        fc.property(turn, fc.array(mutation, { maxLength: 3 }), cuts, ({ text, calls }, mutations, fractions) => {
          const toolCalls = calls.map((args, index) => ({ id: `call_${index}`, name: `tool_${index}`, arguments: args }));
          // Twice the answer's deltas, so that templates are learned and then used.
          let sse = wire.stream({ text: [...text, ...text], toolCalls });
          for (const { at, remove, insert } of mutations) {
            const offset = Math.floor(at * sse.length);
            sse = sse.slice(0, offset) + insert + sse.slice(offset + remove);
          }
          const bytes = new TextEncoder().encode(sse);
          const offsets = [...new Set(fractions.map((fraction) => Math.floor(fraction * bytes.length)))].sort((a, b) => a - b);
          const reads = cutAt(bytes, offsets);
          expect(decodeAll(decoderOf(wire, true), reads)).toEqual(decodeAll(decoderOf(wire, false), reads));
        }),
        { seed: 20261201 + position, numRuns: 300 },
      );
    });
  }

  it('the templates are used: a long answer parses only a few of its delta frames', () => {
    for (const wire of WIRES) {
      const text = Array.from({ length: 200 }, (_, index) => `word ${index} "q" é `);
      const decoder = decoderOf(wire, true);
      const templates = (decoder as unknown as { templates?: { hits: number } }).templates;
      const result = decodeAll(decoder, [new TextEncoder().encode(wire.stream({ text, toolCalls: [{ id: 'call_0', name: 'tool_0', arguments: '{"a":"b"}' }] }))]);
      expect(result.error).toBeUndefined();
      if (templates) expect(templates.hits).toBeGreaterThan(190);
    }
  });
});
