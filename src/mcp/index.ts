export { createMCPClient, type MCPCallOptions, type MCPClient } from './client.js';
export { createMCPHandler, type MCPHandler, type MCPHandlerOptions } from './handler.js';
export type { MCPClientOptions, MCPClientTimeouts, MCPNotification } from './client-options.js';
export { mcpFailureToToolFailure, mcpResultToToolResult, type MCPCallSubject } from './mcp-results.js';
export type { MCPToolsOptions } from './mcp-tools.js';
export {
  MCP_LATEST_PROTOCOL_VERSION,
  MCP_PROTOCOL_VERSIONS,
  MCPErrorCode,
  type MCPCallToolResult,
  type MCPContent,
  type MCPImplementation,
  type MCPInitializeResult,
  type MCPToolDescription,
} from './protocol.js';
export { MCPError, type MCPErrorOptions, type MCPErrorReason } from '../errors/mcp-error.js';
