import { WorkflowError } from '../errors/workflow-error.js';
import type { ChatClient } from '../chat/core/types.js';
import { resolveRetryOptions } from '../internal/retry.js';
import type { RunnableAgent } from '../runner/runnable-agent.js';
import type { AnyTool } from '../tools/define-tool.js';
import { agentNode, type AgentNodeOptions } from './agent-node.js';
import { llmNode, type LLMNodeOptions } from './llm-node.js';
import { isCompiledGraph, notCompiledHint, subgraphNode, type SubgraphNodeOptions } from './subgraph-node.js';
import { toolsNode, toolsNodeProblems, type ToolsNodeOptions } from './tools-node.js';
import { CompiledGraph, type CompiledNode, type GraphBranch, type GraphNode } from './compiled-graph.js';
import { END, NodeType, START } from './constants.js';
import { collectorStateKey, type NodeCallbacks } from './node-callbacks.js';
import type { NodeContext } from './node-context.js';
import { fallbackTargets, nodeOptionProblems, type NodeBehaviourOptions, type NodeOptions } from './node-options.js';
import type { State, StateSchema } from './state-schema.js';

/** A node: takes the state (a copy; treat it as read-only), returns a state update, a `Command`, or nothing. */
export type NodeFunction = (state: State, context: NodeContext) => unknown;

/** Picks the next node(s) from the state after a step. */
export type Router = (state: State) => string | readonly string[] | Promise<string | readonly string[]>;

/** What an extension installs itself into (see `StateGraph.use`). */
export interface GraphExtensionTarget {
  readonly schema: StateSchema;
  withNodeCallbacks(callbacks: NodeCallbacks): unknown;
}

/**
 * Something that wires itself into a graph in one step (state fields, callbacks), like `ExecutionErrorCollector`.
 * @example `const audit: GraphExtension = { install: (graph) => graph.withNodeCallbacks({ afterNode: log }) };`
 */
export interface GraphExtension {
  install(graph: GraphExtensionTarget): void;
}

/** Options of `compile`. */
export interface CompileOptions {
  /** Supersteps before a runaway run is stopped with a `WorkflowError`. @default 100 */
  stepLimit?: number | undefined;
  /**
   * Check that every execution-error collector is wired whole (its record field and its callbacks, on every node).
   * Turn it off only when you install a collector's callbacks through a wrapper of your own. @default true
   */
  collectorCheck?: boolean | undefined;
}

/**
 * Builds a state graph: nodes, edges, conditional edges, entry and finish points, node callbacks. Nothing is checked
 * while building; `compile()` reports every problem at once as one `WorkflowError` listing each.
 *
 * @example
 * ```ts
 * const compiled = new StateGraph(schema)
 *   .withNodeCallbacks(collector.nodeCallbacks())
 *   .addNode('lookup_inventory', lookupInventory)
 *   .addNode('finalize', () => ({ done: true }))
 *   .addEdge('lookup_inventory', 'finalize')
 *   .setEntryPoint('lookup_inventory')
 *   .setFinishPoint('finalize')
 *   .compile();
 * ```
 */
export class StateGraph {
  protected readonly nodes = new Map<string, GraphNode>();
  protected readonly edges: Array<{ from: string; to: string }> = [];
  protected readonly branches: GraphBranch[] = [];
  protected readonly callbacks: NodeCallbacks[] = [];
  protected readonly problems: string[] = [];

  constructor(readonly schema: StateSchema) {}

