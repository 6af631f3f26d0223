/**
 * Parsing of server back-off hints: `retry-after-ms` (milliseconds, used by OpenAI-compatible APIs) first, then
 * `Retry-After` as delta-seconds or an HTTP-date (RFC 9110 §10.2.3). Pure: the current time is a parameter.
 */

interface HeaderSource {
  get(name: string): string | null;
}

/**
 * Returns the delay the server asked for in milliseconds, or `undefined` when there is no usable hint.
 * Negative, non-finite and unparsable values are ignored; a date in the past gives 0.
 */
export function parseRetryAfter(headers: HeaderSource | undefined | null, now: number = Date.now()): number | undefined {
  const milliseconds = Number(headers?.get('retry-after-ms')?.trim() || NaN); // absent, empty or blank: NaN
  if (milliseconds >= 0 && milliseconds < Infinity) return Math.ceil(milliseconds);
  const retryAfter = headers?.get('retry-after');
  return retryAfter == null ? undefined : parseRetryAfterValue(retryAfter, now);
}

/**
 * The three HTTP-date forms of RFC 9110 §5.6.7 in one pattern: IMF-fixdate and asctime (both after a short day
 * name), and obsolete RFC 850 (its long day names: `Monday`…`Sunday`).
 */
const HTTP_DATE =
  /^((Mon|Tue|Wed|Thu|Fri|Sat|Sun)(, \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT| (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d \d{4})|(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \d\d-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d\d \d\d:\d\d:\d\d GMT)$/;

/** Parses one `Retry-After` value: `"120"`, `"1.5"` or `"Wed, 21 Oct 2015 07:28:00 GMT"`. */
export function parseRetryAfterValue(value: string, now: number = Date.now()): number | undefined {
  const text = value.trim();
  // Delta-seconds (digits, an optional fraction), else an HTTP-date: a date in the past is 0.
  const delay = /^\d+(\.\d+)?$/.test(text) ? Math.ceil(Number(text) * 1000) : HTTP_DATE.test(text) ? Math.max(0, Date.parse(text) - now) : NaN;
  return delay < Infinity ? delay : undefined; // NaN (unparsable) and Infinity are no hint
}
