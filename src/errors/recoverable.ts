import { errorChain, messageOf, read, readConvention } from '../internal/error-chain.js';

/**
 * An error that says whether a workflow may continue past it (tRPC-Agent-Go's `RecoverableExecutionError`).
 * Implement `recoverable()` (or a boolean `recoverable` property) on your own error classes.
 *
 * @example
 * ```ts
 * class QuotaSoftLimit extends Error { recoverable() { return true; } }
 * ```
 */
export interface RecoverableError extends Error {
  recoverable(): boolean;
}

class RecoverableWrapper extends Error implements RecoverableError {
  override readonly name: string;

  constructor(cause: unknown) {
    super(messageOf(cause), { cause });
    const name = read(cause, 'name');
    this.name = typeof name === 'string' ? name : 'Error';
  }

  recoverable(): boolean {
    return true;
  }
}

/**
 * Whether a failure may be recovered from: the first link of the chain (`cause`s, `AggregateError` members) that
 * implements `recoverable()` decides. A first implementer answering `false` makes the whole error fatal even if a
 * deeper one says `true`; no implementer means fatal.
 *
 * @see seed-systems.md §1.4
 * @example `isRecoverable(markRecoverable(new Error('cache miss')))` → `true`
 */
export function isRecoverable(error: unknown): boolean {
  for (const link of errorChain(error)) {
    const convention = readConvention(link, 'recoverable');
    const isMethod = typeof read(link, 'recoverable') === 'function';
    if (convention.found && (isMethod || typeof convention.value === 'boolean')) return convention.value === true;
  }
  return false;
}

/**
 * Marks an error as recoverable without changing what it says: the wrapper keeps the message and name, has the
 * original as `cause` (so `toResponseError` still finds its code and type), and answers `recoverable() === true`.
 * An error that is already recoverable is returned unchanged (no double wrapping); `null`/`undefined` pass through.
 *
 * @example
 * ```ts
 * throw markRecoverable(Object.assign(new Error('inventory lookup timed out'), { code: 'ORDER_INVENTORY_SOFT_TIMEOUT' }));
 * ```
 */
export function markRecoverable<T>(error: T): T | RecoverableError {
  if (error === null || error === undefined) return error;
  if (isRecoverable(error)) return error;
  return new RecoverableWrapper(error);
}

/**
 * A new recoverable error, optionally with a code (tRPC's `NewRecoverableError`).
 * @example `throw recoverableError('cache lookup timed out', { code: 'CACHE_TIMEOUT' })`
 */
export function recoverableError(message: string, options: { code?: string } = {}): RecoverableError & { code?: string } {
  return new RecoverableFailure(message, options.code);
}

/** What {@link recoverableError} makes: one error (one stack capture), not a wrapper around another. */
class RecoverableFailure extends Error implements RecoverableError {
  readonly code?: string;

  constructor(message: string, code: string | undefined) {
    super(message);
    if (code !== undefined) this.code = code;
  }

  recoverable(): boolean {
    return true;
  }
}
