/**
 * @internal The executor's hooks of one node step (`context[EXECUTION]`): where its events go, what it registers as
 * fallback state (the list a failed outcome carries, made only when something is registered), the run's checkpoint,
 * telemetry and the node's span. A plain object with a shared method, not closures: one allocation per node step.
 */
import type { SpanHandle } from '../../telemetry/telemetry.js';
import type { CompiledNode } from '../core/graph-description.js';
import type { ExecutionHooks } from '../core/node-context.js';
import type { State } from '../core/state-schema.js';
import type { RunScope } from './run-scope.js';

/** @internal A node step's hooks, with the fallback updates registered through them. */
export interface NodeHooks extends ExecutionHooks {
  fallbackUpdates: State[] | undefined;
}

function addFallbackUpdate(this: NodeHooks, update: State): void {
  (this.fallbackUpdates ??= []).push(update);
}

/** @internal See the file's summary. */
export function nodeHooks(scope: RunScope, node: CompiledNode, span: SpanHandle): NodeHooks {
  return {
    emit: scope.emit,
    addFallbackUpdate,
    branch: scope.branch,
    requestId: scope.requestId,
    checkpoint: scope.checkpoint && { ...scope.checkpoint }, // `resuming` as it is in this step
    fallback: node.fallback,
    signalSource: scope,
    telemetry: scope.telemetry,
    span,
    fallbackUpdates: undefined,
  };
}

/** @internal The fallback updates registered so far: the list later registrations also go to (a failed outcome holds it). */
export function fallbackUpdatesOf(hooks: NodeHooks): State[] {
  return (hooks.fallbackUpdates ??= []);
}
