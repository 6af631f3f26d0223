// A broken tracer, span, processor or exporter never breaks the caller: the failing OTel call is skipped (and
// reported to onError), everything else goes on.
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { isTelemetry, NO_TELEMETRY, openTelemetry, type OTelSpan, type OTelTracer } from '../../src/telemetry/index.js';
import { otel, record } from './otel-sdk.js';

const boom = () => {
  throw new Error('otel is broken');
};

function throwingSpan(): OTelSpan {
  return {
    spanContext: boom,
    setAttribute: boom,
    setAttributes: boom,
    addEvent: boom,
    setStatus: boom,
    end: boom,
    isRecording: boom,
  } as unknown as OTelSpan;
}

/** Every method of a span handle, called the way instrumented code calls them. */
function exercise(telemetry: ReturnType<typeof openTelemetry>): unknown {
  const span = telemetry.startSpan('s', { kind: 'client', attributes: { a: 'b' } });
  span.setAttributes({ a: 1 });
  span.addEvent('faultline.retry', { 'faultline.retry.attempt': 2 });
  span.fail(new Error('failed'));
  const header = span.traceparent();
  const value = span.run(() => 'ran');
  span.end();
  span.end();
  const child = telemetry.startSpan('child', { parent: span });
  child.end();
  return { header, value };
}

describe('a broken OpenTelemetry', () => {
  it('never throws to the caller when tracer.startSpan throws, and reports it', () => {
    const reported: unknown[] = [];
    const tracer: OTelTracer = { startSpan: boom };
    const telemetry = openTelemetry(otel, { tracer, onError: (error) => reported.push(error) });
    expect(exercise(telemetry)).toEqual({ header: undefined, value: 'ran' });
    expect(reported.length).toBeGreaterThan(0);
  });

  it('never throws when every span method throws (a span that throws on end included)', () => {
    const reported: unknown[] = [];
    const telemetry = openTelemetry(otel, { tracer: { startSpan: () => throwingSpan() }, onError: (error) => reported.push(error) });
    expect(exercise(telemetry)).toEqual({ header: undefined, value: 'ran' });
    expect(reported.every((error) => (error as Error).message === 'otel is broken')).toBe(true);
  });

  it('never throws when only end() throws, and still records the rest', () => {
    const calls: string[] = [];
    const span = { ...throwingSpan(), isRecording: () => true, setAttributes: () => calls.push('setAttributes'), setStatus: () => calls.push('setStatus'), end: boom };
    const telemetry = openTelemetry(otel, { tracer: { startSpan: () => span as OTelSpan } });
    const handle = telemetry.startSpan('s');
    handle.setAttributes({ a: 1 });
    expect(() => handle.end()).not.toThrow();
    expect(calls).toEqual(['setAttributes']); // no status on success: UNSET
  });

  it('never throws when the tracer returns something that is not a span', () => {
    for (const returned of [undefined, null, 42, {}]) {
      const telemetry = openTelemetry(otel, { tracer: { startSpan: () => returned as never } });
      expect(() => exercise(telemetry)).not.toThrow();
    }
  });

  it('never throws when the exporter throws on export (the SDK processor path)', () => {
    const exporter: SpanExporter = {
      export: boom as never,
      shutdown: () => Promise.resolve(),
    };
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const telemetry = openTelemetry(otel, { tracer: provider.getTracer('x') });
    expect(exercise(telemetry)).toMatchObject({ value: 'ran' });
  });

  it('never throws when onError itself throws', () => {
    const telemetry = openTelemetry(otel, { tracer: { startSpan: boom }, onError: boom });
    expect(() => exercise(telemetry)).not.toThrow();
  });

  it('never throws when context.active throws (the span becomes a root span)', () => {
    const api = { ...otel, context: { active: boom, with: otel.context.with.bind(otel.context) } };
    const telemetry = openTelemetry(api as never, { tracer: { startSpan: () => throwingSpan() } });
    expect(() => exercise(telemetry)).not.toThrow();
  });
});

describe('NO_TELEMETRY', () => {
  it('is inert: spans record nothing, run() runs fn, no traceparent, no content', () => {
    const span = NO_TELEMETRY.startSpan('s', { kind: 'client', attributes: { a: 1 } });
    expect(NO_TELEMETRY.recordContent).toBe(false);
    expect(span.run(() => 42)).toBe(42);
    expect(span.traceparent()).toBeUndefined();
    expect(() => {
      span.setAttributes({ a: 1 });
      span.addEvent('e');
      span.fail(new Error('x'));
      span.end();
      span.end();
    }).not.toThrow();
  });

  it('returns one shared frozen span (nothing allocated per call)', () => {
    const first = NO_TELEMETRY.startSpan('a');
    expect(NO_TELEMETRY.startSpan('b')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(NO_TELEMETRY)).toBe(true);
  });

  it('as a parent, leaves the span to the active context', () => {
    const { telemetry, span } = record();
    telemetry.startSpan('child', { parent: NO_TELEMETRY.startSpan('none') }).end();
    expect(span('child').parentSpanContext).toBeUndefined();
  });
});

describe('isTelemetry', () => {
  it('accepts NO_TELEMETRY, openTelemetry(), and any object with startSpan and a boolean recordContent', () => {
    expect(isTelemetry(NO_TELEMETRY)).toBe(true);
    expect(isTelemetry(record().telemetry)).toBe(true);
    expect(isTelemetry({ startSpan() {}, recordContent: true })).toBe(true);
  });

  it('refuses anything else without throwing', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    for (const value of [undefined, null, 1, 'telemetry', {}, { startSpan() {} }, { startSpan: 1, recordContent: false }, otel, proxy])
      expect(isTelemetry(value)).toBe(false);
  });
});
