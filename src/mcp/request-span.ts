/**
 * @internal The MCP client's spans: one `client` span per request (`mcp.method.name`, the tool of a `tools/call`, the
 * session, the server), its `traceparent` sent with the request; a failed request fails it.
 */
import { CommonAttribute, GenAIAttribute, GenAIOperation, MCPAttribute, mcpSpanName } from '../telemetry/attributes.js';
import { NO_TELEMETRY, serverAddressOf } from '../telemetry/no-telemetry.js';
import type { SpanHandle, Telemetry } from '../telemetry/telemetry.js';

/** The span of one request to `endpoint` (the URL as shown: its host is the span's `server.address`). */
export function mcpRequestSpan(telemetry: Telemetry | undefined, method: string, params: unknown, endpoint: string, sessionId: string | undefined): SpanHandle {
  if (!telemetry) return NO_TELEMETRY.startSpan(method);
  const tool = method === 'tools/call' && typeof (params as { name?: unknown } | undefined)?.name === 'string' ? (params as { name: string }).name : undefined;
  const host = serverAddressOf(endpoint);
  return telemetry.startSpan(mcpSpanName(method, tool), {
    kind: 'client',
    attributes: {
      [MCPAttribute.MethodName]: method,
      [MCPAttribute.SessionId]: sessionId,
      [GenAIAttribute.ToolName]: tool,
      [GenAIAttribute.OperationName]: tool === undefined ? undefined : GenAIOperation.ExecuteTool,
      [CommonAttribute.ServerAddress]: host,
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
