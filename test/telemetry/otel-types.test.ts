// The structural types of src/telemetry/otel-types.ts against the installed @opentelemetry/api: the real module
// object must be accepted as it is (checked by `tsc -p tsconfig.test.json`, run here too).
import * as otel from '@opentelemetry/api';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { openTelemetry, type OTelAPI, type OTelSpan, type OTelTracer, type Telemetry } from '../../src/telemetry/index.js';

describe('the structural OpenTelemetry types', () => {
  it('accept the real @opentelemetry/api module', () => {
    const telemetry: Telemetry = openTelemetry(otel);
    expect(telemetry.recordContent).toBe(false);
    expectTypeOf(otel).toExtend<OTelAPI>();
    const api: OTelAPI = otel;
    expect(api.trace).toBe(otel.trace);
  });

  it('accept a real tracer and span', () => {
    const tracer: OTelTracer = otel.trace.getTracer('x');
    const span: OTelSpan = tracer.startSpan('s');
    span.end();
    expectTypeOf<otel.Tracer>().toExtend<OTelTracer>();
    expectTypeOf<otel.Span>().toExtend<OTelSpan>();
    expect(() => openTelemetry(otel, { tracer })).not.toThrow();
  });

  it('refuse what is not the API', () => {
    // @ts-expect-error — a tracer is not the API module
    expect(() => openTelemetry(otel.trace.getTracer('x'))).toThrow();
    // @ts-expect-error — recordContent is a boolean
    expect(() => openTelemetry(otel, { recordContent: 'yes' })).toThrow();
  });
});
