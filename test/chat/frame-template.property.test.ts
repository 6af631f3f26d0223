// Learned frame templates (src/chat/core/frame-template.ts): a delta frame read from a template must read exactly what
// JSON.parse of the whole frame reads, and a decoder that uses them must decode every stream — well-formed or
// mutated byte by byte, cut anywhere — into the same chunks and the same typed failure as the same decoder on the
// full JSON.parse path alone (its templates switched off). Fixed seeds.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { isJSONObject } from '../../src/chat/core/event-decoder.js';
import { FrameTemplates, WARMUP_FRAMES, type HotFrame, type TemplateMatch } from '../../src/chat/core/frame-template.js';
import { OpenAIStreamDecoder } from '../../src/chat/openai/openai-stream-decoder.js';
import { WIRES } from '../helpers/provider-wire.js';
import { cutAt, decodeAll, decoderOf } from './stream-decoder-drive.js';

/**
 * A classifier of Chat-Completions-like text frames: `{"id":…,"seq":N,"delta":{"content":"…"},"pad":"…"}`. It reads
 * the text and the id (its context), not `seq` or `pad`: those are holes of the template.
 */
function classify(parsed: unknown): HotFrame<string> | undefined {
  if (!isJSONObject(parsed) || !isJSONObject(parsed.delta) || typeof parsed.delta.content !== 'string') return undefined;
  return { text: parsed.delta.content, textKey: 'content', context: String(parsed.id) };
}

