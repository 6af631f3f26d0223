import { hasMarker } from '../internal/brand.js';
import { standardOptions, ToolFailure, type ToolFailureOptions } from './tool-failure.js';

const symbol = Symbol.for('faultline.tool.PermissionError');

/**
 * The credentials are valid but not allowed to do this (HTTP 403, a path outside the sandbox).
 * Default message: "Access to the requested resource is not permitted."
 *
 * @example
 * ```ts
 * throw new PermissionError(`Reading ${path} is not allowed: only files under ./workspace can be read.`);
 * ```
 */
export class PermissionError extends ToolFailure {
  declare private readonly [symbol]: true;
  /** The message used when none is given. */
  static readonly defaultMessage = 'Access to the requested resource is not permitted.';
  /** The suggestion used when none is given. */
  static readonly defaultSuggestion = 'Do not retry; choose a resource you are allowed to access, or explain the restriction to the user.';

  constructor(message?: string, options?: ToolFailureOptions) {
    super('PermissionError', message ?? PermissionError.defaultMessage, standardOptions(options, { suggestion: PermissionError.defaultSuggestion, retryable: false }));
    this[symbol] = true;
  }

  /** @example `PermissionError.isInstance(error)` */
  static override isInstance(value: unknown): value is PermissionError {
    return hasMarker(value, symbol);
  }
}
