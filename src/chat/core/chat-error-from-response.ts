/**
 * A provider's non-2xx answer as a `ChatClientError`, for every provider: status, retryable (408/409/429/5xx and 529,
 * Anthropic's `overloaded_error`, unless the provider's error code says the limit will not pass — OpenAI's
 * `insufficient_quota` on a 429: `provider-error-codes.ts`, the table the stream-error path reads too), the
 * `Retry-After` hint, the request id, and the provider's message and error code (its `code`, else its error `type`)
 * with credentials removed — RAF's `Chat API returned 401 Unauthorized: <body>`, made safe.
 * @see https://docs.anthropic.com/en/api/errors
 * @see https://platform.openai.com/docs/guides/error-codes
 */
import { ChatClientError } from '../../errors/chat-client-error.js';
import { parseProviderError, readBoundedBody, requestIdOf } from '../../internal/http-body.js';
import { isRetryableStatus, statusText } from '../../internal/http-status.js';
import { parseRetryAfter } from '../../internal/retry-after.js';
import { isLasting } from './provider-error-codes.js';

/** Where a chat request went, for error messages. */
export interface ChatErrorContext {
  /** e.g. `Chat API (api.openai.com)` */
  label: string;
  model?: string | undefined;
  /** Values that must never appear in the error (the API key, auth header values). */
  secrets: readonly string[];
  /** The attempt this answer belongs to. */
  attempts?: number | undefined;
}

/** Anthropic's overload status: transient, retried like 429 and 5xx (other providers do not use it otherwise). */
const OVERLOADED = 529;

/**
 * Maps a non-2xx answer to a `ChatClientError`. `body` is what to read the body from (the attempt's cancellable view
 * of it, so a limit that fires while an error body trickles in releases the connection).
 */
export async function chatErrorFromResponse(response: Response, context: ChatErrorContext, body: Pick<Response, 'body' | 'bodyUsed'> = response): Promise<ChatClientError> {
  const provider = parseProviderError((await readBoundedBody(body)).text, context.secrets);
  const said = provider.message ?? (provider.text === '' ? undefined : provider.text);
  const status = response.status;
  const label = statusText(status, status === OVERLOADED ? 'Overloaded' : undefined);
  // A code or type that says the limit will not pass (`insufficient_quota`) overrules a transient status.
  const lasting = isLasting(provider.code) || isLasting(provider.type);
  return new ChatClientError(`${context.label} returned ${label}${said ? `: ${said}` : ''}`, {
    status,
    retryable: (status === OVERLOADED || isRetryableStatus(status)) && !lasting,
    retryAfterMs: parseRetryAfter(response.headers),
    requestId: requestIdOf(response.headers, context.secrets),
    providerMessage: provider.message,
    code: provider.code ?? provider.type,
    model: context.model,
    attempts: context.attempts,
  });
}
