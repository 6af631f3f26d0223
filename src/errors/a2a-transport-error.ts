import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';
import { AgentError, type AgentErrorOptions } from './agent-error.js';
import { ErrorType } from './constants.js';

const marker = 'faultline.error.A2ATransportError';
const symbol = Symbol.for(marker);

/** Options of {@link A2ATransportError}. */
export interface A2ATransportErrorOptions extends AgentErrorOptions {
  /** HTTP status, when the remote agent answered. */
  status?: number | undefined;
  /** The response headers (credential-like values removed). */
  headers?: Record<string, string> | undefined;
  /** The endpoint, without query string or credentials. */
  url?: string | undefined;
  /** Whether trying again may help. @default network failures and 408/429/502/503/504 */
  retryable?: boolean | undefined;
  /** `network`: no answer; `http`: a non-2xx answer that is not a JSON-RPC error; `timeout`: a limit fired. */
  reason?: 'network' | 'http' | 'timeout' | undefined;
  /** The JSON-RPC method that was called. */
  method?: string | undefined;
  /** How long the remote asked us to wait (its `Retry-After`), in ms. */
  retryAfterMs?: number | undefined;
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
  private readonly [symbol] = true;
  override readonly name: string = 'A2ATransportError';
  override readonly kind = 'a2a_transport' as const;
  readonly status?: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly url?: string;
  readonly retryable: boolean;
  readonly reason: 'network' | 'http' | 'timeout';
  readonly method?: string;
  /** How long the remote asked us to wait (its `Retry-After`), in ms; the client's retries honour it. */
  readonly retryAfterMs?: number;

  constructor(message: string, options: A2ATransportErrorOptions = {}) {
    super(message, options);
    const settings = optionsOf<A2ATransportErrorOptions>(options);
    this.status = settings.status;
    this.headers = Object.freeze({ ...(optionsOf<Record<string, string>>(settings.headers) as Record<string, string>) });
    this.url = settings.url;
    this.reason = settings.reason ?? (settings.status === undefined ? 'network' : 'http');
    this.retryable = settings.retryable ?? (this.reason !== 'http' || [408, 429, 502, 503, 504].includes(settings.status ?? 0));
    this.method = settings.method;
    this.retryAfterMs = settings.retryAfterMs;
  }

  /** @example `A2ATransportError.isInstance(error)` */
  static override isInstance(value: unknown): value is A2ATransportError {
    return hasMarker(value, marker);
  }

  /** `ResponseError.type` for this error: `run_error`. */
  errorType(): string {
    return ErrorType.RunError;
  }

  protected override details(): Record<string, unknown> {
    return {
      reason: this.reason,
      status: this.status,
      headers: Object.keys(this.headers).length > 0 ? { ...this.headers } : undefined,
      url: this.url,
      retryable: this.retryable,
      method: this.method,
    };
  }
}
