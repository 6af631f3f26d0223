/**
 * The OpenAI-compatible chat completions protocol of the shared call mechanics (`../core/call.ts`): a whole completion
 * read (an `error` object some servers answer with 200 is a typed failure), and the SSE decoder.
 */
import { ChatClientError } from '../../errors/chat-client-error.js';
import { messageOf, read } from '../../internal/error-chain.js';
import { redactText } from '../../internal/redact.js';
import { parseJsonBody, type CallConfig, type CallProtocol } from '../core/call.js';
import type { ChatResponse } from '../core/types.js';
import { OpenAIStreamDecoder } from './openai-stream-decoder.js';
import { decodeCompletion } from './openai-wire.js';

/** The OpenAI-compatible chat completions protocol. */
export const CHAT_COMPLETIONS: CallProtocol = {
  parse: (text, config) => parseCompletion(text, config),
  decoder: (config) => new OpenAIStreamDecoder({ maxLineLength: config.maxLineLength, secrets: config.secrets, createId: config.createId }),
};

function parseCompletion(text: string, config: CallConfig): ChatResponse {
  const json = parseJsonBody(text, config);
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
