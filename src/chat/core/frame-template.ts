/**
 * @internal Learned frame templates: the most frequent frames of a stream (one per token) read without `JSON.parse`.
 *
 * A provider sends its delta frames in one fixed form in which only the delta's text changes (and, for some, a
 * sequence number): `{"id":"chatcmpl-1","object":"chat.completion.chunk",…,"delta":{"content":"Hi"},…}`. After
 * `JSON.parse` decoded such a frame, the decoder may learn its **template**: the text before the delta's string, an
 * optional run of digits (an integer whose value the decoder never reads), and the text after it. A later frame
 * that is that text exactly, with any JSON string in the hole (and any JSON integer in the number hole), is read by
 * comparing the fixed parts and slicing the string: nothing is allocated but the delta's text.
 *
 * Why that reads what `JSON.parse` reads: a template is kept only when two documents built from it with different
 * sentinel values — `head + 918273645 + middle + "fl§A" + tail` and the same with `5647382910` and `"fl§B"` — both
 * parse, and the provider's classifier finds each sentinel at the place it reads the delta from (and the number at
 * its key). A sentinel can be read back there only if it fills exactly one JSON token (a string token that began
 * earlier or ends later would hold other characters; a number hole inside a larger number would give another
 * value), and a literal of the fixed text cannot equal two different sentinels. Any other JSON string (integer) is
 * then a token of the same kind in the same place: the document is valid, has the same structure and the same
 * values everywhere else, and its delta is that string's value. What the fast path takes is checked to be such a
 * token: a string body with no quote, backslash or control character is its own value; one with escapes is given to
 * `JSON.parse` alone, and anything it does not accept as exactly one string goes to the full path, which decides it
 * (and names its problem) as before.
 */
import type { ChatChunk } from './types.js';

/** The sentinel string values of the proof (no quote, backslash or control character; not a JSON keyword). */
const SENTINEL_A = 'fl\u00a7sentinel\u00a7A';
const SENTINEL_B = 'fl\u00a7sentinel\u00a7B';
/** The sentinel integers (two different values, no leading zero). */
const NUMBER_A = 918273645;
const NUMBER_B = 5647382910;
/** Frames longer than this are not learned: a template is compared in full for each candidate frame. */
const MAX_TEMPLATE_LENGTH = 2048;
/**
 * Frames a stream decodes in full before it learns any template. Learning costs a stream two parses and two
 * stringifications per template (the proof) for frames that may never come again: a short stream (an agent step's
 * few frames) would pay it for a template used once or never, a long one loses only these first frames' fast path.
 */
export const WARMUP_FRAMES = 8;
const QUOTE = 34;
const BACKSLASH = 92;
const ZERO = 48;
const NINE = 57;

/** What a provider's classifier says of a parsed frame it can read from a template. */
export interface HotFrame<C> {
  /** The delta's text: the string the template's hole holds. */
  text: string;
  /** The text of the key before the string hole, e.g. `"content":"` (the hole starts after it). */
  textKey: string;
  /** The value of the number hole's key, when the frame has one (`numberKey`). */
  number?: unknown;
  /** The text of the key before the number hole, e.g. `"sequence_number":`. */
  numberKey?: string | undefined;
  /** What the provider needs to apply such a frame, equal for every frame of the template (compared as JSON). */
  context: C;
}

/** One learned template: `head` [digits `middle`] string body `tail`. */
interface Template<C> {
  /** Up to the number hole, or (without one) up to and with the string's opening quote. */
  head: string;
  /** After the number hole, up to and with the string's opening quote; `undefined` when there is no number hole. */
  middle: string | undefined;
  /** From the string's closing quote to the end. */
  tail: string;
  context: C;
  /** The template as one regular expression, made on its first match ({@link patternOf}). */
  pattern?: RegExp;
}

/** A matched frame: the delta's text and the template's context. Refilled on each match. */
export interface TemplateMatch<C> {
  text: string;
  context: C;
}

/**
 * The templates of one stream (a handful: a text delta, one per parallel tool call…), and their learning budget: a
 * stream whose frames never repeat (a per-frame nonce) stops learning after a few tries, so it pays at most a few
 * extra parses.
 */
