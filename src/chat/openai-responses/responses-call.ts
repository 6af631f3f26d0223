/**
 * @internal The OpenAI Responses protocol of the shared call mechanics (`../core/call.ts`: sending, the HTTP error
 * mapping, the call scope, retries only before output, first-chunk and idle timers, batched reading, typed failures):
 * how a whole response is read and which decoder reads a stream.
 */
import { ChatClientError } from '../../errors/chat-client-error.js';
import { read } from '../../internal/error-chain.js';
import { isPlainObject } from '../../internal/json.js';
import { parseJsonBody, type CallProtocol } from '../core/call.js';
import { decodeResponse } from './responses-output.js';
import { excerpt } from '../core/remote-value.js';
import { ResponsesStreamDecoder } from './responses-stream-decoder.js';

/** The OpenAI Responses protocol of the shared call mechanics (`streamCall` / `completeCall`). */
export const OPENAI_RESPONSES: CallProtocol = {
  parse: (text, config) => {
    const json = parseJsonBody(text, config);
    const error = read(json, 'error');
    // An error object some gateways answer with 200 (a failed response has `status: 'failed'` and is decoded as such).
    if (isPlainObject(error) && read(json, 'status') !== 'failed') {
      const message = read(error, 'message');
      throw new ChatClientError(`${config.label} answered with an error: ${excerpt(typeof message === 'string' ? message : text, config.secrets, 500)}`, {
        reason: 'invalid_response',
        retryable: false,
      });
    }
    return decodeResponse(json, { label: config.label, model: config.model, secrets: config.secrets });
  },
  decoder: (config, requestId, attempt) =>
    new ResponsesStreamDecoder({ maxLineLength: config.maxLineLength, secrets: config.secrets, label: config.label, model: config.model, requestId, attempt }),
};
