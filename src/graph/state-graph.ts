import type { ChatClient } from '../chat/core/types.js';
import { isPlainObject, preview, refusedValue } from '../internal/json.js';
import { inheritRunSecrets } from '../internal/streams.js';
import type { RunnableAgent } from '../runner/runnable-agent.js';
import type { AnyTool } from '../tools/define-tool.js';
import { compileDraft, type CompileOptions } from './compile/compile-graph.js';
import { nodeOptionNameProblems, nodeOptionProblems } from './compile/node-option-problems.js';
import { agentNode, type AgentNodeOptions } from './nodes/agent-node.js';
import { llmNode, type LLMNodeOptions } from './nodes/llm-node.js';
import { isCompiledGraph, notCompiledHint, subgraphNode, type SubgraphNodeOptions } from './nodes/subgraph-node.js';
import { toolsNode, toolsNodeProblems, type ToolsNodeOptions } from './nodes/tools-node.js';
import { CHILD_RUN_SEPARATOR, END, NodeType, START } from './core/constants.js';
import type { GraphBranch, GraphNode } from './core/graph-description.js';
import type { ExtensionState, GraphExtension, WithExtension } from './core/graph-extension.js';
import type { NodeCallbacks } from './core/node-callbacks.js';
import type { DeclaredTargets, InitialNodeIds, KnownKeysOnly, NodeFunction, NodeOutput, Router } from './core/node-function.js';
import type { NodeBehaviourOptions, NodeOptions } from './core/node-options.js';
import { StateSchema, type State, type StateUpdate } from './core/state-schema.js';
import { CompiledGraph } from './compiled-graph.js';

export type { CompileOptions } from './compile/compile-graph.js';

/** The option names of a node that runs a child (an agent node, a subgraph node). */
const CHILD_NODE_KEYS = ['name', 'inputMapper', 'outputMapper', 'propagateChildErrors', 'retry', 'callbacks', 'timeoutMs', 'fallback'];

/**
 * Builds a state graph: nodes, edges, conditional edges, entry and finish points, node callbacks. Nothing is checked
 * while building; `compile()` reports every problem at once as one `WorkflowError` listing each.
 *
 * Over a schema typed whole (`stateSchema(…)`), nodes get a typed `state` and their updates are checked, and node ids
 * are tracked through the chain: edges, routers, path maps and `Command.goto` (against a node's `ends`) accept only
 * nodes added so far, or `END` — so add the nodes first, then the edges, in one chain (as in LangGraph.js). Over an
 * open schema (`new StateSchema()`, `messagesStateSchema()`) ids are plain strings and only `compile()` checks them.
 *
 * @example
 * ```ts
 * const compiled = new StateGraph(schema)
 *   .use(collector)
 *   .addNode('lookup_inventory', lookupInventory)
 *   .addNode('finalize', () => ({ done: true }))
 *   .addEdge('lookup_inventory', 'finalize')
 *   .setEntryPoint('lookup_inventory')
 *   .setFinishPoint('finalize')
 *   .compile();
 * ```
 */
export class StateGraph<S extends State = State, U extends State = StateUpdate<S>, N extends string = InitialNodeIds<S>> {
  protected readonly nodes = new Map<string, GraphNode>();
  protected readonly edges: Array<{ from: string; to: string }> = [];
  protected readonly branches: GraphBranch[] = [];
  protected readonly callbacks: NodeCallbacks[] = [];
  protected readonly problems: string[] = [];
  /** The children of agent and subgraph nodes: the compiled graph carries their secrets (`keepRunSecrets`, internal/streams.ts). */
  private readonly children: object[] = [];

  /** The graph's own copy of the schema it was built on (extensions add their fields here, not to the original). */
  readonly schema: StateSchema<S, U>;

  constructor(schema: StateSchema<S, U>) {
    this.schema = schema instanceof StateSchema ? schema.clone() : schema;
  }

