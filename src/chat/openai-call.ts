/**
 * The OpenAI-compatible chat completions protocol of the shared call mechanics (`call.ts`): an attempt sent as is, a
 * whole completion read (an `error` object some servers answer with 200 is a typed failure), and the SSE decoder.
 */
import { ChatClientError } from '../errors/chat-client-error.js';
import { messageOf, read } from '../internal/error-chain.js';
import { redactText } from '../internal/redact.js';
import type { CallConfig, CallProtocol } from './call.js';
import { StreamReader } from './openai-attempt.js';
import { decodeCompletion } from './openai-wire.js';
import type { ChatResponse } from './types.js';

/** The OpenAI-compatible chat completions protocol. */
export const CHAT_COMPLETIONS: CallProtocol = {
  send: (attempt, body, accept) => attempt.send(body, accept),
  parse: (text, config) => parseCompletion(text, config),
  reader: (attempt, response, config) => new StreamReader(attempt, response.body, config),
};

function parseCompletion(text: string, config: CallConfig): ChatResponse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ChatClientError(`${config.label} answered with a body that is not JSON: ${redactText(text.slice(0, 200), config.secrets)}`, {
      reason: 'invalid_response',
      retryable: false,
      cause: error,
    });
  }
  const providerError = read(json, 'error');
  if (providerError !== undefined && providerError !== null) {
    const message = read(providerError, 'message');
    throw new ChatClientError(`${config.label} answered with an error: ${redactText(typeof message === 'string' ? message : messageOf(providerError), config.secrets)}`, {
      reason: 'invalid_response',
      retryable: false,
    });
  }
  return decodeCompletion(json, config.label, config.createId, config.secrets);
}