export class FrameTemplates<C> {
  private readonly templates: Template<C>[] = [];
  private last = 0;
  private hits = 0;
  private tries = 0;
  /** Frames offered to {@link learn} so far, up to `warmup`. */
  private seen = 0;

  /**
   * @param classify what the provider reads from a parsed frame, or `undefined` when it is not a frame a template may
   *   stand for (called on the sentinel documents: it must look only at the parsed value and the decoder's state)
   * @param capacity most templates kept (the oldest is dropped for a new one)
   * @param warmup frames decoded in full before learning starts ({@link WARMUP_FRAMES})
   */
  constructor(
    private readonly classify: (parsed: unknown) => HotFrame<C> | undefined,
    private readonly capacity = 8,
    private readonly warmup = WARMUP_FRAMES,
  ) {}

  /** Forgets every template (the decoder's state changed in a way its classifier looks at). */
  clear(): void {
    this.templates.length = 0;
    this.last = 0;
  }

  /** Reads `raw` when it is one of the templates with a JSON string (and integer) in its holes; `false` otherwise. */
  match(raw: string, into: TemplateMatch<C>): boolean {
    const templates = this.templates;
    const count = templates.length;
    if (count === 0) return false;
    for (let step = 0; step < count; step++) {
      const slot = (this.last + step) % count;
      const text = read(raw, templates[slot] as Template<C>);
      if (text !== undefined) {
        this.last = slot;
        this.hits++;
        into.text = text;
        into.context = (templates[slot] as Template<C>).context;
        return true;
      }
    }
    return false;
  }

  /**
   * Learns `raw`'s template, after the full path decoded it into `parsed` (and the decoder's state took it in). Does
   * nothing when the frame is not one the classifier reads, when its holes cannot be found, when the proof fails, or
   * when learning has not been paying off; and for the stream's first {@link WARMUP_FRAMES} frames.
   */
  learn(raw: string, parsed: unknown): void {
    if (this.seen < this.warmup) {
      this.seen++;
      return;
    }
    if (raw.length > MAX_TEMPLATE_LENGTH || this.tries > 4 + (this.hits >> 4)) return;
    const hot = this.classify(parsed);
    if (hot === undefined) return;
    this.tries++;
    const template = locate(raw, hot);
    if (template === undefined || !this.proves(template, hot)) return;
    if (this.templates.length >= this.capacity) this.templates.shift();
    this.templates.push(template);
    this.last = this.templates.length - 1;
  }

  /** The sentinel proof (see the module's summary). */
  private proves(template: Template<C>, hot: HotFrame<C>): boolean {
    const context = JSON.stringify(hot.context);
    for (const [text, number] of [
      [SENTINEL_A, NUMBER_A],
      [SENTINEL_B, NUMBER_B],
    ] as const) {
      const document = template.middle === undefined ? `${template.head}${text}${template.tail}` : `${template.head}${number}${template.middle}${text}${template.tail}`;
      let parsed: unknown;
      try {
        parsed = JSON.parse(document);
      } catch {
        return false;
      }
      const found = this.classify(parsed);
      if (found === undefined || found.text !== text || JSON.stringify(found.context) !== context) return false;
      if (template.middle !== undefined && found.number !== number) return false;
    }
    return true;
  }
}

/** The template of `raw` around the holes the classifier names; `undefined` when a hole is not where it must be. */
function locate<C>(raw: string, hot: HotFrame<C>): Template<C> | undefined {
  const keyAt = raw.indexOf(hot.textKey);
  if (keyAt === -1 || raw.indexOf(hot.textKey, keyAt + 1) !== -1) return undefined; // the key once, or not at all
  const open = keyAt + hot.textKey.length - 1; // the opening quote
  if (raw.charCodeAt(open) !== QUOTE) return undefined;
  let close = open + 1;
  for (let code = raw.charCodeAt(close); code !== QUOTE; code = raw.charCodeAt(++close)) {
    if (Number.isNaN(code)) return undefined;
    if (code === BACKSLASH) close++;
  }
  const tail = raw.slice(close);
  if (hot.numberKey === undefined) return { head: raw.slice(0, open + 1), middle: undefined, tail, context: hot.context };
  const numberKeyAt = raw.indexOf(hot.numberKey);
  if (numberKeyAt === -1 || raw.indexOf(hot.numberKey, numberKeyAt + 1) !== -1) return undefined;
  const digitsAt = numberKeyAt + hot.numberKey.length;
  let digitsEnd = digitsAt; // JSON.parse read the frame: its digits there are an integer's (the pattern bounds the ones it takes)
  for (let code = raw.charCodeAt(digitsEnd); code >= ZERO && code <= NINE; code = raw.charCodeAt(++digitsEnd));
  if (digitsEnd === digitsAt || digitsEnd > open) return undefined; // the number hole comes before the string
  return { head: raw.slice(0, digitsAt), middle: raw.slice(digitsEnd, open + 1), tail, context: hot.context };
}

