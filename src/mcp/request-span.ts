/**
 * @internal An MCP request's span: the telemetry's own (`Telemetry.mcpClient`, `telemetry/mcp-client-tracing.ts`),
 * its `traceparent` sent with the request; a failed request fails it.
 */
import { NO_SPAN } from '../telemetry/no-telemetry.js';
import type { SpanHandle, Telemetry } from '../telemetry/telemetry.js';

/**
 * The span of one request to `endpoint`: the telemetry's MCP client tracing (`openTelemetry` sets it), or the inert span
 * when there is none — so an app without telemetry bundles no span code.
 * @example `const span = mcpRequestSpan(telemetry, 'tools/call', { name: 'get_weather' }, url, sessionId)`
 */
export function mcpRequestSpan(telemetry: Telemetry | undefined, method: string, params: unknown, endpoint: string, sessionId: string | undefined): SpanHandle {
  return telemetry?.mcpClient?.(method, params, endpoint, sessionId) ?? NO_SPAN;
}

/** Ends the span with the request: failed when it rejects. */
export function traceRequest<T>(span: SpanHandle, request: Promise<T>): Promise<T> {
  return request.then(
    (value) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      span.fail(error);
      span.end();
      throw error;
    },
  );
}
