/** Time from one place: wall-clock for timestamps, a monotonic clock for durations. */
export function now(): number {
  return Date.now();
}

export function monotonic(): number {
  return globalThis.performance?.now() ?? Date.now();
}

export function isoTimestamp(time: number = Date.now()): string {
  return new Date(time).toISOString();
}
