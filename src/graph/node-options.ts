/**
 * What `addNode` accepts besides the node function (retries, a time limit, a fallback, callbacks), and the checks
 * `compile()` reports for them. The graph's builder collects the problems; nothing here throws.
 */
import { isPlainObject, preview } from '../internal/json.js';
import { retryOptionProblems, type RetryOptions } from '../internal/retry.js';
import type { NodeCallbacks } from './node-callbacks.js';
import type { State } from './state-schema.js';

/** Retries of a node (the shared backoff helpers), for the errors `retryOn` accepts. */
export interface NodeRetryPolicy extends RetryOptions {
  /** @default errors with `retryable === true` (e.g. a retryable `ChatClientError` or tool failure, a node timeout) */
  retryOn?: ((error: unknown) => boolean) | undefined;
}

/**
 * What a node's recoverable failure turns into, in one line: its failure is still recorded, then `update` is applied
 * and the run goes to `goto` (checked at `compile()`). Used by an `ExecutionErrorCollector` whenever its policy
 * recovers the failure without a replacement of its own (the default policy: errors that are `recoverable()`).
 *
 * @example
 * ```ts
 * graph.addNode('lookup_inventory', lookupInventory, {
 *   fallback: { update: { inventory_status: 'unknown' }, goto: 'ask_customer' },
 * });
 * ```
 */
export interface NodeFallback<U = State> {
  /** The state update applied instead of the node's result (the failure's record is merged into it). */
  update?: U | undefined;
  /** The next node(s), or `END`. @default the node's own edges */
  goto?: string | readonly string[] | undefined;
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

/** @internal The problems of node `id`'s options (unknown `goto` targets are found later, at `compile()`). */
export function nodeOptionProblems(id: string, options: NodeOptions<unknown>): string[] {
  const name = `node ${preview(id, 200)}`;
  const problems = retryOptionProblems(options.retry, `${name} retry`);
  if (options.retry?.retryOn !== undefined && typeof options.retry.retryOn !== 'function') problems.push(`${name} retry.retryOn must be a function`);
  const { timeoutMs, fallback } = options;
  if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !(timeoutMs > 0))) {
    problems.push(`${name} timeoutMs must be a number > 0 or Infinity (got ${String(timeoutMs)})`);
  }
  if (fallback === undefined) return problems;
  if (!isPlainObject(fallback)) {
    problems.push(`${name} fallback must be an object {update?, goto?}`);
    return problems;
  }
  if (fallback.update !== undefined && !isPlainObject(fallback.update)) problems.push(`${name} fallback.update must be a state update object`);
  const { goto } = fallback;
  const targets = typeof goto === 'string' ? [goto] : Array.isArray(goto) ? goto : undefined;
  if (goto !== undefined && (targets === undefined || targets.some((target) => typeof target !== 'string' || target === ''))) {
    problems.push(`${name} fallback.goto must be a node id, END, or a list of them`);
  }
  return problems;
}

/** @internal The `goto` targets of a fallback, as a list (none when it has no valid `goto`). */
export function fallbackTargets(fallback: NodeFallback<unknown> | undefined): string[] {
  const goto = fallback?.goto;
  if (typeof goto === 'string') return goto === '' ? [] : [goto];
  return Array.isArray(goto) ? goto.filter((target): target is string => typeof target === 'string' && target !== '') : [];
}