  /**
   * Adds a node. Options: `retry`, `timeoutMs` (each attempt's time limit: a retryable `NODE_TIMEOUT` failure),
   * `fallback` (the update and route a recovered failure turns into), `callbacks`, `ends`; all checked at `compile()`.
   * @example `graph.addNode('lookup', lookup, { timeoutMs: 2_000, fallback: { update: { status: 'unknown' }, goto: 'ask' } })`
   */
  addNode(id: string, run: NodeFunction, options: NodeOptions = {}): this {
    if (typeof id !== 'string' || id.trim() === '') {
      this.problems.push(`a node id must be a non-empty string (got ${JSON.stringify(id) ?? String(id)})`);
      return this;
    }
    if (id === START || id === END) this.problems.push(`node id ${JSON.stringify(id)} is reserved`);
    if (this.nodes.has(id)) this.problems.push(`node ${JSON.stringify(id)} is added twice`);
    if (isCompiledGraph(run)) this.problems.push(`node ${JSON.stringify(id)} needs a function, not a compiled graph: run a compiled graph as a node with addSubgraph(${JSON.stringify(id)}, graph)`);
    else if (typeof run !== 'function') this.problems.push(`node ${JSON.stringify(id)} needs a function`);
    this.problems.push(...nodeOptionProblems(id, options));
    this.nodes.set(id, {
      id,
      name: options.name ?? id,
      type: options.type ?? NodeType.Function,
      run,
      retry: options.retry,
      timeoutMs: options.timeoutMs === Infinity ? undefined : options.timeoutMs,
      fallback: options.fallback,
      callbacks: options.callbacks,
      ends: [...(options.ends ?? [])],
    });
    return this;
  }

  /**
   * Adds a node that runs a child agent (a graph agent, an LLM agent via `toRunnableAgent`, a remote A2A agent). Its
   * events are forwarded; its result reaches the parent through `outputMapper` (use the collector's
   * `subgraphOutputMapper()` to bring the child's execution errors home, each with `path`).
   */
  addAgentNode(id: string, agent: RunnableAgent, options: AgentNodeOptions & NodeBehaviourOptions = {}): this {
    if (!agent || typeof agent.runEvents !== 'function') {
      this.problems.push(`agent node ${JSON.stringify(id)} needs an agent with runEvents() (see toRunnableAgent)`);
      return this;
    }
    return this.addNode(id, agentNode(id, agent, this.schema, options), { name: options.name, type: NodeType.Agent, ...behaviourOf(options) });
  }

  /**
   * Adds a node that runs a compiled graph as a child: exactly `addAgentNode(id, createGraphAgent(id, graph), options)`
   * (see `SubgraphNodeOptions`). Anything but a compiled graph is a `compile()` problem.
   *
   * @example
   * ```ts
   * parent.addSubgraph('inventory', inventoryGraph, { outputMapper: collector.subgraphOutputMapper(), timeoutMs: 5_000 });
   * ```
   */
  addSubgraph(id: string, graph: CompiledGraph, options: SubgraphNodeOptions = {}): this {
    if (!isCompiledGraph(graph)) {
      this.problems.push(`subgraph node ${JSON.stringify(id)} needs a compiled graph: ${notCompiledHint(graph, (value) => value instanceof StateGraph)}`);
      return this;
    }
    return this.addNode(id, subgraphNode(id, graph, this.schema, options), { name: options.name, type: NodeType.Agent, ...behaviourOf(options) });
  }

  /** Adds a node that makes one model call over the state's messages (see `routeToolCalls` for the tool loop). */
  addLLMNode(id: string, client: ChatClient, options: LLMNodeOptions & NodeBehaviourOptions = {}): this {
    if (!client || typeof client.stream !== 'function') {
      this.problems.push(`LLM node ${JSON.stringify(id)} needs a chat client`);
      return this;
    }
    return this.addNode(id, llmNode(id, client, options), { name: options.name, type: NodeType.LLM, ...behaviourOf(options) });
  }

  /** Adds a node that answers the last assistant message's tool calls through `runToolCall`. */
  addToolsNode(id: string, tools: readonly AnyTool[], options: ToolsNodeOptions & NodeBehaviourOptions = {}): this {
    const problems = toolsNodeProblems(id, tools, options);
    this.problems.push(...problems);
    if (problems.length > 0) return this;
    return this.addNode(id, toolsNode(id, tools, options), { name: options.name, type: NodeType.Tool, ...behaviourOf(options) });
  }

  /** Adds a static edge; `from` may be `START`, `to` may be `END`. */
  addEdge(from: string, to: string): this {
    this.edges.push({ from, to });
    return this;
  }

  /**
   * Adds a conditional edge: after `from` runs, `router` picks the next node(s) from the new state. With `pathMap`,
   * the router's answer is a key of the map.
   */
  addConditionalEdges(from: string, router: Router, pathMap?: Readonly<Record<string, string>>): this {
    if (typeof router !== 'function') this.problems.push(`the conditional edge from ${JSON.stringify(from)} needs a router function`);
    this.branches.push({ from, router, pathMap: pathMap ? { ...pathMap } : undefined });
    return this;
  }

