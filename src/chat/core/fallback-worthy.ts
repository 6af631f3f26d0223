import { ChatClientError } from '../../errors/chat-client-error.js';
import { CircuitOpenError } from '../../errors/circuit-open-error.js';
import { StreamError } from '../../errors/stream-error.js';

/**
 * The default fallback rule: the same failures a retry would cover (retryable `ChatClientError`s, streams that broke
 * before any output), and a model whose circuit is open (`CircuitOpenError`: no request was sent, so the next model
 * is tried at once).
 * @example `createFallbackChatClient(clients, { shouldFallback: (error) => isFallbackWorthy(error) || isQuotaError(error) })`
 */
export function isFallbackWorthy(error: unknown): boolean {
  if (ChatClientError.isInstance(error)) return error.retryable;
  if (CircuitOpenError.isInstance(error)) return true;
  if (StreamError.isInstance(error)) return !error.afterOutput && (error.reason === 'incomplete' || error.reason === 'read_failed');
  return false;
}
