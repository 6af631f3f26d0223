import { describe, expect, it } from 'vitest';
import { parseRetryAfter, parseRetryAfterValue } from '../../src/internal/retry-after.js';

/** A fixed "now": Wed, 21 Oct 2015 07:28:00 GMT (the RFC 9110 §10.2.3 example date). */
const NOW = Date.UTC(2015, 9, 21, 7, 28, 0);

function headers(entries: Record<string, string>): Headers {
  return new Headers(entries);
}

describe('parseRetryAfter', () => {
  it('returns undefined when headers are null or undefined', () => {
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
  });

  it('returns undefined when neither retry-after-ms nor Retry-After is present', () => {
    expect(parseRetryAfter(headers({ 'content-type': 'application/json' }), NOW)).toBeUndefined();
  });

  it('reads retry-after-ms as milliseconds', () => {
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250' }), NOW)).toBe(250);
  });

  it('prefers retry-after-ms over Retry-After when both are present', () => {
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '120' }), NOW)).toBe(250);
  });

  it('rounds a fractional retry-after-ms up to the next whole millisecond', () => {
    expect(parseRetryAfter(headers({ 'retry-after-ms': '1.2' }), NOW)).toBe(2);
  });

  it('accepts retry-after-ms of 0', () => {
    expect(parseRetryAfter(headers({ 'retry-after-ms': '0' }), NOW)).toBe(0);
  });

  it('trims whitespace around retry-after-ms', () => {
    // Headers normalises outer whitespace itself, so use a plain header source to reach the trim in the parser.
    const source = { get: (name: string) => (name === 'retry-after-ms' ? '  300  ' : null) };
    expect(parseRetryAfter(source, NOW)).toBe(300);
  });

  it.each([
    ['negative', '-5'],
    ['non-numeric', 'soon'],
    ['empty', ''],
    ['blank', '   '],
    ['infinite', 'Infinity'],
  ])('falls back to Retry-After when retry-after-ms is %s', (_label, value) => {
    const source = { get: (name: string) => (name === 'retry-after-ms' ? value : name === 'retry-after' ? '7' : null) };
    expect(parseRetryAfter(source, NOW)).toBe(7000);
  });

  it('returns undefined when retry-after-ms is invalid and Retry-After is missing', () => {
    expect(parseRetryAfter(headers({ 'retry-after-ms': 'abc' }), NOW)).toBeUndefined();
  });

  it('reads Retry-After delta-seconds as milliseconds', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '120' }), NOW)).toBe(120_000);
  });

  it('reads a decimal Retry-After as fractional seconds', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '1.5' }), NOW)).toBe(1500);
  });

  it('reads a Retry-After HTTP-date in the future as the time until that date', () => {
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 21 Oct 2015 07:30:00 GMT' }), NOW)).toBe(120_000);
  });

  it('gives 0 for a Retry-After HTTP-date in the past', () => {
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 21 Oct 2015 07:00:00 GMT' }), NOW)).toBe(0);
  });

  it('uses the current time when now is not given', () => {
    const inOneHour = new Date(Date.now() + 3_600_000).toUTCString();
    const result = parseRetryAfter(headers({ 'retry-after': inOneHour }));
    // toUTCString drops milliseconds, so the answer is within one second below an hour.
    expect(result).toBeGreaterThan(3_598_000);
    expect(result).toBeLessThanOrEqual(3_600_000);
  });

  it('ignores a negative Retry-After', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '-5' }), NOW)).toBeUndefined();
  });

  it('ignores an unparsable Retry-After', () => {
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }), NOW)).toBeUndefined();
  });

  it('ignores an empty Retry-After', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '' }), NOW)).toBeUndefined();
  });
});

describe('parseRetryAfterValue', () => {
  it('parses whole delta-seconds', () => {
    expect(parseRetryAfterValue('0', NOW)).toBe(0);
    expect(parseRetryAfterValue('3', NOW)).toBe(3000);
  });

  it('parses decimal seconds and rounds up to whole milliseconds', () => {
    expect(parseRetryAfterValue('0.25', NOW)).toBe(250);
    expect(parseRetryAfterValue('0.0001', NOW)).toBe(1);
  });

  it('trims surrounding whitespace', () => {
    expect(parseRetryAfterValue('  42 ', NOW)).toBe(42_000);
  });

  it('parses the IMF-fixdate form of an HTTP-date', () => {
    expect(parseRetryAfterValue('Wed, 21 Oct 2015 07:28:05 GMT', NOW)).toBe(5000);
  });

  it('parses the obsolete RFC 850 form of an HTTP-date', () => {
    expect(parseRetryAfterValue('Wednesday, 21-Oct-15 07:28:10 GMT', NOW)).toBe(10_000);
  });

  it('gives 0 for a date in the past rather than a negative delay', () => {
    expect(parseRetryAfterValue('Thu, 01 Jan 1970 00:00:00 GMT', NOW)).toBe(0);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['negative', '-1'],
    ['signed', '+5'],
    ['leading dot', '.5'],
    ['trailing dot', '5.'],
    ['comma decimal', '1,5'],
    ['unit suffix', '120s'],
    ['words', 'in a while'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
  ])('ignores a %s value', (_label, value) => {
    expect(parseRetryAfterValue(value, NOW)).toBeUndefined();
  });

  // Regression guard (fixed bug): V8's lenient legacy Date.parse accepts garbage such as "Later 3" (→ March 2001) or "x 2099" (→ year 2099),
  // so text that is not an HTTP-date (RFC 9110 §5.6.7) yields 0 or a decades-long delay instead of undefined.
  it('ignores text that merely contains a number but is not an HTTP-date', () => {
    expect(parseRetryAfterValue('Later 3', NOW)).toBeUndefined();
    expect(parseRetryAfterValue('x 2099', NOW)).toBeUndefined();
  });
});
