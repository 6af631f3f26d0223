import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StreamError } from '../../src/errors/index.js';
import { SSEDecoderStream } from '../../src/wire/sse-decoder-stream.js';
import { SSEParser, type SSEEvent } from '../../src/wire/sse-decoder.js';
import { splitAt } from '../helpers/split-at.js';

const encoder = new TextEncoder();

function parse(text: string, options: { maxLineLength?: number; maxEventLength?: number } = {}): { events: SSEEvent[]; comments: string[]; retries: number[] } {
  const events: SSEEvent[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  const parser = new SSEParser({ ...options, onEvent: (event) => events.push(event), onComment: (comment) => comments.push(comment), onRetry: (ms) => retries.push(ms) });
  parser.feed(text);
  parser.end();
  return { events, comments, retries };
}

async function decodeChunks(chunks: Array<Uint8Array | string>, options: { maxLineLength?: number } = {}): Promise<SSEEvent[]> {
  const source = new ReadableStream<Uint8Array | string>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const events: SSEEvent[] = [];
  const reader = source.pipeThrough(new SSEDecoderStream(options)).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return events;
    events.push(value);
  }
}


// A stream exercising every rule at once: BOM, comments, CRLF, CR, multi-line data, event names, ids, retry,
// non-ASCII text (2-, 3- and 4-byte UTF-8), a field without a colon, an empty data line, and [DONE].
const TORTURE =
  '\uFEFF: comment before anything\r\n' +
  'event: greeting\r\ndata: héllo wörld\r\nid: 1\r\n\r\n' +
  'data: first line\rdata: second line\r\r' +
  'data:no space after colon\n\n' +
  'retry: 1500\nretry: soon\n' +
  'data: 日本語 and emoji 🎉\nid: 2\n\n' +
  'data\n\n' +
  'data: \n\n' +
  'unknown: field ignored\ndata: after unknown\n\n' +
  'id: 3\0bad\ndata: keeps id 2\n\n' +
  'data: [DONE]\n\n' +
  'data: incomplete event at the end is discarded';

const EXPECTED: SSEEvent[] = [
  { type: 'greeting', data: 'héllo wörld', id: '1' },
  { type: 'message', data: 'first line\nsecond line', id: '1' },
  { type: 'message', data: 'no space after colon', id: '1' },
  { type: 'message', data: '日本語 and emoji 🎉', id: '2' },
  { type: 'message', data: '', id: '2' },
  { type: 'message', data: '', id: '2' },
  { type: 'message', data: 'after unknown', id: '2' },
  { type: 'message', data: 'keeps id 2', id: '2' },
  { type: 'message', data: '[DONE]', id: '2' },
];

