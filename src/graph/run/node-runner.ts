/**
 * Runs one node of a superstep (seed-systems §1.11): `beforeNode` callbacks, attempts under the retry policy (each
 * within the node's `timeoutMs`, every failed attempt seen by `onNodeError`, intermediate ones announced as retrying `graph.node.error` events), then on
 * the final outcome a `graph.node.error` event for a failure and the `afterNode` chain, which may recover the node.
 */
import { WorkflowError } from '../../errors/workflow-error.js';
import { messageOf } from '../../internal/error-chain.js';
import { defineData, isPlainObject, preview } from '../../internal/json.js';
import { ObjectType } from '../../runner/constants.js';
import type { SpanHandle } from '../../telemetry/telemetry.js';
import { Command } from '../core/command.js';
import type { CompiledNode, GraphNode } from '../core/graph-description.js';
import { EXECUTION, type ExecutionHooks, type NodeCallbackContext } from '../core/node-context.js';
import type { State } from '../core/state-schema.js';
import { PHASE_AFTER_CALLBACK, PHASE_COMPLETE, PHASE_COMPLETE_RECOVERED, PHASE_ERROR, PHASE_REDUCE, PHASE_START } from './metadata-tails.js';
import { attempts, untilRunAborted, type StartedAttempt } from './node-attempts.js';
import { emitNodeEvent } from './node-events.js';
import { callbackFailure, failureOf } from './node-failure.js';
import { fallbackUpdatesOf, nodeHooks, type NodeHooks } from './node-hooks.js';
import { interruptedOutcome, isNodeInterrupt } from './node-interrupt.js';
import { endNodeSpan, nodeSpan, traceNodeInterrupt } from './node-span.js';
import type { RunScope } from './run-scope.js';

/** @internal How one node ended. */
export type NodeOutcome =
  | { ok: true; node: CompiledNode; result: State | Command | undefined; recovered: boolean; attempts: number }
  | { ok: false; node: CompiledNode; error: unknown; attempts: number; fallbackUpdates: State[] };

/**
 * @internal A node result must be a state update, a `Command`, or nothing. An update is read once, here, into a plain copy:
 * a getter that throws is this node's failure (not a nameless run failure later), and a getter or an object that
 * changes afterwards cannot change what is reduced.
 */
export function checkResult(node: GraphNode, result: unknown): State | Command<State> | undefined {
  if (result === undefined || result === null) return undefined;
  if (Command.isInstance(result)) return result.update === undefined ? (result as Command<State>) : new Command({ update: materialize(node, result.update), goto: result.goto });
  if (isPlainObject(result)) return materialize(node, result);
  throw new WorkflowError(`the node returned ${Array.isArray(result) ? 'an array' : `a ${typeof result}`}; a node returns a state update object, a Command, or nothing`, {
    nodeId: node.id,
  });
}

function materialize(node: GraphNode, update: unknown): State {
  if (!isPlainObject(update)) throw new WorkflowError(`the node returned a Command whose update is not a state update object`, { nodeId: node.id });
  const keys = Object.keys(update);
  const copy: State = { ...updateTemplate(node, keys) };
  for (const key of keys) {
    let value: unknown;
    try {
      value = update[key];
    } catch (error) {
      throw new WorkflowError(`the node returned an update whose key ${preview(key, 200)} cannot be read: ${messageOf(error)}`, { nodeId: node.id, cause: error });
    }
    defineData(copy, key, value);
  }
  return copy;
}

/**
 * An object with `keys`, each `undefined`, that the node keeps while its updates have those keys: copies made from it
 * share one hidden class the node keeps alive (a copy built key by key gets one that a full GC drops between runs,
 * and with it the optimized code of every function that reads updates).
 */
function updateTemplate(node: GraphNode, keys: readonly string[]): State {
  const shape = node.updateShape;
  if (shape !== undefined && sameKeys(shape.keys, keys)) return shape.template;
  const template: State = {};
  for (const key of keys) defineData(template, key, undefined);
  node.updateShape = { keys, template };
  return template;
}

function sameKeys(known: readonly string[], keys: readonly string[]): boolean {
  if (known.length !== keys.length) return false;
  for (let index = 0; index < keys.length; index++) if (known[index] !== keys[index]) return false;
  return true;
}

/** The context node callbacks receive. */
function callbackContext(scope: RunScope, node: CompiledNode, step: number, hooks: ExecutionHooks): NodeCallbackContext {
  const context: NodeCallbackContext = {
    nodeId: node.id,
    nodeName: node.name,
    nodeType: node.type,
    stepNumber: step,
    invocationId: scope.invocationId,
    [EXECUTION]: hooks, // last: see `attemptContext`
  };
  if (scope.path.length > 0) context.path = scope.path;
  return context;
}

/** @internal One node step's span: its own when the run is traced, else the run's (an inert one). */
export function stepSpan(scope: RunScope, node: CompiledNode, step: number): SpanHandle {
  return scope.traced ? nodeSpan(scope.telemetry, scope.span, node, step) : (scope.span as SpanHandle);
}

/** @internal A node step begun elsewhere (the direct path): its context, hooks and span, and its first attempt. */
export interface BegunNode {
  hooks: NodeHooks;
  span: SpanHandle;
  started: StartedAttempt;
}

/** Runs `node` on `state` at superstep `step`. Rejects only with the abort reason. */
export function runNode(scope: RunScope, node: CompiledNode, state: State, step: number): Promise<NodeOutcome> {
  const span = stepSpan(scope, node, step);
  const hooks = nodeHooks(scope, node, span);
  emitNodeEvent(scope, node, ObjectType.GraphNodeStart, step, PHASE_START);
  return runFrom(scope, node, state, step, { hooks, span, started: undefined });
}

