import { ChatClientError } from '../errors/chat-client-error.js';
import { parseProviderError, readBoundedBody, requestIdOf } from '../internal/http-body.js';
import { statusText } from '../internal/http-status.js';
import { parseRetryAfter } from '../internal/retry-after.js';

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

/**
 * Maps a non-2xx answer of a model provider to a `ChatClientError`: status, retryable (408/409/429/5xx), the
 * `Retry-After` hint, the request id, and the provider's message and code with credentials removed
 * (RAF's `Chat API returned 401 Unauthorized: <body>`, made safe). `body` is what to read the body from (the attempt's
 * cancellable view of it, so a limit that fires while an error body trickles in releases the connection).
 */
export async function chatErrorFromResponse(response: Response, context: ChatErrorContext, body: Pick<Response, 'body' | 'bodyUsed'> = response): Promise<ChatClientError> {
  const provider = parseProviderError((await readBoundedBody(body)).text, context.secrets);
  const said = provider.message ?? (provider.text === '' ? undefined : provider.text);
  const label = statusText(response.status, response.statusText);
  return new ChatClientError(`${context.label} returned ${label}${said ? `: ${said}` : ''}`, {
    status: response.status,
    retryAfterMs: parseRetryAfter(response.headers),
    requestId: requestIdOf(response.headers, context.secrets),
    providerMessage: provider.message,
    code: provider.code,
    model: context.model,
    attempts: context.attempts,
  });
}
