export { createA2AAgent, type A2AAgentOptions } from './a2a-agent.js';
export { buildAgentCard, endpointOf, fetchAgentCard, type AgentCardInput, type AgentEndpoint, type FetchAgentCardOptions } from './agent-card.js';
export {
  createA2AClient,
  decisionsMessage,
  isFinalStreamEvent,
  textMessage,
  type A2AClient,
  type A2AClientOptions,
  type A2ACallOptions,
  type A2AEventStream,
} from './client.js';
export {
  A2A_ERROR_MESSAGES,
  A2A_VERSION_HEADER,
  A2AErrorCode,
  A2AMethod,
  A2AMethodV1,
  AGENT_CARD_PATH,
  ErrorMetadataKey,
  FAILURE_STATES,
  FAULTLINE_METADATA_KEY,
  GENERIC_FAILURE_TEXT,
  LEGACY_AGENT_CARD_PATH,
  TASK_FAILED_INTERNALLY,
  TaskState,
  TERMINAL_STATES,
  type A2AProtocolVersion,
  type TaskStateName,
} from './constants.js';
export { decodeAgentCard, decodeMessageSendParams, decodeSendResult, decodeStreamEvent, decodeTask } from './decode.js';
export {
  base64ToText,
  defaultA2AEventConverter,
  partsText,
  responseErrorFromMetadata,
  stateDeltaFromMetadata,
  statusResponseError,
  taskInterrupts,
  type A2AConverterContext,
  type A2ATaskInterrupts,
  type A2AEventConverter,
} from './event-converter.js';
export { createA2AHandler, type A2AHandler, type A2AHandlerOptions } from './handler.js';
export { buildTaskErrorMessage, buildTaskErrorMetadata, encodeStateDeltaMetadata, errorMetadata, failureState } from './server-payloads.js';
export { InMemoryA2ATaskStore, type A2ATaskStore, type InMemoryA2ATaskStoreOptions } from './task-store.js';
export type {
  A2AMessage,
  A2AMetadata,
  A2AStreamEvent,
  AgentCard,
  AgentSkill,
  Artifact,
  DataPart,
  FilePart,
  JSONRPCErrorObject,
  JSONRPCRequest,
  JSONRPCResponse,
  MessageSendParams,
  Part,
  SendMessageResult,
  Task,
  TaskArtifactUpdateEvent,
  TaskStatus,
  TaskStatusUpdateEvent,
  TextPart,
} from './types.js';
