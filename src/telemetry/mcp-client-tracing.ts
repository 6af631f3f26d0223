/**
 * @internal The MCP client's spans, reached only through the telemetry object (`Telemetry.mcpClient`, set by
 * `openTelemetry`): an app that passes no telemetry bundles none of this. One `client` span per request
 * (`mcp.method.name`, the tool of a `tools/call`, the session, the server); the transport sends its `traceparent` with
 * the request and fails it when the request fails.
 */
import { GEN_AI_OPERATION_EXECUTE_TOOL, GEN_AI_OPERATION_NAME, GEN_AI_TOOL_NAME, MCP_METHOD_NAME, MCP_SESSION_ID, SERVER_ADDRESS } from './attribute-names.js';
import { mcpSpanName } from './span-names.js';
import { serverAddressOf } from './no-telemetry.js';
import type { MCPClientTracing, Telemetry } from './telemetry.js';

/**
 * The MCP client tracing of `telemetry` (what `openTelemetry` puts on its telemetry as `mcpClient`): the span of one
 * request to `endpoint` (the URL as shown: its host is the span's `server.address`).
 * @example `const span = mcpClientTracing(telemetry)('tools/call', { name: 'get_weather' }, 'https://tools.example/mcp', undefined)`
 */
export function mcpClientTracing(telemetry: Pick<Telemetry, 'startSpan'>): MCPClientTracing {
  return (method, params, endpoint, sessionId) => {
    const tool = method === 'tools/call' && typeof (params as { name?: unknown } | undefined)?.name === 'string' ? (params as { name: string }).name : undefined;
    return telemetry.startSpan(mcpSpanName(method, tool), {
      kind: 'client',
      attributes: {
        [MCP_METHOD_NAME]: method,
        [MCP_SESSION_ID]: sessionId,
        [GEN_AI_TOOL_NAME]: tool,
        [GEN_AI_OPERATION_NAME]: tool === undefined ? undefined : GEN_AI_OPERATION_EXECUTE_TOOL,
        [SERVER_ADDRESS]: serverAddressOf(endpoint),
      },
    });
  };
}
