import type { ChatMessage } from '../../chat/core/types.js';
import { ConfigError } from '../../errors/config-error.js';
import { WorkflowError } from '../../errors/workflow-error.js';
import { messageOf } from '../../internal/error-chain.js';
import { defineData, isForbiddenKey, isPlainObject, preview, refusedValue } from '../../internal/json.js';
import type { StandardSchemaV1 } from '../../tools/standard-schema.js';

/** Graph state: a plain object of named fields. */
export type State = Record<string, unknown>;

/**
 * The updates a node may return for state `S`: any subset of its fields, each of the field's type.
 * @example `const update: StateUpdate<{ status: 'ok' | 'unknown'; count: number }> = { status: 'ok' };`
 */
export type StateUpdate<S> = { [K in keyof S]?: S[K] };

/** Combines a field's current value with an update (of type `U`). Must not mutate either; return a new value. */
export type Reducer<T = unknown, U = T> = (existing: T | undefined, update: U) => T;

/** One field of a state schema: its value is a `T`, an update of it a `U` (the reducer combines the two). */
export interface StateField<T = unknown, U = T> {
  /** @default overwrite */
  reducer?: Reducer<T, U>;
  /** The value a fresh run starts with (a function, so each run gets its own copy). */
  default?: () => T;
  /** Marks fields that hold execution-error records (the agent node keeps the parent's records out of a child). */
  executionErrors?: boolean;
}

/** A schema with one more field: typed when `T` is given, unchanged for an untyped (`unknown`) field. */
export type WithField<S extends State, U extends State, K extends string, T, V> = unknown extends T ? StateSchema<S, U> : StateSchema<S & { [P in K]: T }, U & { [P in K]?: V }>;

/**
 * Built-in reducers: `overwrite` (the default), `append` (lists: a new array, existing then update), `merge`
 * (objects: a new shallow merge).
 * @example `schema.addField('messages', { reducer: reducers.append, default: () => [] })`
 */
export const reducers = /* @__PURE__ */ Object.freeze({
  overwrite: <T>(_existing: T | undefined, update: T): T => update,
  append: <T>(existing: T[] | undefined, update: T[] | T): T[] => [...(Array.isArray(existing) ? existing : []), ...(Array.isArray(update) ? update : [update])],
  merge: (existing: State | undefined, update: State): State => {
    const merged: State = {};
    for (const source of [existing, update]) {
      if (!isPlainObject(source)) continue;
      for (const key of Object.keys(source)) defineData(merged, key, source[key]);
    }
    return merged;
  },
});

/**
 * The fields of a graph's state and how updates combine. Keys without a field are overwritten. `S` is the state's
 * type, `U` the type of a node's update; `new StateSchema()` is untyped (any key, `unknown` values) and each
 * `addField<T>` adds a typed field to it. For a state typed whole — closed to other keys — use `stateSchema()`.
 *
 * @example
 * ```ts
 * const schema = new StateSchema()
 *   .addField<'messages', ChatMessage[]>('messages', { reducer: reducers.append, default: () => [] })
 *   .addField('inventory_status', {});
 * ```
 */
export class StateSchema<S extends State = State, U extends State = StateUpdate<S>> {
  private readonly fields = new Map<string, StateField>();
  /** The keys a fresh state starts with (the fields with a default, in order), each `undefined`; see `initialState`. */
  #shape: State | undefined;
  /** @internal Set by `stateSchema(standardSchema)`: checks the state a run starts from. */
  readonly validator?: StandardSchemaV1 | undefined;

  /** @internal Use `new StateSchema()` or `stateSchema(…)`. */
  constructor(validator?: StandardSchemaV1) {
    if (validator !== undefined) this.validator = validator;
  }

  /** Adds (or replaces) a field; its type joins the schema's. */
  addField<K extends string, T = unknown, V = T>(name: K, field: StateField<T, V> = {}): WithField<S, U, K, T, V> {
    if (typeof name !== 'string' || name === '' || isForbiddenKey(name)) {
      throw ConfigError.fromProblems('state field', [`field name must be a non-empty string other than __proto__/constructor/prototype (got ${refusedValue(name)})`]);
    }
    this.fields.set(name, field as StateField);
    this.#shape = undefined;
    return this as unknown as WithField<S, U, K, T, V>;
  }

