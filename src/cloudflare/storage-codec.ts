/**
 * @internal JSON values in Durable Object storage, within its limits on every backend (a KV-backed object takes 128 KiB
 * a value and 128 keys a call; a SQLite-backed one 2 MB): a value's JSON text is split into parts of
 * {@link PART_CHARS} characters (at most 96 KiB of UTF-8), and a write of many keys is issued as several calls with no
 * `await` between them — the platform coalesces those into one atomic write.
 */
import type { DurableObjectStorageLike } from './types.js';

/** Characters of JSON text per stored part (3 bytes each at worst: 96 KiB). */
export const PART_CHARS = 32_768;
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

/** The entries that store `value` under `key` (its parts included). */
export function encodeEntries(key: string, value: unknown): Record<string, string | PartsHeader> {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`the value stored under ${key} is not JSON`);
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

/** The JSON text stored under `key` from its raw stored value (its parts read when it has them). */
export async function readJSONText(storage: DurableObjectStorageLike, key: string, stored: unknown): Promise<string | undefined> {
  if (typeof stored === 'string') return stored;
  const parts = (stored as PartsHeader | undefined)?.parts;
  if (typeof parts !== 'number' || !Number.isInteger(parts) || parts < 1) return undefined;
  const keys = Array.from({ length: parts }, (_, index) => `${key}#${index}`);
  const texts: string[] = [];
  for (let at = 0; at < keys.length; at += KEYS_PER_CALL) {
    const found = await storage.get(keys.slice(at, at + KEYS_PER_CALL));
    for (const partKey of keys.slice(at, at + KEYS_PER_CALL)) {
      const part = found.get(partKey);
      if (typeof part !== 'string') return undefined;
      texts.push(part);
    }
  }
  return texts.join('');
}

/**
 * The value stored under `key` by {@link putJSON}: `undefined` when there is none; a `TypeError` naming the key when
 * what is there is not a value this module wrote (a part missing, text that is not JSON).
 */
export async function getJSON(storage: DurableObjectStorageLike, key: string): Promise<unknown> {
  const stored = await storage.get(key);
  if (stored === undefined) return undefined;
  const text = await readJSONText(storage, key, stored);
  if (text === undefined) throw new TypeError(`the value stored under ${key} is incomplete (a part is missing)`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new TypeError(`the value stored under ${key} is not JSON`);
  }
}

/** The keys a value under `key` occupies (for deleting it): the key and its parts. */
export async function keysOf(storage: DurableObjectStorageLike, key: string): Promise<string[]> {
  const stored = await storage.get(key);
  const parts = (stored as PartsHeader | undefined)?.parts;
  return typeof parts === 'number' && Number.isInteger(parts) && parts > 0 ? [key, ...Array.from({ length: parts }, (_, index) => `${key}#${index}`)] : [key];
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
