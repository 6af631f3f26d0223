/** Metadata keys a graph writes into event state deltas (tRPC-Agent-Go's). */
export const NODE_METADATA_KEY = '_node_metadata';
export const NODE_CUSTOM_METADATA_KEY = '_node_custom_metadata';
export const PREGEL_METADATA_KEY = '_pregel_metadata';
export const COMPLETION_METADATA_KEY = '_completion_metadata';

/**
 * `ResponseError.code` of a state key that cannot be written as JSON (a BigInt, a cycle…): reported as its own error
 * event, while every other key still travels.
 * @example `if (event.response?.error?.code === STATE_NOT_SERIALIZABLE) fixState(event.response.error.message)`
 */
export const STATE_NOT_SERIALIZABLE = 'STATE_NOT_SERIALIZABLE';

/**
 * Wire strings of the event model (tRPC-Agent-Go's, decisions.md point 1). Never retype these literals elsewhere.
 * @example `if (event.response?.object === ObjectType.GraphNodeError) log(event)`
 */
export const ObjectType = /* @__PURE__ */ Object.freeze({
  /** A terminal error event (`event.NewErrorEvent`). */
  Error: 'error',
  /** The one event that ends every runner run. */
  RunnerCompletion: 'runner.completion',
  /** A complete assistant answer. */
  ChatCompletion: 'chat.completion',
  /** A streamed piece of an assistant answer. */
  ChatCompletionChunk: 'chat.completion.chunk',
  /** A tool's answer inside an agent run. */
  ToolResponse: 'tool.response',
  GraphNodeStart: 'graph.node.start',
  GraphNodeComplete: 'graph.node.complete',
  GraphNodeError: 'graph.node.error',
  GraphNodeCustom: 'graph.node.custom',
  /** The normal-completion snapshot of a graph run (its final state as `stateDelta`). */
  GraphExecution: 'graph.execution',
  /** Executor step events; with `stepNumber: -1` it carries a graph's terminal failure. */
  GraphPregelStep: 'graph.pregel.step',
} as const);

/**
 * `stateDelta` keys that carry graph metadata, never business state; the runner drops them from fallback state.
 * @see seed-systems.md §1.1
 * @example `Object.keys(delta).filter((key) => !METADATA_STATE_KEYS.has(key))`
 */
export const METADATA_STATE_KEYS: ReadonlySet<string> = new Set([
  NODE_METADATA_KEY,
  '_node_emitter',
  PREGEL_METADATA_KEY,
  '_channel_metadata',
  '_state_metadata',
  COMPLETION_METADATA_KEY,
  '_tool_metadata',
  '_model_metadata',
  '_checkpoint_metadata',
  '_cache_hit',
  NODE_CUSTOM_METADATA_KEY,
]);