/**
 * Frames longer than this are left to `JSON.parse`: it bounds the work of a fast path's regular expression (its
 * backtracking keeps one entry per escape of the string) — a template's here, Anthropic's delta reader's.
 */
export const MAX_FRAME_LENGTH = 65_536;

/**
 * The delta's text when `raw` is `template` with a JSON string (and integer) in its holes; else `undefined`. One native
 * match of {@link patternOf} (about twice as fast as comparing the parts one by one): a string body without quote,
 * backslash or control character is its own value; one with escapes is given to `JSON.parse` alone; anything else —
 * another head, middle or tail, a number that is not a JSON integer of up to 15 digits, an unescaped quote or control
 * character, a lone backslash — does not match, and goes to the full path, which decides it.
 */
function read<C>(raw: string, template: Template<C>): string | undefined {
  const body = raw.length > MAX_FRAME_LENGTH ? undefined : (template.pattern ??= patternOf(template)).exec(raw)?.[1];
  // No backslash in it: no quote or control character either, so it is its own value (a view of the read: see detachDeltas).
  return body === undefined || !body.includes('\\') ? body : escaped(`"${body}"`);
}

/**
 * `head` [a JSON integer of up to 15 digits, no digit after it, `middle`] a string body (group 1) — runs of characters
 * other than a quote, backslash or control character, each but the first after a backslash and any character — `tail`.
 */
function patternOf<C>({ head, middle, tail }: Template<C>): RegExp {
  const literal = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  const run = '[^"\\\\\\u0000-\\u001f]*';
  return new RegExp(`^${literal(head)}${middle === undefined ? '' : `(?:0|[1-9]\\d{0,14})(?!\\d)${literal(middle)}`}(${run}(?:\\\\[^]${run})*)${literal(tail)}$`);
}

/** V8 makes a slice of 13 or more characters a view of the whole string it was cut from (shorter ones are copies). */
const MIN_SLICE_VIEW = 13;

/**
 * `text` as a string of its own. A slice of a frame is a view of the whole network read's text in V8, which would
 * then live as long as the delta (in a chunk, in a call's arguments, in the text a consumer keeps): one small delta
 * holding every read it came from. A copy costs less than the `JSON.parse` it replaces.
 */
export function detached(text: string): string {
  return text.length < MIN_SLICE_VIEW ? text : (' ' + text).slice(1); // the concatenation is flattened: a fresh copy
}

/**
 * Makes the deltas of a finished batch strings of their own ({@link detached}). The fast paths hand out views of the
 * network read (`read`, Anthropic's delta reader) and a batch joins its deltas of one kind into one chunk: so each
 * chunk is copied once here, instead of each delta once as it is read (a consumer that keeps the text then holds one
 * string per chunk, not three objects per token). Every decoder calls it on each batch it returns; whatever keeps a
 * delta beyond its batch (a call's arguments, a thinking block's text) keeps a {@link detached} one.
 */
export function detachDeltas(chunks: ChatChunk[]): void {
  for (const chunk of chunks) {
    if (chunk.type === 'text-delta' || chunk.type === 'reasoning-delta') chunk.delta = detached(chunk.delta);
    else if (chunk.type === 'tool-call-delta') chunk.argumentsDelta = detached(chunk.argumentsDelta);
  }
}

/** The JSON string `text` (quotes included) with escapes, or `undefined` when it is not exactly one string. */
export function escaped(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
