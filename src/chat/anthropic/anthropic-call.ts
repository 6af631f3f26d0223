/**
 * @internal The Anthropic Messages protocol of the shared call mechanics (`../core/call.ts`: sending, the HTTP error
 * mapping, the call scope, retries only before output, first-chunk and idle timers, batched reading, typed failures):
 * how a whole Message is read and which decoder reads a stream.
 */
import { ChatClientError } from '../../errors/chat-client-error.js';
import { read } from '../../internal/error-chain.js';
import { parseJsonBody, type CallConfig, type CallProtocol } from '../core/call.js';
import type { ChatResponse } from '../core/types.js';
import { decodeMessage } from './anthropic-message.js';
import { excerpt } from '../core/remote-value.js';
import { AnthropicStreamDecoder } from './anthropic-stream-decoder.js';

/** The Anthropic Messages protocol of the shared call mechanics (`streamCall` / `completeCall`). */
export const ANTHROPIC_MESSAGES: CallProtocol = {
  parse: (text, config) => parseMessage(text, config),
  decoder: (config, requestId, attempt) =>
    new AnthropicStreamDecoder({ maxLineLength: config.maxLineLength, secrets: config.secrets, label: config.label, model: config.model, requestId, attempt }),
};

/** A 2xx JSON body: a Message, or an error object some gateways answer with 200. */
function parseMessage(text: string, config: CallConfig): ChatResponse {
  const json = parseJsonBody(text, config);
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
