import { describe, expect, it } from 'vitest';
import { SerializeError } from '../../src/errors/index.js';
import { droppedValues, encodeJSON, jsonProblem, nestingProblem } from '../../src/wire/safe-json.js';
import { nested } from '../helpers/hostile-values.js';

/** `fn` takes under `ms` (a bound on work, generous for a loaded 2-core machine). */
function within(ms: number, fn: () => unknown): unknown {
  const started = performance.now();
  const result = fn();
  expect(performance.now() - started).toBeLessThan(ms);
  return result;
}

describe('encodeJSON', () => {
  it('names the path and the reason of each kind of value JSON cannot write', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const cases: Array<[unknown, string, RegExp]> = [
      [{ order: { total: 1n } }, 'bigint', /^data\.order\.total$/],
      [{ a: [cycle] }, 'cycle', /^data\.a\[0\]\.self$/],
      [{ get broken() { throw new Error('no'); } }, 'unreadable', /^data\.broken$/],
      [{ when: { toJSON: () => { throw new Error('no'); } } }, 'unreadable', /^data\.when$/],
      [nested(20_000), 'too_deep', /^data\.a\.a/],
      [() => 1, 'not_json', /^data$/],
      [{ big: { toJSON: () => { throw new RangeError('Invalid string length'); } } }, 'too_large', /^data$/],
    ];
    for (const [value, code, path] of cases) {
      let caught: unknown;
      try {
        encodeJSON(value, 'tool result', 'data');
      } catch (error) {
        caught = error;
      }
      expect(SerializeError.isInstance(caught), code).toBe(true);
      expect((caught as SerializeError).issues[0]?.code).toBe(code);
      expect((caught as SerializeError).issues[0]?.path).toMatch(path);
    }
  });

  it('does not mistake a shared part (no cycle) for a cycle when looking for what failed', () => {
    const shared = { id: 1 };
    expect(jsonProblem({ first: shared, second: shared, late: 5n }, 'data')).toMatchObject({ code: 'bigint', path: 'data.late' });
  });
});

describe('encodeJSON on hostile toJSON and proxies', () => {
  const codeOf = (value: unknown): string | undefined => {
    try {
      encodeJSON(value, 'value', 'data');
      return undefined;
    } catch (error) {
      expect(SerializeError.isInstance(error), String(error)).toBe(true);
      return (error as SerializeError).issues[0]?.code;
    }
  };

  it('gives a SerializeError for a toJSON getter that throws, a throwing proxy and a revoked proxy', () => {
    expect(codeOf({ get toJSON() { throw new Error('boom'); } })).toBe('unreadable');
    expect(codeOf({ inner: new Proxy({}, { get() { throw new Error('trap'); } }) })).toBe('unreadable');
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(codeOf({ inner: proxy })).toBe('unreadable');
  });

  it('stays linear on a toJSON that returns a new object each time, without end', () => {
    let calls = 0;
    const make = (): unknown => ({
      toJSON() {
        if (calls++ === 0) throw new TypeError('first call fails');
        return { a: make() };
      },
    });
    expect(within(2_000, () => codeOf({ root: make() }))).toBe('unreadable');
  });

  it('classifies a BigInt past the walk bound by what the runtime said', () => {
    const rows = Array.from({ length: 200_000 }, (_, index) => ({ index }));
    expect(codeOf({ rows: [...rows, 1n] })).toBe('bigint');
  });
});

describe('bounded walks on wide and deep values', () => {
  const wide = Array.from({ length: 4_000_000 }, (_, index) => index);

  it('diagnoses a BigInt at the start of a 4-million-element array at once, without a frame per element', () => {
    const found = within(500, () => jsonProblem([1n, ...wide.slice(0, 1_000)], 'data')) as { code: string; path: string };
    expect(found).toMatchObject({ code: 'bigint', path: 'data[0]' });
    expect(within(500, () => jsonProblem({ rows: wide }, 'data'))).toBeUndefined(); // bounded: stops after its limit
  });

  it('finds no dropped parts in 4 million numbers within its bound', () => {
    expect(within(500, () => droppedValues({ rows: wide }, 'data'))).toEqual([]);
  });

  it('reports the depth of a chain 100,000 levels deep without recursion', () => {
    expect(within(1_000, () => nestingProblem(nested(100_000), 'params', 100))).toMatchObject({ code: 'too_deep', message: 'nests deeper than 100 levels' });
  });

  it('fails closed on a payload with more values than it checks', () => {
    expect(within(2_000, () => nestingProblem({ a: Array.from({ length: 1_100_000 }, () => 0) }, 'params'))).toMatchObject({ code: 'too_large', path: 'params' });
  });
});

describe('droppedValues', () => {
  class Temperature {
    #celsius = 21;
    get celsius(): number {
      return this.#celsius;
    }
  }

  it('names what JSON drops or writes as {} inside the data', () => {
    const found = droppedValues(
      {
        format: () => 'x',
        tag: Symbol('t'),
        rows: new Map([[1, 2]]),
        ids: new Set([1]),
        failure: new Error('db down'),
        when: /x/,
        pending: Promise.resolve(1),
        reading: new Temperature(),
        fine: { date: new Date(0), empty: new Map(), plain: {}, boxed: [new Number(5), new Boolean(false), new String('')] },
      },
      'data',
    );
    expect(found).toEqual([
      { path: 'data.format', kind: 'a function' },
      { path: 'data.tag', kind: 'a Symbol' },
      { path: 'data.rows', kind: 'a Map' },
      { path: 'data.ids', kind: 'a Set' },
      { path: 'data.failure', kind: 'an Error' },
      { path: 'data.when', kind: 'a RegExp' },
      { path: 'data.pending', kind: 'a Promise (not awaited?)' },
      { path: 'data.reading', kind: 'an instance of Temperature' },
    ]);
  });

  it('never throws, whatever getters do', () => {
    let reads = 0;
    const value = {
      get later() {
        if (++reads > 0) throw new Error('no');
        return 1;
      },
    };
    expect(() => droppedValues(value, 'data')).not.toThrow();
  });
});