  /** Where a run starts (an edge from `START`). */
  setEntryPoint(id: string): this {
    return this.addEdge(START, id);
  }

  /** A node after which the run may end (an edge to `END`). */
  setFinishPoint(id: string): this {
    return this.addEdge(id, END);
  }

  /**
   * Installs an extension in one step — for the execution-error collector, its state field and its callbacks, so
   * neither can be forgotten. The documented way to use a collector.
   * @example `new StateGraph(messagesStateSchema()).use(collector)`
   */
  use(extension: GraphExtension): this {
    if (!extension || typeof extension.install !== 'function') {
      this.problems.push('use() needs an extension with install(graph), such as an ExecutionErrorCollector');
      return this;
    }
    extension.install(this);
    return this;
  }

  /** Adds graph-wide callbacks (may be called several times; they run in the order added). */
  withNodeCallbacks(callbacks: NodeCallbacks): this {
    this.callbacks.push(callbacks);
    return this;
  }

  /** Checks the graph and returns the runnable graph, or throws one `WorkflowError` listing every problem. */
  compile(options: CompileOptions = {}): CompiledGraph {
    const problems = [...this.problems];
    const known = (id: string) => this.nodes.has(id);
    const entries = this.edges.filter((edge) => edge.from === START).map((edge) => edge.to);
    if (entries.length === 0) problems.push('no entry point: call setEntryPoint(nodeId)');
    for (const edge of this.edges) {
      if (edge.from !== START && edge.from !== END && !known(edge.from)) problems.push(`edge from unknown node ${JSON.stringify(edge.from)}`);
      if (edge.to !== END && !known(edge.to)) problems.push(`edge to unknown node ${JSON.stringify(edge.to)}${edge.from === START ? ' (the entry point)' : ''}`);
      if (edge.from === END) problems.push('no edge can start at END');
    }
    for (const branch of this.branches) {
      if (!known(branch.from)) problems.push(`conditional edge from unknown node ${JSON.stringify(branch.from)}`);
      for (const [key, target] of Object.entries(branch.pathMap ?? {})) {
        if (target !== END && !known(target)) problems.push(`conditional edge from ${JSON.stringify(branch.from)} maps ${JSON.stringify(key)} to unknown node ${JSON.stringify(target)}`);
      }
    }
    for (const node of this.nodes.values()) {
      for (const target of node.ends) if (target !== END && !known(target)) problems.push(`node ${JSON.stringify(node.id)} declares an unknown destination ${JSON.stringify(target)}`);
      for (const target of fallbackTargets(node.fallback)) if (target !== END && !known(target)) problems.push(`node ${JSON.stringify(node.id)} has a fallback goto to unknown node ${JSON.stringify(target)}`);
    }
    if (options.collectorCheck !== false) problems.push(...this.collectorProblems());
    const stepLimit = options.stepLimit ?? 100;
    if (!Number.isInteger(stepLimit) || stepLimit < 1) problems.push(`stepLimit must be an integer ≥ 1 (got ${String(stepLimit)})`);
    const edgesFrom = new Map<string, string[]>();
    for (const edge of this.edges) edgesFrom.set(edge.from, [...(edgesFrom.get(edge.from) ?? []), edge.to]);
    const branchesFrom = new Map<string, GraphBranch[]>();
    for (const branch of this.branches) branchesFrom.set(branch.from, [...(branchesFrom.get(branch.from) ?? []), branch]);
    if (entries.length > 0 && !this.reachesEnd(entries, edgesFrom, branchesFrom)) {
      problems.push('no path from the entry point reaches the end: add setFinishPoint(nodeId), an edge to END, or a node with ends: [END]');
    }
    if (problems.length > 0) {
      throw new WorkflowError(`The graph cannot be compiled: ${problems.length === 1 ? problems[0] : `${problems.length} problems: ${problems.map((problem, index) => `(${index + 1}) ${problem}`).join('; ')}`}`, {
        problems,
      });
    }
    const global = [...this.callbacks];
    const nodes = new Map<string, CompiledNode>();
    for (const [id, node] of this.nodes) {
      const own = node.callbacks ? [node.callbacks] : [];
      nodes.set(id, { ...node, callbacksBefore: [...global, ...own], callbacksAfter: [...own, ...global], retryOptions: resolveRetryOptions(node.retry ?? false) });
    }
    return new CompiledGraph({ schema: this.schema, nodes, edgesFrom, branchesFrom, entries, stepLimit });
  }

