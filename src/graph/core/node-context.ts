import type { RunEvent } from '../../runner/event.js';
import type { SpanHandle, Telemetry } from '../../telemetry/telemetry.js';
import type { Checkpointer } from './checkpointer.js';
import type { NodeFallback } from './node-fallback.js';
import type { SignalSource } from './signal-source.js';
import type { State } from './state-schema.js';

/** @internal The executor's hooks carried by contexts (absent in hand-made contexts: emission is then a no-op). */
export const EXECUTION = Symbol.for('faultline.graph.execution');

/** @internal A checkpointed run as its nodes see it (agent nodes run their children under it). */
export interface CheckpointHooks {
  checkpointer: Checkpointer;
  /** The run's id; a child agent's run is `${runId}${CHILD_RUN_SEPARATOR}${nodeId}`. */
  runId: string;
  /** True in the first step of a resume: a child that ran in it before resumes from its own checkpoint. */
  resuming: boolean;
  /** Where the run's nodes ask their questions (`interrupt()`). */
  questions: QuestionDesk;
}

/** @internal What `interrupt()` calls: the answer of the call, or a throw that stops the node (see `run-questions.ts`). */
export interface QuestionDesk {
  ask(context: NodeCallbackContext & { attempt?: number }, value: unknown, options: unknown): unknown;
}

/** @internal */
export interface ExecutionHooks {
  emit(event: RunEvent): void;
  /** Registers a state update that joins the fallback state if this node's failure ends the run. */
  addFallbackUpdate(update: State): void;
  branch?: string | undefined;
  requestId?: string | undefined;
  /** Set when the run is checkpointed. */
  checkpoint?: CheckpointHooks | undefined;
  /** The node's declared fallback (`addNode(…, { fallback })`), which a recovering collector applies. */
  fallback?: NodeFallback | undefined;
  /** Where the node's signal comes from when its context was built without one (see `attemptContext`). */
  signalSource?: SignalSource | undefined;
  /** The run's telemetry and this node's span (an agent node's child runs under it). */
  telemetry?: Telemetry | undefined;
  span?: SpanHandle | undefined;
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
