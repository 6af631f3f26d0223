export type {
  FaultlineCircuitData,
  FaultlineCompletionData,
  FaultlineDataParts,
  FaultlineErrorData,
  FaultlineErrorScope,
  FaultlineFallbackData,
  FaultlineInterruptData,
  FaultlineMessageMetadata,
  FaultlineReasoningMetadata,
  FaultlineRecordData,
  FaultlineRetryData,
} from './data-parts.js';
export { toUIMessageStream, type UIMessageStreamSource } from './to-ui-message-stream.js';
export { toUIMessageStreamResponse, type UIMessageStreamResponseOptions } from './to-ui-message-stream-response.js';
export { UI_MESSAGE_STREAM_HEADERS } from './ui-message-stream-headers.js';
export { DEFAULT_MAX_BUFFERED_BYTES, type UIMessageStreamOptions } from './ui-message-stream-options.js';
export { faultlineErrors } from './faultline-errors.js';
export { faultlineInterrupts } from './faultline-interrupts.js';
export * from './history-exports.js';
