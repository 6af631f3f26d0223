export { createMCPHandler, type MCPHandler, type MCPHandlerOptions } from './handler.js';
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
