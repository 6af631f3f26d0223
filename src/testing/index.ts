export { A2A_FAULTS, a2aFaultHandlers } from './a2a-faults.js';
export { ANTHROPIC_FAULTS, anthropicFaultHandlers, type AnthropicFault } from './anthropic-faults.js';
export { CHAT_FAULTS, chatFaultHandlers, type ChatFault } from './chat-faults.js';
export { MCP_FAULTS, mcpFaultHandlers, type MCPFault } from './mcp-faults.js';
export { chunk, sseResponse, sseText, textEvents, toolCallEvents, usageChunk, type StreamPlan } from './openai-stream.js';
