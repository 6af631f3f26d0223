// How a refusal names the value it refused: whatever the value, the name never holds a string longer than 12
// characters found inside it (a secret put in the wrong option, wrapped in anything), never throws, and stays short.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refusedValue } from '../../src/internal/json.js';

const SECRET = 'sk-live-0123456789abcdefXYZ';

/** Every way a value can carry a string that printing it would show. */
const wrapped = fc.oneof(
  fc.constant<unknown>(SECRET),
  fc.anything().map((value) => [value, SECRET]),
  fc.anything().map((value) => ({ value, key: SECRET })),
  fc.constant<unknown>(new String(SECRET)),
  fc.constant<unknown>({ toString: () => SECRET }),
  fc.constant<unknown>({ valueOf: () => SECRET }),
  fc.constant<unknown>(Symbol(SECRET)),
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a function whose source holds the secret
  fc.constant<unknown>(new Function(`return '${SECRET}';`)),
  fc.constant<unknown>(new Proxy({}, { get: () => () => SECRET })),
);

describe('refusedValue', () => {
  it('never prints a secret inside a value of the wrong type, nor throws, nor grows with the value', () => {
    fc.assert(
      fc.property(wrapped, (value) => {
        const named = refusedValue(value);
        expect(named).not.toContain(SECRET.slice(8));
        expect(named.length).toBeLessThanOrEqual(24);
      }),
    );
  });

  it('names what can hold no secret as itself, a short string quoted, anything else by its type', () => {
    expect([5, Number.NaN, true, null, undefined, 10n, 'ms', 'x'.repeat(13)].map(refusedValue)).toEqual(['5', 'NaN', 'true', 'null', 'undefined', '10', '"ms"', '13 characters']);
    expect([[1], {}, new Date(0), () => 1, Symbol('s')].map(refusedValue)).toEqual(['an object', 'an object', 'an object', 'a function', 'a symbol']);
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    expect(refusedValue(revoked.proxy)).toBe('an object');
  });
});
