import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';
import { AgentError, type AgentErrorOptions } from './agent-error.js';
import { RUN_ERROR } from './constants.js';

const symbol = Symbol.for('faultline.error.A2ATransportError');

/**
 * Which time limit of the A2A client fired: `call` (a unary call, or card discovery), `first_event` (a stream's first
 * SSE event), `idle` (between two events of a stream), `total` (a whole stream, resubscriptions included).
 * @example `if (error.timeout === 'idle') console.log('the remote agent kept the stream open but sent no event');`
 */
export type A2ATimeoutLimit = 'call' | 'first_event' | 'idle' | 'total';

/** Options of {@link A2ATransportError}. */
export interface A2ATransportErrorOptions extends AgentErrorOptions {
  /** HTTP status, when the remote agent answered. */
  status?: number | undefined;
  /** The response headers (credential-like values removed). */
  headers?: Record<string, string> | undefined;
  /** The endpoint as it may be shown: every credential in it (user info, query, path) replaced by `[REDACTED]`. */
  url?: string | undefined;
  /** Whether trying again may help. @default network failures and 408/429/502/503/504 */
  retryable?: boolean | undefined;
  /** `network`: no answer; `http`: a non-2xx answer that is not a JSON-RPC error; `timeout`: a limit fired. */
  reason?: 'network' | 'http' | 'timeout' | undefined;
  /** The JSON-RPC method that was called. */
  method?: string | undefined;
  /** How long the remote asked us to wait (its `Retry-After`), in ms. */
  retryAfterMs?: number | undefined;
  /** Which limit fired, for `reason: 'timeout'`. */
  timeout?: A2ATimeoutLimit | undefined;
}

/**
 * A remote A2A agent could not be reached or answered at the HTTP level with something that is not a JSON-RPC
 * response. Keeps the HTTP status and headers. Its `ResponseError` type is `run_error`.
 *
 * @example
 * ```ts
 * catch (error) { if (A2ATransportError.isInstance(error) && error.status === 503) retryLater(); }
 * ```
 */
export class A2ATransportError extends AgentError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'A2ATransportError';
  override readonly kind = 'a2a_transport' as const;
  // The fields the constructor assigns are `declare`d: no class-field definition is emitted for them (smaller
  // bundles), and every instance still gets each as an own property, in the constructor's order.
  declare readonly status?: number;
  declare readonly headers: Readonly<Record<string, string>>;
  declare readonly url?: string;
  declare readonly retryable: boolean;
  declare readonly reason: 'network' | 'http' | 'timeout';
  declare readonly method?: string;
  /** How long the remote asked us to wait (its `Retry-After`), in ms; the client's retries honour it. */
  declare readonly retryAfterMs?: number;
  /** Which limit fired, for `reason: 'timeout'` (see {@link A2ATimeoutLimit}). */
  declare readonly timeout?: A2ATimeoutLimit;

  constructor(message: string, options: A2ATransportErrorOptions = {}) {
    super(message, options);
    this[symbol] = true;
    const settings = optionsOf<A2ATransportErrorOptions>(options);
    this.status = settings.status;
    this.headers = Object.freeze({ ...(optionsOf<Record<string, string>>(settings.headers) as Record<string, string>) });
    this.url = settings.url;
    this.reason = settings.reason ?? (settings.status === undefined ? 'network' : 'http');
    this.retryable = settings.retryable ?? (this.reason !== 'http' || [408, 429, 502, 503, 504].includes(settings.status ?? 0));
    this.method = settings.method;
    this.retryAfterMs = settings.retryAfterMs;
    this.timeout = settings.timeout;
  }

  /** @example `A2ATransportError.isInstance(error)` */
  static override isInstance(value: unknown): value is A2ATransportError {
    return hasMarker(value, symbol);
  }

  /** `ResponseError.type` for this error: `run_error`. */
  errorType(): string {
    return RUN_ERROR;
  }

  protected override details(): Record<string, unknown> {
    return {
      reason: this.reason,
      status: this.status,
      headers: Object.keys(this.headers).length > 0 ? { ...this.headers } : undefined,
      url: this.url,
      retryable: this.retryable,
      method: this.method,
      timeout: this.timeout,
    };
  }
}
