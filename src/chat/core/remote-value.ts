/**
 * @internal What an error says of a value a provider sent where something else belonged (an index that is no index, an
 * error object without a message). Such a value may nest deeper than the runtime's stack or hold millions of items,
 * which `JSON.parse` accepts and `JSON.stringify` then cannot write back (a raw `RangeError`), so it is described, not
 * encoded: a primitive as its JSON literal (which says its type), an array or object by its type and a preview one
 * level deep — whatever lies below is `[…]` or `{…}`, and the preview stops at its bound. Strings and keys are
 * redacted whole before anything is cut (a secret cut in two would no longer be found). Never throws.
 */
import { safeString, truncate } from '../../internal/json.js';
import { redactText } from '../../internal/redact.js';

/** Remote text that reaches events and metadata: redacted and bounded like any other. */
export function excerpt(text: string, secrets: readonly string[], length = 200): string {
  return truncate(redactText(text, secrets), length);
}

/** How many entries of an array or object the preview lists at most. */
const PREVIEW_ENTRIES = 8;

/**
 * `value` described for an error message in at most `length` characters: `-1`, `"0"`, `null`,
 * `an object {"at":0}`, `an array of 1 item [[…]]`.
 * @param secrets Removed from every string and key shown (every form of them, and credential-shaped text).
 * @example `throw this.malformed(\`a choice with index ${describeRemote(index, secrets, 40)}\`, raw)`
 */
export function describeRemote(value: unknown, secrets: readonly string[], length = 40): string {
  try {
    return truncate(describe(value, secrets, length), length);
  } catch {
    return typeof value === 'object' && value !== null ? 'an object' : typeof value; // a Proxy whose traps throw
  }
}

function describe(value: unknown, secrets: readonly string[], length: number): string {
  if (value === null || typeof value !== 'object') return literal(value, secrets, length);
  if (Array.isArray(value)) {
    const count = value.length;
    let preview = '';
    for (let index = 0; index < count && index < PREVIEW_ENTRIES && preview.length <= length; index++) {
      preview += (index === 0 ? '' : ',') + shallow(value[index], secrets, length);
    }
    const more = count > PREVIEW_ENTRIES || preview.length > length ? ',…' : '';
    return `an array of ${count} item${count === 1 ? '' : 's'} [${preview}${more}]`;
  }
  let preview = '';
  let shown = 0;
  for (const key in value) {
    if (shown === PREVIEW_ENTRIES || preview.length > length) {
      preview += ',…';
      break;
    }
    const item = (value as Record<string, unknown>)[key];
    preview += `${shown++ === 0 ? '' : ','}${literal(key, secrets, length)}:${shallow(item, secrets, length)}`;
  }
  return `an object {${preview}}`;
}

/** One entry of a preview: a primitive as its literal, anything that holds more as `[…]` or `{…}` (never walked). */
function shallow(value: unknown, secrets: readonly string[], length: number): string {
  if (value === null || typeof value !== 'object') return literal(value, secrets, length);
  return Array.isArray(value) ? '[…]' : '{…}';
}

/** A primitive as JSON writes it (a string redacted first, then cut); what JSON has no literal for, by its type. */
function literal(value: unknown, secrets: readonly string[], length: number): string {
  if (typeof value === 'string') return truncate(JSON.stringify(redactText(value, secrets)), length);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'bigint' ? `${safeString(value)}n` : typeof value; // not from JSON.parse: undefined, a function
}

/**
 * The distinct names a provider sent where this client expects known ones (each already redacted and cut), at most
 * five of them: an answer of thousands of unknown types is not quoted whole.
 * @example `listed(['a', 'b', 'a'])` is `'a, b'`; seven names read `'a, b, c, d, e and 2 more'`.
 */
export function listed(names: readonly string[]): string {
  const distinct = [...new Set(names)];
  return distinct.length <= 5 ? distinct.join(', ') : `${distinct.slice(0, 5).join(', ')} and ${distinct.length - 5} more`;
}
