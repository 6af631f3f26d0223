import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';
import { AgentError, type AgentErrorOptions } from './agent-error.js';

const symbol = Symbol.for('faultline.error.CircuitOpenError');

/** Options of {@link CircuitOpenError}. */
export interface CircuitOpenErrorOptions extends AgentErrorOptions {
  /** The dependency whose circuit is open (a chat client's base URL + model, an MCP server, a tool, an A2A agent). */
  dependency?: string | undefined;
  /** Time until the circuit lets a probe through, in ms. */
  retryAfterMs?: number | undefined;
  /** `open` (cooling down) or `half_open` (its probes are already in flight). */
  state?: 'open' | 'half_open' | undefined;
}

/**
 * A call was not made because the dependency's circuit breaker is open: it failed too often in its window, so calls
 * fail fast instead of adding to a retry storm. `retryable` (later, not now): `retryAfterMs` is the time to the next
 * probe. A fallback chat client moves to its next model at once; a tool turns it into a structured error the model
 * reads ("the service is unavailable; try another approach").
 *
 * @example
 * ```ts
 * catch (error) { if (CircuitOpenError.isInstance(error)) retryLater(error.retryAfterMs); }
 * ```
 */
export class CircuitOpenError extends AgentError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'CircuitOpenError';
  override readonly kind = 'circuit_open' as const;
  readonly dependency: string;
  readonly retryAfterMs: number;
  readonly state: 'open' | 'half_open';
  /** Always true: the dependency may be back after `retryAfterMs`. */
  readonly retryable = true;

  constructor(message: string, options: CircuitOpenErrorOptions = {}) {
    super(message, { code: 'CIRCUIT_OPEN', ...optionsOf<CircuitOpenErrorOptions>(options) });
    this[symbol] = true;
    const settings = optionsOf<CircuitOpenErrorOptions>(options);
    this.dependency = typeof settings.dependency === 'string' ? settings.dependency : '';
    this.retryAfterMs = typeof settings.retryAfterMs === 'number' && settings.retryAfterMs >= 0 ? Math.ceil(settings.retryAfterMs) : 0;
    this.state = settings.state === 'half_open' ? 'half_open' : 'open';
  }

  /** @example `CircuitOpenError.isInstance(error)` */
  static override isInstance(value: unknown): value is CircuitOpenError {
    return hasMarker(value, symbol);
  }

  protected override details(): Record<string, unknown> {
    return { dependency: this.dependency, state: this.state, retryAfterMs: this.retryAfterMs, retryable: true };
  }
}