  /**
   * A copy with the same fields and validator. A `StateGraph` keeps a copy of the schema it is built on, so what one
   * graph adds (`use(collector)`) never changes another graph built on the same schema.
   * @example `const mine = shared.clone().addField('notes', {});`
   */
  clone(): StateSchema<S, U> {
    const copy = new StateSchema<S, U>(this.validator);
    for (const [name, field] of this.fields) copy.fields.set(name, field);
    return copy;
  }

  /** The field, if declared. */
  field(name: string): StateField | undefined {
    return this.fields.get(name);
  }

  /** Declared field names. */
  get names(): string[] {
    return [...this.fields.keys()];
  }

  /** Names of the fields that hold execution-error records. */
  get executionErrorKeys(): string[] {
    return [...this.fields].filter(([, field]) => field.executionErrors).map(([name]) => name);
  }

  /** A fresh state: every field's default, then `input` reduced into it. */
  initialState(input: U | State = {}): S {
    // A copy of one long-lived object with the state's keys: every run's states then share its hidden class, which a
    // full GC cannot drop while the schema lives (states built key by key get one nothing keeps alive between runs,
    // and each GC would throw away the optimized code of every function that reads them).
    const state: State = { ...(this.#shape ??= this.shapeOfState()) };
    for (const [name, field] of this.fields) if (field.default) state[name] = field.default(); // field names are never `__proto__`
    if (input) this.reduceInto(state, input);
    return state as S;
  }

  private shapeOfState(): State {
    const shape: State = {};
    for (const [name, field] of this.fields) if (field.default) shape[name] = undefined;
    return shape;
  }

  /** A new state with `update` reduced into `state` field by field (neither input is mutated). */
  reduce(state: S, update: U | undefined): S {
    const next: State = { ...state };
    if (update) this.reduceInto(next, update);
    return next as S;
  }

  /**
   * Reduces `update` into `target` in place — a state the caller owns, such as one superstep's copy, so a step costs
   * one copy of the state however many updates it reduces. All-or-nothing: every key's new value is computed before
   * any is written, so a reducer that throws leaves `target` as it was; the error names the key (`cause`: the
   * reducer's own error).
   * @example `const next = { ...state }; schema.reduceInto(next, first); schema.reduceInto(next, second);`
   */
  reduceInto(target: State, update: U | State): void {
    const keys = Object.keys(update);
    if (keys.length === 1) {
      const key = keys[0] as string; // the common update: one key, nothing to hold back
      defineData(target, key, this.reduceKey(target, key, (update as State)[key]));
      return;
    }
    const values: unknown[] = new Array(keys.length);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      values[index] = this.reduceKey(target, key, (update as State)[key]);
    }
    for (let index = 0; index < keys.length; index++) defineData(target, keys[index] as string, values[index]);
  }

  /** The new value of `key`: `value` reduced into the current one by the field's reducer, or `value` itself. */
  private reduceKey(target: State, key: string, value: unknown): unknown {
    const reducer = this.fields.get(key)?.reducer;
    if (!reducer) return value;
    try {
      return reducer(target[key], value);
    } catch (error) {
      throw new WorkflowError(`the reducer of state key ${preview(key, 200)} threw: ${messageOf(error)}`, { cause: error });
    }
  }
}

/** The state of `messagesStateSchema()`: its four fields typed, any other key allowed. */
export type MessagesState = State & {
  messages: ChatMessage[];
  user_input?: string | undefined;
  last_response?: string | undefined;
  node_responses: Record<string, unknown>;
};

/** An update of a `MessagesState`: `messages` appends one message or a list, `node_responses` merges. */
export type MessagesStateUpdate = State & {
  messages?: ChatMessage | readonly ChatMessage[] | undefined;
  user_input?: string | undefined;
  last_response?: string | undefined;
  node_responses?: Record<string, unknown> | undefined;
};

/**
 * The common conversational schema: `messages` (append), `user_input`, `last_response` (overwrite) and
 * `node_responses` (merge), like tRPC-Agent-Go's `MessagesStateSchema`. Its four fields are typed; other keys are
 * allowed (untyped).
 * @example `const graph = new StateGraph(messagesStateSchema()).use(collector);`
 */
export function messagesStateSchema(): StateSchema<MessagesState, MessagesStateUpdate> {
  return new StateSchema()
    .addField('messages', { reducer: reducers.append as Reducer, default: () => [] })
    .addField('user_input', {})
    .addField('last_response', {})
    .addField('node_responses', { reducer: reducers.merge as Reducer, default: () => ({}) }) as unknown as StateSchema<MessagesState, MessagesStateUpdate>;
}
