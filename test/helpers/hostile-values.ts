/**
 * Values that break naive cloning and serializing: nesting of any depth (to 20,000 and beyond), values JSON cannot
 * carry (BigInt, cycles, functions, Symbols, Maps, Sets), and values that change after they were handed over (an
 * object mutated a few milliseconds later, a getter that throws on its second read, a getter that answers differently
 * each time). Shared by the hardening property tests of every clone/serialize path.
 */
import fc from 'fast-check';

/** `{"a": {"a": … leaf}}` nested `depth` levels (objects) or `[[[… leaf]]]` (arrays). */
export function nested(depth: number, leaf: unknown = 1, kind: 'object' | 'array' = 'object'): unknown {
  let value: unknown = leaf;
  for (let level = 0; level < depth; level++) value = kind === 'object' ? { a: value } : [value];
  return value;
}

/** The JSON text of {@link nested} without building the value (JSON.stringify itself would overflow). */
export function nestedText(depth: number, leaf = '1', kind: 'object' | 'array' = 'object'): string {
  return kind === 'object' ? `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}` : `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;
}

/** An object whose getter returns `value` on the first read and throws on every later one. */
export function throwsOnSecondRead(value: unknown = 'first read'): Record<string, unknown> {
  let reads = 0;
  return {
    id: 1,
    get unstable() {
      reads++;
      if (reads > 1) throw new Error(`read ${reads} of a getter that works once`);
      return value;
    },
  };
}

/** An object whose getter answers differently on every read. */
export function changesOnEveryRead(): Record<string, unknown> {
  let reads = 0;
  return {
    get counter() {
      reads++;
      return reads;
    },
  };
}

/** An object that gains a BigInt `ms` milliseconds after it was returned (and a cycle, for good measure). */
export function mutatesLater(ms = 5): Record<string, unknown> {
  const value: Record<string, unknown> = { rows: [1, 2, 3] };
  setTimeout(() => {
    value.total = 10n;
    value.self = value;
  }, ms);
  return value;
}

/** A value with a cycle. */
export function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = { name: 'loop' };
  value.self = value;
  return value;
}

/**
 * A cycle reached by two keys (`left` and `right` both lead back): JSON.stringify refuses it at once, but a walk
 * without cycle marks visits it once per route — 2^depth times, a synchronous hang.
 */
export function cyclicTwice(): Record<string, unknown> {
  const value: Record<string, unknown> = { name: 'node' };
  value.left = value;
  value.right = value;
  return value;
}

/** Something that makes a fresh value each time (unstable values must not be read by the test before the subject). */
export interface Producer {
  label: string;
  make: () => unknown;
}

const producer = (label: string, make: () => unknown): Producer => ({ label, make });

/** Values JSON.stringify throws on, returns `undefined` for, or silently empties. */
export const nonJSONValue: fc.Arbitrary<Producer> = fc.oneof(
  fc.bigInt().map((big) => producer('a BigInt', () => ({ total: big }))),
  fc.constant(producer('a cycle', cyclic)),
  fc.constant(producer('a cycle reached by two keys', cyclicTwice)),
  fc.constant(producer('a function', () => () => 'a function')),
  fc.constant(producer('a Symbol', () => Symbol('a symbol'))),
  fc.constant(producer('a Map inside', () => ({ rows: new Map([[1, 'one']]) }))),
  fc.constant(producer('a Set inside', () => ({ tags: new Set(['a']) }))),
  fc.constant(producer('a method inside', () => ({ format: () => 'x', value: 1 }))),
  fc.constant(
    producer('a throwing toJSON', () => ({
      toJSON() {
        throw new Error('toJSON refuses');
      },
    })),
  ),
);

/** Depths that matter: ordinary, near the inbound bound (100), past structuredClone's (~2,000) and JSON.stringify's (~5,000) stacks. */
export const depthArbitrary: fc.Arbitrary<number> = fc.oneof(fc.integer({ min: 0, max: 8 }), fc.constantFrom(99, 100, 101, 2_500, 6_000, 20_000));

/** Any value a careless or hostile producer hands over: JSON data, deep data, non-JSON values, unstable values. */
export const hostileValue: fc.Arbitrary<Producer> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((json) => producer('JSON data', () => structuredClone(json))),
  depthArbitrary.chain((depth) => fc.constantFrom<'object' | 'array'>('object', 'array').map((kind) => producer(`${kind}s nested ${depth} deep`, () => nested(depth, 'leaf', kind)))),
  nonJSONValue,
  fc.constant(producer('a getter that throws on its second read', () => throwsOnSecondRead())),
  fc.constant(producer('a getter that changes on every read', changesOnEveryRead)),
  fc.constant(producer('an object that gains a BigInt later', () => mutatesLater(1))),
);

/** Whether plain `JSON.stringify` can write `value` (the oracle the properties compare against). */
export function jsonWritable(value: unknown): boolean {
  try {
    return JSON.stringify(value) !== undefined;
  } catch {
    return false;
  }
}
