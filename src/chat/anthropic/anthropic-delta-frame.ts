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
import { escaped, MAX_FRAME_LENGTH } from '../core/frame-template.js';

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

/**
 * The template as one regular expression: the index (a JSON integer of up to 9 digits, no digit after it), which of
 * the three kinds (`t`ext, `i`nput, else thinking: each with its own field name), then the value's body — a run with
 * no quote, backslash or control character, and any number of a backslash, any character and such a run.
 */
const FRAME = /^\{"type":"content_block_delta","index":(0|[1-9]\d{0,8})(?!\d),"delta":\{"type":"(?:(t)ext_delta","text|(i)nput_json_delta","partial_json|thinking_delta","thinking)":"([^"\\\u0000-\u001f]*)((?:\\[^][^"\\\u0000-\u001f]*)*)"\}\}$/;

/**
 * Reads `raw` (one event's data) into `into` when it is a delta frame in the template's exact form: one native match
 * (about twice as fast as comparing its parts one by one). A value without escapes is the matched text itself; one
 * with escapes is given to `JSON.parse` alone. Whatever does not match — an unescaped quote or control character, a
 * lone backslash, any other form — is not read here.
 * @returns `true` when read; `false` when `raw` is any other frame (the caller then parses it in full)
 */
export function readDeltaFrame(raw: string, into: DeltaFrame): boolean {
  const found = raw.length > MAX_FRAME_LENGTH ? null : FRAME.exec(raw);
  if (found === null) return false;
  const plain = found[4] as string;
  const escapes = found[5] as string;
  // Without escapes, the matched text itself (a view of the network read: the decoder detaches what it keeps).
  const value = escapes === '' ? plain : escaped(raw.slice(raw.length - 4 - plain.length - escapes.length, raw.length - 2)); // the string, quotes included
  if (value === undefined) return false;
  into.index = Number(found[1]);
  into.kind = found[2] ? 'text_delta' : found[3] ? 'input_json_delta' : 'thinking_delta';
  into.value = value;
  return true;
}
