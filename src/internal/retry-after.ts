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
  if (!headers) return undefined;
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null) {
    const value = Number(milliseconds.trim());
    if (milliseconds.trim() !== '' && Number.isFinite(value) && value >= 0) return Math.ceil(value);
  }
  const retryAfter = headers.get('retry-after');
  if (retryAfter === null) return undefined;
  return parseRetryAfterValue(retryAfter, now);
}

const DAY = '(Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d\\d:\\d\\d:\\d\\d';
/**
 * The three HTTP-date forms of RFC 9110 §5.6.7 in one pattern: IMF-fixdate, obsolete RFC 850 (its long day names:
 * `Monday`…`Sunday`), and asctime. Built on first use.
 */
let httpDate: RegExp | undefined;
function isHTTPDate(text: string): boolean {
  httpDate ??= new RegExp(
    `^(${DAY}, \\d\\d ${MONTH} \\d{4} ${TIME} GMT|(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \\d\\d-${MONTH}-\\d\\d ${TIME} GMT|${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4})$`,
  );
  return httpDate.test(text);
}

/** Parses one `Retry-After` value: `"120"`, `"1.5"` or `"Wed, 21 Oct 2015 07:28:00 GMT"`. */
export function parseRetryAfterValue(value: string, now: number = Date.now()): number | undefined {
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) {
    const seconds = Number(text);
    return Number.isFinite(seconds) ? Math.ceil(seconds * 1000) : undefined;
  }
  if (!isHTTPDate(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
