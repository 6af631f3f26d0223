import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';
import { AgentError, type AgentErrorOptions } from './agent-error.js';
import { RUN_ERROR } from './constants.js';

const symbol = Symbol.for('faultline.error.MCPError');

/**
 * Why an MCP exchange failed, below the JSON-RPC layer:
 * - `network`: no answer (the connection failed or dropped);
 * - `http`: a non-2xx answer that is not a JSON-RPC response (status and headers kept);
 * - `timeout`: a time limit fired (see `MCPError.timeout`);
 * - `protocol`: an answer that breaks the protocol (not JSON-RPC, a wrong content type, a body over its bound, a
 *   stream that ended before its response and cannot be resumed, no common protocol revision);
 * - `session_expired`: the server forgot the session (HTTP 404 to a request that carried one), and a new one did
 *   not help;
 * - `closed`: the client was closed while the call was pending.
 * @example `if (error.reason === 'session_expired') client = createMCPClient(options);`
 */
export type MCPErrorReason = 'network' | 'http' | 'timeout' | 'protocol' | 'session_expired' | 'closed';

/** Options of {@link MCPError}. */
export interface MCPErrorOptions extends AgentErrorOptions {
  reason?: MCPErrorReason | undefined;
  /** HTTP status, when the server answered. */
  status?: number | undefined;
  /** The response headers (credential-like values removed). */
  headers?: Record<string, string> | undefined;
  /** The endpoint as it may be shown (the client's `url`: every credential in it replaced by `[REDACTED]`). */
  url?: string | undefined;
  /** The JSON-RPC method that was called. */
  method?: string | undefined;
  /** Whether trying again may help. @default network failures, timeouts and 408/429/500/502/503/504 */
  retryable?: boolean | undefined;
  /** How long the server asked us to wait (its `Retry-After`), in ms. */
  retryAfterMs?: number | undefined;
  /** Which limit fired, for `reason: 'timeout'`: `request` (one call) or `initialize` (the handshake). */
  timeout?: 'request' | 'initialize' | undefined;
  /** The server's `WWW-Authenticate` challenge (scheme and parameters, never a credential), for 401/403. */
  authenticate?: string | undefined;
}

/**
 * An MCP server could not be reached, or answered outside the JSON-RPC layer (HTTP status, broken protocol, an
 * expired session, a limit that fired). A JSON-RPC error from the server is a `JSONRPCError` instead. Its
 * `ResponseError` type is `run_error`.
 *
 * @example
 * ```ts
 * catch (error) { if (MCPError.isInstance(error) && error.status === 401) askForLogin(error.authenticate); }
 * ```
 */
export class MCPError extends AgentError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'MCPError';
  override readonly kind = 'mcp' as const;
  // The fields the constructor assigns are `declare`d: no class-field definition is emitted for them (smaller
  // bundles), and every instance still gets each as an own property (undefined when not given), in this order.
  declare readonly reason: MCPErrorReason;
  declare readonly status?: number;
  declare readonly headers: Readonly<Record<string, string>>;
  declare readonly url?: string;
  declare readonly method?: string;
  declare readonly retryable: boolean;
  /** How long the server asked us to wait (its `Retry-After`), in ms; the client's retries honour it. */
  declare readonly retryAfterMs?: number;
  declare readonly timeout?: 'request' | 'initialize';
  /** The server's `WWW-Authenticate` challenge, for 401/403. */
  declare readonly authenticate?: string;

  constructor(message: string, options: MCPErrorOptions = {}) {
    super(message, options);
    this[symbol] = true;
    const settings = optionsOf<MCPErrorOptions>(options);
    const status = settings.status;
    this.reason = settings.reason ?? (status === undefined ? 'network' : 'http');
    this.status = status;
    this.headers = Object.freeze({ ...(optionsOf<Record<string, string>>(settings.headers) as Record<string, string>) });
    this.url = settings.url;
    this.method = settings.method;
    const transient = this.reason === 'network' || this.reason === 'timeout' || (this.reason === 'http' && [408, 429, 500, 502, 503, 504].includes(status as number)); // undefined is none of them
    this.retryable = settings.retryable ?? transient;
    const retryAfterMs = settings.retryAfterMs;
    this.retryAfterMs = typeof retryAfterMs === 'number' && retryAfterMs >= 0 ? retryAfterMs : undefined;
    this.timeout = settings.timeout;
    const authenticate = settings.authenticate;
    this.authenticate = typeof authenticate === 'string' ? authenticate : undefined;
  }

  /** @example `MCPError.isInstance(error)` */
  static override isInstance(value: unknown): value is MCPError {
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
      method: this.method,
      retryable: this.retryable,
      timeout: this.timeout,
      authenticate: this.authenticate,
    };
  }
}
