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
/** After the index: the rest of the template up to the opening quote of the value, per kind. */
const FIELDS: readonly (readonly [string, DeltaFrameKind])[] = [
  [',"delta":{"type":"text_delta","text":"', 'text_delta'],
  [',"delta":{"type":"input_json_delta","partial_json":"', 'input_json_delta'],
  [',"delta":{"type":"thinking_delta","thinking":"', 'thinking_delta'],
];
const SUFFIX = '"}}';
const MAX_INDEX_DIGITS = 9;
const ZERO = 48;
const NINE = 57;
/** Characters a JSON string may not hold unescaped. */
const CONTROL = /[\u0000-\u001f]/;

/**
 * Reads `raw` (one event's data) into `into` when it is a delta frame in the template's exact form.
 * @returns `true` when read; `false` when `raw` is any other frame (the caller then parses it in full)
 */
export function readDeltaFrame(raw: string, into: DeltaFrame): boolean {
  if (!raw.startsWith(PREFIX) || !raw.endsWith(SUFFIX)) return false;
  const first = PREFIX.length;
  let position = first;
  let index = 0;
  for (let code = raw.charCodeAt(position); code >= ZERO && code <= NINE; code = raw.charCodeAt(++position)) index = index * 10 + (code - ZERO);
  const digits = position - first;
  if (digits === 0 || digits > MAX_INDEX_DIGITS || (digits > 1 && raw.charCodeAt(first) === ZERO)) return false;
  for (const [field, kind] of FIELDS) {
    if (!raw.startsWith(field, position)) continue;
    const value = jsonString(raw, position + field.length - 1, raw.length - SUFFIX.length + 1);
    if (value === undefined) return false;
    into.index = index;
    into.kind = kind;
    into.value = value;
    return true;
  }
  return false;
}

/** The JSON string `raw[start, end)` (its quotes included) as text, or `undefined` when it is not exactly one JSON string. */
function jsonString(raw: string, start: number, end: number): string | undefined {
  if (end - start < 2) return undefined;
  const quote = raw.indexOf('"', start + 1);
  if (quote === end - 1 && raw.indexOf('\\', start + 1) === -1) {
    const text = raw.slice(start + 1, end - 1);
    return CONTROL.test(text) ? undefined : text;
  }
  try {
    const value: unknown = JSON.parse(raw.slice(start, end));
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
