// A credential-shaped token inside one unbroken word longer than the 4,096 characters held text keeps of a word
// (minified JSON, no space) must still go out whole: past that length the held tail is cut inside the word, and a
// token cut there left its first part masked and its tail (no `sk-` prefix, no JWT header) out in the clear.
// Property (fixed seed): for any split of such a text into deltas (1 character, random 1–64, whole), each released
// piece redacted alone as a frame is, no 12 characters of the key go out, and a text without a key goes out exactly
// as its whole-text redaction (nothing held forever).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/internal/redact.js';
import { HeldText } from '../../src/internal/held-text.js';
import { FrameRedactor } from '../../src/ui/frame-redactor.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64URL = `${ALNUM}_-`;

/** A small deterministic generator (fast-check gives the seed): the texts are long, shrinking them helps no one. */
function random(seed: number): (max: number) => number {
  let state = seed >>> 0 || 1;
  return (max) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % max;
  };
}

function run(next: (max: number) => number, alphabet: string, length: number): string {
  let out = '';
  for (let index = 0; index < length; index++) out += alphabet[next(alphabet.length)];
  return out;
}

/** Letters and digits both, as a generated key always has (and `key=…` needs). */
function token(next: (max: number) => number, alphabet: string, length: number): string {
  return `a1${run(next, alphabet, length - 2)}`;
}

type Kind = 'sk-proj' | 'jwt' | 'bearer' | 'api_key';
/** The key, and how it sits in the JSON: `value` is what must never go out (12 characters of it). */
function credential(kind: Kind, next: (max: number) => number): { written: string; value: string } {
  switch (kind) {
    case 'sk-proj': {
      const value = `sk-proj-${token(next, B64URL, 92 + next(101))}`; // 100–200 characters
      return { written: `"openai":"${value}"`, value };
    }
    case 'jwt': {
      const value = `eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${token(next, B64URL, 60 + next(600))}.${token(next, B64URL, 43 + next(300))}`;
      return { written: `"id_token":"${value}"`, value };
    }
    case 'bearer': {
      const value = token(next, `${ALNUM}._~+/-`, 40 + next(160));
      return { written: `"authorization":"Bearer ${value}"`, value };
    }
    case 'api_key': {
      const value = token(next, ALNUM, 32 + next(100));
      return { written: `"api_key":"${value}"`, value };
    }
  }
}

/** Minified JSON of `length` characters or more: fields of letters, digits, `_-.` and JSON punctuation, no space. */
function minified(next: (max: number) => number, length: number): string {
  let out = '{"data":[';
  while (out.length < length) out += `{"f${next(1_000)}":"${run(next, `${ALNUM}_-.`, 1 + next(300))}","n":${next(99_999)}},`;
  return out;
}

function split(text: string, mode: 'one' | 'random' | 'whole', next: (max: number) => number): string[] {
  if (mode === 'whole') return [text];
  const pieces: string[] = [];
  for (let at = 0; at < text.length; ) {
    const length = mode === 'one' ? 1 : 1 + next(64);
    pieces.push(text.slice(at, at + length));
    at += length;
  }
  return pieces;
}

/** What goes out: each released piece redacted alone (as a frame is), the held rest at the end. */
function stream(redactor: FrameRedactor, pieces: readonly string[]): { sent: string; released: string } {
  const held = new HeldText(redactor.forms, redactor.longestForm);
  const out: string[] = [];
  for (const piece of pieces) out.push(held.push(piece));
  out.push(held.flush());
  return { sent: out.map((part) => redactor.text(part)).join(''), released: out.join('') };
}

/** The first 12-character piece of `value` found in `text`, if any. */
function leaked(text: string, value: string): string | undefined {
  for (let at = 0; at + 12 <= value.length; at++) if (text.includes(value.slice(at, at + 12))) return value.slice(at, at + 12);
  return undefined;
}

const MODES = ['one', 'random', 'whole'] as const;
const KINDS: readonly Kind[] = ['sk-proj', 'jwt', 'bearer', 'api_key'];

