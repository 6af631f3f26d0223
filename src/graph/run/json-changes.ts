/** @internal What JSON would change in a graph's state without refusing it (a checkpoint must read back the same). */
import { MAX_JSON_DEPTH, pathText } from '../../wire/safe-json.js';

/**
 * Where `JSON.stringify` would write `value` as something else than it is — a number that is not finite, an array's
 * `undefined` or hole (each `null`) — if anywhere (the first place, its path from `root`; what `droppedValues` finds is
 * not looked for). For a value just written as JSON: the walk is as long as that text (a `toJSON` says for itself).
 * @example `changedByJSON({ total: NaN }, 'state') // { path: 'state.total', kind: 'NaN' }`
 */
export function changedByJSON(value: unknown, root: string): { path: string; kind: string } | undefined {
  const keys: Array<string | number> = [];
  const walk = (current: unknown): string | undefined => {
    if (typeof current === 'number') return Number.isFinite(current) ? undefined : String(current);
    if (current === null || typeof current !== 'object' || keys.length > MAX_JSON_DEPTH || typeof (current as { toJSON?: unknown }).toJSON === 'function') return undefined;
    const array = Array.isArray(current);
    const names: Array<string | number> = array ? Array.from({ length: current.length }, (_, index) => index) : Object.keys(current);
    for (const name of names) {
      const item = (current as Record<string | number, unknown>)[name];
      keys.push(name);
      const kind = array && item === undefined ? 'undefined in a list' : walk(item);
      if (kind !== undefined) return kind;
      keys.pop();
    }
    return undefined;
  };
  const kind = walk(value);
  return kind === undefined ? undefined : { path: pathText(root, keys), kind };
}
