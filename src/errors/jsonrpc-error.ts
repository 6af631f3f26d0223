import { hasMarker } from '../internal/brand.js';
import { messageText, optionsOf } from '../internal/json.js';
import { AgentError, type AgentErrorOptions } from './agent-error.js';
import { RUN_ERROR } from './constants.js';

const symbol = Symbol.for('faultline.error.JSONRPCError');

/** Options of {@link JSONRPCError}. */
export interface JSONRPCErrorOptions extends Omit<AgentErrorOptions, 'code'> {
  /** The error's `data`, as sent. */
  data?: unknown;
  /** The method that failed. */
  method?: string | undefined;
  /** The HTTP status the error came with (usually 200). */
  status?: number | undefined;
  /** Whether it arrived inside a stream. */
  inStream?: boolean | undefined;
}

/**
 * A JSON-RPC 2.0 error from a remote A2A agent (or sent by our handler): its numeric `rpcCode` (`-32001` task not
 * found … `-32700` parse error), message and `data`, never silently skipped — also when it arrives inside a stream.
 * `code` is the number as a string, so `toResponseError` carries it; its type is `run_error`.
 *
 * @example
 * ```ts
 * catch (error) { if (JSONRPCError.isInstance(error) && error.rpcCode === -32001) console.log('no such task'); }
 * ```
 */
export class JSONRPCError extends AgentError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'JSONRPCError';
  override readonly kind = 'jsonrpc' as const;
  declare readonly rpcCode: number;
  declare readonly data?: unknown;
  declare readonly method?: string;
  declare readonly status?: number;
  declare readonly inStream: boolean;

  /**
   * @param rpcCode - The JSON-RPC error code. Called with a message alone (`new JSONRPCError('boom')`, from plain JS)
   *   the code is -32603 (internal error).
   */
  constructor(rpcCode: number, message: string, options: JSONRPCErrorOptions = {}) {
    const code = typeof rpcCode === 'number' && Number.isFinite(rpcCode) ? rpcCode : -32603;
    const text = typeof rpcCode === 'number' || message !== undefined ? messageText(message) : messageText(rpcCode);
    const settings = optionsOf<JSONRPCErrorOptions>(options);
    super(text, { cause: settings.cause, code: String(code) });
    this[symbol] = true;
    this.rpcCode = code;
    this.data = settings.data;
    this.method = settings.method;
    this.status = settings.status;
    this.inStream = settings.inStream === true;
  }

  /** @example `JSONRPCError.isInstance(error)` */
  static override isInstance(value: unknown): value is JSONRPCError {
    return hasMarker(value, symbol);
  }

  /** `ResponseError.type` for this error: `run_error`. */
  errorType(): string {
    return RUN_ERROR;
  }

  protected override details(): Record<string, unknown> {
    return { rpcCode: this.rpcCode, data: this.data, method: this.method, status: this.status, inStream: this.inStream || undefined };
  }
}
