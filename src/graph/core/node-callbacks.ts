import type { NodeCallbackContext } from './node-context.js';
import type { State } from './state-schema.js';

/**
 * @internal Marks the `afterNode` function of an `ExecutionErrorCollector`'s callbacks with the state key it records
 * into (on the function, so a `{ ...callbacks }` copy keeps it), so `compile()` can tell a collector that is half
 * wired (callbacks without their field, or a field without its callbacks).
 */
export const COLLECTOR_STATE_KEY = Symbol('faultline.graph.collectorStateKey');

/** @internal The state key of a collector's callbacks, if these are a collector's. */
export function collectorStateKey(callbacks: NodeCallbacks | undefined): string | undefined {
  const afterNode = callbacks?.afterNode as { [COLLECTOR_STATE_KEY]?: unknown } | undefined;
  const key = afterNode?.[COLLECTOR_STATE_KEY];
  return typeof key === 'string' ? key : undefined;
}

/** What `onNodeError` learns about the failed attempt. */
export interface NodeAttemptInfo {
  attempt: number;
  /** Whether the retry policy will try again. */
  willRetry: boolean;
}

/**
 * Hooks around node execution (tRPC's node callbacks). Install per node (`addNode(…, {callbacks})`) or for the whole
 * graph (`withNodeCallbacks`). Order: `beforeNode` and `onNodeError` run global first; `afterNode` runs per-node
 * first, then global (seed-systems §1.11).
 *
 * @example
 * ```ts
 * graph.withNodeCallbacks({
 *   onNodeError: (context, _state, error, { attempt, willRetry }) => metrics.count(context.nodeId, attempt, willRetry),
 *   afterNode: (context, _state, result, error) => (error && isRecoverable(error) ? { degraded: true } : undefined),
 * });
 * ```
 */
export interface NodeCallbacks {
  /** Before the node runs; returning a value other than `undefined` skips the node and uses that value as its result. */
  beforeNode?: (context: NodeCallbackContext, state: State) => unknown;
  /**
   * After the node's final attempt, with its result and error (`undefined` on success). Returning a value other than
   * `undefined`/`null` overrides: the result is replaced and the error cleared for the remaining callbacks, so a
   * failed node is recovered. Throwing fails the node with the throw as its cause (a failure it had kept in view: its
   * message and `code`), and the callbacks after it see that failure, so a collector among them records it.
   */
  afterNode?: (context: NodeCallbackContext, state: State, result: unknown, error: unknown) => unknown;
  /** On every failed attempt, retries included (observation only; throwing fails the node, not retried, as `afterNode`'s throw does). */
  onNodeError?: (context: NodeCallbackContext, state: State, error: unknown, info: NodeAttemptInfo) => unknown;
}
