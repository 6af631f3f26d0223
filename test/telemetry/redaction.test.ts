// Nothing secret leaves through a span: a planted secret (given in `secrets`) and a credential-shaped token (not
// given) are put everywhere a caller can put text — span names, attributes, array attributes, event names and
// attributes, failure messages, error types, attribute keys — and every exported span is searched for them.
import { describe, expect, it } from 'vitest';
import { ChatClientError } from '../../src/errors/chat-client-error.js';
import { NetworkError } from '../../src/tools/network-error.js';
import { ToolFailure } from '../../src/tools/tool-failure.js';
import { truncate } from '../../src/internal/json.js';
import { redactText } from '../../src/internal/redact.js';
import { openTelemetry } from '../../src/telemetry/index.js';
import { cleanText, MIN_REDACTION_MARGIN, redactionMargin } from '../../src/telemetry/sanitize.js';
import { exported, otel, record } from './otel-sdk.js';

const PLANTED = 'sk-live-PLANTED-0123456789abcdef';
const BEARER = 'Bearer Zx9kQ2mW7pL4vN8rT1yB6cH3';
const BEARER_TOKEN = 'Zx9kQ2mW7pL4vN8rT1yB6cH3';
/** A secret that does not look like a credential at all: only the `secrets` list can catch it. */
const PLAIN_SECRET = 'correct horse battery staple';

function leaks(text: string): string[] {
  const found: string[] = [];
  for (const [label, needle] of [
    ['planted secret', PLANTED],
    ['bearer token', BEARER_TOKEN],
    ['plain secret', PLAIN_SECRET],
    ['planted secret base64', btoa(PLANTED)],
    ['planted secret URL-encoded', encodeURIComponent(`x ${PLAIN_SECRET}`).slice(4)],
  ] as const)
    if (text.includes(needle)) found.push(label);
  return found;
}

describe('redaction of everything recorded', () => {
  it('lets a planted secret and a bearer token appear in no exported span field', () => {
    const { telemetry, spans } = record({ secrets: [PLANTED, PLAIN_SECRET] });
    const text = `key ${PLANTED}, header ${BEARER}, phrase ${PLAIN_SECRET}`;
    const root = telemetry.startSpan(`chat ${PLANTED} ${BEARER}`, {
      attributes: { 'gen_ai.request.model': text, [`key.${PLANTED}`]: 'in the key', plain: PLAIN_SECRET },
    });
    root.setAttributes({
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', content: text }]),
      'gen_ai.response.finish_reasons': [PLANTED, BEARER, 'stop', PLAIN_SECRET],
      'encoded.base64': `Basic ${btoa(PLANTED)}`,
      'encoded.url': `https://example.test/?q=${encodeURIComponent(PLAIN_SECRET)}`,
    });
    root.addEvent(`faultline.retry ${PLANTED}`, { 'faultline.retry.reason': text, list: [text, text] });
    root.fail(new ChatClientError(`Upstream said: invalid key ${PLANTED} (sent ${BEARER}); ${PLAIN_SECRET}`));
    root.end();

    const child = telemetry.startSpan('execute_tool search', { parent: root });
    child.fail(new NetworkError(`could not reach https://api.test with ${BEARER}`), { type: `Type${PLANTED}` });
    child.end();

    const thrown = telemetry.startSpan('thrown string');
    thrown.fail(`raw ${PLANTED} ${BEARER} ${PLAIN_SECRET}`);
    thrown.end();

    const plain = telemetry.startSpan('plain object error');
    plain.fail({ type: 'ToolExecutionFailed', message: `tool said ${PLANTED}` });
    plain.end();

    expect(spans()).toHaveLength(4);
    for (const span of spans()) expect(leaks(exported(span)), span.name).toEqual([]);
    // the recorded text still says what happened, with the secrets masked
    const chat = spans().find((span) => span.name.startsWith('chat '))!;
    expect(chat.name).toBe('chat [REDACTED] Bearer [REDACTED]');
    expect(chat.status.message).toBe('Upstream said: invalid key [REDACTED] (sent Bearer [REDACTED]); [REDACTED]');
    expect(chat.attributes['gen_ai.response.finish_reasons']).toEqual(['[REDACTED]', 'Bearer [REDACTED]', 'stop', '[REDACTED]']);
    expect(chat.attributes['key.[REDACTED]']).toBe('in the key');
  });

  it('cleans the error.type a failed span derives from its error (a failure type, a plain error, an error name)', () => {
    const { telemetry, spans } = record({ secrets: [PLANTED, PLAIN_SECRET] });
    const token = `ghp_${'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'}`; // credential-shaped, not configured
    const fails: unknown[] = [new ToolFailure(PLANTED, 'quota'), { type: PLANTED, message: 'x' }, Object.assign(new Error('m'), { name: token })];
    fails.forEach((error, index) => {
      const handle = telemetry.startSpan(`failed ${index}`);
      handle.fail(error);
      handle.end();
    });
    expect(spans().map((span) => span.attributes['error.type'])).toEqual(['[REDACTED]', '[REDACTED]', '[REDACTED]']);
    for (const span of spans()) expect([...leaks(exported(span)), ...(exported(span).includes(token) ? ['token'] : [])], span.name).toEqual([]);
  });

  it('never calls span.recordException with the raw error (no stack leaves the process)', () => {
    const { telemetry, spans } = record();
    const error = new Error('with a stack');
    const handle = telemetry.startSpan('s');
    handle.fail(error);
    handle.end();
    const text = exported(spans()[0]!);
    expect(text).not.toContain('exception.stacktrace');
    expect(text).not.toContain(error.stack!.split('\n')[1]!.trim());
  });
});