describe('a credential inside a word longer than the held 4 KiB is never split', () => {
  const redactor = new FrameRedactor(['hunter2-PLANTED-9f8e7d']);

  it('any split of minified JSON holding a key past 4,096 characters of one word (property, fixed seed)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.constantFrom(...KINDS), fc.constantFrom(...MODES), (seed, kind, mode) => {
        const next = random(seed);
        // Half of the texts put the key where a word's second 4 KiB ends (where a cut inside the word falls), the rest anywhere.
        const before = minified(next, next(2) === 0 ? 7_850 + next(300) : 4_100 + next(6_000));
        const { written, value } = credential(kind, next);
        const text = `${before}${written},"more":"${run(next, ALNUM, next(600))}"}]} done.`;
        expect(text.slice(0, text.indexOf(written))).not.toMatch(/\s/);
        const { sent, released } = stream(redactor, split(text, mode, next));
        expect(leaked(sent, value), `${kind}, ${mode}`).toBeUndefined();
        expect(sent).toContain(REDACTED);
        expect(released).toBe(text); // a key held whole (4 KiB or less) goes out as it came: the frame masks it
        expect(sent).toBe(redactor.text(text));
      }),
      { seed: 4_096, numRuns: 90 },
    );
  }, 120_000); // thousands of one-character deltas per run: slow under a loaded machine

  it('any split of minified JSON without a key goes out as its whole-text redaction (property, fixed seed)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.constantFrom(...MODES), (seed, mode) => {
        const next = random(seed);
        const text = `${minified(next, 4_100 + next(5_000))}{"key":"${run(next, 'abcdef', 8)}","token":"x"}]}`;
        const { sent, released } = stream(redactor, split(text, mode, next));
        expect(released).toBe(text);
        expect(sent).toBe(redactor.text(text));
      }),
      { seed: 4_097, numRuns: 40 },
    );
  }, 120_000);

  it('the bug as reported: a 162-character sk-proj key after 3,999 characters of one word, in deltas of 16, 7 and 1', () => {
    const key = `sk-proj-${'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zA7bC0dE3fG6hI9jK2lM5nO8pQ1rS4tU7vW0xY3zB6cD9eF2gH5iJ8kL1mN4oP7qR0sT3uV6wX9yZ2aB5cD8eF1gH4iJ7kL0mZ9yX8wV7uT6sR5qP4oN3mL2kJ1'}`;
    const text = `{"config":{"blob":"${'x'.repeat(3_963)}","api_key_ref":"${key}","more":"${'y'.repeat(300)}"}} done.`;
    for (const step of [16, 7, 1]) {
      const pieces: string[] = [];
      for (let at = 0; at < text.length; at += step) pieces.push(text.slice(at, at + step));
      const { sent } = stream(new FrameRedactor([]), pieces);
      expect(leaked(sent, key), `deltas of ${step}`).toBeUndefined();
      expect(sent).toContain(`"api_key_ref":"${REDACTED}","more"`);
    }
  });
});

describe('a credential-shaped token longer than 4 KiB', () => {
  const redactor = new FrameRedactor([]);
  const next = random(7);
  const before = minified(next, 5_000);
  const huge = {
    'sk- key': { written: `"k":"sk-${token(next, B64URL, 9_000)}"`, shown: `"k":"${REDACTED}"` },
    'JWT': { written: `"t":"eyJhbGciOiJIUzI1NiJ9.eyJ${token(next, B64URL, 7_000)}.${token(next, B64URL, 43)}.tail"`, shown: `"t":"${REDACTED}.tail"` },
    'Bearer token': { written: `"a":"Bearer ${token(next, `${ALNUM}._~+/-`, 6_000)}"`, shown: `"a":"Bearer ${REDACTED}"` },
    'token= value': { written: `"q":"token=${token(next, ALNUM, 5_000)}"`, shown: `"q":"token=${REDACTED}"` },
  };

  for (const [name, { written, shown }] of Object.entries(huge)) {
    it(`${name}: masked from its prefix through its last character, the held text still bounded`, () => {
      const value = written.slice(written.indexOf(':') + 2, -1);
      const text = `${before}${written},"after":"kept-${'z'.repeat(50)}"}]}`;
      for (const mode of MODES) {
        const pieces = split(text, mode, random(11));
        const held = new HeldText(redactor.forms, redactor.longestForm);
        const out: string[] = [];
        let most = 0;
        for (const piece of pieces) {
          out.push(held.push(piece));
          most = Math.max(most, (held as unknown as { held: string }).held.length); // what it keeps after a delta
        }
        out.push(held.flush());
        const sent = out.map((part) => redactor.text(part)).join('');
        expect(leaked(sent, value.replace(/^(Bearer |token=)/, '')), `${name}, ${mode}`).toBeUndefined();
        expect(most, `${name}, ${mode}`).toBeLessThanOrEqual(4_096);
        expect(sent, `${name}, ${mode}`).toBe(`${before}${shown},"after":"kept-${'z'.repeat(50)}"}]}`);
      }
    });
  }

  it('a key that never ends is masked as it arrives: at most 4 KiB held, and no part of it out', () => {
    const held = new HeldText([], 0);
    const value = `sk-${token(random(3), B64URL, 50_000)}`;
    const out = [held.push(before)];
    for (let at = 0; at < value.length; at += 5) out.push(held.push(value.slice(at, at + 5)));
    const rest = held.flush();
    expect(rest.length).toBeLessThanOrEqual(4_096 + 5);
    expect(leaked(out.map((part) => redactor.text(part)).join('') + redactor.text(rest), value)).toBeUndefined();
    expect(out.join('').length).toBeGreaterThan(before.length - 4_096);
  });
});

