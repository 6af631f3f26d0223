/**
 * @internal Streamed text (a text or reasoning part) goes out only where redaction can see each credential whole: a
 * delta may end inside a key, or between `Bearer` and its token. The text after the cut is held until more arrives
 * or the part ends. The cut is never inside the last word (it may still grow), never right after a word that names a
 * credential or a `:`/`=` separator (its value may follow), never inside an occurrence of a secret's form, and leaves
 * at least the longest secret form minus one character held. A word longer than `MAX_HELD` characters (no space in
 * sight) is let through in part, past the longest secret form.
 */
import { CUT_MARKS } from './secret-forms.js';

/** The most text held back for one part. */
const MAX_HELD = 4_096;
/** A word after which a credential value may follow (`Bearer`, `api_key:`, `token=`, `"password":`). */
const NAMES_CREDENTIAL = /(bearer|basic|key|token|secret|passw|pwd|credential|auth)[^A-Za-z0-9\s]*$|[:=]["'\\]*$/i;

export class HeldText {
  private held = '';

  constructor(
    private readonly forms: readonly string[],
    private readonly longestForm: number,
  ) {}

  /** Adds `delta`; returns the text that may go out now (possibly empty). */
  push(delta: string): string {
    this.held += delta;
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
    return out;
  }

  private cut(): number {
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
    for (let moved = true; moved && cut > 0; ) {
      moved = false;
      for (const form of this.forms) {
        for (let at = text.indexOf(form, Math.max(0, cut - form.length + 1)); at !== -1 && at < cut; at = text.indexOf(form, at + 1)) {
          if (at + form.length > cut) {
            cut = at;
            moved = true;
          }
        }
      }
    }
    const code = text.charCodeAt(cut - 1);
    return code >= 0xd800 && code <= 0xdbff ? cut - 1 : cut; // never half a surrogate pair
  }
}

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 160 || code === 0x2028 || code === 0x2029;
}