describe('bounds and value cleaning', () => {
  it('truncates string attributes to 1,000 characters and status messages to 2,000 by default', () => {
    const { telemetry, span } = record();
    const handle = telemetry.startSpan('long');
    handle.setAttributes({ long: 'a'.repeat(5000), list: ['b'.repeat(5000)] });
    handle.addEvent('e', { long: 'c'.repeat(5000) });
    handle.fail(new Error('d'.repeat(5000)));
    handle.end();
    const long = span('long');
    expect((long.attributes.long as string).length).toBe(1000);
    expect((long.attributes.list as string[])[0]!.length).toBe(1000);
    expect((long.events[0]!.attributes!.long as string).length).toBe(1000);
    expect(long.status.message!.length).toBe(2000);
    expect((long.events[1]!.attributes!['exception.message'] as string).length).toBe(1000);
  });

  it('honours maxAttributeLength and maxStatusMessageLength', () => {
    const { telemetry, span } = record({ maxAttributeLength: 10, maxStatusMessageLength: 20 });
    const handle = telemetry.startSpan('s');
    handle.setAttributes({ text: 'x'.repeat(100) });
    handle.fail(new Error('y'.repeat(100)));
    handle.end();
    expect(span('s').attributes.text).toBe(`${'x'.repeat(9)}…`);
    expect(span('s').status.message).toBe(`${'y'.repeat(19)}…`);
  });

  it('keeps a short value within maxAttributeLength when its mask is longer than what it hides (first read and cached)', () => {
    const { telemetry, span } = record({ secrets: ['abcd'], maxAttributeLength: 8 });
    const handle = telemetry.startSpan('s');
    handle.setAttributes({ first: 'abcd abc' });
    handle.setAttributes({ again: 'abcd abc' });
    handle.end();
    expect([span('s').attributes.first, span('s').attributes.again]).toEqual(['[REDACT…', '[REDACT…']);
  });

  it('cuts span names at 256 characters and arrays at 128 elements', () => {
    const { telemetry, spans } = record();
    const handle = telemetry.startSpan('n'.repeat(1000));
    handle.setAttributes({ many: Array.from({ length: 500 }, (_, index) => index) });
    handle.end();
    expect(spans()[0]!.name.length).toBe(256);
    expect(spans()[0]!.attributes.many).toHaveLength(128);
  });

  it('still redacts a secret that straddles the truncation point of a huge value', () => {
    const { telemetry, span } = record({ secrets: [PLANTED], maxAttributeLength: 100 });
    const handle = telemetry.startSpan('s');
    const huge = `${'z'.repeat(90)}${PLANTED}${'z'.repeat(1_000_000)}`;
    handle.setAttributes({ huge, bearer: `${'z'.repeat(95)}${BEARER}${'z'.repeat(1_000_000)}` });
    handle.end();
    expect(span('s').attributes.huge).toBe(`${'z'.repeat(90)}[REDACTED…`);
    expect(leaks(exported(span('s')))).toEqual([]);
  });

  it('gives the same result as redacting the whole text, for huge values with secrets around the cut', () => {
    const long = 'L'.repeat(20_000); // longer than the minimum margin: the margin grows with it
    const medium = `m-${'q'.repeat(98)}`;
    const cases: Array<{ secrets: string[]; text: string; limit: number }> = [
      { secrets: [long], text: `${'z'.repeat(40)}${long}${'z'.repeat(100_000)}`, limit: 50 },
      { secrets: [long, PLANTED], text: `${long}${'z'.repeat(30)}${PLANTED}${'z'.repeat(20_000)}`, limit: 50 },
      // masking shrinks the window by far more than half the margin: the whole text is redacted instead
      { secrets: [medium, PLANTED], text: `${medium.repeat(300)}${PLANTED}${'z'.repeat(50_000)}`, limit: 5_000 },
      { secrets: [PLANTED], text: `${'z'.repeat(16_000)}${PLANTED}${'z'.repeat(50_000)}`, limit: 16_000 },
      { secrets: [], text: `${'z'.repeat(990)}${BEARER}${'z'.repeat(50_000)}`, limit: 1_000 },
    ];
    for (const { secrets, text, limit } of cases) {
      const limits = { secrets, maxAttributeLength: limit, redactionMargin: redactionMargin(secrets) };
      expect(cleanText(text, limits, limit)).toBe(truncate(redactText(text, secrets), limit));
    }
    expect(redactionMargin([])).toBe(MIN_REDACTION_MARGIN);
    expect(redactionMargin([long])).toBeGreaterThan(5 * 20_000);
  });

  it('drops undefined values, non-finite numbers, mixed arrays and values that are not attributes', () => {
    const { telemetry, span } = record();
    const handle = telemetry.startSpan('s');
    handle.setAttributes({
      kept: 1,
      flag: false,
      empty: '',
      none: undefined,
      nan: Number.NaN,
      infinite: Number.POSITIVE_INFINITY,
      mixed: [1, 'one'] as never,
      object: { nested: true } as never,
      fn: (() => 1) as never,
      big: 10n as never,
      numbers: [1, Number.NaN, 2, Number.NEGATIVE_INFINITY],
      holes: ['a', undefined, null, 'b'] as never,
      booleans: [true, false],
      emptyList: [],
    });
    handle.end();
    expect(span('s').attributes).toEqual({ kept: 1, flag: false, empty: '', numbers: [1, 2], holes: ['a', 'b'], booleans: [true, false], emptyList: [] });
  });

  it('survives hostile attribute objects: throwing getters and revoked proxies', () => {
    const { telemetry, span } = record();
    const handle = telemetry.startSpan('s');
    const hostile = Object.defineProperty({ fine: 'yes' }, 'bad', {
      enumerable: true,
      get() {
        throw new Error('getter');
      },
    });
    const { proxy, revoke } = Proxy.revocable({ a: 1 }, {});
    revoke();
    expect(() => handle.setAttributes(hostile as never)).not.toThrow();
    expect(() => handle.setAttributes(proxy as never)).not.toThrow();
    expect(() => handle.setAttributes(null as never)).not.toThrow();
    expect(() => handle.addEvent('e', 'not an object' as never)).not.toThrow();
    expect(() => handle.fail(proxy)).not.toThrow();
    handle.end();
    expect(span('s').attributes).toMatchObject({ fine: 'yes' });
  });

  it('skips the cleaning work of a span that is not recording (sampled out), and still gives its traceparent', () => {
    const calls: string[] = [];
    const sampledOut = {
      spanContext: () => ({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 0 }),
      setAttribute: () => calls.push('setAttribute'),
      setAttributes: () => calls.push('setAttributes'),
      addEvent: () => calls.push('addEvent'),
      setStatus: () => calls.push('setStatus'),
      end: () => calls.push('end'),
      isRecording: () => false,
    };
    const handle = openTelemetry(otel, { tracer: { startSpan: () => sampledOut } }).startSpan('s');
    handle.setAttributes({ a: 'b' });
    handle.addEvent('e', { a: 'b' });
    handle.fail(new Error('x'));
    expect(handle.traceparent()).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00');
    handle.end();
    expect(calls).toEqual(['end']);
  });
});