describe('what only looks like the start of a token in a long word', () => {
  const redactor = new FrameRedactor([]);
  const before = minified(random(5), 5_000);

  function sent(text: string, mode: (typeof MODES)[number]): string {
    return stream(redactor, split(text, mode, random(13))).sent;
  }

  it('a base64url blob holding `eyJ` (no dots: no JWT) goes out as it came, however long', () => {
    const blob = `${run(random(17), B64URL, 3_000)}eyJ${run(random(19), B64URL, 9_000)}`;
    const text = `${before}"blob":"${blob}","n":1}]}`;
    expect(redactor.text(text)).toBe(text);
    for (const mode of MODES) expect(sent(text, mode), mode).toBe(text);
  });

  it('a URL held whole up to 4 KiB (a token in its path masked), a longer one cut only after a separator', () => {
    const path = `/mcp/${token(random(23), ALNUM, 40)}/sse`;
    const head = `"url":"https://mcp.example.com/mcp/`; // its token across 8,066: where 1-character deltas cut the word
    const pad = `"pad":"${'p'.repeat(8_040 - before.length - head.length - 9)}",`;
    const short = `${before}${pad}"url":"https://mcp.example.com${path}?q=${'w'.repeat(3_000)}","n":1}]}`;
    const long = `${before}"url":"https://example.com/${Array.from({ length: 900 }, (_, index) => `page${index}`).join('/')}","n":1}]}`;
    for (const mode of MODES) {
      expect(sent(short, mode), mode).toBe(redactor.text(short));
      expect(sent(short, mode), mode).not.toContain(path.slice(5, 17));
      expect(sent(long, mode), mode).toBe(long);
    }
  });

  it('a JWT with a header past 4 KiB (certificates in `x5c`) is masked whole too', () => {
    const header = Buffer.from(JSON.stringify({ alg: 'RS256', x5c: [run(random(29), ALNUM, 5_000)] })).toString('base64url');
    const value = `${header}.eyJ${token(random(31), B64URL, 300)}.${token(random(37), B64URL, 342)}`;
    const text = `${before}"jws":"${value}","n":1}]}`;
    for (const mode of MODES) {
      const out = sent(text, mode);
      expect(leaked(out, value.slice(value.indexOf('.'))), mode).toBeUndefined();
      expect(out, mode).toBe(`${before}"jws":"${REDACTED}","n":1}]}`);
    }
  });
});

describe('a long value that ended and is no credential', () => {
  it('goes out as it came when it arrives whole (not masked on a guess); in small deltas, past 4 KiB, it is masked', () => {
    const redactor = new FrameRedactor([]);
    const before = minified(random(41), 5_000);
    const text = `${before}"key":"${'abcdefgh'.repeat(700)}"}]}`; // letters only: `key=` needs a digit too
    expect(redactor.text(text)).toBe(text);
    expect(stream(redactor, [text]).sent).toBe(text);
    // Still arriving past 4 KiB, it may yet take a digit: it is masked (a guess that costs a long word, never a key).
    for (const mode of ['one', 'random'] as const) expect(stream(redactor, split(text, mode, random(43))).sent, mode).toBe(`${before}"key":"${REDACTED}"}]}`);
  });
});
