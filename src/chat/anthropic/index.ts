/**
 * The Anthropic Messages API as a faultline `ChatClient` (re-exported from `faultline/chat`).
 * @example
 * ```ts
 * import { createAnthropicClient } from './chat/anthropic/index.js';
 * const client = createAnthropicClient({ apiKey, model: 'claude-sonnet-4-5', maxTokens: 1024 });
 * ```
 */
export { createAnthropicClient, type AnthropicClientOptions } from './anthropic-client.js';
