// Streamed text is redacted piece by piece, so a credential split across deltas must never go out in halves.
// Property (fixed seeds): a text holding configured secrets (in their other forms too) and credential shapes
// (`Bearer …`, `api_key=…`, `sk-…` keys, a JWT, a URL with a password), cut into deltas at random points, goes
// out — each released piece redacted alone, as a frame is — with every character kept or masked and no secret,
// no credential left.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secretForms } from '../../../src/internal/redact.js';
import { FrameRedactor } from '../../../src/ui/frame-redactor.js';
import { HeldText } from '../../../src/internal/held-text.js';

const SECRET = 'hunter2-PLANTED-9f8e7d';
const SPACED = 'correct horse battery staple';
const CREDENTIALS = [
  'Bearer abc123DEF456ghi789JKL',
  'api_key=a1b2c3d4e5f6g7h8i9j0',
  '"password": "Zq9xW8vU7tS6rR5q"',
  'sk-live-0123456789abcdefABCDEF',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  'postgres://admin:s3cr3tP4ss@db.internal:5432/orders',
];
/** What must never appear in the output: the secrets in every form, the credentials' values. */
const NEEDLES = [
  ...secretForms(SECRET),
  ...secretForms(SPACED),
  'abc123DEF456ghi789JKL',
  'a1b2c3d4e5f6g7h8i9j0',
  'Zq9xW8vU7tS6rR5q',
  '0123456789abcdefABCDEF',
  'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  's3cr3tP4ss',
];

const filler = fc.array(fc.constantFrom('the', 'weather', 'is', 'fine', 'key', 'token:', '=', '🥐', 'café', '\n', ' ', '  '), { maxLength: 8 }).map((words) => words.join(' '));
const planted = fc.constantFrom(SECRET, SPACED, encodeURIComponent(SPACED), JSON.stringify(SECRET).slice(1, -1), ...CREDENTIALS, ...secretForms(SECRET).slice(-2));
const text = fc.array(fc.tuple(filler, planted), { minLength: 1, maxLength: 4 }).map((pairs) => pairs.map(([before, secret]) => `${before} ${secret}`).join(' ') + ' and more words after');
const cuts = fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 60 });

/** `value` cut into pieces of the given lengths (the rest as one last piece). */
function split(value: string, lengths: readonly number[]): string[] {
  const pieces: string[] = [];
  let at = 0;
  for (const length of lengths) {
    if (at >= value.length) break;
    pieces.push(value.slice(at, at + length));
    at += length;
  }
  if (at < value.length) pieces.push(value.slice(at));
  return pieces;
}

describe('streamed text never lets a credential out in halves', () => {
  it('any split of a text holding secrets and credential shapes (property, fixed seed)', () => {
    const redactor = new FrameRedactor([SECRET, SPACED]);
    fc.assert(
      fc.property(text, cuts, (value, lengths) => {
        const held = new HeldText(redactor.forms, redactor.longestForm);
        const released: string[] = [];
        for (const delta of split(value, lengths)) {
          const out = held.push(delta);
          if (out !== '') released.push(out);
        }
        released.push(held.flush());
        expect(released.join('')).toBe(value); // nothing lost, nothing reordered
        const sent = released.map((piece) => redactor.text(piece)).join('');
        for (const needle of NEEDLES) expect(sent).not.toContain(needle);
      }),
      { seed: 1_728, numRuns: 1_000 },
    );
  });

  it('holds at most 4 KiB of a word that never ends, and never half a surrogate pair', () => {
    const held = new HeldText([], 0);
    let out = '';
    for (let index = 0; index < 3_000; index++) out += held.push('🥐x');
    expect(held.flush().length).toBeLessThanOrEqual(4_096 + 3);
    expect(out.length).toBeGreaterThan(0);
    expect(out).not.toMatch(/[\uD800-\uDBFF]$/);
  });
});
