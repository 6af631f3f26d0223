/** The types of what a graph runs: node functions, their results, and conditional-edge routers. */
import type { Command } from './command.js';
import type { END } from './constants.js';
import type { NodeContext } from './node-context.js';
import type { State, StateUpdate } from './state-schema.js';

/**
 * What a node returns: a state update (`U`), a `Command` (an update and where to go: `G`), or nothing.
 * @example `const result: NodeResult<{ status?: string }> = { status: 'ok' };`
 */
export type NodeResult<U = StateUpdate<State>, G extends string = string> = U | Command<U, G> | void | undefined;

/**
 * A node: takes the state `S` (a copy; treat it as read-only), returns `R` — an update, a `Command`, or nothing — or a
 * promise of it. Over a state typed whole (`stateSchema(…)`) `R` is `NodeResult` of its update type, so the result is
 * type-checked; over an open state (`new StateSchema()`, `messagesStateSchema()`) it is `unknown`, checked when the node
 * returns.
 * @example `const lookup: NodeFunction<{ order_id: string; status?: string }> = async (state, { signal }) => ({ status: await fetchStatus(state.order_id, signal) });`
 */
export type NodeFunction<S extends State = State, R = NodeOutput<S>> = (state: S, context: NodeContext) => R | Promise<R>;

/**
 * What a node over state `S` (updates `U`, routes `G`) returns: `NodeResult<U, G>`, or `unknown` for an open state.
 * @internal
 */
export type NodeOutput<S, U = StateUpdate<S>, G extends string = string> = string extends keyof S ? unknown : NodeResult<U, G>;

/** The keys of the update(s) `R` that `U` does not have (each object of a union on its own). */
type ExtraKeys<R, U> = R extends Command<any, any> | void | undefined ? never : R extends object ? Exclude<keyof R, keyof U> : never;

/**
 * `unknown` for a node function `F` whose update(s) hold only keys of `U` (or over an open state `S`); otherwise a type
 * no function is, naming the keys — so a misspelt key is a type error where TypeScript would not check it (it checks
 * no extra keys of an arrow function's returned object).
 * @internal
 */
export type KnownKeysOnly<F, U, S> = string extends keyof S
  ? unknown
  : F extends (...args: any[]) => infer R
    ? [ExtraKeys<Awaited<R>, U>] extends [never]
      ? unknown
      : { 'update keys the state does not have': ExtraKeys<Awaited<R>, U> }
    : unknown;

/**
 * Picks the next node(s) (`R`: node ids or `END`, or the keys of a path map) from the state after a step.
 * @example `const route: Router<{ ok: boolean }, 'ship' | 'ask'> = (state) => (state.ok ? 'ship' : 'ask');`
 */
export type Router<S extends State = State, R extends string = string> = (state: S) => R | readonly R[] | Promise<R | readonly R[]>;

/**
 * The routes a node declares with `ends`, as `Command.goto` accepts them (any string when it declares none).
 * @internal
 */
export type DeclaredTargets<E extends readonly string[]> = string[] extends E ? string : E[number] | typeof END;

/**
 * Node ids of a graph over state `S` before any node is added: untyped (`string`) for an open state (one that allows
 * any key, like `new StateSchema()` or `messagesStateSchema()`), and tracked node by node for a state typed whole
 * (`stateSchema(…)`), so edges, routers and `Command.goto` are checked by node id.
 * @internal
 */
export type InitialNodeIds<S> = string extends keyof S ? string : never;
