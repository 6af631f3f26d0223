import type { RunEvent } from '../runner/event.js';
import type { State } from './state-schema.js';

/** @internal The executor's hooks carried by contexts (absent in hand-made contexts: emission is then a no-op). */
export const EXECUTION = Symbol.for('faultline.graph.execution');

/** @internal */
export interface ExecutionHooks {
  emit(event: RunEvent): void;
  /** Registers a state update that joins the fallback state if this node's failure ends the run. */
  addFallbackUpdate(update: State): void;
  branch?: string | undefined;
  requestId?: string | undefined;
}

/**
 * What node callbacks receive about the node (tRPC's `NodeCallbackContext`).
 * @example `afterNode: (context, state, result, error) => { if (error) log(context.nodeId, context.stepNumber, error); }`
 */
export interface NodeCallbackContext {
  nodeId: string;
  nodeName: string;
  nodeType: string;
  /** The superstep (0 for the entry node of a fresh run). */
  stepNumber: number;
  invocationId: string;
  /** Path of agent-node ids when the graph runs as a subgraph (outermost first). */
  path?: readonly string[];
  readonly [EXECUTION]?: ExecutionHooks;
}

/** What a node function receives besides the state. */
export interface NodeContext extends NodeCallbackContext {
  /** Aborts when the run is cancelled; pass it on. */
  signal: AbortSignal;
  /** 1 for the first attempt, 2 for the first retry… */
  attempt: number;
}
