// W3C Trace Context `traceparent` (https://www.w3.org/TR/trace-context/#traceparent-header): strict parsing that
// never throws, and formatting that round-trips.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/config-error.js';
import { formatTraceparent, parseTraceparent } from '../../src/telemetry/index.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';
const VALID = `00-${TRACE_ID}-${SPAN_ID}-01`;

const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });
const traceId = hex(32).filter((id) => id !== '0'.repeat(32));
const spanId = hex(16).filter((id) => id !== '0'.repeat(16));
const traceFlags = fc.integer({ min: 0, max: 255 });

describe('parseTraceparent', () => {
  it('reads the specification’s example', () => {
    expect(parseTraceparent(VALID)).toEqual({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 1 });
    expect(parseTraceparent(`00-${TRACE_ID}-${SPAN_ID}-00`)).toEqual({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 0 });
  });

  it('round-trips random valid ids and flags through formatTraceparent', () => {
    fc.assert(
      fc.property(traceId, spanId, traceFlags, (trace, span, flags) => {
        const parent = { traceId: trace, spanId: span, traceFlags: flags };
        const header = formatTraceparent(parent);
        expect(header).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/);
        expect(parseTraceparent(header)).toEqual(parent);
      }),
    );
  });

  it('accepts a higher version by the version-00 layout, with or without fields after a dash', () => {
    expect(parseTraceparent(`01-${TRACE_ID}-${SPAN_ID}-01`)).toEqual({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 1 });
    expect(parseTraceparent(`cc-${TRACE_ID}-${SPAN_ID}-09-what-the-future-will-be-like`)).toEqual({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 9 });
    expect(parseTraceparent(`cc-${TRACE_ID}-${SPAN_ID}-01.extra`)).toBeUndefined();
  });

  it('ignores surrounding spaces and tabs (optional whitespace of an HTTP field)', () => {
    expect(parseTraceparent(` \t${VALID}\t `)).toEqual({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 1 });
  });

  it.each([
    ['uppercase hex', VALID.toUpperCase()],
    ['an uppercase trace id', `00-${TRACE_ID.toUpperCase()}-${SPAN_ID}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN_ID}-01`],
    ['an all-zero parent id', `00-${TRACE_ID}-${'0'.repeat(16)}-01`],
    ['version ff', `ff-${TRACE_ID}-${SPAN_ID}-01`],
    ['extra fields after version 00', `${VALID}-extra`],
    ['a trailing character after version 00', `${VALID}x`],
    ['a short trace id', `00-${TRACE_ID.slice(1)}-${SPAN_ID}-01`],
    ['a long trace id', `00-${TRACE_ID}0-${SPAN_ID}-01`],
    ['a short parent id', `00-${TRACE_ID}-${SPAN_ID.slice(1)}-01`],
    ['one-character flags', `00-${TRACE_ID}-${SPAN_ID}-1`],
    ['non-hex flags', `00-${TRACE_ID}-${SPAN_ID}-0g`],
    ['a one-character version', `0-${TRACE_ID}-${SPAN_ID}-01`],
    ['underscores for dashes', VALID.replace(/-/g, '_')],
    ['the empty string', ''],
    ['whitespace only', '   '],
    ['a newline inside', `00-${TRACE_ID}\n-${SPAN_ID}-01`],
  ])('returns undefined for %s', (_title, header) => {
    expect(parseTraceparent(header)).toBeUndefined();
  });

  it('returns undefined, never throwing, for values that are not strings', () => {
    for (const value of [null, undefined, 0, 42, Number.NaN, true, {}, [], [VALID], { toString: () => VALID }, Symbol('x'), () => VALID, 10n])
      expect(parseTraceparent(value as never)).toBeUndefined();
  });

  it('never throws on arbitrary strings, and what it accepts is well-formed', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF- \t') , maxLength: 80 })), (header) => {
        const parsed = parseTraceparent(header);
        if (parsed !== undefined) {
          expect(parsed.traceId).toMatch(/^[0-9a-f]{32}$/);
          expect(parsed.spanId).toMatch(/^[0-9a-f]{16}$/);
          expect(parsed.traceFlags).toBeGreaterThanOrEqual(0);
          expect(parsed.traceFlags).toBeLessThanOrEqual(255);
        }
      }),
    );
  });

  it('stays fast on a huge hostile header (no quadratic trimming)', () => {
    const started = performance.now();
    expect(parseTraceparent(`${' '.repeat(500_000)}x${' '.repeat(500_000)}`)).toBeUndefined();
    expect(parseTraceparent(`cc-${TRACE_ID}-${SPAN_ID}-01-${'x'.repeat(1_000_000)}`)).toEqual({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 1 });
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('formatTraceparent', () => {
  it('writes version 00 with two-digit flags', () => {
    expect(formatTraceparent({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 1 })).toBe(VALID);
    expect(formatTraceparent({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 255 })).toBe(`00-${TRACE_ID}-${SPAN_ID}-ff`);
  });

  it('throws one ConfigError listing every invalid field', () => {
    let error: unknown;
    try {
      formatTraceparent({ traceId: TRACE_ID.toUpperCase(), spanId: '0'.repeat(16), traceFlags: 256 });
    } catch (caught) {
      error = caught;
    }
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).problems).toHaveLength(3);
    expect(() => formatTraceparent(null as never)).toThrow(/traceId must be 32 lowercase hex characters/);
  });
});
