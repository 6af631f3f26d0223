/** Time from one place: wall-clock for timestamps, a monotonic clock for durations. */
export function now(): number {
  return Date.now();
}

export function monotonic(): number {
  return globalThis.performance?.now() ?? Date.now();
}

let lastTime = NaN; // not `Number.NaN`: a bundler keeps a property read at module scope
let lastText = '';

/** ISO 8601 with milliseconds; formatted once per millisecond (events are stamped in bursts). */
export function isoTimestamp(time: number = Date.now()): string {
  if (time !== lastTime) {
    lastText = new Date(time).toISOString();
    lastTime = time;
  }
  return lastText;
}

/**
 * A time a stored record may hold (`expiresAt`, `createdAt`): a string of at most 40 characters that `Date.parse`
 * reads. Garbage would read as `NaN`, which compares false with every time — an interrupt that never expires.
 * @example `isTimestamp('2026-12-05T11:00:00.000Z') // true`
 */
export function isTimestamp(value: unknown): boolean {
  return typeof value === 'string' && value.length <= 40 && !Number.isNaN(Date.parse(value));
}
