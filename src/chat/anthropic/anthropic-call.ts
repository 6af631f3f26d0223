/**
 * @internal The Anthropic Messages protocol of the shared call mechanics (`streamCall` / `completeCall` in
 * `../call.ts`: the call scope, retries only before output, first-chunk and idle timers, typed failures): how an
 * attempt is sent, how a whole Message is read, and how a stream body becomes chunks.
 */
import { ChatClientError } from '../../errors/chat-client-error.js';
import { read } from '../../internal/error-chain.js';
import { redactText } from '../../internal/redact.js';
import type { CallConfig, CallProtocol } from '../call.js';
import type { ChatResponse } from '../types.js';
import { AnthropicStreamReader, sendAttempt } from './anthropic-http.js';
import { decodeMessage, excerpt } from './anthropic-message.js';

/** The Anthropic Messages protocol of the shared call mechanics (`streamCall` / `completeCall`). */
export const ANTHROPIC_MESSAGES: CallProtocol = {
  send: (attempt, body, accept, config) => sendAttempt(attempt, config, body, accept),
  parse: (text, config) => parseMessage(text, config),
  reader: (attempt, response, config) => new AnthropicStreamReader(attempt, response, config),
};

/** A 2xx JSON body: a Message, or an error object some gateways answer with 200. */
function parseMessage(text: string, config: CallConfig): ChatResponse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ChatClientError(`${config.label} answered with a body that is not JSON: ${redactText(text.slice(0, 200), config.secrets)}`, { reason: 'invalid_response', retryable: false, cause: error });
  }
  if (read(json, 'type') === 'error') {
    const detail = read(json, 'error');
    const message = read(detail, 'message');
    const type = read(detail, 'type');
    throw new ChatClientError(`${config.label} answered with an error: ${excerpt(typeof message === 'string' ? message : text, config.secrets, 500)}`, {
      reason: 'invalid_response',
      retryable: false,
      code: typeof type === 'string' ? excerpt(type, config.secrets, 100) : undefined,
    });
  }
  return decodeMessage(json, config.label, config.secrets);
}