/**
 * @internal The rest of a node step whose first attempt the direct path started (its function returned a promise,
 * or failed into a retry): from there on exactly what {@link runNode} does. Rejects only with the abort reason.
 */
export function continueNode(scope: RunScope, node: CompiledNode, state: State, step: number, begun: BegunNode): Promise<NodeOutcome> {
  return runFrom(scope, node, state, step, begun);
}

async function runFrom(scope: RunScope, node: CompiledNode, state: State, step: number, begun: Omit<BegunNode, 'started'> & { started: StartedAttempt | undefined }): Promise<NodeOutcome> {
  const { hooks, span, started } = begun;
  const context = callbackContext(scope, node, step, hooks);
  let result: unknown;
  let error: unknown;
  let failed = false;
  let attemptsMade = 0;
  try {
    let skipped = false;
    for (const callbacks of node.callbacksBefore) {
      if (started || !callbacks.beforeNode) continue;
      const early = await untilRunAborted(scope, callbacks.beforeNode(context, { ...state }));
      if (early !== undefined) {
        result = early;
        skipped = true;
        break;
      }
    }
    if (!skipped) result = await attempts(scope, node, context, state, (attempt) => (attemptsMade = attempt), span, started);
    result = checkResult(node, result);
  } catch (caught) {
    if (scope.signal?.aborted) {
      endSpan(scope, span, attemptsMade, { error: scope.signal.reason, recovered: false });
      throw scope.signal.reason;
    }
    if (isNodeInterrupt(caught)) {
      if (scope.traced) traceNodeInterrupt(span, attemptsMade); // its span ends without an error status
      return interruptedOutcome(node, attemptsMade);
    }
    failed = true;
    error = failureOf(node, step, caught);
  }
  return settleNode(scope, node, context, state, step, { result, error, failed, attempts: attemptsMade, hooks, errorTail: PHASE_ERROR, span });
}

/**
 * @internal A node whose update could not be reduced into the state (its reducer threw) failed like any node: a
 * `graph.node.error` event (phase `reduce`), then its `afterNode` callbacks with the error, so the collector records
 * it and a policy may recover it. Rejects only with the abort reason.
 */
export function failNodeUpdate(scope: RunScope, node: CompiledNode, state: State, step: number, error: unknown, attemptsMade: number): Promise<NodeOutcome> {
  const span = stepSpan(scope, node, step);
  const hooks = nodeHooks(scope, node, span);
  return settleNode(scope, node, callbackContext(scope, node, step, hooks), state, step, { result: undefined, error, failed: true, attempts: attemptsMade, hooks, errorTail: PHASE_REDUCE, span });
}

/** Ends a node's span (nothing to do when the run is not traced). */
function endSpan(scope: RunScope, span: SpanHandle, attemptsMade: number, failure: { error: unknown; recovered: boolean } | undefined): void {
  if (scope.traced) endNodeSpan(span, attemptsMade, failure);
}

interface Settling {
  result: unknown;
  error: unknown;
  failed: boolean;
  attempts: number;
  hooks: NodeHooks;
  errorTail: string;
  span: SpanHandle;
}

/** The end of a node step: its error event when it failed, the `afterNode` chain (which may recover it), its outcome. */
async function settleNode(scope: RunScope, node: CompiledNode, context: NodeCallbackContext, state: State, step: number, settling: Settling): Promise<NodeOutcome> {
  const outcome = await settleUntraced(scope, node, context, state, step, settling).catch((abort: unknown) => {
    endSpan(scope, settling.span, settling.attempts, { error: abort, recovered: false });
    throw abort;
  });
  const original = settling.failed ? settling.error : undefined;
  endSpan(scope, settling.span, settling.attempts, outcome.ok ? (outcome.recovered ? { error: original, recovered: true } : undefined) : { error: outcome.error, recovered: false });
  return outcome;
}

async function settleUntraced(scope: RunScope, node: CompiledNode, context: NodeCallbackContext, state: State, step: number, settling: Settling): Promise<NodeOutcome> {
  let { result, error, failed } = settling;
  const { hooks } = settling;
  if (failed) emitNodeEvent(scope, node, ObjectType.GraphNodeError, step, settling.errorTail, error);
  let recovered = false;
  for (const callbacks of node.callbacksAfter) {
    if (!callbacks.afterNode) continue;
    try {
      const override = await untilRunAborted(scope, callbacks.afterNode(context, { ...state }, result, failed ? error : undefined));
      if (override !== undefined && override !== null) {
        result = checkResult(node, override);
        if (failed) recovered = true;
        failed = false;
        error = undefined;
      }
    } catch (callbackError) {
      if (scope.signal?.aborted) throw scope.signal.reason;
      // The throw fails the node, and the callbacks after it see that failure: a collector among them records it.
      error = callbackFailure(node, step, 'after node', callbackError, failed ? error : undefined);
      failed = true;
      recovered = false;
      emitNodeEvent(scope, node, ObjectType.GraphNodeError, step, PHASE_AFTER_CALLBACK, error);
    }
  }
  if (failed) return { ok: false, node, error, attempts: settling.attempts, fallbackUpdates: fallbackUpdatesOf(hooks) };
  emitNodeEvent(scope, node, ObjectType.GraphNodeComplete, step, recovered ? PHASE_COMPLETE_RECOVERED : PHASE_COMPLETE);
  return { ok: true, node, result: result as State | Command | undefined, recovered, attempts: settling.attempts };
}
