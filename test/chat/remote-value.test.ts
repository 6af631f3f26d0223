// describeRemote: what a decoder's error says of a remote value — its type and a preview one level deep, bounded,
// redacted, never walking below the first level (so no depth or size makes it throw), and decodingFailure: the typed
// stand-in for a failure no check names.
import { describe, expect, it } from 'vitest';
import { decodingFailure } from '../../src/chat/core/decoding-failure.js';
import { describeRemote, listed } from '../../src/chat/core/remote-value.js';
import { StreamError } from '../../src/errors/index.js';
import { nested } from '../helpers/hostile-values.js';

const SECRET = 'planted-key-0123456789';

describe('describeRemote', () => {
  it('says a primitive as its JSON literal and a container by its type and first level', () => {
    expect(describeRemote(-1, [])).toBe('-1');
    expect(describeRemote('0', [])).toBe('"0"');
    expect(describeRemote(null, [])).toBe('null');
    expect(describeRemote(true, [])).toBe('true');
    expect(describeRemote({ at: 0, deeper: { x: 1 }, list: [1] }, [], 200)).toBe('an object {"at":0,"deeper":{…},"list":[…]}');
    expect(describeRemote([[1], 2], [], 200)).toBe('an array of 2 items [[…],2]');
    expect(describeRemote([], [])).toBe('an array of 0 items []');
  });

  it('never walks below the first level: 1,000,000 levels and 1,000,000 items are described at once', () => {
    expect(describeRemote(nested(1_000_000, 1, 'array'), [])).toBe('an array of 1 item [[…]]');
    expect(describeRemote(nested(1_000_000), [])).toBe('an object {"a":{…}}');
    const many = new Array(1_000_000).fill('x'.repeat(1_000));
    const started = performance.now();
    expect(describeRemote(many, [])).toMatch(/^an array of 1000000 items \["x+/);
    expect(performance.now() - started).toBeLessThan(100); // a few entries read, not a million
  });

  it('stays within its bound and removes secrets from strings and keys before anything is cut', () => {
    const value = { [SECRET]: `${SECRET}${'y'.repeat(10_000)}`, more: 'z'.repeat(10_000) };
    for (const length of [10, 40, 200]) {
      const said = describeRemote(value, [SECRET], length);
      expect(said.length).toBeLessThanOrEqual(length);
      expect(said).not.toContain(SECRET.slice(0, 8));
    }
    expect(describeRemote(`${SECRET} ${'x'.repeat(5_000)}`, [SECRET], 40)).toMatch(/^"\[REDACTED\] x+…$/);
  });

  it('never throws: a revoked proxy, a throwing getter, values JSON has no literal for', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(describeRemote(proxy, [])).toBe('an object');
    expect(
      describeRemote(
        {
          get boom() {
            throw new Error('no');
          },
        },
        [],
      ),
    ).toBe('an object');
    expect(describeRemote(undefined, [])).toBe('undefined');
    expect(describeRemote(10n, [])).toBe('10n');
    expect(describeRemote(() => 1, [])).toBe('function');
  });
});

describe('decodingFailure', () => {
  it('keeps a faultline error as it is', () => {
    const own = new StreamError('own', { reason: 'incomplete' });
    expect(decodingFailure(own, 'Provider API', [])).toBe(own);
  });

  it('makes anything else a StreamError malformed_chunk naming it, redacted, with the cause', () => {
    const failure = decodingFailure(new TypeError(`x is not a function (${SECRET})`), 'Provider API', [SECRET]);
    expect(failure).toMatchObject({ name: 'StreamError', reason: 'malformed_chunk', message: 'The Provider API stream could not be decoded (TypeError: x is not a function ([REDACTED]))' });
    expect((failure as Error).cause).toMatchObject({ name: 'TypeError', message: 'x is not a function ([REDACTED])' });
    const thrown = decodingFailure(`${SECRET} ${'q'.repeat(5_000)}`, 'Provider API', [SECRET]) as Error;
    expect(thrown).toMatchObject({ name: 'StreamError', reason: 'malformed_chunk' });
    expect(thrown.message).not.toContain(SECRET);
    expect(thrown.message.length).toBeLessThan(300);
  });
});

describe('listed', () => {
  it('names each distinct name once, at most five, and how many more', () => {
    expect(listed([])).toBe('');
    expect(listed(['a', 'b', 'a'])).toBe('a, b');
    expect(listed(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'a'])).toBe('a, b, c, d, e and 2 more');
    expect(listed(Array.from({ length: 100_000 }, (_, index) => `t${index}`)).length).toBeLessThan(60);
  });
});
