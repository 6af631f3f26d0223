export { ERROR_TYPE_OTHER, RPC_SYSTEM_JSONRPC } from './attribute-names.js';
export { A2AAttribute, CommonAttribute, FaultlineAttribute, GenAIAttribute, GenAIOperation, GenAIToolType, MCPAttribute, TelemetryEvent } from './attributes.js';
export { a2aSpanName, agentSpanName, chatSpanName, graphNodeSpanName, mcpSpanName, toolSpanName, workflowSpanName } from './span-names.js';
export { errorTypeOf } from './error-type.js';
export { isTelemetry, NO_TELEMETRY } from './no-telemetry.js';
export { openTelemetry, type OpenTelemetryOptions } from './open-telemetry.js';
export type {
  OTelAPI,
  OTelAttributes,
  OTelAttributeValue,
  OTelContext,
  OTelContextAPI,
  OTelSpan,
  OTelSpanContext,
  OTelSpanOptions,
  OTelSpanStatus,
  OTelTraceAPI,
  OTelTracer,
} from './otel-types.js';
export type { SpanAttributes, SpanHandle, SpanKindName, StartSpanOptions, Telemetry } from './telemetry.js';
export { formatTraceparent, parseTraceparent, type TraceParent } from './traceparent.js';
