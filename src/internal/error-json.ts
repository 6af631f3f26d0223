/**
 * A JSON-safe description of any thrown value, for `toJSON()` and log records: name, message, string/number code,
 * and the cause chain (bounded). Stacks are left out; secrets are the caller's concern.
 */
import { read } from './error-chain.js';
import { isPlainObject, safeString, truncate, tryStringify } from './json.js';

export type ErrorJSON = { name?: string; message: string; [key: string]: unknown };

export function describeError(value: unknown, depth = 0): unknown {
  if (depth > 5) return { message: '[cause chain truncated]' };
  if (value === null || value === undefined) return value;
  if (typeof value !== 'object' && typeof value !== 'function') return typeof value === 'string' ? value : safeString(value);
  const toJSON = read(value, 'toJSON');
  if (typeof toJSON === 'function' && !(value instanceof Date)) {
    try {
      const json = (toJSON as () => unknown).call(value);
      if (tryStringify(json) !== undefined) return json;
    } catch {
      // fall through to the generic description
    }
  }
  if (isPlainObject(value)) {
    const text = tryStringify(value);
    return text === undefined ? { message: '[unserializable object]' } : JSON.parse(text);
  }
  const description: ErrorJSON = { message: truncate(safeString(read(value, 'message') ?? ''), 2000) };
  const name = read(value, 'name');
  if (typeof name === 'string') description.name = name;
  const code = read(value, 'code');
  if (typeof code === 'string' || typeof code === 'number') description.code = code;
  const cause = read(value, 'cause');
  if (cause !== undefined) description.cause = describeError(cause, depth + 1);
  const members = read(value, 'errors');
  if (Array.isArray(members)) description.errors = members.slice(0, 20).map((member) => describeError(member, depth + 1));
  return description;
}