  /**
   * Adds a node. Options: `retry`, `timeoutMs` (each attempt's time limit: a retryable `NODE_TIMEOUT` failure),
   * `fallback` (the update and route a recovered failure turns into), `callbacks`, `ends` (where its `Command` may
   * go: in a typed graph, `goto` is checked against them); all checked at `compile()`.
   * @example `graph.addNode('lookup', lookup, { timeoutMs: 2_000, fallback: { update: { status: 'unknown' }, goto: 'ask' } })`
   */
  addNode<Id extends string, const E extends readonly string[] = readonly string[], F extends NodeFunction<S, NodeOutput<S, U, DeclaredTargets<E>>> = NodeFunction<S, NodeOutput<S, U, DeclaredTargets<E>>>>(id: Id, run: F & KnownKeysOnly<F, U, S>, options: NodeOptions<U, E> = {}): StateGraph<S, U, N | Id> {
    if (typeof id !== 'string' || id.trim() === '') {
      this.problems.push(`a node id must be a non-empty string (got ${refusedValue(id)})`);
      return this.widened<Id>();
    }
    if (id === START || id === END) this.problems.push(`node id ${preview(id, 200)} is reserved`);
    if (id.includes(CHILD_RUN_SEPARATOR)) this.problems.push(`node id ${preview(id, 200)} contains U+001F (CHILD_RUN_SEPARATOR), which joins subgraph run ids: choose another`);
    if (this.nodes.has(id)) this.problems.push(`node ${preview(id, 200)} is added twice`);
    if (isCompiledGraph(run)) this.problems.push(`node ${preview(id, 200)} needs a function, not a compiled graph: run a compiled graph as a node with addSubgraph(${preview(id, 200)}, graph)`);
    else if (typeof run !== 'function') this.problems.push(`node ${preview(id, 200)} needs a function`);
    options = this.checked(id, options, ['name', 'type', 'retry', 'timeoutMs', 'fallback', 'callbacks', 'ends']);
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
    return this.widened<Id>();
  }

