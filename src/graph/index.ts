export { parseGraphCheckpoint } from './checkpoints/checkpoint.js';
export type { CheckpointAnswer, CheckpointAnswers, Checkpointer, CheckpointNodeResult, CheckpointResume, GraphCheckpoint } from './core/checkpointer.js';
export { InMemoryCheckpointer, type InMemoryCheckpointerOptions } from './checkpoints/in-memory-checkpointer.js';
export { Command } from './core/command.js';
export { CompiledGraph } from './compiled-graph.js';
export type { GraphOutcome, GraphResumeOptions, GraphRunOptions } from './core/runnable-graph.js';
export {
  CHECKPOINT_FAILED,
  CHECKPOINT_INVALID,
  CHECKPOINT_NOT_FOUND,
  CHILD_RUN_SEPARATOR,
  END,
  EXECUTION_ERROR_EVENT_TYPE,
  FALLBACK_STATE_EVENT_TYPE,
  INTERRUPT_NEEDS_CHECKPOINTER,
  InterruptEventType,
  NODE_TIMEOUT,
  NodeType,
  RESUME_IN_PROGRESS,
  RUN_INTERRUPTED,
  RUN_TAKEN_OVER,
  RUN_ID_TAKEN,
  Severity,
  START,
  STATE_DELTA_EVENT_TYPE,
  STATE_KEY_EXECUTION_ERRORS,
  STATE_INVALID,
  STATE_NOT_SERIALIZABLE,
  SUBGRAPH_INTERRUPTED,
  type NodeTypeName,
  type SeverityName,
} from './core/constants.js';
export { emitCustomStateDelta, type CustomStateDeltaOptions } from './records/emit-custom-state-delta.js';
export {
  cloneExecutionError,
  createExecutionError,
  decodeExecutionErrors,
  executionErrorReducer,
  executionErrorsFromStateDelta,
  normalizeExecutionError,
  type ExecutionError,
  type ExecutionErrorOrigin,
} from './records/execution-error.js';
export {
  defaultExecutionErrorPolicy,
  ExecutionErrorCollector,
  mergeExecutionErrorReplacement,
  type ExecutionErrorCollectorOptions,
  type ExecutionErrorPolicy,
  type ExecutionErrorPolicyFunction,
} from './records/execution-error-collector.js';
export type { NodeAttemptInfo, NodeCallbacks } from './core/node-callbacks.js';
export type { NodeCallbackContext, NodeContext } from './core/node-context.js';
export { isRetryableNodeError } from './run/node-failure.js';
export { interrupt, type InterruptOptions } from './run/node-interrupt.js';
export { decodeStateDelta, encodeStateDelta, encodeStateKeys, mergeStateDelta, type EncodedState, type StateDelta } from '../runner/state-delta.js';
export { StateGraph, type CompileOptions } from './state-graph.js';
export type { GraphExtension, GraphExtensionTarget } from './core/graph-extension.js';
export type { NodeFunction, NodeResult, Router } from './core/node-function.js';
export {
  field,
  stateSchema,
  type FieldDefinitions,
  type FieldsFor,
  type StateOfFields,
  type StateOfSchema,
  type UpdateOfFields,
  type UpdateOfSchema,
} from './core/typed-state.js';
export type { NodeBehaviourOptions, NodeOptions, NodeRetryPolicy } from './core/node-options.js';
export type { NodeFallback } from './core/node-fallback.js';
export {
  messagesStateSchema,
  reducers,
  StateSchema,
  type MessagesState,
  type MessagesStateUpdate,
  type Reducer,
  type State,
  type StateField,
  type StateUpdate,
} from './core/state-schema.js';
export { SubgraphResult } from './core/subgraph-result.js';
export type { AgentNodeOptions } from './nodes/agent-node.js';
export type { SubgraphNodeOptions } from './nodes/subgraph-node.js';
export { createGraphAgent, type GraphAgent } from './graph-agent.js';
export type { GraphAgentOptions } from './nodes/graph-as-agent.js';
export type { LLMNodeOptions } from './nodes/llm-node.js';
export { pendingToolCalls, routeToolCalls, type ToolsNodeOptions } from './nodes/tools-node.js';
