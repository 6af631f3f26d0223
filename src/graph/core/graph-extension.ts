/** Extensions: what wires itself into a graph in one step (`StateGraph.use`), and the state it adds to the graph's type. */
import type { NodeCallbacks } from './node-callbacks.js';
import type { State, StateSchema } from './state-schema.js';

/** What an extension installs itself into (see `StateGraph.use`). */
export interface GraphExtensionTarget {
  readonly schema: StateSchema<any, any>;
  withNodeCallbacks(callbacks: NodeCallbacks): unknown;
}

/**
 * Something that wires itself into a graph in one step (state fields, callbacks), like `ExecutionErrorCollector`.
 * `X` is the state it adds (the collector's record field), which joins the graph's state type.
 * @example `const audit: GraphExtension = { install: (graph) => graph.withNodeCallbacks({ afterNode: log }) };`
 */
export interface GraphExtension<X extends State = {}> {
  install(graph: GraphExtensionTarget): void;
  /** @internal Type-level only: the state the extension adds. */
  readonly stateType?: X | undefined;
}

/** The state of a graph after `use(extension)`: a typed state gains the extension's fields; an open one stays open. */
export type WithExtension<S extends State, X extends State> = string extends keyof S ? S : S & X;

/** The state an extension adds (see `GraphExtension`). */
export type ExtensionState<E> = E extends { readonly stateType?: infer X } ? (NonNullable<X> extends State ? NonNullable<X> : {}) : {};
