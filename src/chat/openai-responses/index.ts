/**
 * The OpenAI Responses API as a faultline `ChatClient` (re-exported from `faultline/chat`).
 * @example
 * ```ts
 * import { createOpenAIResponsesClient } from './chat/openai-responses/index.js';
 * const client = createOpenAIResponsesClient({ apiKey, model: 'gpt-5-mini' });
 * ```
 */
export { createOpenAIResponsesClient, type OpenAIResponsesClientOptions } from './responses-client.js';
