/**
 * What `addNode` accepts besides the node function: retries, a time limit, a fallback, callbacks, routes. The builder
 * checks them as nodes are added (`node-option-problems.ts`) and `compile()` reports the problems.
 */
import type { RetryOptions } from '../../internal/retry.js';
import type { NodeCallbacks } from './node-callbacks.js';
import type { NodeFallback } from './node-fallback.js';
import type { State } from './state-schema.js';

/** Retries of a node (the shared backoff helpers), for the errors `retryOn` accepts. */
export interface NodeRetryPolicy extends RetryOptions {
  /** @default errors with `retryable === true` (e.g. a retryable `ChatClientError` or tool failure, a node timeout) */
  retryOn?: ((error: unknown) => boolean) | undefined;
}

/** Options of `addNode` (`U`: the graph's update type; `E`: the `ends` a typed graph checks `Command.goto` against). */
export interface NodeOptions<U = State, E extends readonly string[] = readonly string[]> {
  /** @default the node id */
  name?: string | undefined;
  /** @default 'function' */
  type?: string | undefined;
  retry?: NodeRetryPolicy | undefined;
  /**
   * Time limit of each attempt, in milliseconds (clamped to 2^31−1). When it fires, the node's `context.signal`
   * aborts and the attempt fails with a retryable `WorkflowError` of code `NODE_TIMEOUT` — even if the node ignores
   * its signal: its late result is discarded, never applied. A synchronous node cannot be interrupted.
   * @default no limit
   */
  timeoutMs?: number | undefined;
  /** The update and route that replace the node's result when its failure is recovered (see {@link NodeFallback}). */
  fallback?: NodeFallback<U> | undefined;
  callbacks?: NodeCallbacks | undefined;
  /** Nodes this node may route to with `Command.goto` (checked at compile; in a typed graph, also by type). */
  ends?: E | undefined;
}

/** The options `addAgentNode`, `addLLMNode` and `addToolsNode` share with `addNode`. */
export type NodeBehaviourOptions<U = State> = Pick<NodeOptions<U>, 'retry' | 'callbacks' | 'timeoutMs' | 'fallback'>;
