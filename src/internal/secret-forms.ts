/**
 * @internal Configured secrets as they come back: every form of a secret (`secretForms`), found and replaced in a text
 * (`replaceSecrets`) — whole, and the first part of one an excerpt cut off. `redact.ts` builds its layers on these.
 */
import { REDACTED } from './credential-patterns.js';

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
  for (const form of [...forms]) if (/%[0-9A-F]{2}/.test(form)) forms.add(form.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
  const bytes = new TextEncoder().encode(secret);
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length);
    padded.set(bytes, offset);
    const encoded = base64(padded);
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
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

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary);
}

/**
 * Replaces every form of every configured secret (4 characters or more) in `text` with `[REDACTED]` — and the first
 * part of a form that an excerpt cut off: a message quoting a caller's value cut to a bound, then redacted as a whole,
 * no longer holds the secret whole, so the longest first part just before a cut mark — ours, `…`, or V8's `"...` in a
 * `JSON.parse` error — is masked too: 8 characters or more (half a form under 16, and never under 4), so ordinary words
 * before a `…` (`Bearer…`, `session…`) that begin a configured value stay. Redacting before cutting stays the rule.
 */
export function replaceSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < 4) continue;
    for (const form of secretForms(secret)) {
      if (result.includes(form)) result = result.split(form).join(REDACTED);
      const shortest = Math.max(4, Math.min(8, Math.ceil(form.length / 2)));
      if (!result.includes(form.slice(0, shortest))) continue; // no first part to look for (the common case: one scan)
      for (const mark of CUT_MARKS) {
        if (!result.includes(mark)) continue;
        for (let length = form.length - 1; length >= shortest; length--) {
          const cut = form.slice(0, length) + mark;
          if (result.includes(cut)) result = result.split(cut).join(REDACTED + mark);
        }
      }
    }
  }
  return result;
}

/** Where an excerpt was cut: `truncate`'s mark (so `preview`'s, `messageOf`'s…), and V8's in `JSON.parse` errors. */
export const CUT_MARKS: readonly string[] = ['…', '"...'];
