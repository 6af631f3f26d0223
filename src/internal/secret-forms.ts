/**
 * @internal Configured secrets as they come back: every form of a secret (`secretForms`), found and replaced in a text
 * (`replaceSecrets`) — whole, and the first part of one an excerpt cut off. `redact.ts` builds its layers on these.
 */
import { REDACTED } from './credential-patterns.js';
import { refusedValue } from './json.js';

const FORMS_CACHE_LIMIT = 256;
const formsCache = new Map<string, readonly string[]>();

/**
 * The forms a secret can come back in: as is, URL-encoded, JSON-escaped, and base64 / base64url — for base64 the
 * characters that depend only on the secret at each of the three byte alignments, so the secret is found inside a
 * longer base64 text too (`Basic base64(user:key)`, a base64 echo of the request). Forms shorter than 4 characters
 * are left out (too likely to match by chance).
 */
export function secretForms(secret: string): readonly string[] {
  const cached = formsCache.get(secret);
  if (cached) return cached;
  const forms = new Set<string>([secret]);
  try {
    forms.add(encodeURIComponent(secret));
  } catch {
    // a lone surrogate cannot be URL-encoded; nothing to look for
  }
  const escaped = JSON.stringify(secret).slice(1, -1);
  forms.add(escaped);
  forms.add(escaped.replace(/\//g, '\\/')); // PHP and some Java encoders escape "/"
  for (const form of [...forms]) forms.add(form.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())); // the set keeps one of each
  const binary = Array.from(new TextEncoder().encode(secret), (byte) => String.fromCharCode(byte)).join(''); // its UTF-8 bytes
  for (let offset = 0; offset < 3; offset++) {
    const encoded = btoa('\0'.repeat(offset) + binary);
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + binary.length)) / 6));
    if (core.length >= 8) {
      forms.add(core);
      forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  const list = [...forms].filter((form) => form.length >= 4);
  if (formsCache.size >= FORMS_CACHE_LIMIT) formsCache.delete(formsCache.keys().next().value as string);
  formsCache.set(secret, list);
  return list;
}

/**
 * Replaces every form of every configured secret (4 characters or more) in `text` with `[REDACTED]` — and the first
 * part of a form that an excerpt cut off: a message quoting a caller's value cut to a bound, then redacted as a whole,
 * no longer holds the secret whole, so the longest first part just before a cut mark — ours, `…`, or V8's `"...` in a
 * `JSON.parse` error — is masked too: 8 characters or more (half a form under 16, and never under 4), so ordinary words
 * before a `…` (`Bearer…`, `session…`) that begin a configured value stay; so is a piece of one that opens V8's excerpt
 * (`..."`). Redacting before cutting stays the rule.
 */
export function replaceSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  const opens = text.includes(OPENING_MARK); // a replacement never makes one: `[REDACTED]` has no `.` or `"`
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < 4) continue;
    for (const form of secretForms(secret)) {
      if (result.includes(form)) result = result.split(form).join(REDACTED);
      const least = Math.max(4, Math.min(8, Math.ceil(form.length / 2))); // 8 characters; half of a form under 16
      if (!opens && !result.includes(form.slice(0, least))) continue; // nothing cut to look for (the common case: one scan)
      for (let length = form.length - 1; length >= least; length--) {
        for (const mark of CUT_MARKS) {
          const cut = form.slice(0, length) + mark;
          if (result.includes(cut)) result = result.split(cut).join(REDACTED + mark);
        }
        // V8's excerpt opens 10 characters before where parsing failed and holds 20: a failure soon after a secret, or
        // inside one, opens it on the secret's last part or on 20 characters from its middle.
        const opened = OPENING_MARK + form.slice(form.length - length, form.length - length + 20);
        if (result.includes(opened)) result = result.split(opened).join(OPENING_MARK + REDACTED);
      }
    }
  }
  return result;
}

/** Where V8's `JSON.parse` excerpt opens inside the text. */
const OPENING_MARK = '..."';

/** Where an excerpt was cut: `truncate`'s mark (so `preview`'s, `messageOf`'s…), and V8's in `JSON.parse` errors. */
export const CUT_MARKS: readonly string[] = ['…', '"...'];

/**
 * The one check of a `secrets` option, wherever one is taken: an array of strings, each empty (an unset variable:
 * nothing to hide, left out) or of 4 characters or more — a shorter one cannot be told from ordinary text, so
 * redaction leaves it (`secretForms`) and taking it would let it leave unseen. Names what is wrong by position and
 * type, never quoting a string: it is a secret.
 */
export function secretsProblem(value: unknown, name = 'secrets'): string | undefined {
  if (value === undefined) return;
  if (!Array.isArray(value)) return `${name} must be an array of strings (got ${typeof value == 'string' ? 'a string' : refusedValue(value)})`;
  const index = value.findIndex((entry) => typeof entry != 'string' || (entry && entry.length < 4));
  const entry: unknown = value[index];
  if (index >= 0) return `${name}[${index}] must be a string of 4 characters or more, or '' (got ${typeof entry == 'string' ? `${entry.length} characters` : refusedValue(entry)})`;
}
