// A secret that an excerpt cut in two is no longer found whole. Every excerpt helper marks its cut with `…`, and every
// redaction masks the first part of a secret's form just before that mark: whatever text surrounds a planted secret
// and wherever an excerpt cuts it, what a redaction returns keeps no start of it of 8 characters (half of one shorter
// than 16; a filler of other characters, so any such start is the secret's) — also when a stream let it out in pieces.
// Ordinary words before a `…` that begin a configured value stay.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeError } from '../../src/internal/error-json.js';
import { messageOf } from '../../src/internal/error-chain.js';
import { preview, truncate } from '../../src/internal/json.js';
import { HeldText } from '../../src/internal/held-text.js';
import { REDACTED, redactText, redactValue, removeSecrets, secretForms } from '../../src/internal/redact.js';

const secretArb = fc.stringMatching(/^[A-Z0-9_-]{8,60}$/);
/** The shortest first part masked before a cut (see replaceSecrets). */
const shortest = (secret: string): number => Math.max(4, Math.min(8, Math.ceil(secret.length / 2)));
const fillerArb = fc.stringMatching(/^[a-z .:]{0,300}$/);

const EXCERPTS: Array<[string, (text: string, limit: number) => string]> = [
  ['truncate', (text, limit) => truncate(text, limit)],
  ['preview', (text, limit) => preview(text, limit)],
  ['preview of an object', (text, limit) => preview({ note: text }, limit)],
  ['a message quoting an excerpt', (text, limit) => `The call failed: ${truncate(text, limit)}; try again.`],
  // The bounded ones cut where `truncate(text, limit)` would: their bound minus the padding before the text.
  ['messageOf past its bound', (text, limit) => messageOf(new Error(`${'z'.repeat(10_000 - limit)}${text}`))],
  ['describeError past its bound', (text, limit) => (describeError(new Error(`${'z'.repeat(2_000 - limit)}${text}`)) as { message: string }).message],
];

const REDACTIONS: Array<[string, (text: string, secrets: readonly string[]) => unknown]> = [
  ['redactText', (text, secrets) => redactText(text, secrets, { patterns: false })],
  ['redactValue', (text, secrets) => redactValue({ message: text }, secrets)],
  ['removeSecrets', (text, secrets) => removeSecrets({ message: [text] }, secrets)],
];

describe.each(EXCERPTS)('a secret cut by %s', (_name, excerpt) => {
  it.each(REDACTIONS)('leaves no start of it after %s', (_redaction, redact) => {
    fc.assert(
      fc.property(secretArb, fillerArb, fillerArb, fc.nat(), (secret, before, after, cutSeed) => {
        const text = `${before}${secret}${after}`;
        const limit = before.length + 1 + (cutSeed % (secret.length + 2)); // a cut inside the secret, or just around it
        const shown = JSON.stringify(redact(excerpt(text, limit), [secret]));
        expect(shown).not.toContain(secret.slice(0, shortest(secret)));
      }),
      { numRuns: 300 },
    );
  });
});

/** V8's message for `JSON.parse(text)`: its excerpt quotes 10 characters either side of where parsing failed. */
function parseMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the text parsed');
}

