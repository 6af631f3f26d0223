/**
 * @internal Learned frame templates: the most frequent frames of a stream (one per token) read without `JSON.parse`.
 *
 * A provider sends its delta frames in one fixed structure in which only a few values change from frame to frame:
 * the delta's text, and values the decoder never reads — a sequence number, a random-length `obfuscation` padding, a
 * fingerprint: `{"id":"chatcmpl-1",…,"delta":{"content":"Hi"},…,"obfuscation":"x7Q"}`. After `JSON.parse` decoded such
 * a frame, the decoder may learn its **template**: the frame's text with a **hole** at the delta's string and at every
 * other string or integer value the decoder does not read, the rest fixed. A later frame that is the fixed text with
 * any JSON string in each string hole and any JSON integer in each integer hole is read by one native match: nothing
 * is allocated but the delta's text.
 *
 * The contract of a classifier: it returns a string or integer value of the frame (in `text` or `context`), or accepts
 * the frame only for given values of it (a constant, the stream's state), or does not look at it; and the decoder's
 * full path reads nothing of such a frame that the classifier does not. A value the classifier ignores then changes
 * nothing the decoder does, whatever it is.
 *
 * Why a template reads what `JSON.parse` reads. The frame was parsed, so a scan that skips strings finds its value
 * tokens exactly. A value is made a hole only when the frame with a sentinel in its place still parses and classifies
 * to the same text and context: a sentinel is no value a classifier accepts or compares with, so the classifier
 * ignores that value. The template is kept only when two documents built from it — every hole filled with one set of
 * sentinels, then with another — both parse and the classifier reads each text sentinel back with the same context:
 * the text hole is then exactly one string token (a token that began earlier or ends later would hold other
 * characters). Any JSON string (integer) in a hole is then a token of the same kind in the same place: the document
 * is valid, has the same structure and the same values everywhere else, and its delta is the text hole's value. The
 * pattern takes in an ignored string hole exactly the JSON string grammar; in the text hole a body with no quote,
 * backslash or control character is its own value, one with escapes is given to `JSON.parse` alone, and anything it
 * does not accept as one string goes to the full path, which decides it (and names its problem) as before.
 */
import type { ChatChunk } from './types.js';

/** The sentinel string values of the proof (no quote, backslash or control character): two texts, one ignored value. */
const SENTINEL_A = 'fl\u00a7sentinel\u00a7A';
const SENTINEL_B = 'fl\u00a7sentinel\u00a7B';
const SENTINEL_IGNORED = 'fl\u00a7sentinel\u00a7I';
/** The sentinel integers (two different values, no leading zero). */
const NUMBER_A = 918273645;
const NUMBER_B = 5647382910;
/** Frames longer than this are not learned: a template is compared in full for each candidate frame. */
const MAX_TEMPLATE_LENGTH = 2048;
/**
 * Frames a stream decodes in full before it learns any template. Learning costs a stream a parse per value of the
 * frame (the proof) for frames that may never come again: a short stream (an agent step's few frames) would pay it
 * for a template used once or never, a long one loses only these first frames' fast path.
 */
export const WARMUP_FRAMES = 8;
/**
 * Frames that no template read, beyond which (and beyond four per frame read) the templates are dropped: a stream
 * whose frames stopped matching then pays nothing per frame for them.
 */
const MISSES_ALLOWED = 64;
const [QUOTE, BACKSLASH, COLON, MINUS, ZERO, NINE] = [34, 92, 58, 45, 48, 57];
/** A JSON number token (the frame parsed: it is one), from where it starts. */
const NUMBER = /-?[\d.eE+-]+/y;

/** What a provider's classifier says of a parsed frame it can read from a template. */
export interface HotFrame<C> {
  /** The delta's text: the string the template's text hole holds. */
  text: string;
  /** The key of the text's string, e.g. `content`: the frame's one string value under that key is the text hole. */
  textKey: string;
  /** What the provider needs to apply such a frame, equal for every frame of the template (compared as JSON). */
  context: C;
}

