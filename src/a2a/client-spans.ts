/**
 * @internal The A2A client's spans, as the client sees them: whatever `telemetry.a2aClient` does
 * (telemetry/a2a-client-tracing.ts, set by `openTelemetry`), nothing without it — so an app without telemetry bundles
 * no tracing code.
 */
import type { SpanHandle, Telemetry } from '../telemetry/telemetry.js';

/** One traced call: `span` (when traced) and the result hook. */
export interface CallTrace {
  span: SpanHandle | undefined;
  result(value: unknown): void;
}

/** Starts the span of one A2A call to `url` (nothing when `telemetry` has no A2A client tracing). */
export function a2aCallTrace(telemetry: Telemetry | undefined, operation: string, method: string, url: string): CallTrace {
  const tracing = telemetry?.a2aClient;
  const span = tracing?.start(operation, method, url);
  return { span, result: (value) => span && tracing?.result(span, value) };
}
