/**
 * @internal The check every public call that takes per-call options makes of them before it starts: an object (or
 * nothing), whose `signal`, when given, is an `AbortSignal` — so `null` options or a signal of the wrong type get the
 * call's typed error naming the option, not a `TypeError` from deep inside. A refused value is named as `refusedValue` names it
 * (a misplaced value may be a secret).
 */
import { refusedValue } from './json.js';

/** True for an `AbortSignal` from any realm: a boolean `aborted` and an `addEventListener`. */
export function isAbortSignal(value: unknown): value is AbortSignal {
  return typeof (value as AbortSignal | null | undefined)?.aborted === 'boolean' && typeof (value as AbortSignal).addEventListener === 'function';
}

/** The problem with `signal` (absent or an `AbortSignal`), if any. */
export function signalProblems(signal: unknown, name = 'signal'): string[] {
  return signal === undefined || isAbortSignal(signal) ? [] : [`${name} must be an AbortSignal (got ${refusedValue(signal)})`];
}

/** The problems with a call's options: `undefined`, or an object whose `signal` is absent or an `AbortSignal`. */
export function callOptionsProblems(options: unknown): string[] {
  if (options === undefined) return [];
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return [`the call's options must be an object (got ${refusedValue(options)})`];
  try {
    return signalProblems((options as { signal?: unknown }).signal);
  } catch {
    return ["the call's options could not be read (a getter threw)"];
  }
}
