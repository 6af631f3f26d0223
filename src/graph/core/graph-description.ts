/**
 * @internal What a compiled graph is, as data: its nodes with their behaviour fixed at compile, its edges and
 * conditional edges, its entry points and step limit. `compile()` builds it (`compile-graph.ts`); the executor only
 * reads it.
 */
import type { ResolvedRetryOptions } from '../../internal/retry.js';
import type { NodeCallbacks } from './node-callbacks.js';
import type { NodeFallback } from './node-fallback.js';
import type { NodeFunction, Router } from './node-function.js';
import type { NodeRetryPolicy } from './node-options.js';
import type { State, StateSchema } from './state-schema.js';

/** @internal A compiled node. */
export interface GraphNode {
  id: string;
  name: string;
  type: string;
  run: NodeFunction<any, any>;
  retry?: NodeRetryPolicy | undefined;
  /** Time limit of each attempt (none when absent). */
  timeoutMs?: number | undefined;
  fallback?: NodeFallback | undefined;
  callbacks?: NodeCallbacks | undefined;
  ends: string[];
  /** The keys of the node's last update and an object with them (see `checkResult` in `node-runner.ts`). */
  updateShape?: { keys: readonly string[]; template: State } | undefined;
}

/** @internal A node as the executor runs it: its callbacks in both orders, fixed at compile. */
export interface CompiledNode extends GraphNode {
  /** `beforeNode` / `onNodeError` order: graph-wide callbacks first, then the node's own. */
  callbacksBefore: readonly NodeCallbacks[];
  /** `afterNode` order: the node's own first, then graph-wide callbacks. */
  callbacksAfter: readonly NodeCallbacks[];
  /** The node's retry policy with defaults filled in (`maxAttempts: 1` without one). */
  retryOptions: ResolvedRetryOptions;
  /** No callbacks and no time limit: the executor may run it on its direct path (`direct-step.ts`). */
  direct: boolean;
  /**
   * The next step's nodes when the node ends without a `Command.goto` and is alone in its step: its static edges in
   * order, each once, `END` left out. Absent when it has conditional edges (its routers decide).
   */
  successors?: readonly string[] | undefined;
}

/** @internal A compiled conditional edge. */
export interface GraphBranch {
  from: string;
  router: Router<any>;
  pathMap?: Record<string, string> | undefined;
}

/** @internal A compiled graph as the executor reads it. */
export interface GraphParts {
  schema: StateSchema<any, any>;
  nodes: Map<string, CompiledNode>;
  /** Edge targets by source node, in declaration order. */
  edgesFrom: Map<string, string[]>;
  /** Conditional edges by source node, in declaration order. */
  branchesFrom: Map<string, GraphBranch[]>;
  entries: string[];
  stepLimit: number;
  /** What checkpoints of this graph carry, so another graph refuses them (`graph-fingerprint.ts`). */
  fingerprint: string;
}