  /**
   * A collector wired in half is a silent loss: callbacks without the record field overwrite earlier records; a
   * record field without the callbacks turns a recoverable failure fatal with no record. Both are compile problems.
   */
  private collectorProblems(): string[] {
    const problems: string[] = [];
    const graphWide = this.callbacks.map(collectorStateKey).filter((key): key is string => key !== undefined);
    const perNode = [...this.nodes.values()].map((node) => ({ id: node.id, key: collectorStateKey(node.callbacks) }));
    const installed = new Set([...graphWide, ...perNode.map((node) => node.key).filter((key): key is string => key !== undefined)]);
    const fix = 'wire it with graph.use(collector) (or compile({ collectorCheck: false }) if you install its callbacks through a wrapper of your own)';
    for (const key of installed) {
      if (this.schema.field(key)?.executionErrors !== true) {
        problems.push(`an ExecutionErrorCollector's callbacks are installed but the state has no record field ${JSON.stringify(key)}: each record would overwrite the last; ${fix}`);
      }
    }
    for (const key of new Set(graphWide)) {
      const twice = perNode.filter((node) => node.key === key).map((node) => JSON.stringify(node.id));
      if (graphWide.filter((each) => each === key).length > 1) problems.push(`the ExecutionErrorCollector of ${JSON.stringify(key)} is installed twice: each failure would be recorded twice`);
      else if (twice.length > 0) problems.push(`the ExecutionErrorCollector of ${JSON.stringify(key)} is installed graph-wide and again on ${twice.join(', ')}: each failure there would be recorded twice`);
    }
    const withFallback = perNode.filter((node) => node.key === undefined && graphWide.length === 0 && this.nodes.get(node.id)?.fallback !== undefined);
    if (withFallback.length > 0) {
      problems.push(`${withFallback.map((node) => JSON.stringify(node.id)).join(', ')} declare${withFallback.length === 1 ? 's' : ''} a fallback but no ExecutionErrorCollector records its failures: the fallback would never be used; ${fix}`);
    }
    for (const key of this.schema.executionErrorKeys) {
      if (graphWide.includes(key)) continue;
      const uncovered = perNode.filter((node) => node.key !== key).map((node) => node.id);
      if (!installed.has(key)) {
        problems.push(`the state field ${JSON.stringify(key)} holds execution-error records but no ExecutionErrorCollector callbacks are installed: a recoverable failure would end the run with no record; ${fix}`);
      } else if (uncovered.length > 0) {
        problems.push(`the ExecutionErrorCollector of ${JSON.stringify(key)} is installed on some nodes only: a failure of ${uncovered.map((id) => JSON.stringify(id)).join(', ')} would end the run with no record; ${fix}`);
      }
    }
    return problems;
  }

  private reachesEnd(entries: readonly string[], edgesFrom: ReadonlyMap<string, string[]>, branchesFrom: ReadonlyMap<string, GraphBranch[]>): boolean {
    const seen = new Set<string>();
    const stack = [...entries];
    while (stack.length > 0) {
      const id = stack.pop() as string;
      if (id === END) return true;
      if (seen.has(id) || !this.nodes.has(id)) continue;
      seen.add(id);
      stack.push(...(edgesFrom.get(id) ?? []));
      for (const branch of branchesFrom.get(id) ?? []) {
        if (!branch.pathMap) return true; // a router without a map may go anywhere, END included
        stack.push(...Object.values(branch.pathMap));
      }
      stack.push(...(this.nodes.get(id)?.ends ?? []), ...fallbackTargets(this.nodes.get(id)?.fallback));
    }
    return false;
  }
}

/** The `addNode` options an agent, LLM or tools node forwards. */
function behaviourOf(options: NodeBehaviourOptions): NodeBehaviourOptions {
  return { retry: options.retry, callbacks: options.callbacks, timeoutMs: options.timeoutMs, fallback: options.fallback };
}
