export {
  A2AAttribute,
  a2aSpanName,
  agentSpanName,
  chatSpanName,
  CommonAttribute,
  ERROR_TYPE_OTHER,
  FaultlineAttribute,
  GenAIAttribute,
  GenAIOperation,
  GenAIToolType,
  graphNodeSpanName,
  MCPAttribute,
  mcpSpanName,
  RPC_SYSTEM_JSONRPC,
  TelemetryEvent,
  toolSpanName,
  workflowSpanName,
} from './attributes.js';
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
