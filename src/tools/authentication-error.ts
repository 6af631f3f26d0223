import { hasMarker } from '../internal/brand.js';
import { standardOptions, ToolFailure, type ToolFailureOptions } from './tool-failure.js';

const symbol = Symbol.for('faultline.tool.AuthenticationError');

/**
 * The service rejected the tool's credentials (HTTP 401). Never put the credential itself in the message or context.
 * Default message: "Authentication with the service failed."
 *
 * @example
 * ```ts
 * throw new AuthenticationError('Access to the weather API was denied. The provided API key may be invalid or expired.');
 * ```
 */
export class AuthenticationError extends ToolFailure {
  declare private readonly [symbol]: true;
  /** The message used when none is given. */
  static readonly defaultMessage = 'Authentication with the service failed.';
  /** The suggestion used when none is given. */
  static readonly defaultSuggestion = 'The credentials are invalid or expired and retrying will not help; tell the user that access to the service needs to be fixed.';

  constructor(message?: string, options?: ToolFailureOptions) {
    super('AuthenticationError', message ?? AuthenticationError.defaultMessage, standardOptions(options, { suggestion: AuthenticationError.defaultSuggestion, retryable: false }));
    this[symbol] = true;
  }

  /** @example `AuthenticationError.isInstance(error)` */
  static override isInstance(value: unknown): value is AuthenticationError {
    return hasMarker(value, symbol);
  }
}
