/**
 * What a node's failure is: whether its policy retries it by default, what a throw of nothing becomes, and a throwing
 * callback's failure with the node's own kept in view.
 */
import { toResponseError } from '../../errors/response-error.js';
import { WorkflowError } from '../../errors/workflow-error.js';
import { messageOf, read } from '../../internal/error-chain.js';
import type { GraphNode } from '../core/graph-description.js';

/**
 * The default `retryOn` of node retry policies: anything that says `retryable: true` (a retryable
 * `ChatClientError`, a retryable tool failure, your own errors).
 * @example `graph.addNode('fetch', fetchNode, { retry: { maxAttempts: 3, retryOn: (error) => isRetryableNodeError(error) || isTimeout(error) } })`
 */
export function isRetryableNodeError(error: unknown): boolean {
  return read(error, 'retryable') === true;
}

/**
 * @internal A node callback's throw as the node's failure: the callback's error as its cause, and the node's own
 * failure, if it had one, kept in view (its message, its `code`).
 */
export function callbackFailure(node: GraphNode, step: number, callback: string, thrown: unknown, failure: unknown): WorkflowError {
  const during = failure === undefined ? '' : ` (while handling the node's failure: ${messageOf(failure)})`;
  return new WorkflowError(`the ${callback} callback failed: ${messageOf(thrown)}${during}`, {
    nodeId: node.id,
    stepNumber: step,
    code: failure === undefined ? undefined : toResponseError(failure)?.code,
    cause: thrown,
  });
}

/** @internal What a node threw, as its failure: a thrown null/undefined still is one, given a shape the collector records. */
export function failureOf(node: GraphNode, step: number, caught: unknown): unknown {
  return caught ?? new WorkflowError(`the node threw ${String(caught)}`, { nodeId: node.id, stepNumber: step });
}
