/**
 * Cross-bundle brands. A class stores `[Symbol.for(marker)] = true` on its instances; because `Symbol.for` uses the
 * global symbol registry, a second copy of the package (another bundle, another realm) recognises the same marker.
 */
export function hasMarker(value: unknown, marker: string): boolean {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  try {
    return (value as Record<symbol, unknown>)[Symbol.for(marker)] === true;
  } catch {
    return false;
  }
}
