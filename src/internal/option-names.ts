/**
 * @internal Option names a caller wrote, checked against the names a function takes: an option it does not know is a
 * problem, never silently ignored (a mistyped `needsApproval` would let a tool run unasked), and the problem points
 * at the name meant — one given for another SDK's habit (`aliases`), or the closest known one.
 */
import { closestMatch } from './closest.js';
import { isPlainObject, positiveIntegerProblems, refusedValue } from './json.js';

/**
 * A name a caller wrote, as a problem may quote it: as it is when it looks like an option name (up to 40 characters,
 * no run of 16 or more letters and digits holding a digit, which is how tokens look), otherwise by its length only —
 * an options object spread from somewhere else may carry a secret as a key.
 * @example `problems.push(\`unknown option ${optionName(key)}\`)`
 */
export function optionName(name: string): string {
  return name.length <= 40 && !/(?=[A-Za-z0-9]*[0-9])[A-Za-z0-9]{16,}/.test(name) ? JSON.stringify(name) : `of ${name.length} characters`;
}

/**
 * Every key of `options` that `known` does not hold, as a problem: `unknown option "maxIteration" (did you mean
 * maxIterations?)`. Own enumerable string keys only, as a spread reads them.
 * @example `problems.push(...unknownOptionProblems(options, ['store']))`
 */
export function unknownOptionProblems(options: object, known: readonly string[], aliases: Readonly<Record<string, string>> = {}): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const meant = Object.hasOwn(aliases, key) ? aliases[key] : closestMatch(key, known);
    problems.push(`unknown option ${optionName(key)}${meant === undefined ? '' : ` (did you mean ${meant}?)`}`);
  }
  return problems;
}

/**
 * The problems of a bounded store's options: an object (or nothing) whose only names are `keys`, each an integer > 0
 * when given — a mistyped bound (`maxSesions`) would leave the default in force unnoticed.
 * @example `const problems = boundOptionProblems(options, ['maxSessions', 'maxBytes'])`
 */
export function boundOptionProblems(options: unknown, keys: readonly string[]): string[] {
  if (options === undefined) return [];
  if (!isPlainObject(options)) return [`options must be an object (got ${refusedValue(options)})`];
  return [...unknownOptionProblems(options, keys), ...positiveIntegerProblems(options, keys)];
}

/** Every name retry options take (`RetryOptions`, internal/retry.ts). */
const RETRY_KEYS = ['maxAttempts', 'initialDelayMs', 'maxDelayMs', 'multiplier', 'jitter', 'maxRetryAfterMs'];

/**
 * The names in retry options that retry options do not take, as problems naming the one meant: another SDK's
 * `baseDelayMs` or `retries` would leave the default in force unnoticed (`extra`: names a caller's retry adds, a
 * node's `retryOn`). Apart from `retryOptionProblems` (internal/retry.ts): the A2A client, whose bundle has no room
 * for the closest-name search, checks no option names (see docs/a2a.md).
 * @example `problems.push(...retryNameProblems(options.retry, 'retry'))`
 */
export function retryNameProblems(options: unknown, where: string, extra: readonly string[] = []): string[] {
  if (options === null || typeof options !== 'object') return [];
  return unknownOptionProblems(options, [...RETRY_KEYS, ...extra], { baseDelayMs: 'initialDelayMs' }).map((problem) => `${where}: ${problem}`);
}
