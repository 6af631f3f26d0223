/**
 * @internal The most frequent frames of an Anthropic Messages stream — a `content_block_delta` of text, thinking or
 * tool arguments, one per token — read without `JSON.parse` when they come exactly in the API's own compact form:
 *
 * `{"type":"content_block_delta","index":N,"delta":{"type":"text_delta","text":"…"}}` (and `thinking_delta` /
 * `thinking`, `input_json_delta` / `partial_json`).
 *
 * Only a frame that is that template and nothing else is taken: `N` a JSON integer of up to 9 digits, the string a
 * valid JSON string (with no escape its text is the slice itself; with escapes only that string is given to
 * `JSON.parse`). Any other frame — spaces, other or extra keys, another order, invalid JSON — is left to the full
 * `JSON.parse` path, which decides it (and names its problem) exactly as before. So the values read here are those
 * `JSON.parse` of the whole frame would give.
 */

/** The delta kinds this reader takes, by the `delta.type` they stand for. */
export type DeltaFrameKind = 'text_delta' | 'thinking_delta' | 'input_json_delta';

/** What a delta frame says; one object per decoder, refilled by {@link readDeltaFrame}. */
export interface DeltaFrame {
  /** The content block's `index`. */
  index: number;
  kind: DeltaFrameKind;
  /** The delta's text (`text`, `thinking` or `partial_json`). */
  value: string;
}

const PREFIX = '{"type":"content_block_delta","index":';
/** @internal After the index: the rest of the template up to the opening quote of the value, per kind. */
export const FIELDS: readonly (readonly [string, DeltaFrameKind])[] = [
  [',"delta":{"type":"text_delta","text":"', 'text_delta'],
  [',"delta":{"type":"input_json_delta","partial_json":"', 'input_json_delta'],
  [',"delta":{"type":"thinking_delta","thinking":"', 'thinking_delta'],
];
/** @internal Where the fields first differ. */
export const FIELD_CODE_AT = 19;
/**
 * @internal Their character there ('e', 'n', 'h'), in the order of {@link FIELDS}: written out, as module scope holds
 * literals only (test/chat/anthropic-delta-frame.test.ts checks them against FIELDS).
 */
export const FIELD_BY_CODE: readonly number[] = [101, 110, 104];
const SUFFIX = '"}}';
const MAX_INDEX_DIGITS = 9;
const ZERO = 48;
const NINE = 57;
const QUOTE = 34;
const BACKSLASH = 92;

/**
 * Reads `raw` (one event's data) into `into` when it is a delta frame in the template's exact form.
 * @returns `true` when read; `false` when `raw` is any other frame (the caller then parses it in full)
 */
export function readDeltaFrame(raw: string, into: DeltaFrame): boolean {
  const suffixAt = raw.length - SUFFIX.length;
  if (suffixAt < PREFIX.length || !at(raw, PREFIX, 0) || raw.indexOf(SUFFIX, suffixAt) !== suffixAt) return false;
  const first = PREFIX.length;
  let position = first;
  let index = 0;
  for (let code = raw.charCodeAt(position); code >= ZERO && code <= NINE; code = raw.charCodeAt(++position)) index = index * 10 + (code - ZERO);
  const digits = position - first;
  if (digits === 0 || digits > MAX_INDEX_DIGITS || (digits > 1 && raw.charCodeAt(first) === ZERO)) return false;
  // The three fields differ at their 20th character (`te`xt, `in`put, `th`inking): only that one can be there.
  const which = FIELDS[FIELD_BY_CODE.indexOf(raw.charCodeAt(position + FIELD_CODE_AT))];
  if (which === undefined) return false;
  const [field, kind] = which;
  if (position + field.length > suffixAt + 1 || !at(raw, field, position)) return false;
  const value = jsonString(raw, position + field.length - 1, suffixAt + 1);
  if (value === undefined) return false;
  into.index = index;
  into.kind = kind;
  into.value = value;
  return true;
}

/**
 * True when `part` is at `position` of `raw`. `lastIndexOf` from there looks at that position first; in V8 11 it is
 * several times cheaper than `startsWith` on the two-byte strings a non-ASCII answer decodes to.
 */
function at(raw: string, part: string, position: number): boolean {
  return raw.lastIndexOf(part, position) === position;
}

/** The JSON string `raw[start, end)` (its quotes included) as text, or `undefined` when it is not exactly one JSON string. */
function jsonString(raw: string, start: number, end: number): string | undefined {
  if (end - start < 2) return undefined;
  let plain = true; // no quote, backslash or control character inside: the text is the slice itself
  for (let index = start + 1; index < end - 1; index++) {
    const code = raw.charCodeAt(index);
    if (code === QUOTE || code === BACKSLASH || code < 32) {
      plain = false;
      break;
    }
  }
  if (plain) return raw.slice(start + 1, end - 1); // a view of the network read: the decoder detaches what it keeps
  try {
    const value: unknown = JSON.parse(raw.slice(start, end));
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
