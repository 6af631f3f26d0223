/**
 * @internal The attempts of one node step: each within its time limit (a node that ignores its signal still ends at
 * it), raced against the run's abort, retried by the node's policy with its backoff (each retry an `onNodeError`
 * call, a `graph.node.error` event and an event on the node's span).
 */
import { abortPromise, delay, untilAborted } from '../../internal/delay.js';
import { backoffDelay } from '../../internal/retry.js';
import { ObjectType } from '../../runner/constants.js';
import type { SpanHandle } from '../../telemetry/telemetry.js';
import type { CompiledNode } from '../core/graph-description.js';
import { EXECUTION, type NodeCallbackContext } from '../core/node-context.js';
import type { State } from '../core/state-schema.js';
import { attemptContext } from './attempt-context.js';
import { metadataTail } from './metadata-tails.js';
import { emitNodeEvent } from './node-events.js';
import { isNodeInterrupt } from './node-interrupt.js';
import { callbackFailure, isRetryableNodeError } from './node-failure.js';
import { traceNodeRetry } from './node-span.js';
import { NodeTimer } from './node-timer.js';
import type { RunScope } from './run-scope.js';

/**
 * @internal A first attempt the direct path already made: the promise its node returned (to be awaited as any attempt's
 * is), or its failure, already judged retryable (`onNodeError` and `retryOn` were called for it).
 */
export type StartedAttempt = { attempt: number; outcome: PromiseLike<unknown> } | { attempt: number; retrying: unknown };

/** @internal Runs the node's attempts (from `started` on, when the direct path made the first); resolves with its raw result. */
export async function attempts(
  scope: RunScope,
  node: CompiledNode,
  context: NodeCallbackContext,
  state: State,
  onAttempt: (attempt: number) => void,
  span: SpanHandle,
  started?: StartedAttempt,
): Promise<unknown> {
  let head = started;
  if (head) onAttempt(head.attempt);
  for (let attempt = head?.attempt ?? 1; ; attempt++) {
    let failure: unknown;
    if (head && 'retrying' in head) {
      failure = head.retrying;
      head = undefined;
    } else {
      if (!head) {
        scope.signal?.throwIfAborted();
        onAttempt(attempt);
      }
      try {
        const timer = node.timeoutMs === undefined ? undefined : new NodeTimer(node, context.stepNumber, attempt, scope.signal);
        try {
          let outcome: unknown;
          if (head) {
            outcome = head.outcome; // a promise (the direct path looked)
            head = undefined;
          } else {
            const nodeContext = attemptContext(node, context.stepNumber, context.invocationId, timer ? timer.guard(context[EXECUTION]) : context[EXECUTION], timer ?? scope, attempt, context.path);
            outcome = scope.traced ? span.run(() => node.run({ ...state }, nodeContext)) : node.run({ ...state }, nodeContext);
            if (!isThenable(outcome)) return outcome; // a synchronous node: nothing to race
          }
          if (timer) return await timer.race(outcome as PromiseLike<unknown>); // ends at the time limit, whether the node listens or not
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
        if (isNodeInterrupt(error)) throw error; // it asked: not a failure, never retried
        const willRetry = attempt < node.retryOptions.maxAttempts && retries(node, error, context.stepNumber);
        try {
          for (const each of node.callbacksBefore) await untilRunAborted(scope, each.onNodeError?.(context, { ...state }, error, { attempt, willRetry }));
        } catch (thrown) {
          if (scope.signal?.aborted) throw scope.signal.reason;
          throw callbackFailure(node, context.stepNumber, 'onNodeError', thrown, error); // not retried: the callback is broken
        }
        if (!willRetry) throw error;
        failure = error;
      }
    }
    const options = node.retryOptions;
    const delayMs = backoffDelay(attempt, options);
    traceNodeRetry(span, attempt, delayMs, failure);
    if (scope.listening) {
      emitNodeEvent(scope, node, ObjectType.GraphNodeError, context.stepNumber, metadataTail({ phase: 'error', retrying: true, attempt, maxAttempts: options.maxAttempts, delayMs }), failure);
    }
    await delay(delayMs, scope.signal);
  }
}

/**
 * @internal Whether the node's retry policy retries `error` (its `retryOn`, else {@link isRetryableNodeError}); a
 * `retryOn` that throws fails the node with its throw, the node's own failure kept in view.
 */
export function retries(node: CompiledNode, error: unknown, step: number): boolean {
  try {
    return (node.retry?.retryOn ?? isRetryableNodeError)(error);
  } catch (thrown) {
    throw callbackFailure(node, step, 'retryOn', thrown, error);
  }
}

/**
 * @internal What the app's code the run awaits (a node callback, a collector's policy through `afterNode`, a router)
 * returned, raced against the run's abort as a node's attempt is: its promise, or the abort reason as soon as the run
 * aborts, whether that code listens or ever settles (its late settling is handled: no unhandled rejection). A value
 * that is no promise, or a run without a signal, is handed back as it is: no promise, no race.
 */
export function untilRunAborted<T>(scope: RunScope, value: T): T | Promise<Awaited<T>> {
  const signal = scope.signal;
  if (signal === undefined || !isThenable(value)) return value;
  return untilAborted(Promise.resolve(value), signal);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
