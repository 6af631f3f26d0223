/**
 * @internal The attempts of one node step: each within its time limit (a node that ignores its signal still ends at
 * it), raced against the run's abort, retried by the node's policy with its backoff (each retry an `onNodeError`
 * call, a `graph.node.error` event and an event on the node's span).
 */
import { abortPromise, delay } from '../internal/delay.js';
import { backoffDelay } from '../internal/retry.js';
import { ObjectType } from '../runner/constants.js';
import type { SpanHandle } from '../telemetry/telemetry.js';
import type { CompiledNode } from './compiled-graph.js';
import { EXECUTION, type NodeCallbackContext, type NodeContext } from './node-context.js';
import { isRetryableNodeError, metadataTail, nodeEvent, type RunScope } from './node-runner.js';
import { traceNodeRetry } from './node-span.js';
import { NodeTimer } from './node-timer.js';
import type { State } from './state-schema.js';

export async function attempts(
  scope: RunScope,
  node: CompiledNode,
  context: NodeCallbackContext,
  state: State,
  onAttempt: (attempt: number) => void,
  span: SpanHandle,
): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    scope.signal?.throwIfAborted();
    onAttempt(attempt);
    try {
      const timer = node.timeoutMs === undefined ? undefined : new NodeTimer(node, context.stepNumber, attempt, scope.signal);
      try {
        const outcome: unknown = span.run(() => node.run({ ...state }, withAttempt(context, scope, attempt, timer)));
        if (!isThenable(outcome)) return outcome; // a synchronous node: nothing to race
        if (timer) return await timer.race(outcome); // ends at the time limit, whether the node listens or not
        if (!scope.signal) return await outcome; // nothing can abort the run
        const aborted = abortPromise(scope.signal);
        try {
          return await Promise.race([outcome, aborted.promise]);
        } finally {
          aborted.dispose();
        }
      } finally {
        timer?.dispose();
      }
    } catch (error) {
      if (scope.signal?.aborted) throw scope.signal.reason;
      const options = node.retryOptions;
      const retryOn = node.retry?.retryOn ?? isRetryableNodeError;
      const willRetry = attempt < options.maxAttempts && retryOn(error);
      for (const each of node.callbacksBefore) await each.onNodeError?.(context, { ...state }, error, { attempt, willRetry });
      if (!willRetry) throw error;
      const delayMs = backoffDelay(attempt, options);
      traceNodeRetry(span, attempt, delayMs, error);
      scope.emit(nodeEvent(scope, node, ObjectType.GraphNodeError, context.stepNumber, metadataTail({ phase: 'error', retrying: true, attempt, maxAttempts: options.maxAttempts, delayMs }), error));
      await delay(delayMs, scope.signal);
    }
  }
}

/**
 * The node's context for one attempt (built field by field: spreading an object with a symbol key is slow). Its
 * `signal` is read through a getter, so a run without a caller's signal makes its never-firing one only for nodes
 * that look at it; a timed node's is its attempt's own (see `NodeTimer`).
 */
function withAttempt(context: NodeCallbackContext, scope: RunScope, attempt: number, timer: NodeTimer | undefined): NodeContext {
  const nodeContext: NodeContext = {
    nodeId: context.nodeId,
    nodeName: context.nodeName,
    nodeType: context.nodeType,
    stepNumber: context.stepNumber,
    invocationId: context.invocationId,
    [EXECUTION]: timer ? timer.guard(context[EXECUTION]) : context[EXECUTION],
    get signal() {
      return timer ? timer.signal : scope.nodeSignal();
    },
    attempt,
  };
  if (context.path !== undefined) nodeContext.path = context.path;
  return nodeContext;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
