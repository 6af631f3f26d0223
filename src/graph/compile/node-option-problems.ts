/**
 * @internal The checks `compile()` reports for what `addNode` accepts besides the node function (see `NodeOptions`).
 * The graph's builder collects the problems; nothing here throws.
 */
import { isPlainObject, preview, refusedValue } from '../../internal/json.js';
import { retryNameProblems, unknownOptionProblems } from '../../internal/option-names.js';
import { retryOptionProblems } from '../../internal/retry.js';
import type { NodeFallback } from '../core/node-fallback.js';
import type { NodeOptions } from '../core/node-options.js';

/**
 * @internal The problems of the options object of node `id`: not an object, or an option name not among `known` (its
 * kind's names: a mistyped `timeoutMs` would leave the node without a limit).
 */
export function nodeOptionNameProblems(id: string, options: unknown, known: readonly string[]): string[] {
  const name = `node ${preview(id, 200)}`;
  if (!isPlainObject(options)) return [`${name} options must be an object (got ${refusedValue(options)})`];
  return unknownOptionProblems(options, known, { timeout: 'timeoutMs' }).map((problem) => `${name}: ${problem}`);
}

/** @internal The problems of node `id`'s option values (unknown `goto` targets are found later, at `compile()`). */
export function nodeOptionProblems(id: string, options: NodeOptions<unknown>): string[] {
  const name = `node ${preview(id, 200)}`;
  const problems = [...retryOptionProblems(options.retry, `${name} retry`), ...retryNameProblems(options.retry, `${name} retry`, ['retryOn'])];
  if (options.retry?.retryOn !== undefined && typeof options.retry.retryOn !== 'function') problems.push(`${name} retry.retryOn must be a function`);
  const { timeoutMs, fallback } = options;
  if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !(timeoutMs > 0))) {
    problems.push(`${name} timeoutMs must be a number > 0 or Infinity (got ${refusedValue(timeoutMs)})`);
  }
  if (fallback === undefined) return problems;
  if (!isPlainObject(fallback)) {
    problems.push(`${name} fallback must be an object {update?, goto?}`);
    return problems;
  }
  if (fallback.update !== undefined && !isPlainObject(fallback.update)) problems.push(`${name} fallback.update must be a state update object`);
  const { goto } = fallback;
  const targets = typeof goto === 'string' ? [goto] : Array.isArray(goto) ? goto : undefined;
  if (goto !== undefined && (targets === undefined || targets.some((target) => typeof target !== 'string' || target === ''))) {
    problems.push(`${name} fallback.goto must be a node id, END, or a list of them`);
  }
  return problems;
}

/** @internal The `goto` targets of a fallback, as a list (none when it has no valid `goto`). */
export function fallbackTargets(fallback: NodeFallback<unknown> | undefined): string[] {
  const goto = fallback?.goto;
  if (typeof goto === 'string') return goto === '' ? [] : [goto];
  return Array.isArray(goto) ? goto.filter((target): target is string => typeof target === 'string' && target !== '') : [];
}
