// SSEParser and the chat decoders' SSEDataParser against a literal reading of WHATWG HTML §9.2.6 (split the whole
// text into lines, then one step per line): their fast paths (an LF-only scan; SSEDataParser's whole `event:` /
// `data:` / blank-line groups read at once) must give exactly the events, comments, retries and bound errors of the
// plain algorithm, for any text cut anywhere. SSEDataParser's events carry no id.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StreamError } from '../../src/errors/index.js';
import { SSEDataParser } from '../../src/wire/sse-decoder.js';
import { SSEParser, type SSEEvent } from '../../src/wire/sse-decoder.js';
import { splitAt } from '../helpers/split-at.js';

interface Run {
  events: SSEEvent[];
  comments: string[];
  retries: number[];
  error?: string;
}

interface Bounds {
  maxLineLength: number;
  maxEventLength: number;
}

/** The spec's algorithm, one line at a time, over the whole text (no chunks, no fast path). */
function reference(input: string, bounds: Bounds): Run {
  const run: Run = { events: [], comments: [], retries: [] };
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  // The last piece has no line end: an unfinished line, never processed (but bounded like the others).
  const all = text.split(/\r\n|\r|\n/);
  let data: string | undefined;
  let type = '';
  let id: string | undefined;
  for (let index = 0; index < all.length; index++) {
    const line = all[index] as string;
    if (line.length > bounds.maxLineLength) return { ...run, error: 'line_too_long' };
    if (index === all.length - 1) break;
    if (line === '') {
      if (data !== undefined) run.events.push({ type: type === '' ? 'message' : type, data, id });
      data = undefined;
      type = '';
      continue;
    }
    if (line.startsWith(':')) {
      run.comments.push(line.slice(line.startsWith(': ') ? 2 : 1));
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      data = data === undefined ? value : `${data}\n${value}`;
      if (data.length > bounds.maxEventLength) return { ...run, error: 'line_too_long' };
    } else if (field === 'event') type = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) run.retries.push(Number(value));
  }
  return run;
}

function parse(pieces: readonly string[], bounds: Bounds, kind: 'events' | 'arguments'): Run {
  const run: Run = { events: [], comments: [], retries: [] };
  const options = { ...bounds, onComment: (comment: string) => run.comments.push(comment), onRetry: (ms: number) => run.retries.push(ms) };
  // The data parser's events carry no id: the chat decoders never read it.
  const parser =
    kind === 'events' ? new SSEParser({ ...options, onEvent: (event) => run.events.push(event) }) : new SSEDataParser((type, data) => run.events.push({ type, data, id: undefined }), options);
  try {
    for (const piece of pieces) parser.feed(piece);
    parser.end();
  } catch (error) {
    if (!StreamError.isInstance(error)) throw error;
    return { ...run, error: error.reason };
  }
  return run;
}


/** Lines as servers write them and as they should not; weighted towards the fast paths' forms. */
const valueArbitrary = fc.oneof(
  fc.constantFrom('{"a":1}', '', ' ', 'delta', '[DONE]'),
  fc.string({ unit: 'grapheme', maxLength: 30 }).map((value) => value.replace(/[\r\n]/g, '')),
  fc.integer({ min: 0, max: 90 }).map((length) => 'é'.repeat(length)), // around the small bounds below
);
const fieldArbitrary = fc.constantFrom('data: ', 'data:', 'event: ', 'event:');
const noiseArbitrary = fc.constantFrom(': ping', ':', 'id: 7', 'id: 1\0', 'id', 'retry: 250', 'retry: x', 'event', 'data', 'eventx: y', 'datax: z', 'Data: q', ' data: w', 'data:  two');
const lineEndArbitrary = fc.oneof({ weight: 6, arbitrary: fc.constant('\n') }, { weight: 1, arbitrary: fc.constantFrom('\r', '\r\n') });
/** An event as servers send it (`event:`? `data:`+ blank), or any line; each with its own line end. */
const partArbitrary = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.option(fc.tuple(fc.constantFrom('event: ', 'event:'), valueArbitrary)), fc.array(fc.tuple(fc.constantFrom('data: ', 'data:'), valueArbitrary), { minLength: 1, maxLength: 2 }), fc.array(lineEndArbitrary, { minLength: 4, maxLength: 4 }))
      .map(([event, data, ends]) => [...(event ? [event] : []), ...data, ['', '']].map(([field, value], index) => `${field}${value}${ends[index % 4]}`).join('')),
  },
  { weight: 2, arbitrary: fc.tuple(fieldArbitrary, valueArbitrary, lineEndArbitrary).map(([field, value, end]) => field + value + end) },
  { weight: 1, arbitrary: fc.tuple(noiseArbitrary, lineEndArbitrary).map(([line, end]) => line + end) },
  { weight: 1, arbitrary: lineEndArbitrary },
);
const textArbitrary = fc
  .tuple(fc.boolean(), fc.array(partArbitrary, { maxLength: 16 }), fc.string({ maxLength: 8 }))
  .map(([bom, parts, tail]) => (bom ? '\uFEFF' : '') + parts.join('') + tail.replace(/[\r\n]/g, ''));
const cutsArbitrary = fc.array(fc.nat({ max: 1200 }), { maxLength: 12 });
const boundsArbitrary = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ maxLineLength: 1_048_576, maxEventLength: 8_388_608 }) },
  { weight: 2, arbitrary: fc.record({ maxLineLength: fc.integer({ min: 5, max: 100 }), maxEventLength: fc.integer({ min: 0, max: 100 }) }) },
);

describe('SSEParser against the spec algorithm (property)', () => {
  for (const [kind, name, seed] of [
    ['events', 'SSEParser', 20261202],
    ['arguments', 'SSEDataParser', 20261203],
  ] as const) {
    it(`${name} gives the reference events, comments, retries and bound errors for any text cut anywhere`, () => {
      fc.assert(
        fc.property(textArbitrary, cutsArbitrary, boundsArbitrary, (text, cuts, bounds) => {
          const plain = reference(text, bounds);
          const expected = kind === 'events' ? plain : { ...plain, events: plain.events.map((event) => ({ ...event, id: undefined })) };
          expect(parse([text], bounds, kind)).toEqual(expected);
          expect(parse(splitAt(text, cuts), bounds, kind)).toEqual(expected);
          // Every character alone: CRLF split between CR and LF, each group's lines in separate feeds.
          expect(parse([...text], bounds, kind)).toEqual(expected);
        }),
        { seed, numRuns: 1500 },
      );
    });
  }

  it('reads the usual groups at once (an event: line, its data: line and the blank line in one feed)', () => {
    const text = 'event: content_block_delta\ndata: {"i":0}\n\nevent: ping\ndata: {}\n\ndata: [DONE]\n\nevent: a\nevent: b\ndata: x\n\ndata: one\ndata: two\n\n';
    const bounds = { maxLineLength: 1_048_576, maxEventLength: 8_388_608 };
    expect(parse([text], bounds, 'events')).toEqual(reference(text, bounds));
    expect(parse([text], bounds, 'arguments').events).toEqual(reference(text, bounds).events.map((event) => ({ ...event, id: undefined })));
    expect(parse([text], bounds, 'events').events).toEqual([
      { type: 'content_block_delta', data: '{"i":0}', id: undefined },
      { type: 'ping', data: '{}', id: undefined },
      { type: 'message', data: '[DONE]', id: undefined },
      { type: 'b', data: 'x', id: undefined },
      { type: 'message', data: 'one\ntwo', id: undefined },
    ]);
  });
});
