/**
 * @internal The error a Chat Completions stream carries itself (`data: {"error": …}`, or `event: error`): a
 * `StreamError` `provider_error` with the provider's message and code, redacted and bounded like any remote text.
 */
import { StreamError } from '../../errors/stream-error.js';
import { truncate } from '../../internal/json.js';
import { redactText } from '../../internal/redact.js';
import { field } from '../core/event-decoder.js';

/**
 * The `StreamError` of an error event.
 * @param data The event's data, as sent.
 * @param error Its `error` field, when the data was parsed already (else it is read from `data`).
 * @param secrets Removed from the message, the chunk and the code.
 */
export function providerError(data: string, error: unknown, secrets: readonly string[]): StreamError {
  const excerpt = (text: string, length = 200) => truncate(redactText(text, secrets), length);
  let detail = error;
  if (detail === undefined) {
    try {
      const parsed: unknown = JSON.parse(data);
      detail = field(parsed, 'error') ?? parsed;
    } catch {
      detail = data;
    }
  }
  const message = field(detail, 'message');
  const text = typeof message === 'string' ? message : typeof detail === 'string' ? detail : excerpt(data);
  const code = field(detail, 'code');
  return new StreamError(`The model provider reported an error mid-stream: ${excerpt(text)}`, {
    reason: 'provider_error',
    chunk: excerpt(data),
    code: typeof code === 'string' ? excerpt(code, 100) : typeof code === 'number' && Number.isFinite(code) ? String(code) : undefined,
  });
}
