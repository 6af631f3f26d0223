import type { CircuitOpenError } from '../errors/circuit-open-error.js';
import { hasMarker } from '../internal/brand.js';
import { standardOptions, ToolFailure, type ToolFailureOptions } from './tool-failure.js';

const symbol = Symbol.for('faultline.tool.ServiceUnavailableError');

/**
 * The service behind the tool is known to be down — its circuit breaker is open — so the call was not made. Not
 * retried within the call (retrying now is what the breaker prevents); the model is told to try another approach.
 * Default message: "The service is unavailable right now."
 *
 * @example
 * ```ts
 * throw new ServiceUnavailableError('The billing service is down for maintenance.', { context: { retryAfterMs: 60_000 } });
 * ```
 */
export class ServiceUnavailableError extends ToolFailure {
  declare private readonly [symbol]: true;
  /** The message used when none is given. */
  static readonly defaultMessage = 'The service is unavailable right now.';
  /** The suggestion used when none is given. */
  static readonly defaultSuggestion = 'The service is unavailable; try another approach (another tool, or answer without it) and do not call this tool again right away.';

  constructor(message?: string, options?: ToolFailureOptions) {
    super('ServiceUnavailableError', message ?? ServiceUnavailableError.defaultMessage, standardOptions(options, { suggestion: ServiceUnavailableError.defaultSuggestion, retryable: false }));
    this[symbol] = true;
  }

  /**
   * What the model sees for a call an open circuit refused: when the service may be tried again, never its address.
   * @example `ServiceUnavailableError.fromCircuitOpen(error).context // { retryAfterMs: 15000 }`
   */
  static fromCircuitOpen(error: CircuitOpenError, toolName?: string): ServiceUnavailableError {
    const seconds = Math.ceil(error.retryAfterMs / 1000);
    const subject = toolName ? `The service behind '${toolName}'` : 'The service';
    return new ServiceUnavailableError(`${subject} is unavailable right now: it failed repeatedly, so the call was not made.`, {
      context: { retryAfterMs: seconds * 1000 }, // whole seconds: what the model reads
      suggestion: `The service is unavailable; try another approach (another tool, or answer without it). It may be back in about ${seconds} s.`,
      cause: error,
    });
  }

  /** @example `ServiceUnavailableError.isInstance(error)` */
  static override isInstance(value: unknown): value is ServiceUnavailableError {
    return hasMarker(value, symbol);
  }
}
