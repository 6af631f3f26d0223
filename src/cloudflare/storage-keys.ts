/**
 * @internal Keys and object names built from caller text (run ids, session keys). Durable Object storage and
 * `idFromName` take UTF-8: a lone UTF-16 surrogate — a valid JS string, e.g. `"\ud800"` in a JSON body — comes back
 * from them as U+FFFD, so a key holding one is listed and read back as another key (its delete deletes nothing, its
 * parts read as missing) and two names meet in one object. Every such key goes through {@link escapeKeyText}.
 */
import { MAX_KEY_BYTES } from './storage-codec.js';

/** `%` (the escape), `#` (starts a part key) and every lone surrogate. */
const ESCAPED = /[%#]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * @internal `text` as well-formed key text that no other text escapes to: `%` → `%25`, `#` → `%23`, a lone surrogate
 * → `%uXXXX`. Well-formed text without `%` or `#` is unchanged.
 * @example `escapeKeyText('order-\ud800#1') // 'order-%uD800%231'`
 */
export function escapeKeyText(text: string): string {
  return text.replace(ESCAPED, (character) => (character === '%' ? '%25' : character === '#' ? '%23' : `%u${character.charCodeAt(0).toString(16).toUpperCase()}`));
}

/**
 * @internal The storage key of `runId`'s record under `prefix` (escaped by {@link escapeKeyText}), within the
 * platform's key size; a `TypeError` naming `what` for a run id that is not a non-empty string or is too long.
 * @example `storageKey('checkpoint:', 'order-42', 'a checkpoint') // 'checkpoint:order-42'`
 */
export function storageKey(prefix: string, runId: unknown, what: string): string {
  if (typeof runId !== 'string' || runId === '') throw new TypeError(`${what} needs a run id`);
  const key = `${prefix}${escapeKeyText(runId)}`;
  const bytes = new TextEncoder().encode(key).byteLength; // the platform counts a key's UTF-8 bytes
  if (bytes > MAX_KEY_BYTES) throw new TypeError(`the run id is too long for a Durable Object storage key (${bytes} bytes with its prefix; at most ${MAX_KEY_BYTES})`);
  return key;
}
