/**
 * @internal The MCP client's spans: one `client` span per request (`mcp.method.name`, the tool of a `tools/call`, the
 * session, the server), its `traceparent` sent with the request; a failed request fails it.
 */
import { GEN_AI_OPERATION_EXECUTE_TOOL, GEN_AI_OPERATION_NAME, GEN_AI_TOOL_NAME, MCP_METHOD_NAME, MCP_SESSION_ID, SERVER_ADDRESS } from '../telemetry/attribute-names.js';
import { mcpSpanName } from '../telemetry/span-names.js';
import { NO_SPAN, serverAddressOf, traces } from '../telemetry/no-telemetry.js';
import type { SpanHandle, Telemetry } from '../telemetry/telemetry.js';

/** The span of one request to `endpoint` (the URL as shown: its host is the span's `server.address`). */
export function mcpRequestSpan(telemetry: Telemetry | undefined, method: string, params: unknown, endpoint: string, sessionId: string | undefined): SpanHandle {
  if (!traces(telemetry)) return NO_SPAN;
  const tool = method === 'tools/call' && typeof (params as { name?: unknown } | undefined)?.name === 'string' ? (params as { name: string }).name : undefined;
  const host = serverAddressOf(endpoint);
  return telemetry.startSpan(mcpSpanName(method, tool), {
    kind: 'client',
    attributes: {
      [MCP_METHOD_NAME]: method,
      [MCP_SESSION_ID]: sessionId,
      [GEN_AI_TOOL_NAME]: tool,
      [GEN_AI_OPERATION_NAME]: tool === undefined ? undefined : GEN_AI_OPERATION_EXECUTE_TOOL,
      [SERVER_ADDRESS]: host,
    },
  });
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
