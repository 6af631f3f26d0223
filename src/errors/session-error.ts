import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';
import { AgentError, type AgentErrorOptions } from './agent-error.js';

const symbol = Symbol.for('faultline.error.SessionError');

/** Options of {@link SessionError}. */
export interface SessionErrorOptions extends AgentErrorOptions {
  /** The session concerned. */
  sessionId?: string | undefined;
}

/**
 * A session store failed to load or save a conversation (RAF's `SessionError`, present in its code though missing
 * from its document).
 *
 * @example
 * ```ts
 * catch (error) { if (SessionError.isInstance(error)) console.log('session', error.sessionId, 'unavailable'); }
 * ```
 */
export class SessionError extends AgentError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'SessionError';
  override readonly kind = 'session' as const;
  declare readonly sessionId?: string; // set by the constructor (an own property either way): no field definition to bundle

  constructor(message: string, options: SessionErrorOptions = {}) {
    super(message, options);
    this[symbol] = true;
    const settings = optionsOf<SessionErrorOptions>(options);
    this.sessionId = settings.sessionId;
  }

  /** @example `SessionError.isInstance(error)` */
  static override isInstance(value: unknown): value is SessionError {
    return hasMarker(value, symbol);
  }

  protected override details(): Record<string, unknown> {
    return { sessionId: this.sessionId };
  }
}
