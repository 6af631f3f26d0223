import { ConfigError } from '../errors/config-error.js';
import { WorkflowError } from '../errors/workflow-error.js';
import { messageOf } from '../internal/error-chain.js';
import { defineData, isForbiddenKey, isPlainObject } from '../internal/json.js';

/** Graph state: a plain object of named fields. */
export type State = Record<string, unknown>;

/** Combines a field's current value with an update. Must not mutate either; return a new value. */
export type Reducer<T = unknown> = (existing: T | undefined, update: T) => T;

/** One field of a state schema. */
export interface StateField<T = unknown> {
  /** @default overwrite */
  reducer?: Reducer<T>;
  /** The value a fresh run starts with (a function, so each run gets its own copy). */
  default?: () => T;
  /** Marks fields that hold execution-error records (the agent node keeps the parent's records out of a child). */
  executionErrors?: boolean;
}

/**
 * Built-in reducers: `overwrite` (the default), `append` (lists: a new array, existing then update), `merge`
 * (objects: a new shallow merge).
 * @example `schema.addField('messages', { reducer: reducers.append, default: () => [] })`
 */
export const reducers = Object.freeze({
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
 * The fields of a graph's state and how updates combine. Keys without a field are overwritten.
 *
 * @example
 * ```ts
 * const schema = new StateSchema()
 *   .addField('messages', { reducer: reducers.append, default: () => [] })
 *   .addField('inventory_status', {});
 * ```
 */
export class StateSchema {
  private readonly fields = new Map<string, StateField>();

  /** Adds (or replaces) a field. */
  addField<T>(name: string, field: StateField<T> = {}): this {
    if (typeof name !== 'string' || name === '' || isForbiddenKey(name)) {
      throw ConfigError.fromProblems('state field', [`field name must be a non-empty string other than __proto__/constructor/prototype (got ${JSON.stringify(name)})`]);
    }
    this.fields.set(name, field as StateField);
    return this;
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
  initialState(input: State = {}): State {
    const state: State = {};
    for (const [name, field] of this.fields) if (field.default) defineData(state, name, field.default());
    if (input) this.reduceInto(state, input);
    return state;
  }

  /** A new state with `update` reduced into `state` field by field (neither input is mutated). */
  reduce(state: State, update: State | undefined): State {
    const next: State = { ...state };
    if (update) this.reduceInto(next, update);
    return next;
  }

  /**
   * Reduces `update` into `target` in place — a state the caller owns, such as one superstep's copy, so a step costs
   * one copy of the state however many updates it reduces. All-or-nothing: every key's new value is computed before
   * any is written, so a reducer that throws leaves `target` as it was; the error names the key (`cause`: the
   * reducer's own error).
   * @example `const next = { ...state }; schema.reduceInto(next, first); schema.reduceInto(next, second);`
   */
  reduceInto(target: State, update: State): void {
    const keys = Object.keys(update);
    const values: unknown[] = new Array(keys.length);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      const reducer = this.fields.get(key)?.reducer;
      const value = update[key];
      if (!reducer) {
        values[index] = value;
        continue;
      }
      try {
        values[index] = reducer(target[key], value);
      } catch (error) {
        throw new WorkflowError(`the reducer of state key ${JSON.stringify(key)} threw: ${messageOf(error)}`, { cause: error });
      }
    }
    for (let index = 0; index < keys.length; index++) defineData(target, keys[index] as string, values[index]);
  }
}

/**
 * The common conversational schema: `messages` (append), `user_input`, `last_response` (overwrite) and
 * `node_responses` (merge), like tRPC-Agent-Go's `MessagesStateSchema`.
 * @example `const schema = messagesStateSchema(); collector.addField(schema);`
 */
export function messagesStateSchema(): StateSchema {
  return new StateSchema()
    .addField('messages', { reducer: reducers.append as Reducer, default: () => [] })
    .addField('user_input', {})
    .addField('last_response', {})
    .addField('node_responses', { reducer: reducers.merge as Reducer, default: () => ({}) });
}