const frameOf = (content: string, seq?: number, pad?: string): string => JSON.stringify({ id: 'c1', ...(seq === undefined ? {} : { seq }), delta: { content }, finish: null, ...(pad === undefined ? {} : { pad }) });

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
  it('reads a frame of the template exactly as JSON.parse does, whatever its ignored integer and string hold', () => {
    fc.assert(
      fc.property(text, text, fc.boolean(), fc.nat({ max: 10 ** 12 }), fc.option(fc.tuple(text, text)), (first, next, numbered, seq, pads) => {
        const templates = learned(frameOf(first, numbered ? 7 : undefined, pads?.[0]));
        const raw = frameOf(next, numbered ? seq : undefined, pads?.[1]);
        expect(readWith(templates, raw)).toEqual({ text: next, context: 'c1' });
      }),
      { seed: 1712, numRuns: 400 },
    );
  });

  it('matches nothing that JSON.parse would read differently (any edit of a frame of the template)', () => {
    const edit = fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), remove: fc.nat({ max: 2 }), insert: fc.constantFrom('', '"', '\\', ' ', '0', '-', '\t', 'x', '}', ',"x":1', '\\u00e9', '\\q') });
    fc.assert(
      fc.property(text, text, fc.boolean(), fc.array(edit, { minLength: 1, maxLength: 3 }), (first, next, numbered, edits) => {
        const templates = learned(frameOf(first, numbered ? 3 : undefined, 'x7Q'));
        let raw = frameOf(next, numbered ? 12 : undefined, next);
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
    // Whitespace around keys and values (a Python-written stream): the same template, its spaces fixed text.
    expect(readWith(learned('{"id": "c1", "delta": {"content": "a"}}'), '{"id": "c1", "delta": {"content": "z\\n"}}')).toEqual({ text: 'z\n', context: 'c1' });
    expect(readWith(learned('{"id": "c1", "delta": {"content": "a"}}'), '{"id": "c1", "delta": {"content":"z"}}')).toBeUndefined();
    // A classifier whose text is not at its key: the proof fails.
    const lying = new FrameTemplates<string>((parsed) => (isJSONObject(parsed) && typeof parsed.other === 'string' ? { text: parsed.other, textKey: 'content', context: '' } : undefined), 8, 0);
    const raw = '{"content":"a","other":"a"}';
    lying.learn(raw, JSON.parse(raw));
    expect(lying.match('{"content":"b","other":"a"}', { text: '', context: '' })).toBe(false);
    // A number that is not an integer (a fraction, an exponent, a negative) is fixed text, not a hole.
    const numbers = new FrameTemplates<string>((parsed) => (isJSONObject(parsed) && typeof parsed.t === 'string' ? { text: parsed.t, textKey: 't', context: '' } : undefined), 8, 0);
    const withNumbers = '{"n":5.25,"e":1e3,"m":-4,"t":"a"}';
    numbers.learn(withNumbers, JSON.parse(withNumbers));
    expect(readWith(numbers, '{"n":5.25,"e":1e3,"m":-4,"t":"b"}')).toEqual({ text: 'b', context: '' });
    for (const other of ['{"n":6.25,"e":1e3,"m":-4,"t":"b"}', '{"n":5.25,"e":2e3,"m":-4,"t":"b"}', '{"n":5.25,"e":1e3,"m":-5,"t":"b"}']) expect(readWith(numbers, other)).toBeUndefined();
  });

  it('makes a hole of every value the classifier ignores, and keeps fixed every value it reads or requires', () => {
    // `kind` is required to be "d", `who` is returned in the context, `pad` and `n` are ignored.
    const strict = new FrameTemplates<string>((parsed) => (isJSONObject(parsed) && parsed.kind === 'd' && typeof parsed.t === 'string' ? { text: parsed.t, textKey: 't', context: String(parsed.who) } : undefined), 8, 0);
    const raw = '{"kind":"d","who":"w1","n":3,"t":"a","pad":"x"}';
    strict.learn(raw, JSON.parse(raw));
    expect(readWith(strict, '{"kind":"d","who":"w1","n":41,"t":"b","pad":"\\u00e9\\n\\"q"}')).toEqual({ text: 'b', context: 'w1' });
    expect(readWith(strict, '{"kind":"e","who":"w1","n":3,"t":"b","pad":"x"}')).toBeUndefined();
    expect(readWith(strict, '{"kind":"d","who":"w2","n":3,"t":"b","pad":"x"}')).toBeUndefined();
    // An ignored string takes JSON strings only: an escape JSON does not know, a raw control character, a quote.
    for (const pad of ['\\q', '\u0001', '"', '\\u00e']) expect(readWith(strict, `{"kind":"d","who":"w1","n":3,"t":"b","pad":"${pad}"}`)).toBeUndefined();
  });

  it('reads frames whose ignored values change on every frame (a nonce, a random-length padding) from one template', () => {
    let classified = 0;
    const templates = new FrameTemplates<string>((parsed) => {
      classified++;
      return classify(parsed);
    });
    let fast = 0;
    for (let index = 0; index < 1000; index++) {
      const raw = JSON.stringify({ id: 'c1', seq: index, delta: { content: `x${index}` }, pad: 'p'.repeat(index % 17) });
      if (templates.match(raw, { text: '', context: '' })) fast++;
      else templates.learn(raw, JSON.parse(raw));
    }
    expect(fast).toBe(1000 - WARMUP_FRAMES - 1);
    expect(classified).toBe(1 + 3 + 2); // the frame, one document per value other than the text, the two proofs
  });

  it('stops learning, and drops its templates, when they do not pay off (a frame whose form changes every time)', () => {
    let classified = 0;
    const templates = new FrameTemplates<string>((parsed) => {
      classified++;
      return classify(parsed);
    });
    const matches = vi.spyOn(RegExp.prototype, 'exec');
    try {
      for (let index = 0; index < 1000; index++) {
        const raw = JSON.stringify({ id: 'c1', [`k${index}`]: 1, delta: { content: 'x' } }); // a key is fixed text
        if (!templates.match(raw, { text: '', context: '' })) templates.learn(raw, JSON.parse(raw));
      }
      expect(classified).toBeLessThan(40); // a few tries (each: the frame, a document per value, two proofs), then none
      expect(matches.mock.calls.length).toBeLessThan(400); // the templates missed for a while, then were dropped
    } finally {
      matches.mockRestore();
    }
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
    expect(classified).toBe(4); // the frame after the warm-up, a document with a sentinel id, the two proofs
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
