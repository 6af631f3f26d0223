import { ConfigError } from '../errors/config-error.js';
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
    return this.reduce(state, input);
  }

  /** A new state with `update` reduced into `state` field by field (neither input is mutated). */
  reduce(state: State, update: State | undefined): State {
    const next: State = { ...state };
    if (!update) return next;
    for (const key of Object.keys(update)) {
      const reducer = this.fields.get(key)?.reducer;
      const value = update[key];
      defineData(next, key, reducer ? reducer(next[key], value) : value);
    }
    return next;
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