/** A value token of a frame: its place in the text (a string's body, without quotes) and kind. */
interface Token {
  start: number;
  end: number;
  kind: 'string' | 'integer' | 'text';
}

/** One learned template: its fixed text and holes as one regular expression, and the context it stands for. */
interface Template<C> {
  pattern: RegExp;
  context: C;
}

/** A matched frame: the delta's text and the template's context. Refilled on each match. */
export interface TemplateMatch<C> {
  text: string;
  context: C;
}

/**
 * The templates of one stream (a handful: a text delta, one per parallel tool call…), and their learning budget: a
 * stream whose frames never repeat stops learning after a few tries, so it pays at most a few extra parses, and
 * drops its templates once they keep missing.
 */
export class FrameTemplates<C> {
  private readonly templates: Template<C>[] = [];
  private last = 0;
  private hits = 0;
  private misses = 0;
  private tries = 0;
  /** Frames offered to {@link learn} so far, up to `warmup`. */
  private seen = 0;

  /**
   * @param classify what the provider reads from a parsed frame, or `undefined` when it is not a frame a template may
   *   stand for (called on the sentinel documents: it must look only at the parsed value and the decoder's state,
   *   and keep the contract in the module's summary)
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

  /** Reads `raw` when it is one of the templates with a JSON string (integer) in each hole; `false` otherwise. */
  match(raw: string, into: TemplateMatch<C>): boolean {
    const templates = this.templates;
    const count = templates.length;
    if (count === 0) return false;
    for (let step = 0; step < count; step++) {
      const slot = (this.last + step) % count;
      const template = templates[slot] as Template<C>;
      const text = read(raw, template);
      if (text !== undefined) {
        this.last = slot;
        this.hits++;
        into.text = text;
        into.context = template.context;
        return true;
      }
    }
    if (++this.misses > MISSES_ALLOWED + 4 * this.hits) this.clear();
    return false;
  }

  /**
   * Learns `raw`'s template, after the full path decoded it into `parsed` (and the decoder's state took it in). Does
   * nothing when the frame is not one the classifier reads, when its text hole cannot be found, when the proof
   * fails, or when learning has not been paying off; and for the stream's first {@link WARMUP_FRAMES} frames.
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
    const tokens = tokensOf(raw, hot.textKey);
    if (tokens === undefined) return;
    const context = JSON.stringify(hot.context);
    const same = (found: HotFrame<C> | undefined, text: string): boolean => found !== undefined && found.text === text && JSON.stringify(found.context) === context;
    // A value is a hole when the classifier reads the frame the same with a sentinel there.
    const holes = tokens.filter((token) => token.kind === 'text' || same(this.parsedClassify(fill(raw, [token], hot.text, String(NUMBER_A))), hot.text));
    for (const [text, number] of [
      [SENTINEL_A, NUMBER_A],
      [SENTINEL_B, NUMBER_B],
    ] as const) {
      if (!same(this.parsedClassify(fill(raw, holes, text, String(number))), text)) return;
    }
    if (this.templates.length >= this.capacity) this.templates.shift();
    this.templates.push({ pattern: patternOf(raw, holes), context: hot.context });
    this.last = this.templates.length - 1;
    this.misses = 0;
  }

  /** The classifier's reading of `document`, or `undefined` when it does not parse. */
  private parsedClassify(document: string): HotFrame<C> | undefined {
    try {
      return this.classify(JSON.parse(document));
    } catch {
      return undefined;
    }
  }
}

/**
 * The value tokens of a parsed frame: every string value (not a key) and every integer of up to 15 digits, the text
 * hole (the one string value under the key `textKey`) among them; `undefined` when there is no such one string.
 */
