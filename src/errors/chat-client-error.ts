import { hasMarker } from '../internal/brand.js';
import { optionsOf } from '../internal/json.js';
import { isRetryableStatus } from '../internal/http-status.js';
import { AgentError, type AgentErrorOptions } from './agent-error.js';
import { ErrorType } from './constants.js';

const symbol = Symbol.for('faultline.error.ChatClientError');

/** What went wrong between the client and the model provider. */
export type ChatClientErrorReason =
  /** The provider answered with a non-2xx status. */
  | 'http'
  /** The request never got an answer (DNS, refused, reset, offline). */
  | 'network'
  /** A configured time limit fired; see `timeout`. */
  | 'timeout'
  /** The provider answered 2xx with something that is not a chat completion. */
  | 'invalid_response'
  /** The model refused to answer (OpenAI's `refusal`): its words are the error's `providerMessage`. */
  | 'refused'
  /** The provider's content filter stopped the answer (`finish_reason: content_filter`). */
  | 'content_filter';

/** Which time limit fired. */
export type ChatTimeoutLimit = 'total' | 'first_chunk' | 'idle';

/** Options of {@link ChatClientError}: what a retry policy and a support ticket need. */
export interface ChatClientErrorOptions extends AgentErrorOptions {
  /** @default `'http'` when `status` is set, else `'network'` */
  reason?: ChatClientErrorReason;
  /** HTTP status of the provider's answer. */
  status?: number | undefined;
  /** Whether trying again may help. @default network, timeouts and 408/409/429/500/502/503/504 */
  retryable?: boolean;
  /** The provider's back-off hint (`Retry-After`, `retry-after-ms`). */
  retryAfterMs?: number | undefined;
  /** The provider's request id (`x-request-id` and similar), for support tickets. */
  requestId?: string | undefined;
  /** The provider's own error message (credentials removed). */
  providerMessage?: string | undefined;
  /** Which limit fired, for `reason: 'timeout'`. */
  timeout?: ChatTimeoutLimit | undefined;
  /** How many attempts were made before giving up. */
  attempts?: number | undefined;
  /** The model that was asked. */
  model?: string | undefined;
}

/**
 * The model provider could not be reached or refused the request (the seed's `ChatClientError`). Carries what a
 * retry policy and a support ticket need; never the API key. Its `ResponseError` type is `api_error`.
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (ChatClientError.isInstance(error) && error.status === 401) showKeyDialog();
 * }
 * ```
 */
export class ChatClientError extends AgentError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'ChatClientError';
  override readonly kind = 'chat_client' as const;
  // The fields the constructor assigns are `declare`d: no class-field definition is emitted for them (smaller
  // bundles), and every instance still gets each as an own property, in this order.
  declare readonly reason: ChatClientErrorReason;
  declare readonly status?: number;
  declare readonly retryable: boolean;
  declare readonly retryAfterMs?: number;
  declare readonly requestId?: string;
  declare readonly providerMessage?: string;
  declare readonly timeout?: ChatTimeoutLimit;
  declare readonly attempts?: number;
  declare readonly model?: string;

  constructor(message: string, options: ChatClientErrorOptions = {}) {
    super(message, options);
    this[symbol] = true;
    const settings = optionsOf<ChatClientErrorOptions>(options);
    this.reason = settings.reason ?? (settings.status === undefined ? 'network' : 'http');
    this.status = settings.status;
    this.retryable =
      settings.retryable ??
      (this.reason === 'network' || this.reason === 'timeout' || (settings.status !== undefined && isRetryableStatus(settings.status)));
    this.retryAfterMs = settings.retryAfterMs;
    this.requestId = settings.requestId;
    this.providerMessage = settings.providerMessage;
    this.timeout = settings.timeout;
    this.attempts = settings.attempts;
    this.model = settings.model;
  }

  /** @example `ChatClientError.isInstance(error)` */
  static override isInstance(value: unknown): value is ChatClientError {
    return hasMarker(value, symbol);
  }

  /** `ResponseError.type` for this error: `api_error`. */
  errorType(): string {
    return ErrorType.APIError;
  }

  protected override details(): Record<string, unknown> {
    return {
      reason: this.reason,
      status: this.status,
      retryable: this.retryable,
      retryAfterMs: this.retryAfterMs,
      requestId: this.requestId,
      providerMessage: this.providerMessage,
      timeout: this.timeout,
      attempts: this.attempts,
      model: this.model,
    };
  }
}
