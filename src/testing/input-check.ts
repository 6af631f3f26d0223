/**
 * @internal The input checks of `faultline/testing`: every exported helper refuses bad input synchronously with one
 * `ConfigError` listing every problem (a refused value named by `refusedValue`, never printed whole), never a bare
 * `TypeError` from deep inside it — or, worse, a `Response` whose body fails only when read.
 */
import { ConfigError } from '../errors/config-error.js';
import { signalProblems } from '../internal/call-options.js';
import { isPlainObject, refusedValue } from '../internal/json.js';
import { optionName, unknownOptionProblems } from '../internal/option-names.js';

/**
 * Throws one `ConfigError` (`Invalid <subject>: …`) when there are problems; returns otherwise.
 * @example `checkInput('textEvents input', stringListProblems(pieces, 'pieces'))`
 */
export function checkInput(subject: string, problems: readonly string[]): void {
  if (problems.length > 0) throw ConfigError.fromProblems(subject, problems);
}

/**
 * The problems of a fault handler's options: an object whose only name is `baseURL`, an absolute http(s) URL (a
 * client must be pointed at `<baseURL>/…`, and msw would match nothing else).
 * @example `checkInput('chatFaultHandlers options', baseURLProblems(options))`
 */
export function baseURLProblems(options: unknown): string[] {
  if (!isPlainObject(options)) return [`options must be an object { baseURL: string } (got ${refusedValue(options)})`];
  const problems = unknownOptionProblems(options, ['baseURL']);
  const base = options.baseURL;
  if (typeof base !== 'string') problems.push(`baseURL must be an absolute http(s) URL string (got ${refusedValue(base)})`);
  else {
    const protocol = protocolOf(base);
    if (protocol === undefined) problems.push(`baseURL must be an absolute http(s) URL (got ${refusedValue(base)})`);
    else if (protocol !== 'http:' && protocol !== 'https:') problems.push(`baseURL must be an http: or https: URL (got ${refusedValue(protocol)})`);
  }
  return problems;
}

/** The scheme of an absolute URL (`https:`), or `undefined` when `text` is not one. */
function protocolOf(text: string): string | undefined {
  try {
    return new URL(text).protocol;
  } catch {
    return undefined;
  }
}

/** The problem of `value` if it is not a plain object (`name` is how the problem calls it). */
export function objectProblems(value: unknown, name: string): string[] {
  return isPlainObject(value) ? [] : [`${name} must be an object (got ${refusedValue(value)})`];
}

/** The problem of `value` if it is not a string (`name` is how the problem calls it). */
export function stringProblems(value: unknown, name: string): string[] {
  return typeof value === 'string' ? [] : [`${name} must be a string (got ${refusedValue(value)})`];
}

/** The problems of a list of strings: not an array, or each entry that is not a string, by position. */
export function stringListProblems(value: unknown, name: string): string[] {
  if (!Array.isArray(value)) return [`${name} must be an array of strings (got ${refusedValue(value)})`];
  return value.flatMap((entry: unknown, index) => stringProblems(entry, `${name}[${index}]`));
}

/** The problem of `value` if it is given and not an integer ≥ 0. */
export function countProblems(value: unknown, name: string): string[] {
  return value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 0) ? [] : [`${name} must be an integer ≥ 0 (got ${refusedValue(value)})`];
}

/** The problem of `value` if it is given and not a finite number ≥ 0 (a time in ms). */
export function delayProblems(value: unknown, name: string): string[] {
  return value === undefined || (typeof value === 'number' && Number.isFinite(value) && value >= 0) ? [] : [`${name} must be a number of ms ≥ 0 (got ${refusedValue(value)})`];
}

/**
 * The problems of SSE data payloads: an array whose entries are strings (sent as they are) or JSON-encodable values
 * (a `bigint`, a cycle or `undefined` is not), each refused by position.
 * @example `checkInput('sseText input', eventListProblems(events, 'events'))`
 */
export function eventListProblems(events: unknown, name: string): string[] {
  if (!Array.isArray(events)) return [`${name} must be an array of data payloads (got ${refusedValue(events)})`];
  const problems: string[] = [];
  events.forEach((event: unknown, index) => {
    if (typeof event === 'string') return;
    let encoded: string | undefined;
    try {
      encoded = JSON.stringify(event) as string | undefined;
    } catch {
      encoded = undefined;
    }
    if (encoded === undefined) problems.push(`${name}[${index}] must be a string or JSON-encodable (got ${typeof event === 'bigint' ? 'a bigint' : refusedValue(event)})`);
  });
  return problems;
}

/**
 * The problems of tool calls to stream: an array of `{ id, name, arguments }` objects of strings, each refused by
 * position (a misspelt name with the one meant).
 */
export function toolCallListProblems(calls: unknown, name: string): string[] {
  if (!Array.isArray(calls)) return [`${name} must be an array of { id, name, arguments } (got ${refusedValue(calls)})`];
  return calls.flatMap((call: unknown, index) => {
    const where = `${name}[${index}]`;
    if (!isPlainObject(call)) return [`${where} must be an object { id, name, arguments } (got ${refusedValue(call)})`];
    const keys = ['id', 'name', 'arguments'] as const;
    return [...unknownOptionProblems(call, keys).map((problem) => `${where}: ${problem}`), ...keys.flatMap((key) => stringProblems(call[key], `${where}.${key}`))];
  });
}

/**
 * The problems of a stream plan (`StreamPlan`): an object (or nothing) of known names, event numbers integers ≥ 0,
 * delays numbers ≥ 0, `headers` an object of strings, `signal` an `AbortSignal`.
 */
export function streamPlanProblems(plan: unknown): string[] {
  if (plan === undefined) return [];
  if (!isPlainObject(plan)) return [`plan must be an object (got ${refusedValue(plan)})`];
  const problems = unknownOptionProblems(plan, ['dropAfter', 'dropDelayMs', 'endAfter', 'stallAfter', 'firstByteDelayMs', 'headers', 'signal']);
  problems.push(...signalProblems(plan.signal));
  for (const key of ['dropAfter', 'endAfter', 'stallAfter']) problems.push(...countProblems(plan[key], key));
  for (const key of ['dropDelayMs', 'firstByteDelayMs']) problems.push(...delayProblems(plan[key], key));
  const headers = plan.headers;
  if (headers !== undefined) {
    if (!isPlainObject(headers)) problems.push(`headers must be an object of strings (got ${refusedValue(headers)})`);
    else for (const [key, value] of Object.entries(headers)) problems.push(...stringProblems(value, `header ${optionName(key)}`));
  }
  return problems;
}
