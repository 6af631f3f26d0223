export { collectChatStream, responseChunks } from './collect-chat-stream.js';
export { createFallbackChatClient, isFallbackWorthy, type FallbackChatClientOptions } from './fallback-chat-client.js';
export type { ChatTimeouts } from './call.js';
export {
  createOpenAICompatibleClient,
  DEFAULT_CHAT_RETRY,
  DEFAULT_CHAT_TIMEOUTS,
  type OpenAICompatibleClientOptions,
} from './openai-compatible-client.js';
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
  FinishReason,
  ToolCall,
  ToolChoice,
  Usage,
} from './types.js';
export { createAnthropicClient, type AnthropicClientOptions } from './anthropic/index.js';
