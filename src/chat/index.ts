export { collectChatStream, responseChunks } from './core/collect-chat-stream.js';
export { createFallbackChatClient, type FallbackChatClientOptions } from './fallback-chat-client.js';
export { isFallbackWorthy } from './core/fallback-worthy.js';
export type { ChatTimeouts } from './core/call.js';
export { DEFAULT_CHAT_RETRY, DEFAULT_CHAT_TIMEOUTS } from './core/client-options.js';
export { createOpenAICompatibleClient, type OpenAICompatibleClientOptions } from './openai/openai-compatible-client.js';
export {
  createScriptedChatClient,
  type ScriptedAnswer,
  type ScriptedChatClient,
  type ScriptedChatClientOptions,
  type ScriptedTurn,
} from './scripted-chat-client.js';
export type {
  ChatChunk,
  ChatClient,
  ChatFallbackNotice,
  ChatMessage,
  ChatRequest,
  ChatResponse,
  ChatRetryNotice,
  ChatRole,
  ChatStream,
  ChatToolDefinition,
  ReplayItem,
  FinishReason,
  ToolCall,
  ToolChoice,
  Usage,
} from './core/types.js';
export { createAnthropicClient, type AnthropicClientOptions } from './anthropic/index.js';
export { createOpenAIResponsesClient, type OpenAIResponsesClientOptions } from './openai-responses/index.js';