  /**
   * Adds a node that runs a child agent (a graph agent, an LLM agent via `toRunnableAgent`, a remote A2A agent). Its
   * events are forwarded; its result reaches the parent through `outputMapper` (use the collector's
   * `subgraphOutputMapper()` to bring the child's execution errors home, each with `path`).
   */
  addAgentNode<Id extends string>(id: Id, agent: RunnableAgent, options: AgentNodeOptions & NodeBehaviourOptions<U> = {}): StateGraph<S, U, N | Id> {
    if (!agent || typeof agent.runEvents !== 'function') {
      this.problems.push(`agent node ${preview(id, 200)} needs an agent with runEvents() (see toRunnableAgent)`);
      return this.widened<Id>();
    }
    options = this.checked(id, options, CHILD_NODE_KEYS);
    this.children.push(agent);
    return this.addBuilt(id, agentNode(id, agent, this.schema, options), NodeType.Agent, options);
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
  addSubgraph<Id extends string>(id: Id, graph: CompiledGraph<any, any>, options: SubgraphNodeOptions & NodeBehaviourOptions<U> = {}): StateGraph<S, U, N | Id> {
    if (!isCompiledGraph(graph)) {
      this.problems.push(`subgraph node ${preview(id, 200)} needs a compiled graph: ${notCompiledHint(graph, (value) => value instanceof StateGraph)}`);
      return this.widened<Id>();
    }
    options = this.checked(id, options, CHILD_NODE_KEYS);
    this.children.push(graph);
    return this.addBuilt(id, subgraphNode(id, graph, this.schema, options), NodeType.Agent, options);
  }

  /** Adds a node that makes one model call over the state's messages (see `routeToolCalls` for the tool loop). */
  addLLMNode<Id extends string>(id: Id, client: ChatClient, options: LLMNodeOptions & NodeBehaviourOptions<U> = {}): StateGraph<S, U, N | Id> {
    if (!client || typeof client.stream !== 'function') {
      this.problems.push(`LLM node ${preview(id, 200)} needs a chat client`);
      return this.widened<Id>();
    }
    options = this.checked(id, options, ['name', 'instructions', 'tools', 'toolChoice', 'temperature', 'messagesKey', 'retry', 'callbacks', 'timeoutMs', 'fallback']);
    return this.addBuilt(id, llmNode(id, client, options), NodeType.LLM, options);
  }

  /** Adds a node that answers the last assistant message's tool calls through `runToolCall`. */
  addToolsNode<Id extends string>(id: Id, tools: readonly AnyTool[], options: ToolsNodeOptions & NodeBehaviourOptions<U> = {}): StateGraph<S, U, N | Id> {
    options = this.checked(id, options, ['name', 'messagesKey', 'onToolCrash', 'errorFormat', 'logger', 'secrets', 'retry', 'callbacks', 'timeoutMs', 'fallback']);
    const problems = toolsNodeProblems(id, tools, options);
    this.problems.push(...problems);
    if (problems.length > 0) return this.widened<Id>();
    return this.addBuilt(id, toolsNode(id, tools, options), NodeType.Tool, options);
  }

  /** Adds a static edge; `from` may be `START`, `to` may be `END`. */
  addEdge(from: N | typeof START, to: N | typeof END): this {
    this.edges.push({ from, to });
    return this;
  }

  /**
   * Adds a conditional edge: after `from` runs, `router` picks the next node(s) from the new state — node ids or
   * `END`; with `pathMap`, keys of the map, each mapped to a node id or `END`.
   * @example `graph.addConditionalEdges('check', (state) => (state.ok ? 'ship' : 'ask'), { ship: 'ship_order', ask: END })`
   */
  addConditionalEdges<const M extends Readonly<Record<string, N | typeof END>>>(from: N, router: Router<S, string extends N ? string : Extract<keyof M, string>>, pathMap: M): this;
  addConditionalEdges(from: N, router: Router<S, N | typeof END>): this;
  addConditionalEdges(from: string, router: Router<S>, pathMap?: Readonly<Record<string, string>>): this {
    if (typeof router !== 'function') this.problems.push(`the conditional edge from ${preview(from, 200)} needs a router function`);
    this.branches.push({ from, router, pathMap: pathMap ? { ...pathMap } : undefined });
    return this;
  }

  /** Where a run starts (an edge from `START`). */
  setEntryPoint(id: N): this {
    return this.addEdge(START, id);
  }

  /** A node after which the run may end (an edge to `END`). */
  setFinishPoint(id: N): this {
    return this.addEdge(id, END);
  }

  /**
   * Installs an extension in one step — for the execution-error collector, its state field and its callbacks, so
   * neither can be forgotten; the field joins the state's type. The documented way to use a collector.
   * @example `new StateGraph(messagesStateSchema()).use(collector)`
   */
  use<E extends Pick<GraphExtension, 'install'>>(extension: E): StateGraph<WithExtension<S, ExtensionState<E>>, U, N> {
    if (!extension || typeof extension.install !== 'function') {
      this.problems.push('use() needs an extension with install(graph), such as an ExecutionErrorCollector');
    } else {
      extension.install(this);
    }
    return this as unknown as StateGraph<WithExtension<S, ExtensionState<E>>, U, N>;
  }

  /** Adds graph-wide callbacks (may be called several times; they run in the order added). */
  withNodeCallbacks(callbacks: NodeCallbacks): this {
    this.callbacks.push(callbacks);
    return this;
  }

  /** This graph, its node ids grown by `Id` (the same object). */
  private widened<Id extends string>(): StateGraph<S, U, N | Id> {
    return this as unknown as StateGraph<S, U, N | Id>;
  }

  /**
   * A node's options as the helpers read them, the problems of the object recorded (`known`: its kind's option names);
   * no object reads as none, so the node is still added and the checks after it do not fail for its absence.
   */
  private checked<T extends object>(id: string, options: T, known: readonly string[]): T {
    this.problems.push(...nodeOptionNameProblems(id, options, known));
    return isPlainObject(options) ? options : ({} as T);
  }

  /** A node built by one of the `add…Node` helpers, with the behaviour options it forwards. */
  private addBuilt<Id extends string>(id: Id, run: NodeFunction<any, any>, type: string, options: NodeBehaviourOptions<U> & { name?: string | undefined }): StateGraph<S, U, N | Id> {
    return this.addNode(id, run as NodeFunction<S, never>, { name: options.name, type, retry: options.retry, callbacks: options.callbacks, timeoutMs: options.timeoutMs, fallback: options.fallback });
  }

  /** Checks the graph and returns the runnable graph, or throws one `WorkflowError` listing every problem. */
  compile(options: CompileOptions = {}): CompiledGraph<S, U> {
    const { schema, nodes, edges, branches, callbacks, problems } = this;
    const compiled = new CompiledGraph<S, U>(compileDraft({ schema, nodes, edges, branches, callbacks, problems }, options));
    inheritRunSecrets(compiled, this.children);
    return compiled;
  }
}
