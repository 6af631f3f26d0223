/**
 * State deltas on events: one JSON text per state key (`null` for a nil value), wire-compatible with tRPC-Agent-Go's
 * `map[string][]byte`. Encoding, decoding and the runner's "last write wins, metadata dropped" merge.
 */
import { SerializeError } from '../errors/serialize-error.js';
import { messageOf } from '../internal/error-chain.js';
import { encodeJSON } from '../wire/safe-json.js';
import { METADATA_STATE_KEYS, STATE_NOT_SERIALIZABLE } from './constants.js';
import { defineData, preview, truncate } from '../internal/json.js';

/** State as a delta encodes it: a plain object of named values (the graph's `State`). */
type State = Record<string, unknown>;

/** A state delta: JSON text per key. */
export type StateDelta = Record<string, string | null>;

/**
 * Encodes state values as JSON texts; `undefined`/`null` become `null`. Throws the `SerializeError` of the first key
 * whose value cannot be JSON (`marshal state delta key "<k>": <path> is a BigInt…`, code `STATE_NOT_SERIALIZABLE`);
 * {@link encodeStateKeys} keeps the other keys instead.
 * @example `encodeStateDelta({ done: true }) // { done: 'true' }`
 */
export function encodeStateDelta(state: State): StateDelta {
  const { delta, failures } = encodeStateKeys(state);
  if (failures.length > 0) throw failures[0];
  return delta;
}

/** A state encoded key by key: every key that could be written, and a typed error for each one that could not. */
export interface EncodedState {
  delta: StateDelta;
  /** One per key that cannot be JSON, code {@link STATE_NOT_SERIALIZABLE}, naming the key and the path inside it. */
  failures: SerializeError[];
}

/**
 * Encodes state values key by key: a key that cannot be JSON (a BigInt, a cycle, a throwing getter, nesting too
 * deep) is left out and reported, every other key is kept — one bad value never costs the rest of the state.
 * @example `const { delta, failures } = encodeStateKeys({ ok: 1, big: 2n }) // delta { ok: '1' }, one failure for "big"`
 */
export function encodeStateKeys(state: State): EncodedState {
  const delta: StateDelta = {};
  const failures: SerializeError[] = [];
  for (const key of Object.keys(state)) {
    let value: unknown;
    try {
      value = state[key];
      if (value === undefined || value === null) {
        defineData(delta, key, null);
        continue;
      }
      defineData(delta, key, encodeJSON(value, `state key ${preview(key, 200)}`, truncate(key, 200))); // the path a failure names starts at the key: bounded
    } catch (error) {
      // tRPC-Agent-Go's wording ("marshal state delta key %q: …"), then where and why.
      const issues = SerializeError.isInstance(error) ? error.issues : [];
      const why = issues[0] ? `${truncate(issues[0].path, 400)} ${issues[0].message}` : `it cannot be read: ${messageOf(error)}`;
      failures.push(new SerializeError(`marshal state delta key ${preview(key, 200)}: ${why}`, { subject: `state key ${preview(key, 200)}`, issues, code: STATE_NOT_SERIALIZABLE, cause: error }));
    }
  }
  return { delta, failures };
}

/**
 * Decodes a state delta into values; a value that is not valid JSON is kept as its raw text (tRPC's rule).
 * @example `decodeStateDelta({ done: 'true' }) // { done: true }`
 */
export function decodeStateDelta(delta: StateDelta | undefined): State {
  const state: State = {};
  if (!delta) return state;
  for (const key of Object.keys(delta)) {
    const text = delta[key];
    if (text === null || text === undefined) {
      defineData(state, key, null);
      continue;
    }
    try {
      defineData(state, key, JSON.parse(text));
    } catch {
      defineData(state, key, text);
    }
  }
  return state;
}

/**
 * Copies `source` into `target` key by key (last write wins), keeping `null` values as present, skipping graph
 * metadata keys when `dropMetadata` is set. Strings are immutable, so nothing is aliased.
 * @example `mergeStateDelta(fallback, event.stateDelta, true)`
 */
export function mergeStateDelta(target: StateDelta, source: StateDelta | undefined, dropMetadata: boolean): StateDelta {
  if (!source) return target;
  for (const key of Object.keys(source)) {
    if (dropMetadata && METADATA_STATE_KEYS.has(key)) continue;
    const value = source[key];
    defineData(target, key, value === undefined ? null : value);
  }
  return target;
}

/** A copy without graph metadata keys. */
export function withoutMetadata(delta: StateDelta | undefined): StateDelta {
  return mergeStateDelta({}, delta, true);
}
