/**
 * Cross-bundle brands. A class stores `[Symbol.for(marker)] = true` on its instances; because `Symbol.for` uses the
 * global symbol registry, a second copy of the package (another bundle, another realm) recognises the same marker.
 *
 * Each branded module holds `const symbol = Symbol.for('faultline.…')` with a literal argument; its class declares
 * `declare private readonly [symbol]: true` and sets `this[symbol] = true` in the constructor (the same own enumerable
 * property a field would define). Both are what lets an app bundler drop an unused class: esbuild keeps any class
 * with a computed field key (`[symbol] = true`; evaluating the key may run code) and any `Symbol.for(name)` whose
 * argument is not a literal (test/package/side-effects.test.ts).
 */
export function hasMarker(value: unknown, symbol: symbol): boolean {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  try {
    return (value as Record<symbol, unknown>)[symbol] === true;
  } catch {
    return false;
  }
}