describe('SSEParser (WHATWG HTML §9.2.6)', () => {
  it('decodes every field, line ending and event rule of the spec', () => {
    const { events, comments, retries } = parse(TORTURE);
    expect(events).toEqual(EXPECTED);
    expect(comments).toEqual(['comment before anything']);
    expect(retries).toEqual([1500]);
  });

  it('"If the line is empty (a blank line): dispatch the event" — and a blank line without data dispatches nothing', () => {
    expect(parse('\n\n\nevent: ping\n\n').events).toEqual([]);
  });

  it('"If the data buffer\'s last character is a U+000A LINE FEED (LF) character, then remove the last character"', () => {
    expect(parse('data: a\ndata:\n\n').events).toEqual([{ type: 'message', data: 'a\n', id: undefined }]);
  });

  it('"If the field name is "id": If the field value does not contain U+0000 NULL, then set the last event ID buffer"', () => {
    expect(parse('id: x\0y\ndata: d\n\n').events[0]?.id).toBeUndefined();
  });

  it('"Once the end of the file is reached, any pending data must be discarded"', () => {
    expect(parse('data: never dispatched\n').events).toEqual([]);
  });

  it('strips one leading space only from the value', () => {
    expect(parse('data:  two spaces\n\n').events[0]?.data).toBe(' two spaces');
  });

  it('treats a CRLF split across two feeds as a single line end', () => {
    const events: SSEEvent[] = [];
    const parser = new SSEParser({ onEvent: (event) => events.push(event) });
    parser.feed('data: a\r');
    parser.feed('\n\r');
    parser.feed('\ndata: b\n\n');
    expect(events.map((event) => event.data)).toEqual(['a', 'b']);
  });

  it('raises a typed StreamError for a line past the bound instead of buffering it', () => {
    const parser = new SSEParser({ onEvent: () => {}, maxLineLength: 100 });
    parser.feed('data: ');
    let caught: unknown;
    try {
      for (let index = 0; index < 1000; index++) parser.feed('x'.repeat(10));
    } catch (error) {
      caught = error;
    }
    expect(StreamError.isInstance(caught)).toBe(true);
    expect((caught as StreamError).reason).toBe('line_too_long');
    expect((caught as StreamError).message).toBe('An SSE line exceeded 100 characters without a line break');
  });

  it('bounds the data of one event across many lines', () => {
    expect(() => parse('data: 12345\n'.repeat(100), { maxEventLength: 50 })).toThrow(/exceeded 50 characters of data/);
  });

  it('keeps memory flat for a long line fed one character at a time (no quadratic rescans)', () => {
    const parser = new SSEParser({ onEvent: () => {}, maxLineLength: 2_000_000 });
    const started = performance.now();
    for (let index = 0; index < 200_000; index++) parser.feed('y');
    parser.feed('\n\n');
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('SSEDecoderStream', () => {
  it('is a TransformStream subclass (instanceof both, readable and writable, subclassable) that needs new', async () => {
    const stream = new SSEDecoderStream();
    expect(stream).toBeInstanceOf(SSEDecoderStream);
    expect(stream).toBeInstanceOf(TransformStream);
    expect(stream.readable).toBeInstanceOf(ReadableStream);
    expect(stream.writable).toBeInstanceOf(WritableStream);
    expect(Object.getPrototypeOf(SSEDecoderStream)).toBe(TransformStream);
    expect(() => (SSEDecoderStream as unknown as () => unknown)()).toThrow(TypeError);
    class Tagged extends SSEDecoderStream {
      readonly tag = 'tagged';
    }
    const tagged = new Tagged();
    expect(tagged).toBeInstanceOf(Tagged);
    expect(tagged).toBeInstanceOf(SSEDecoderStream);
    expect(tagged.tag).toBe('tagged');
    const reader = new Response('data: a\n\n').body!.pipeThrough(tagged).getReader();
    expect(await reader.read()).toEqual({ done: false, value: { type: 'message', data: 'a', id: undefined } });
  });

  it('gives the same events when the input is split at every byte boundary', async () => {
    const bytes = encoder.encode(TORTURE);
    const whole = await decodeChunks([bytes]);
    expect(whole).toEqual(EXPECTED);
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(await decodeChunks(splitAt(bytes, [cut]))).toEqual(EXPECTED);
    }
  });

  it('gives the same events when every byte arrives on its own (inside multi-byte UTF-8 characters too)', async () => {
    const bytes = encoder.encode(TORTURE);
    const single = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(await decodeChunks(single)).toEqual(EXPECTED);
  });

  it('accepts string chunks', async () => {
    expect(await decodeChunks(['data: a', '\n', '\ndata: b\n\n'])).toEqual([
      { type: 'message', data: 'a', id: undefined },
      { type: 'message', data: 'b', id: undefined },
    ]);
  });

  it('delivers the events completed by a chunk before raising the bound that chunk broke', async () => {
    const source = new ReadableStream<string>({
      start(controller) {
        controller.enqueue(`data: before\n\ndata: ${'z'.repeat(2_000)}`);
        controller.close();
      },
    });
    const reader = source.pipeThrough(new SSEDecoderStream({ maxLineLength: 1_000 })).getReader();
    expect(await reader.read()).toEqual({ done: false, value: { type: 'message', data: 'before', id: undefined } });
    await expect(reader.read()).rejects.toMatchObject({ name: 'StreamError', reason: 'line_too_long' });
  });

  it('errors the stream with a StreamError on an endless line', async () => {
    await expect(decodeChunks([encoder.encode(`data: ${'z'.repeat(5_000)}`)], { maxLineLength: 1_000 })).rejects.toMatchObject({
      name: 'StreamError',
      reason: 'line_too_long',
    });
  });

  it('property: any chunking of the same bytes yields identical events', async () => {
    const eventArbitrary = fc.record({
      event: fc.option(fc.stringMatching(/^[a-z_]{1,8}$/), { nil: undefined }),
      data: fc.array(fc.string({ unit: 'grapheme', maxLength: 20 }).map((text) => text.replace(/[\r\n]/g, ' ')), { minLength: 1, maxLength: 3 }),
      id: fc.option(fc.stringMatching(/^[a-z0-9]{1,6}$/), { nil: undefined }),
      comment: fc.boolean(),
      newline: fc.constantFrom('\n', '\r\n', '\r'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(eventArbitrary, { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { maxLength: 12 }), async (events, cuts) => {
        const text = events
          .map(({ event, data, id, comment, newline }) =>
            [comment ? ': note' : undefined, event ? `event: ${event}` : undefined, ...data.map((line) => `data: ${line}`), id ? `id: ${id}` : undefined]
              .filter((line) => line !== undefined)
              .join(newline)
              .concat(newline, newline),
          )
          .join('');
        const bytes = encoder.encode(text);
        const reference = await decodeChunks([bytes]);
        const chunked = await decodeChunks(splitAt(bytes, cuts.map((cut) => cut % (bytes.length + 1))));
        expect(chunked).toEqual(reference);
        expect(reference).toHaveLength(events.length);
      }),
      { seed: 20261130, numRuns: 300 },
    );
  });
});