describe('a secret V8 quotes from its middle in a JSON.parse error', () => {
  // V8's excerpt quotes 10 characters either side of where parsing failed, so it opens inside a secret when the failure
  // comes soon after it (a bad token after a string that holds it: its last characters) or inside it (a secret that
  // itself parses for a while): neither the whole secret nor a first part before a cut.
  // (a bad token that begins as a JSON literal — `truea` — fails after it, with no excerpt: not this case)
  const afterStringArb = fc.tuple(secretArb, fillerArb, fc.stringMatching(/^[a-z]{1,20}$/).filter((bad) => !/^(true|false|null)/.test(bad))).map(([secret, before, bad]) => ({ secret, text: `{"note":"${before}","list":["${secret}",${bad}]}` }));
  const parsedIntoArb = fc
    .tuple(fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 4, maxLength: 20 }), fc.stringMatching(/^[A-Z_][A-Z0-9_-]{3,30}$/), fillerArb)
    .map(([numbers, rest, before]) => ({ secret: `${numbers.join(',')},${rest}`, text: `{"note":"${before}","list":[${numbers.join(',')},${rest}]}` }));

  it.each(REDACTIONS)('leaves no piece of it after %s', (_redaction, redact) => {
    fc.assert(
      fc.property(fc.oneof(afterStringArb, parsedIntoArb), ({ secret, text }) => {
        const message = parseMessage(text);
        expect(message).toContain('..."');
        const shown = JSON.stringify(redact(message, [secret]));
        const least = shortest(secret);
        for (let at = 0; at + least <= secret.length; at++) expect(shown).not.toContain(secret.slice(at, at + least));
      }),
      { numRuns: 300 },
    );
  });

  it('masks the piece that opens the excerpt, and only a piece of a configured value', () => {
    const secret = 'SuperSecretValue_abcdefghij0123456789';
    const message = parseMessage(`{"a":["${secret}",x]}`);
    expect(message).toBe(`Unexpected token 'x', ..."23456789",x]}" is not valid JSON`);
    expect(redactText(message, [secret], { patterns: false })).toBe(`Unexpected token 'x', ..."${REDACTED}",x]}" is not valid JSON`);
    const other = parseMessage(`{"a":["SuperSecretValue_abcdefghij0000000000",x]}`);
    expect(redactText(other, [secret], { patterns: false })).toBe(other);
  });
});

describe('masking a cut', () => {
  it('masks the longest start before the mark, and only there', () => {
    const secret = 'SECRET-VALUE-0123456789';
    expect(redactText(`key SECRET-VAL… and SECRET-VALUE-0123456789`, [secret], { patterns: false })).toBe(`key ${REDACTED}… and ${REDACTED}`);
    expect(redactText('SECR and SECRET-V… elsewhere', [secret], { patterns: false })).toBe(`SECR and ${REDACTED}… elsewhere`);
    expect(redactText('Loading… SECRET-…', [secret], { patterns: false })).toBe('Loading… SECRET-…'); // under 8 characters: common text
    expect(redactText('no mark: SECRET-VAL', [secret], { patterns: false })).toBe('no mark: SECRET-VAL');
  });

  it("masks the start V8 quotes in a JSON.parse error (its excerpt ends with \"...)", () => {
    const secret = 'SECRET-VALUE-0123456789';
    const message = (() => {
      try {
        JSON.parse(`${secret} trailing`);
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    expect(message).toContain(secret.slice(0, 6));
    expect(redactText(message, [secret], { patterns: false })).not.toContain(secret.slice(0, 4));
  });

  it('leaves ordinary words before a mark that begin a configured value (a header value, a short key)', () => {
    const text = 'Check your session… and Bearer… and the latest… test…';
    expect(redactText(text, ['session=abcdef123', 'Bearer abcdefghijkl', 'test-key-123'], { patterns: false })).toBe(text);
  });

  it('a stream lets a secret\'s first part and the mark after it out together, past its longest held word too', () => {
    const secret = 'SuperSecretValue_abcdefghij0123456789';
    const forms = secretForms(secret);
    const longest = Math.max(...forms.map((form) => form.length));
    // One character per delta: a word past 4,096 characters goes out in part at every length, so some cut falls right
    // between the secret's first part and its mark, whatever the offset.
    for (let offset = 3_980; offset <= 4_060; offset++) {
      const text = `{"a":"${'x'.repeat(offset)}${secret.slice(0, 20)}…","b":"${'y'.repeat(200)}"}`; // no whitespace
      const held = new HeldText(forms, longest);
      let out = '';
      for (const char of text) out += redactText(held.push(char), [secret], { patterns: false });
      out += redactText(held.flush(), [secret], { patterns: false });
      expect(out.length).toBeGreaterThan(4_000);
      expect(out, `offset ${offset}`).not.toContain(secret.slice(0, 8));
    }
  });

  it('masks a cut form too (URL-encoded, JSON-escaped)', () => {
    const secret = 'p@ss/word "quoted" 12345';
    expect(redactText(`url=${encodeURIComponent(secret).slice(0, 12)}…`, [secret], { patterns: false })).toBe(`url=${REDACTED}…`);
    expect(redactText(`"${JSON.stringify(secret).slice(1, 15)}…`, [secret], { patterns: false })).toBe(`"${REDACTED}…`);
  });
});
