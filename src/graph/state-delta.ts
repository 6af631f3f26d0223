/**
 * State deltas on events: one JSON text per state key (`null` for a nil value), wire-compatible with tRPC-Agent-Go's
 * `map[string][]byte`. Encoding, decoding and the runner's "last write wins, metadata dropped" merge.
 */
import { SerializeError } from '../errors/serialize-error.js';
import { messageOf } from '../internal/error-chain.js';
import { defineData } from '../internal/json.js';
import { METADATA_STATE_KEYS } from '../runner/constants.js';
import type { State } from './state-schema.js';

/** A state delta: JSON text per key. */
export type StateDelta = Record<string, string | null>;

/**
 * Encodes state values as JSON texts; `undefined`/`null` become `null`. Throws `SerializeError` naming the key for
 * a value that cannot be JSON (`marshal state delta key "<k>"`).
 * @example `encodeStateDelta({ done: true }) // { done: 'true' }`
 */
export function encodeStateDelta(state: State): StateDelta {
  const delta: StateDelta = {};
  for (const key of Object.keys(state)) {
    const value = state[key];
    if (value === undefined || value === null) {
      defineData(delta, key, null);
      continue;
    }
    let text: string | undefined;
    try {
      text = JSON.stringify(value);
    } catch (error) {
      throw new SerializeError(`marshal state delta key ${JSON.stringify(key)}: ${messageOf(error)}`, { subject: `state key ${JSON.stringify(key)}`, cause: error });
    }
    if (text === undefined) throw new SerializeError(`marshal state delta key ${JSON.stringify(key)}: the value is not representable as JSON`, { subject: `state key ${JSON.stringify(key)}` });
    defineData(delta, key, text);
  }
  return delta;
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
