/**
 * @internal The last guard of a stream decoder's step: every failure the decoders mean to raise is a faultline error,
 * so anything else (a `RangeError` from a remote value no check foresaw, a `TypeError` in a code path the answer
 * reached) is the stream's fault as far as the caller can tell, and reaches them as the typed error a stream that
 * cannot be read is: a `StreamError` `malformed_chunk`, the original as its (redacted) `cause`.
 */
import { AgentError } from '../../errors/agent-error.js';
import { StreamError } from '../../errors/stream-error.js';
import { messageText, truncate } from '../../internal/json.js';
import { redactError, redactText } from '../../internal/redact.js';

/**
 * `error` when it is a faultline error (the decoder's own verdict, kept as it is), else the `StreamError` that stands
 * for it: `The Anthropic API (…) stream could not be decoded (RangeError: Maximum call stack size exceeded)`.
 * @param label Who sent the stream, for the message: `Anthropic API (api.anthropic.com)`, `model`.
 * @param secrets Removed from the message and the cause.
 */
export function decodingFailure(error: unknown, label: string, secrets: readonly string[]): unknown {
  if (AgentError.isInstance(error)) return error;
  const cause = redactError(error, secrets);
  const said = cause instanceof Error ? `${cause.name}: ${cause.message}` : messageText(cause);
  return new StreamError(`The ${label} stream could not be decoded (${truncate(redactText(said, secrets), 200)})`, { reason: 'malformed_chunk', cause });
}
