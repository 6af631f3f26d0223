import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRetryAfter, parseRetryAfterValue } from '../../src/internal/retry-after.js';

/** The parser as it was before it was made smaller (issue 17, third round): the new one must answer the same. */
const DAY = '(Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d\\d:\\d\\d:\\d\\d';
const OLD_HTTP_DATE = new RegExp(`^(${DAY}, \\d\\d ${MONTH} \\d{4} ${TIME} GMT|(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \\d\\d-${MONTH}-\\d\\d ${TIME} GMT|${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4})$`);
function oldValue(value: string, now: number): number | undefined {
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) {
    const seconds = Number(text);
    return Number.isFinite(seconds) ? Math.ceil(seconds * 1000) : undefined;
  }
  if (!OLD_HTTP_DATE.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
function oldHeaders(get: (name: string) => string | null, now: number): number | undefined {
  const milliseconds = get('retry-after-ms');
  if (milliseconds !== null) {
    const value = Number(milliseconds.trim());
    if (milliseconds.trim() !== '' && Number.isFinite(value) && value >= 0) return Math.ceil(value);
  }
  const retryAfter = get('retry-after');
  return retryAfter === null ? undefined : oldValue(retryAfter, now);
}

const NOW = Date.UTC(2015, 9, 21, 7, 28, 0);
const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const days = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun', 'Tues', 'Wednesday', 'Monday', 'Xyz'];
const months = ['Jan', 'Feb', 'Oct', 'Dec', 'Foo'];
const two = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0'));
/** Near-miss dates of every form: right and wrong day names, separators, widths. */
const dateLike = fc
  .tuple(pick(days), pick([', ', ' ', 'day, ', ',']), two, pick([' ', '-']), pick(months), pick([' ', '-']), fc.integer({ min: 0, max: 2100 }), two, two, two, pick([' GMT', '', ' UTC']))
  .map(([day, sep, dd, s1, month, s2, year, h, m, sec, zone]) => `${day}${sep}${dd}${s1}${month}${s2}${year} ${h}:${m}:${sec}${zone}`);
const asctime = fc
  .tuple(pick(days), pick(months), fc.integer({ min: 1, max: 31 }), two, two, two, fc.integer({ min: 1900, max: 2100 }))
  .map(([day, month, d, h, m, s, year]) => `${day} ${month} ${String(d).padStart(2, ' ')} ${h}:${m}:${s} ${year}`);
const numberLike = fc.oneof(fc.double().map(String), fc.nat().map(String), fc.stringMatching(/^[ \d.+-]{0,8}$/), pick(['Infinity', 'NaN', '1e3', '0x10', ' 5 ', '']));
const value = fc.oneof(dateLike, asctime, numberLike, fc.string({ maxLength: 40 }), fc.date({ noInvalidDate: true }).map((date) => date.toUTCString()));

describe('parseRetryAfter: the smaller parser answers exactly as the previous one', () => {
  it('parseRetryAfterValue, over numbers, dates of every form, near misses and noise', () => {
    fc.assert(fc.property(value, fc.integer({ min: 0, max: 4_000_000_000_000 }), (text, now) => Object.is(parseRetryAfterValue(text, now), oldValue(text, now))), { numRuns: 5000 });
  });

  it('parseRetryAfter, with retry-after-ms and Retry-After present, absent or invalid', () => {
    const header = fc.option(fc.oneof(value, numberLike), { nil: null });
    fc.assert(
      fc.property(header, header, (ms, after) => {
        const get = (name: string) => (name === 'retry-after-ms' ? ms : name === 'retry-after' ? after : null);
        return Object.is(parseRetryAfter({ get }, NOW), oldHeaders(get, NOW));
      }),
      { numRuns: 3000 },
    );
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
  });
});
