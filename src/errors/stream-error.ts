import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';
import { AgentError, type AgentErrorOptions } from './agent-error.js';
import { STREAM_ERROR } from './constants.js';

const symbol = Symbol.for('faultline.error.StreamError');

/** Why a stream failed. */
export type StreamErrorReason =
  /** A chunk was not valid JSON or not the expected shape. */
  | 'malformed_chunk'
  /** The provider sent an error object inside the stream (`data: {"error": …}`). */
  | 'provider_error'
  /** The stream ended before a finish event. */
  | 'incomplete'
  /** A single line or event exceeded the decoder's bound. */
  | 'line_too_long'
  /** A whole streamed answer exceeded its bound (a chat answer: 64 MiB of body). */
  | 'too_large'
  /**
   * Reading the body failed (connection dropped); at `toNodeListener`, a request body whose connection closed before
   * it arrived in full, or that was left unread when the answer went out.
   */
  | 'read_failed'
  /**
   * A stream written for a reader held more than its bound of unread bytes (`maxBufferedBytes` of `toUIMessageStream`),
   * or a client of `toNodeListener` took nothing of the answer for `writeStallMs`.
   */
  | 'buffer_full';

/** Options of {@link StreamError}. */
export interface StreamErrorOptions extends AgentErrorOptions {
  /** @default 'malformed_chunk' */
  reason?: StreamErrorReason | undefined;
  /** Whether output had already reached the caller when it failed (then nothing is replayed). */
  afterOutput?: boolean | undefined;
  /** The offending chunk, cut short; never contains credentials. */
  chunk?: string | undefined;
}

/**
 * A streamed response broke (the seed's `StreamError`): malformed chunk, in-stream provider error, missing finish,
 * oversized line, dropped connection. Its `ResponseError` type is `stream_error`.
 *
 * @example
 * ```ts
 * for await (const item of run) if (item.type === 'error' && StreamError.isInstance(item.error)) console.log(item.error.reason);
 * ```
 */
export class StreamError extends AgentError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'StreamError';
  override readonly kind = 'stream' as const;
  declare readonly reason: StreamErrorReason;
  declare readonly afterOutput: boolean;
  declare readonly chunk?: string;

  constructor(message: string, options: StreamErrorOptions = {}) {
    super(message, options);
    this[symbol] = true;
    const settings = optionsOf<StreamErrorOptions>(options);
    this.reason = settings.reason ?? 'malformed_chunk';
    this.afterOutput = settings.afterOutput === true;
    this.chunk = settings.chunk;
  }

  /** @example `StreamError.isInstance(error)` */
  static override isInstance(value: unknown): value is StreamError {
    return hasMarker(value, symbol);
  }

  /** `ResponseError.type` for this error: `stream_error`. */
  errorType(): string {
    return STREAM_ERROR;
  }

  protected override details(): Record<string, unknown> {
    return { reason: this.reason, afterOutput: this.afterOutput, chunk: this.chunk };
  }
}
