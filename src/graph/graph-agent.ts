import { ConfigError } from '../errors/config-error.js';
import { isPlainObject, preview, refusedValue } from '../internal/json.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import { inheritRunSecrets } from '../internal/streams.js';
import { isCompiledGraph } from './nodes/subgraph-node.js';
import type { RunnableAgent } from '../runner/runnable-agent.js';
import { telemetryProblems } from '../telemetry/no-telemetry.js';
import { isCheckpointer } from './checkpoints/checkpoint.js';
import { graphAsAgent, type GraphAgentOptions } from './nodes/graph-as-agent.js';
import type { CompiledGraph } from './compiled-graph.js';

/** A graph as an agent. */
export interface GraphAgent extends RunnableAgent {
  readonly graph: CompiledGraph;
}

/**
 * Runs a compiled graph as an agent, under the `Runner` or as a node of another graph. A failed run ends with the
 * graph's fallback state and its `graph.pregel.step` error (the runner's completion reports it); an aborted one with
 * a terminal `cancelled` error event.
 *
 * @example
 * ```ts
 * const runner = new Runner({ appName: 'shop', agent: createGraphAgent('inventory-agent', compiled) });
 * ```
 */
export function createGraphAgent(name: string, graph: CompiledGraph, options: GraphAgentOptions = {}): GraphAgent {
  const problems: string[] = [];
  if (typeof name !== 'string' || name.trim() === '') problems.push(`name must be a non-empty string (got ${refusedValue(name)})`);
  if (!isCompiledGraph(graph)) problems.push(`graph must be a compiled graph (graph.compile()), got ${refusedValue(graph)}`);
  if (!isPlainObject(options)) problems.push(`options must be an object (got ${refusedValue(options)})`);
  else {
    problems.push(...unknownOptionProblems(options, ['input', 'checkpointer', 'telemetry']));
    if (options.input !== undefined && typeof options.input !== 'function') problems.push(`input must be a function (invocation) => state (got ${refusedValue(options.input)})`);
    if (options.checkpointer !== undefined && !isCheckpointer(options.checkpointer)) problems.push('checkpointer must have get(), put() and delete()');
    problems.push(...telemetryProblems(options.telemetry));
  }
  if (problems.length > 0) throw ConfigError.fromProblems(`graph agent ${typeof name === 'string' ? `${preview(name, 200)} ` : ''}options`, problems);
  const agent = graphAsAgent(name, graph, options);
  inheritRunSecrets(agent, [graph]);
  return agent;
}