function tokensOf(raw: string, textKey: string): Token[] | undefined {
  const tokens: Token[] = [];
  let texts = 0;
  let key: string | undefined; // the key the next value is under (none after a structural character)
  for (let at = 0; at < raw.length; at++) {
    const code = raw.charCodeAt(at);
    if (code === QUOTE) {
      let close = at + 1;
      for (let inner = raw.charCodeAt(close); inner !== QUOTE; inner = raw.charCodeAt(++close)) {
        if (Number.isNaN(inner)) return undefined;
        if (inner === BACKSLASH) close++;
      }
      let next = close + 1;
      while (raw.charCodeAt(next) <= 32) next++; // JSON's whitespace (the frame parsed: nothing else is below 33 here)
      if (raw.charCodeAt(next) === COLON) key = raw.slice(at + 1, close);
      else {
        const text = key === textKey;
        texts += text ? 1 : 0;
        tokens.push({ start: at + 1, end: close, kind: text ? 'text' : 'string' });
      }
      at = close;
    } else if (code === MINUS || (code >= ZERO && code <= NINE)) {
      NUMBER.lastIndex = at;
      if (/^(?:0|[1-9]\d{0,14})$/.test(NUMBER.exec(raw)?.[0] ?? '')) tokens.push({ start: at, end: NUMBER.lastIndex, kind: 'integer' });
      at = NUMBER.lastIndex - 1;
    } else if (code === 44 || code === 91 || code === 93 || code === 123 || code === 125) key = undefined; // , [ ] { }
  }
  return texts === 1 ? tokens : undefined;
}

/** `raw` with each hole replaced by `value(hole)` and the fixed text between them by `fixed(text)`. */
function spliced(raw: string, holes: readonly Token[], value: (hole: Token) => string, fixed = (text: string): string => text): string {
  let out = '';
  let from = 0;
  for (const hole of holes) {
    out += fixed(raw.slice(from, hole.start)) + value(hole);
    from = hole.end;
  }
  return out + fixed(raw.slice(from));
}

/** `raw` with each hole's value replaced: the text hole by `text`, other strings by their sentinel, integers by `number`. */
const fill = (raw: string, holes: readonly Token[], text: string, number: string): string => spliced(raw, holes, (hole) => (hole.kind === 'text' ? text : hole.kind === 'string' ? SENTINEL_IGNORED : number));

/**
 * Frames longer than this are left to `JSON.parse`: it bounds the work of a fast path's regular expression (its
 * backtracking keeps one entry per escape of the string) — a template's here, Anthropic's delta reader's.
 */
export const MAX_FRAME_LENGTH = 65_536;

/**
 * The delta's text when `raw` is `template` with a JSON value of its kind in each hole; else `undefined`. One native
 * match of its pattern (about twice as fast as comparing the parts one by one): a text body without quote, backslash
 * or control character is its own value; one with escapes is given to `JSON.parse` alone; anything else — other fixed
 * text, a number that is not a JSON integer of up to 15 digits, a string hole that is not a JSON string's body, an
 * unescaped quote or control character or a lone backslash in the text — does not match, and goes to the full path.
 */
function read<C>(raw: string, template: Template<C>): string | undefined {
  const body = raw.length > MAX_FRAME_LENGTH ? undefined : template.pattern.exec(raw)?.[1];
  // No backslash in it: no quote or control character either, so it is its own value (a view of the read: see detachDeltas).
  return body === undefined || !body.includes('\\') ? body : escaped(`"${body}"`);
}

/**
 * What each hole takes: a string's body (any escape, checked after: group 1), one by JSON's grammar, an integer. Each
 * `[^"\\\u0000-\u001f]*` is a run of characters other than a quote, backslash or control character; the patterns are
 * written out as literals because a template literal at module scope is code esbuild keeps.
 */
const HOLE_PATTERNS: Record<Token['kind'], string> = {
  text: '([^"\\\\\\u0000-\\u001f]*(?:\\\\[^][^"\\\\\\u0000-\\u001f]*)*)',
  string: '[^"\\\\\\u0000-\\u001f]*(?:\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\\\\u0000-\\u001f]*)*',
  integer: '(?:0|[1-9]\\d{0,14})', // JSON puts no digit right after a number: its fixed text after it ends one
};

/** The template of `raw` with `holes` as one regular expression: its fixed text literally, each hole's pattern. */
const patternOf = (raw: string, holes: readonly Token[]): RegExp => new RegExp(`^${spliced(raw, holes, (hole) => HOLE_PATTERNS[hole.kind], (text) => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&'))}$`);

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
