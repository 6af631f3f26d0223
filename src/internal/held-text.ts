/**
 * @internal Streamed text (a text or reasoning part) goes out only where redaction can see each credential whole: a
 * delta may end inside a key, or between `Bearer` and its token. The text after the cut is held until more arrives
 * or the part ends. The cut is never inside the last word (it may still grow), never right after a word that names a
 * credential or a `:`/`=` separator (its value may follow), never inside an occurrence of a secret's form, never inside
 * a credential-shaped token (`sk-…`, a JWT, `Bearer …`, `api_key=…`, a URL), and leaves at least the longest secret form
 * minus one character held. A word longer than `MAX_HELD` characters (no space in sight) is let through in part, past
 * the longest secret form and around its tokens; a token still arriving past `MAX_TOKEN` is masked here, from its
 * prefix on through its last character (a key's tail carries no prefix: redacted alone, it would not be recognised),
 * even if it might not have matched a pattern once whole (a value after `key=` that never takes a digit).
 */
import { maskCredentials, REDACTED } from './credential-patterns.js';
import { CUT_MARKS } from './secret-forms.js';

/** The most text held back for one part. */
const MAX_HELD = 4_096;
/** The longest credential-shaped token held whole (the patterns bound none): a longer one is masked as it arrives. */
const MAX_TOKEN = 4_096;
/** A word after which a credential value may follow (`Bearer`, `api_key:`, `token=`, `"password":`). */
const NAMES_CREDENTIAL = /(bearer|basic|key|token|secret|passw|pwd|credential|auth)[^A-Za-z0-9\s]*$|[:=]["'\\]*$/i;

/**
 * Where a shape `credential-patterns.ts` masks begins (and a URL, which frames redact part by part): `key`, a provider
 * key's prefix and `jwt`, a JWT's header (masked with the rest); `named`, `Bearer `/`Basic `, or a word naming a
 * credential and its `:`/`=` or spaces (kept: the value after it is masked); `url`, a scheme and `://`.
 */
const OPENER =
  /(?<key>\b(?:[spra]k-|(?:gh[pos]|xox[abp])_|AIza))|(?<jwt>eyJ)|(?<url>\b[a-z][a-z0-9+.-]{0,30}:\/\/)|(?<named>\b(?:bearer|basic)\s+|(?<![a-z0-9])(?:(?:api[-_]?key|apikey|key|access[-_]?token|refresh[-_]?token|auth[-_]?token|token|secret|client[-_]?secret|password|passwd|pwd|credential)\\?["']?[ \t]*[:=][ \t]*\\?["']?|(?:token|secret|password|passwd|pwd)[ \t]+))/gi;
/** Key prefixes and the JWT header are matched in their case only. */
const CASED = /^(?:[spra]k-|(?:gh[pos]|xox[abp])_|AIza|eyJ)/;
type Kind = 'key' | 'jwt' | 'url' | 'named';
/** The characters of a token's value, by kind: a JWT's three parts, a URL up to what ends one in text. */
const VALUE: Readonly<Record<Kind, RegExp>> = {
  key: /[A-Za-z0-9_-]*/y,
  jwt: /[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*){0,2}/y,
  url: /[^\s"'<>\\()[\]{}]*/y,
  named: /[A-Za-z0-9._~+/=-]*/y,
};
/** One character a token's value may hold (a JWT's dots are counted apart). */
const CHAR: Readonly<Record<Kind, RegExp>> = { key: /[A-Za-z0-9_-]/, jwt: /[A-Za-z0-9_-]/, url: /[^\s"'<>\\()[\]{}]/, named: /[A-Za-z0-9._~+/=-]/ };
/** Where a URL's parts meet (not `=`: a value goes with its key): a URL longer than `MAX_TOKEN` is cut after one. */
const URL_SEPARATOR = /[/?#&]/;

/** A token in the held text: `start` of its prefix, `masked` where masking begins, `end` (the text's length: open). */
interface Token {
  kind: Kind;
  start: number;
  masked: number;
  end: number;
  dots: number;
}

export class HeldText {
  private held = '';
  /** The rest of a token masked here: its characters are dropped as they arrive, until one that cannot belong to it. */
  private dropping: { chars: RegExp; dots: number } | undefined;

  constructor(
    private readonly forms: readonly string[],
    private readonly longestForm: number,
  ) {}

  /** Adds `delta`; returns the text that may go out now (possibly empty). */
  push(delta: string): string {
    this.held += this.dropping === undefined ? delta : this.drop(delta);
    const cut = this.cut();
    if (cut <= 0) return '';
    const out = this.held.slice(0, cut);
    this.held = this.held.slice(cut);
    return out;
  }

  /** Everything still held (the part ends). */
  flush(): string {
    const out = this.held;
    this.held = '';
    this.dropping = undefined;
    return out;
  }

  private cut(): number {
    for (;;) {
      const text = this.held;
      let cut = text.length - Math.max(0, this.longestForm - 1); // a secret's form may still be arriving
      while (cut > 0 && !isSpace(text.charCodeAt(cut - 1))) cut--; // never inside a word: it may still grow
      for (;;) {
        let end = cut;
        while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
        let start = end;
        while (start > 0 && !isSpace(text.charCodeAt(start - 1))) start--;
        if (start === end || !NAMES_CREDENTIAL.test(text.slice(start, end))) break;
        cut = start;
      }
      if (text.length - cut > MAX_HELD) {
        cut = text.length - Math.max(this.longestForm, 64);
        // A secret's first part and the cut mark after it go out together: redaction masks the part only when it sees both.
        for (const mark of CUT_MARKS) {
          const at = text.indexOf(mark, cut);
          if (at !== -1 && at - cut < this.longestForm) cut = Math.min(cut, Math.max(0, at - (this.longestForm - 1)));
        }
      }
      let masked = false;
      for (let moved = true; moved && cut > 0 && !masked; ) {
        moved = false;
        const code = text.charCodeAt(cut - 1);
        if (code >= 0xd800 && code <= 0xdbff) [cut, moved] = [cut - 1, true]; // never half a surrogate pair
        for (const form of this.forms) {
          for (let at = text.indexOf(form, Math.max(0, cut - form.length + 1)); at !== -1 && at < cut; at = text.indexOf(form, at + 1)) {
            if (at + form.length > cut) [cut, moved] = [at, true];
          }
        }
        const tokens = tokensBefore(text, cut);
        // From the last token back: one the cut moves before may be inside an earlier one, met later.
        for (let index = tokens.length - 1; index >= 0 && !masked; index--) {
          const token = tokens[index] as Token;
          if (token.start >= cut || token.end <= cut) continue; // not split by the cut
          if (text.length - token.start <= MAX_TOKEN) [cut, moved] = [token.start, true]; // held whole
          else if (token.end < text.length && token.kind !== 'url' && !isCredential(text.slice(token.start, token.end))) continue;
          else if (token.kind !== 'url') masked = this.mask(token); // the held text changed: the cut is found again
          else {
            // A URL too long to hold is cut after a separator past its host (a part whole), when one is within the bound.
            const host = text.slice(token.masked, cut).search(/[/?#]/) + token.masked; // where the authority ends
            let at = cut;
            while (at > host + 1 && text.length - at < MAX_TOKEN && !URL_SEPARATOR.test(text.charAt(at - 1))) at--;
            if (at < cut && host >= token.masked && URL_SEPARATOR.test(text.charAt(at - 1))) [cut, moved] = [at, true];
          }
        }
        // Once no token is split, only a secret's form can move the cut again (a URL's separator may fall inside a later token).
        if (this.forms.length === 0 && tokens.every((token) => token.start >= cut || token.end <= cut)) moved = false;
      }
      if (!masked) return cut;
    }
  }

  /** Masks `token` in the held text; when it reaches the end, what follows of it is dropped as it arrives. */
  private mask(token: Token): true {
    const text = this.held;
    this.held = text.slice(0, token.masked) + REDACTED + text.slice(token.end);
    if (token.end === text.length) this.dropping = { chars: CHAR[token.kind], dots: token.kind === 'jwt' ? 2 - token.dots : 0 };
    return true;
  }

  /** `delta` without its first characters that continue a token masked here. */
  private drop(delta: string): string {
    const dropping = this.dropping as { chars: RegExp; dots: number };
    let at = 0;
    for (; at < delta.length; at++) {
      const char = delta.charAt(at);
      if (char === '.' && dropping.dots > 0) dropping.dots--;
      else if (!dropping.chars.test(char)) break;
    }
    if (at < delta.length) this.dropping = undefined;
    return delta.slice(at);
  }
}

/**
 * The credential-shaped tokens that begin before `cut`, in order, each with the end of its value (the text's length:
 * it may still grow). Linear: a value that starts inside the last one scanned of its kind ends where that one does.
 */
function tokensBefore(text: string, cut: number): Token[] {
  const tokens: Token[] = [];
  const scanned = new Map<Kind, { from: number; reach: number; end: number; dots: number }>();
  OPENER.lastIndex = 0;
  for (let match = OPENER.exec(text); match !== null && match.index < cut; match = OPENER.exec(text)) {
    const kind = Object.keys(match.groups ?? {}).find((name) => match.groups?.[name] !== undefined) as Kind;
    if ((kind === 'key' || kind === 'jwt') && !CASED.test(match[0])) continue;
    const start = match.index;
    const value = kind === 'key' || kind === 'jwt' ? start : start + match[0].length;
    let run = scanned.get(kind);
    if (run === undefined || value < run.from || value >= run.reach) {
      const pattern = VALUE[kind];
      pattern.lastIndex = value;
      const chars = pattern.exec(text)?.[0] ?? '';
      const dot = kind === 'jwt' ? chars.indexOf('.') : -1; // a JWT's value from inside its first part ends where it does
      run = { from: value, reach: value + (dot === -1 ? chars.length : dot), end: value + chars.length, dots: kind === 'jwt' ? chars.split('.').length - 1 : 0 };
      scanned.set(kind, run);
    }
    const { end, dots } = run;
    if (end === value && end < text.length) continue; // no value
    if (kind === 'jwt' && text.length - start > MAX_TOKEN && !jsonHeader(text, start)) continue; // `eyJ` in a base64url blob
    tokens.push({ kind, start, masked: value, end, dots });
  }
  return tokens;
}

/** True when the base64url text at `start` decodes to the start of a JSON object (as a JWT's header does). */
function jsonHeader(text: string, start: number): boolean {
  const part = /^[A-Za-z0-9_-]*/.exec(text.slice(start, start + 40))?.[0] ?? '';
  try {
    return /^\{"[\x20-\x7e]*$/.test(atob(part.slice(0, part.length - (part.length % 4)).replace(/-/g, '+').replace(/_/g, '/')));
  } catch {
    return false;
  }
}

/** A whole token the patterns mask (a long one that ended: no guess needed); what they leave may be cut anywhere. */
function isCredential(token: string): boolean {
  return maskCredentials(token) !== token;
}

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 160 || code === 0x2028 || code === 0x2029;
}
