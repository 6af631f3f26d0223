/**
 * Running a compiled graph directly as a node of a parent graph (`StateGraph.addSubgraph`), with exactly the
 * semantics of an agent node running `createGraphAgent(id, graph)`: the same `SubgraphResult`, records, checkpoints.
 */
import type { NodeContext } from '../core/node-context.js';
import type { NodeBehaviourOptions } from '../core/node-options.js';
import type { RunnableGraph } from '../core/runnable-graph.js';
import type { State, StateSchema } from '../core/state-schema.js';
import { agentNode, type AgentNodeOptions } from './agent-node.js';
import { graphAsAgent } from './graph-as-agent.js';

/**
 * Options of `addSubgraph`: those of `addAgentNode` (`name`, `inputMapper`, `outputMapper`, `propagateChildErrors`)
 * and the node behaviour of `addNode` (`retry`, `timeoutMs`, `fallback`, `callbacks`). The child's input is the
 * parent state without its execution-error fields; the parent update is `{last_response, node_responses}` unless an
 * `outputMapper` is given — pass `collector.subgraphOutputMapper()` to bring the child's records home with `path`.
 *
 * @example
 * ```ts
 * const options: SubgraphNodeOptions = { outputMapper: collector.subgraphOutputMapper(), timeoutMs: 5_000 };
 * parent.addSubgraph('inventory', inventoryGraph, options);
 * ```
 */
export type SubgraphNodeOptions = AgentNodeOptions & NodeBehaviourOptions;

/** @internal Whether `value` is a compiled graph (structurally, so a copy from another bundle counts too). */
export function isCompiledGraph(value: unknown): value is RunnableGraph {
  if (typeof value !== 'object' || value === null) return false;
  const graph = value as Partial<Record<'start' | 'run' | 'parts', unknown>>;
  return typeof graph.start === 'function' && typeof graph.run === 'function' && typeof graph.parts === 'object' && graph.parts !== null;
}

/** @internal What to do instead, for a value given to `addSubgraph` that is not a compiled graph. */
export function notCompiledHint(value: unknown, isStateGraph: (value: unknown) => boolean): string {
  if (isStateGraph(value)) return 'call compile() on the child StateGraph first';
  if (typeof (value as { runEvents?: unknown } | null)?.runEvents === 'function') return 'for an agent use addAgentNode()';
  return 'build one with new StateGraph(schema)…compile()';
}

/**
 * @internal The node function of a subgraph node: the graph runs as the graph agent `name` inside an agent node, so
 * its run gets the parent's signal, `path` (`[...parent path, id]`) and checkpointer (under `<parent run id>/<id>`).
 */
export function subgraphNode(id: string, graph: RunnableGraph, schema: StateSchema, options: SubgraphNodeOptions): (state: State, context: NodeContext) => Promise<State> {
  return agentNode(id, graphAsAgent(options.name ?? id, graph, {}), schema, options);
}
