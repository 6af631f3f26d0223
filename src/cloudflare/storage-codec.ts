/**
 * @internal JSON values in Durable Object storage, within its limits on every backend (a KV-backed object takes 128 KiB
 * a value and 128 keys a call; a SQLite-backed one 2 MB): a value's JSON text is split into parts of
 * {@link PART_CHARS} characters (at most 96 KiB of UTF-8), and a write of many keys is issued as several calls with no
 * `await` between them — the platform coalesces those into one atomic write.
 */
import { isPlainObject, preview, refusedValue } from '../internal/json.js';
import type { DurableObjectStorageLike } from './types.js';

/** Characters of JSON text per stored part (3 bytes each at worst: 96 KiB). */
export const PART_CHARS = 32_768;
/**
 * The most parts a value is ever written in: 512 Mi characters of JSON text. A value's text is one string, and V8's
 * (workerd's, Node's, Deno's) longest string is just under that; {@link encodeEntries} refuses a longer text on an
 * engine that allows one. A parts header outside 2 to this is damaged: nothing is read or allocated for it.
 */
export const MAX_PARTS = 16_384;
/** Keys per storage call. */
const KEYS_PER_CALL = 128;
/** Longest key (UTF-8 bytes) the platform takes (2 KiB), with room for the part suffix. */
export const MAX_KEY_BYTES = 1_900;

/** A stored value too large for one part: how many parts follow under `<key>#<n>`. */
interface PartsHeader {
  parts: number;
  /** A checkpoint's revision, readable without its parts (`durable-checkpointer.ts`). */
  revision?: number;
}

/**
 * @internal What is stored under a key is not something {@link encodeEntries} writes: a parts header whose `parts` is
 * not an integer from 2 to {@link MAX_PARTS}, a missing part, text that is not JSON, a value that is neither text nor
 * a header. Each store turns it into its own typed "damaged" answer.
 */
export class DamagedValueError extends TypeError {
  constructor(
    readonly key: string,
    why: string,
  ) {
    super(`the value stored under ${preview(key, 200)} is damaged: ${why}`);
  }
}

/**
 * @internal How many parts the value stored under `key` has: 0 for none (`undefined`) or a whole value (its text); a
 * header's count, checked against {@link MAX_PARTS} before anything is built from it; a {@link DamagedValueError}
 * for anything else. Every reader of a header goes through it.
 * @example `const parts = storedParts(key, await storage.get(key))`
 */
export function storedParts(key: string, stored: unknown): number {
  if (stored === undefined || typeof stored === 'string') return 0;
  if (!isPlainObject(stored) || !Object.hasOwn(stored, 'parts')) throw new DamagedValueError(key, `it is ${refusedValue(stored)}, neither JSON text nor a parts header`);
  const parts = stored.parts;
  if (typeof parts === 'number' && Number.isInteger(parts) && parts >= 2 && parts <= MAX_PARTS) return parts;
  throw new DamagedValueError(key, `its parts header says ${refusedValue(parts)} parts (values are written in 2 to ${MAX_PARTS})`);
}

/** @internal The keys of the parts of the value stored under `key` (none for a whole value); throws as {@link storedParts}. */
export function partKeys(key: string, stored: unknown): string[] {
  return Array.from({ length: storedParts(key, stored) }, (_, index) => `${key}#${index}`);
}

/** The entries that store `value` under `key` (its parts included). */
export function encodeEntries(key: string, value: unknown): Record<string, string | PartsHeader> {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`the value stored under ${key} is not JSON`);
  if (text.length > MAX_PARTS * PART_CHARS) throw new TypeError(`the value stored under ${preview(key, 200)} is ${text.length} characters of JSON; at most ${MAX_PARTS * PART_CHARS} are stored`);
  if (text.length <= PART_CHARS) return { [key]: text };
  const entries: Record<string, string | PartsHeader> = {};
  let parts = 0;
  for (let at = 0; at < text.length; at += PART_CHARS) entries[`${key}#${parts++}`] = text.slice(at, at + PART_CHARS);
  entries[key] = { parts };
  return entries;
}

/** Writes every entry, atomically (calls of at most 128 keys, issued together, awaited together). */
export async function putEntries(storage: DurableObjectStorageLike, entries: Record<string, unknown>): Promise<void> {
  const keys = Object.keys(entries);
  const writes: Promise<void>[] = [];
  for (let at = 0; at < keys.length; at += KEYS_PER_CALL) {
    writes.push(storage.put(Object.fromEntries(keys.slice(at, at + KEYS_PER_CALL).map((key) => [key, entries[key]]))));
  }
  await Promise.all(writes);
}

/** Deletes keys, atomically as {@link putEntries} writes. */
export async function deleteKeys(storage: DurableObjectStorageLike, keys: readonly string[]): Promise<void> {
  const deletes: Promise<number>[] = [];
  for (let at = 0; at < keys.length; at += KEYS_PER_CALL) deletes.push(storage.delete(keys.slice(at, at + KEYS_PER_CALL)));
  await Promise.all(deletes);
}

