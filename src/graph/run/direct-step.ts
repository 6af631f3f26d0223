/**
 * @internal A superstep's nodes, run. A step whose nodes are all direct (no callbacks, no time limit) in a run without
 * telemetry takes the direct path: the same order as the general runner — every node started (its start event, its
 * function called) before any settles, then each settled in trigger order, as the general runner settles them on the
 * next tick — but synchronously when every node is: no promise, tick, span or callback context per node, and no event
 * built without a listener. A node that returns a promise, or fails into a retry, continues on the general path from
 * where it is (`continueNode`), so from there it behaves exactly as there. Any other step runs every node with
 * `runNode`.
 */
import { ObjectType } from '../../runner/constants.js';
import type { SpanHandle } from '../../telemetry/telemetry.js';
import type { CompiledNode } from '../core/graph-description.js';
import type { State } from '../core/state-schema.js';
import { attemptContext } from './attempt-context.js';
import { PHASE_COMPLETE, PHASE_ERROR, PHASE_START } from './metadata-tails.js';
import { retries } from './node-attempts.js';
import { emitNodeEvent } from './node-events.js';
import { failureOf } from './node-failure.js';
import { fallbackUpdatesOf, nodeHooks, type NodeHooks } from './node-hooks.js';
import { interruptedOutcome, isNodeInterrupt } from './node-interrupt.js';
import { checkResult, continueNode, runNode, type NodeOutcome } from './node-runner.js';
import type { RunScope } from './run-scope.js';
import { nodeOf, type ReplayedNode } from './superstep.js';

/** A direct node after its first attempt: its function's value, its failure, a continuation, or an abort. */
type Started = Ran | { later: Promise<NodeOutcome> } | { aborted: true };
/** A direct node that ran synchronously: what its function returned, or its failure. */
type Ran = ({ value: unknown } | { error: unknown }) & { hooks: NodeHooks };

/**
 * @internal Runs the step's nodes (`replayed`: a resumed step's nodes that already ran, by index); the outcomes in
 * trigger order, synchronously when no node had to wait. Throws (or rejects with) the abort reason when the run is
 * aborted meanwhile.
 */
export function runStepNodes(scope: RunScope, pending: readonly string[], state: State, step: number, replayed: ReadonlyMap<number, ReplayedNode> | undefined): Array<NodeOutcome | ReplayedNode> | Promise<Array<NodeOutcome | ReplayedNode>> {
  if (replayed === undefined && !scope.traced) {
    if (pending.length === 1) {
      const node = nodeOf(scope, pending[0] as string);
      if (node.direct) return runAlone(scope, node, state, step);
    } else {
      const nodes = pending.map((id) => nodeOf(scope, id));
      if (nodes.every((node) => node.direct)) return runDirect(scope, nodes, state, step);
    }
  }
  return Promise.all(pending.map((id, index) => replayed?.get(index) ?? runNode(scope, nodeOf(scope, id), state, step)));
}

/** The direct path of a step of one node (most steps of a chain): its outcome, or its continuation. */
function runAlone(scope: RunScope, node: CompiledNode, state: State, step: number): NodeOutcome[] | Promise<NodeOutcome[]> {
  const entry = begin(scope, node, state, step);
  if ('later' in entry) return entry.later.then((outcome) => [outcome]);
  const settled = 'aborted' in entry ? undefined : settle(scope, node, step, entry);
  if (settled === undefined) throw scope.signal?.reason;
  return [settled];
}

/** The direct path of a step of several nodes: all started, then each settled in trigger order. */
function runDirect(scope: RunScope, nodes: readonly CompiledNode[], state: State, step: number): NodeOutcome[] | Promise<NodeOutcome[]> {
  const started = nodes.map((node) => begin(scope, node, state, step));
  const outcomes: Array<NodeOutcome | Promise<NodeOutcome>> = [];
  let waiting = false;
  let aborted = false;
  for (let index = 0; index < nodes.length; index++) {
    const entry = started[index] as Started;
    if ('later' in entry) {
      waiting = true;
      outcomes.push(entry.later);
      continue;
    }
    const settled = 'aborted' in entry ? undefined : settle(scope, nodes[index] as CompiledNode, step, entry);
    if (settled === undefined) aborted = true;
    else outcomes.push(settled);
  }
  if (aborted) {
    const reason = scope.signal?.reason;
    if (!waiting) throw reason;
    return Promise.all([...outcomes, Promise.reject(reason)]);
  }
  return waiting ? Promise.all(outcomes) : (outcomes as NodeOutcome[]);
}

/**
 * A direct node's start, what the general runner does before its first tick: the start event, the abort check, the
 * function called; a failure judged (its policy's `retryOn`), a retry or a promise handed on to the general path.
 */
function begin(scope: RunScope, node: CompiledNode, state: State, step: number): Started {
  emitNodeEvent(scope, node, ObjectType.GraphNodeStart, step, PHASE_START);
  if (scope.signal?.aborted) return { aborted: true };
  const span = scope.span as SpanHandle; // the run's, inert: the direct path is for runs without telemetry
  const hooks = nodeHooks(scope, node, span);
  let value: unknown;
  try {
    value = node.run({ ...state }, attemptContext(node, step, scope.invocationId, hooks, scope, 1, scope.path.length > 0 ? scope.path : undefined));
  } catch (error) {
    if (scope.signal?.aborted) return { aborted: true };
    if (isNodeInterrupt(error)) return { error, hooks }; // it asked: never retried
    let retry: boolean;
    try {
      retry = node.retryOptions.maxAttempts > 1 && retries(node, error, step);
    } catch (failure) {
      return { error: failure, hooks };
    }
    if (!retry) return { error: failureOf(node, step, error), hooks };
    return { later: continueNode(scope, node, state, step, { hooks, span, started: { attempt: 1, retrying: error } }) };
  }
  if (isThenable(value)) return { later: continueNode(scope, node, state, step, { hooks, span, started: { attempt: 1, outcome: value } }) };
  return { value, hooks };
}

/**
 * A direct node's end, what the general runner does on its first tick: the result checked (a bad one is the node's
 * failure), the complete or error event, the outcome. `undefined` when the run was aborted meanwhile.
 */
function settle(scope: RunScope, node: CompiledNode, step: number, entry: Ran): NodeOutcome | undefined {
  let error: unknown;
  if ('value' in entry) {
    try {
      const result = checkResult(node, entry.value);
      emitNodeEvent(scope, node, ObjectType.GraphNodeComplete, step, PHASE_COMPLETE);
      return { ok: true, node, result, recovered: false, attempts: 1 };
    } catch (caught) {
      if (scope.signal?.aborted) return undefined;
      error = failureOf(node, step, caught);
    }
  } else {
    if (scope.signal?.aborted) return undefined;
    error = entry.error;
    if (isNodeInterrupt(error)) return interruptedOutcome(node, 1); // not a failure: no event
  }
  emitNodeEvent(scope, node, ObjectType.GraphNodeError, step, PHASE_ERROR, error);
  return { ok: false, node, error, attempts: 1, fallbackUpdates: fallbackUpdatesOf(entry.hooks) };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
