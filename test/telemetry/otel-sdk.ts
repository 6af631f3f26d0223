// The real OpenTelemetry SDK (v2) wired for tests: an in-memory exporter behind a simple (synchronous) processor, and
// a tracer passed explicitly to openTelemetry(), so no global provider is registered and tests do not interfere.
import * as otel from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { openTelemetry, type OpenTelemetryOptions, type Telemetry } from '../../src/telemetry/index.js';

export interface Recorder {
  telemetry: Telemetry;
  /** The spans ended so far, in the order they ended. */
  spans(): ReadableSpan[];
  /** The one ended span with this name. */
  span(name: string): ReadableSpan;
}

export function record(options: Omit<OpenTelemetryOptions, 'tracer'> = {}): Recorder {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const telemetry = openTelemetry(otel, { ...options, tracer: provider.getTracer('faultline-test') });
  const spans = () => exporter.getFinishedSpans();
  const span = (name: string) => {
    const found = spans().filter((each) => each.name === name);
    if (found.length !== 1) throw new Error(`expected one span named ${JSON.stringify(name)}, found ${found.length}`);
    return found[0]!;
  };
  return { telemetry, spans, span };
}

/** Everything of an exported span that leaves the process, as one string. */
export function exported(span: ReadableSpan): string {
  return JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events, status: span.status, links: span.links });
}

export { otel };