/** Stores `value` as JSON under `key`, replacing what was there (parts it no longer needs deleted in the same write). */
export async function putJSON(storage: DurableObjectStorageLike, key: string, value: unknown): Promise<void> {
  const entries = encodeEntries(key, value);
  const stale = (await keysOf(storage, key)).filter((old) => !Object.hasOwn(entries, old));
  await Promise.all([putEntries(storage, entries), deleteKeys(storage, stale)]);
}

/**
 * The JSON text stored under `key` from its raw stored value, its parts read 128 at a time (keys built a call at a
 * time: a header allocates nothing before its first part is found); a {@link DamagedValueError} when it is damaged.
 */
export async function readJSONText(storage: DurableObjectStorageLike, key: string, stored: unknown): Promise<string> {
  if (typeof stored === 'string') return stored;
  const parts = storedParts(key, stored);
  if (parts === 0) throw new DamagedValueError(key, 'nothing is stored under it');
  const texts: string[] = [];
  for (let at = 0; at < parts; at += KEYS_PER_CALL) {
    const keys = Array.from({ length: Math.min(KEYS_PER_CALL, parts - at) }, (_, index) => `${key}#${at + index}`);
    const found = await storage.get(keys);
    for (const partKey of keys) {
      const part = found.get(partKey);
      if (typeof part !== 'string') throw new DamagedValueError(key, `part ${partKey.slice(key.length + 1)} of its ${parts} is missing`);
      texts.push(part);
    }
  }
  return texts.join('');
}

/** The value of JSON `text` read under `key`; a {@link DamagedValueError} when it is not JSON. */
export function parseStored(key: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DamagedValueError(key, 'its text is not JSON');
  }
}

/**
 * The value stored under `key` by {@link putJSON}: `undefined` when there is none; a {@link DamagedValueError} (a
 * `TypeError`) naming the key when what is there is not a value this module wrote.
 */
export async function getJSON(storage: DurableObjectStorageLike, key: string): Promise<unknown> {
  const stored = await storage.get(key);
  if (stored === undefined) return undefined;
  return parseStored(key, await readJSONText(storage, key, stored));
}

/** The keys a value under `key` occupies (for deleting it): the key and its parts (see {@link occupiedKeys}). */
export async function keysOf(storage: DurableObjectStorageLike, key: string): Promise<string[]> {
  return occupiedKeys(storage, key, await storage.get(key));
}

/**
 * The keys the values under `keys` (at most 128) occupy (see {@link occupiedKeys}), read in one call.
 * @example `await deleteKeys(storage, await keysOfAll(storage, ['checkpoint:a', 'checkpoint:b']))`
 */
export async function keysOfAll(storage: DurableObjectStorageLike, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const stored = await storage.get([...keys]);
  return (await Promise.all(keys.map((key) => occupiedKeys(storage, key, stored.get(key))))).flat();
}

/**
 * The keys the value `stored` under `key` occupies: the key and its parts — for a damaged value, the parts actually
 * stored (listed, 128 keys a call), never as many as a damaged header says.
 */
export async function occupiedKeys(storage: DurableObjectStorageLike, key: string, stored: unknown): Promise<string[]> {
  try {
    return [key, ...partKeys(key, stored)];
  } catch (error) {
    if (!(error instanceof DamagedValueError)) throw error;
  }
  return [key, ...(await listedKeys(storage, `${key}#`))];
}

/**
 * The keys stored under `prefix`, listed 128 a call (only the keys are kept: a call's values are dropped with it).
 * @example `const children = await listedKeys(storage, 'checkpoint:order-42\u001f')`
 */
export async function listedKeys(storage: DurableObjectStorageLike, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for (let after: string | undefined; ; ) {
    const listed = [...(await storage.list({ prefix, ...(after === undefined ? {} : { startAfter: after }), limit: KEYS_PER_CALL })).keys()];
    keys.push(...listed);
    if (listed.length < KEYS_PER_CALL) return keys;
    after = listed[listed.length - 1];
  }
}

/** Keys listed per call while deleting by range: bounds what one list holds in memory. */
const KEYS_PER_LIST = 1_024;

/**
 * Deletes every key of the object except those starting with `prefix` (`deleteAll` when there are none of those). A
 * prefix ends in a character below U+FFFF, so the keys after it start at the prefix with its last character advanced.
 * @example `await deleteAllExcept(storage, 'session:') // a task's retention: its conversation stays`
 */
export async function deleteAllExcept(storage: DurableObjectStorageLike, prefix: string): Promise<void> {
  if ((await storage.list({ prefix, limit: 1 })).size === 0) return storage.deleteAll();
  const after = `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}`;
  for (const range of [{ end: prefix }, { start: after }]) {
    for (;;) {
      const keys = [...(await storage.list({ ...range, limit: KEYS_PER_LIST })).keys()];
      if (keys.length === 0) break;
      await deleteKeys(storage, keys);
    }
  }
}
