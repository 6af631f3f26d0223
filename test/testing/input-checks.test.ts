// faultline/testing refuses bad input: every function exported by src/testing/index.ts is called with undefined, null,
// a number and an object where it does not belong (a misspelt option name where it takes options), and each call
// throws a ConfigError at once naming the problem — never a bare TypeError from deep inside, never a Response whose
// body fails only when read. The completeness check at the end fails when an export has no row here.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/config-error.js';
import * as testing from '../../src/testing/index.js';
import { chatFaultHandlers, chunk, sseResponse, sseText, textEvents, toolCallEvents, usageChunk } from '../../src/testing/index.js';

/** A value a caller may have put in the wrong place: it must never be printed. */
const SECRET = 'sk-live-0123456789abcdefSECRET';
const CALL = { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' };
const cycle: Record<string, unknown> = {};
cycle.self = cycle;

/** The kinds of bad input every row must try (one case label each starts with). */
const KINDS = ['undefined', 'null', 'a number', 'an object'] as const;

interface Row {
  /** A call with good input, which must not throw. */
  good: () => unknown;
  /** `[label, call, a problem the ConfigError must list]`. */
  bad: Array<[string, () => unknown, string]>;
  /** Kinds of {@link KINDS} that are good input here (a parameter with a default), each shown by a good call. */
  allowed?: Partial<Record<(typeof KINDS)[number], () => unknown>>;
}

const call = (fn: (...args: never[]) => unknown, ...args: unknown[]) => () => (fn as (...args: unknown[]) => unknown)(...args);

function handlerRow(name: 'a2aFaultHandlers' | 'anthropicFaultHandlers' | 'chatFaultHandlers' | 'mcpFaultHandlers'): Row {
  const fn = testing[name];
  return {
    good: call(fn, { baseURL: 'https://faults.test/' }),
    bad: [
      ['undefined options', call(fn, undefined), 'options must be an object { baseURL: string } (got undefined)'],
      ['null options', call(fn, null), 'options must be an object { baseURL: string } (got null)'],
      ['a number as options', call(fn, 42), 'options must be an object { baseURL: string } (got 42)'],
      ['a number as baseURL', call(fn, { baseURL: 42 }), 'baseURL must be an absolute http(s) URL string (got 42)'],
      ['an object with a misspelt option', call(fn, { baseUrl: 'https://faults.test' }), 'unknown option "baseUrl" (did you mean baseURL?)'],
      ['an object as baseURL', call(fn, { baseURL: new URL('https://faults.test') }), 'baseURL must be an absolute http(s) URL string (got an object)'],
      ['a string that is no URL', call(fn, { baseURL: 'not a url' }), 'baseURL must be an absolute http(s) URL (got "not a url")'],
      ['a URL of another scheme', call(fn, { baseURL: 'ftp://faults.test' }), 'baseURL must be an http: or https: URL (got "ftp:")'],
      ['a secret as baseURL', call(fn, { baseURL: SECRET }), `baseURL must be an absolute http(s) URL (got ${SECRET.length} characters)`],
    ],
  };
}

const TABLE: Record<string, Row> = {
  a2aFaultHandlers: handlerRow('a2aFaultHandlers'),
  anthropicFaultHandlers: handlerRow('anthropicFaultHandlers'),
  chatFaultHandlers: handlerRow('chatFaultHandlers'),
  mcpFaultHandlers: handlerRow('mcpFaultHandlers'),
  chunk: {
    good: () => chunk({ content: 'Hel' }, 'stop', { usage: null }),
    bad: [
      ['undefined delta', call(chunk, undefined), 'delta must be an object (got undefined)'],
      ['null delta', call(chunk, null), 'delta must be an object (got null)'],
      ['a number as delta', call(chunk, 42), 'delta must be an object (got 42)'],
      ['a number as finishReason', call(chunk, {}, 42), 'finishReason must be a string (got 42)'],
      ['an object as finishReason', call(chunk, {}, { finish_reason: 'stop' }), 'finishReason must be a string (got an object)'],
      ['an array as delta', call(chunk, ['content']), 'delta must be an object (got an object)'],
      ['a secret as extra', call(chunk, {}, null, SECRET), `extra must be an object (got ${SECRET.length} characters)`],
    ],
  },
  usageChunk: {
    good: () => usageChunk(3, 4),
    allowed: { undefined: () => expect(usageChunk(undefined, undefined)).toEqual(usageChunk(10, 5)) },
    bad: [
      ['null prompt', call(usageChunk, null), 'prompt must be an integer ≥ 0 (got null)'],
      ['a number below 0', call(usageChunk, -1), 'prompt must be an integer ≥ 0 (got -1)'],
      ['a number that is no integer', call(usageChunk, 10, 1.5), 'completion must be an integer ≥ 0 (got 1.5)'],
      ['an object as prompt', call(usageChunk, { prompt: 10 }), 'prompt must be an integer ≥ 0 (got an object)'],
      ['a string as completion', call(usageChunk, 10, '5'), 'completion must be an integer ≥ 0 (got "5")'],
    ],
  },
  textEvents: {
    good: () => textEvents(['Hel', 'lo'], 'length'),
    bad: [
      ['undefined pieces', call(textEvents, undefined), 'pieces must be an array of strings (got undefined)'],
      ['null pieces', call(textEvents, null), 'pieces must be an array of strings (got null)'],
      ['a number as pieces', call(textEvents, 42), 'pieces must be an array of strings (got 42)'],
      ['an object with a misspelt option', call(textEvents, { peices: ['Hel'] }), 'pieces must be an array of strings (got an object)'],
      ['a string as pieces', call(textEvents, 'Hello'), 'pieces must be an array of strings (got "Hello")'],
      ['a number among the pieces', call(textEvents, ['Hel', 7]), 'pieces[1] must be a string (got 7)'],
      ['null as finishReason', call(textEvents, ['Hel'], null), 'finishReason must be a string (got null)'],
    ],
  },
  toolCallEvents: {
    good: () => toolCallEvents([CALL]),
    bad: [
      ['undefined calls', call(toolCallEvents, undefined), 'calls must be an array of { id, name, arguments } (got undefined)'],
      ['null calls', call(toolCallEvents, null), 'calls must be an array of { id, name, arguments } (got null)'],
      ['a number as calls', call(toolCallEvents, 42), 'calls must be an array of { id, name, arguments } (got 42)'],
      ['an object with a misspelt option', call(toolCallEvents, [{ id: 'call_1', name: 'f', argument: '{}' }]), 'calls[0]: unknown option "argument" (did you mean arguments?)'],
      ['a call left out', call(toolCallEvents, [null]), 'calls[0] must be an object { id, name, arguments } (got null)'],
      ['arguments as an object', call(toolCallEvents, [CALL, { ...CALL, arguments: { city: 'Paris' } }]), 'calls[1].arguments must be a string (got an object)'],
      ['a secret as a call', call(toolCallEvents, [SECRET]), `calls[0] must be an object { id, name, arguments } (got ${SECRET.length} characters)`],
    ],
  },
  sseText: {
    good: () => expect(sseText(['[DONE]', { a: 1 }])).toBe('data: [DONE]\n\ndata: {"a":1}\n\n'),
    bad: [
      ['undefined events', call(sseText, undefined), 'events must be an array of data payloads (got undefined)'],
      ['null events', call(sseText, null), 'events must be an array of data payloads (got null)'],
      ['a number as events', call(sseText, 42), 'events must be an array of data payloads (got 42)'],
      ['an object as events', call(sseText, { events: [] }), 'events must be an array of data payloads (got an object)'],
      ['a bigint payload', call(sseText, ['ok', 1n]), 'events[1] must be a string or JSON-encodable (got a bigint)'],
      ['a cyclic payload', call(sseText, [cycle]), 'events[0] must be a string or JSON-encodable (got an object)'],
      ['an undefined payload', call(sseText, [undefined]), 'events[0] must be a string or JSON-encodable (got undefined)'],
    ],
  },
  sseResponse: {
    good: () => sseResponse(textEvents(['Hi']), { dropAfter: 2, dropDelayMs: 0, headers: { 'x-test': '1' }, signal: new AbortController().signal }),
    bad: [
      ['undefined events', call(sseResponse, undefined), 'events must be an array of data payloads (got undefined)'],
      ['null events', call(sseResponse, null), 'events must be an array of data payloads (got null)'],
      ['a number as plan', call(sseResponse, [], 5), 'plan must be an object (got 5)'],
      ['an object with a misspelt option', call(sseResponse, [], { dropAfer: 1 }), 'unknown option "dropAfer" (did you mean dropAfter?)'],
      ['a negative event number', call(sseResponse, [], { dropAfter: -1 }), 'dropAfter must be an integer ≥ 0 (got -1)'],
      ['a negative delay', call(sseResponse, ['a'], { dropAfter: 1, dropDelayMs: -5 }), 'dropDelayMs must be a number of ms ≥ 0 (got -5)'],
      ['a header that is no string', call(sseResponse, [], { headers: { 'x-test': 1 } }), 'header "x-test" must be a string (got 1)'],
      ['a signal that is no AbortSignal', call(sseResponse, [], { signal: 'abort' }), 'signal must be an AbortSignal (got "abort")'],
      ['a bigint payload', call(sseResponse, [1n]), 'events[0] must be a string or JSON-encodable (got a bigint)'],
    ],
  },
};

/** The error `run` throws, or a failure when it returns. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a ConfigError, nothing was thrown');
}

describe('faultline/testing refuses bad input with a ConfigError', () => {
  for (const [name, row] of Object.entries(TABLE)) {
    describe(name, () => {
      it('takes good input', () => {
        expect(row.good).not.toThrow();
        for (const allowed of Object.values(row.allowed ?? {})) expect(allowed).not.toThrow();
      });

      it.each(row.bad)('refuses %s', (_label, run, problem) => {
        const error = thrown(run) as ConfigError;
        expect(error).not.toBeInstanceOf(TypeError);
        expect(ConfigError.isInstance(error), String(error)).toBe(true);
        expect(error.kind).toBe('config');
        expect(error.message).toMatch(new RegExp(`^Invalid ${name} (options|input): `));
        expect(error.problems).toContain(problem);
        expect(error.message).not.toContain(SECRET);
      });

      it(`tries ${KINDS.join(', ')}`, () => {
        const labels = row.bad.map(([label]) => label);
        for (const kind of KINDS) if (!row.allowed?.[kind]) expect(labels.some((label) => label.startsWith(kind)), `${name}: no case starting "${kind}"`).toBe(true);
      });
    });
  }

  it('lists every problem at once', () => {
    const error = thrown(() => toolCallEvents([null, { id: 1, name: 'f', arguments: '{}', extra: true }] as never)) as ConfigError;
    expect(error.problems).toEqual(['calls[0] must be an object { id, name, arguments } (got null)', 'calls[1]: unknown option "extra"', 'calls[1].id must be a string (got 1)']);
    expect(thrown(() => chatFaultHandlers({ baseUrl: 'https://x.test' } as never))).toMatchObject({
      message: 'Invalid chatFaultHandlers options: 2 problems: (1) unknown option "baseUrl" (did you mean baseURL?); (2) baseURL must be an absolute http(s) URL string (got undefined)',
    });
  });

  it('has a row for every function faultline/testing exports', () => {
    const functions = Object.entries(testing)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]) => name)
      .sort();
    expect(Object.keys(TABLE).sort()).toEqual(functions);
  });
});
