/** Cutting a test input into the pieces a stream delivers it in. */

/**
 * Cuts `input` (bytes or text) at the given points, each clamped to `[0, input.length]`; repeated points count once,
 * empty pieces are kept, and the pieces joined are `input` again.
 * @example `splitAt('abcdef', [4, 2, 9])` → `['ab', 'cd', 'ef', '']`
 */
export function splitAt<T extends { length: number; slice(start: number, end?: number): T }>(input: T, cuts: readonly number[]): T[] {
  const points = [...new Set(cuts.map((cut) => Math.min(input.length, Math.max(0, cut))))].sort((a, b) => a - b);
  const parts: T[] = [];
  let start = 0;
  for (const point of points) {
    parts.push(input.slice(start, point));
    start = point;
  }
  parts.push(input.slice(start));
  return parts;
}
