import type { AgentError } from '../errors/agent-error.js';
import { WorkflowError } from '../errors/workflow-error.js';
import { createId } from '../internal/ids.js';
import type { RunEvent } from '../runner/event.js';
import { GraphRun } from './executor.js';
import type { ResolvedRetryOptions } from '../internal/retry.js';
import type { NodeCallbacks } from './node-callbacks.js';
import type { NodeFunction, NodeRetryPolicy, Router } from './state-graph.js';
import type { State, StateSchema } from './state-schema.js';

/** @internal A compiled node. */
export interface GraphNode {
  id: string;
  name: string;
  type: string;
  run: NodeFunction;
  retry?: NodeRetryPolicy | undefined;
  callbacks?: NodeCallbacks | undefined;
  ends: string[];
}

/** @internal A node as the executor runs it: its callbacks in both orders, fixed at compile. */
export interface CompiledNode extends GraphNode {
  /** `beforeNode` / `onNodeError` order: graph-wide callbacks first, then the node's own. */
  callbacksBefore: readonly NodeCallbacks[];
  /** `afterNode` order: the node's own first, then graph-wide callbacks. */
  callbacksAfter: readonly NodeCallbacks[];
  /** The node's retry policy with defaults filled in (`maxAttempts: 1` without one). */
  retryOptions: ResolvedRetryOptions;
}

/** @internal A compiled conditional edge. */
export interface GraphBranch {
  from: string;
  router: Router;
  pathMap?: Record<string, string> | undefined;
}

/** @internal */
export interface GraphParts {
  schema: StateSchema;
  nodes: Map<string, CompiledNode>;
  /** Edge targets by source node, in declaration order. */
  edgesFrom: Map<string, string[]>;
  /** Conditional edges by source node, in declaration order. */
  branchesFrom: Map<string, GraphBranch[]>;
  entries: string[];
  stepLimit: number;
}

/** Options of a graph run. */
export interface GraphRunOptions {
  signal?: AbortSignal | undefined;
  /** Receives every event as it happens. */
  onEvent?: ((event: RunEvent) => void) | undefined;
  /** @default a new `invocation-<uuid>` */
  invocationId?: string | undefined;
  /** Agent-node ids from the outermost graph down, when this graph runs as a subgraph. */
  path?: readonly string[] | undefined;
  branch?: string | undefined;
  requestId?: string | undefined;
}

/**
 * How a graph run ended. `steps` counts the supersteps that ran (a failed step counts; an aborted one does not).
 * `listenerErrors` is there when the `onEvent` listener threw (the run went on; up to 100 are kept, then a count).
 */
export type GraphOutcome = (
  /** The run reached the end: the final state (also emitted as the `graph.execution` snapshot). */
  | { status: 'completed'; state: State; steps: number }
  /** A node failure ended the run: the error, and the fallback state — everything reduced so far plus every record. */
  | { status: 'failed'; error: WorkflowError; fallbackState: State; steps: number }
  /** The signal aborted the run: its reason, and the state reduced so far. */
  | { status: 'aborted'; reason: unknown; state: State; steps: number }
) & { listenerErrors?: readonly AgentError[] };

/**
 * A validated graph, ready to run any number of times (runs share nothing).
 *
 * @example
 * ```ts
 * const outcome = await compiled.run({ user_input: 'order 42' }, { onEvent: (event) => console.log(event.response?.object) });
 * if (outcome.status === 'failed') console.log(executionErrors(outcome.fallbackState));
 * ```
 */
export class CompiledGraph {
  /** @internal */
  constructor(readonly parts: Readonly<GraphParts>) {}

  /** Runs the graph on `input` (reduced into the schema's defaults). Never rejects for node failures: see the outcome. */
  run(input: State = {}, options: GraphRunOptions = {}): Promise<GraphOutcome> {
    return new GraphRun(this.parts, {
      signal: options.signal,
      emit: options.onEvent ?? (() => {}),
      invocationId: options.invocationId ?? createId('invocation'),
      path: options.path ?? [],
      branch: options.branch,
      requestId: options.requestId,
    }).execute(input);
  }

  /**
   * Runs the graph and returns its final state; a failed run rejects with its `WorkflowError` (whose
   * `fallbackState` holds what was reduced so far), an aborted one with the abort reason.
   */
  async invoke(input: State = {}, options: GraphRunOptions = {}): Promise<State> {
    const outcome = await this.run(input, options);
    if (outcome.status === 'completed') return outcome.state;
    if (outcome.status === 'aborted') throw outcome.reason;
    throw outcome.error;
  }
}
