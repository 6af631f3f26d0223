/** The MCP client's public shape: what `createMCPClient` returns, and the options of one call. */
import type { AnyTool } from '../tools/define-tool.js';
import type { MCPToolsOptions } from './mcp-tools.js';
import type { MCPCallToolResult, MCPInitializeResult, MCPToolDescription } from './protocol.js';

/** Per-call options. */
export interface MCPCallOptions {
  signal?: AbortSignal | undefined;
  /** Overrides `timeouts.requestMs` for this call. */
  timeoutMs?: number | undefined;
}

/** A connection to one MCP server. Create it with {@link createMCPClient}. */
export interface MCPClient {
  /**
   * The endpoint as it may be shown: credentials in any position (user info, a credential-named query value, a
   * token-shaped or configured-secret path segment) replaced by `[REDACTED]`.
   */
  readonly url: string;
  /** The handshake's answer, once connected. */
  readonly server: MCPInitializeResult | undefined;
  /** The session id the server gave, if any. */
  readonly sessionId: string | undefined;
  /** Runs the handshake (every other method does it first, once); a failed one is tried again by the next call. */
  connect(options?: MCPCallOptions): Promise<MCPInitializeResult>;
  /** Every tool of the server (all pages of `tools/list`). */
  listTools(options?: MCPCallOptions): Promise<MCPToolDescription[]>;
  /**
   * The server's tools as faultline tools, for `AgentBuilder.tools`, graph tool nodes and `runTool`. A tool whose
   * schema is over `MODEL_FACING_LIMITS` (65536 characters of JSON, 64 levels) is refused with a `ConfigError`
   * naming it (leave it out with `include`); a description over 8192 characters is cut, the cut marked.
   */
  tools(options?: MCPToolsOptions & MCPCallOptions): Promise<AnyTool[]>;
  /** One `tools/call`, its result as sent (`isError` included); a failure of the call rejects with a typed error. */
  callTool(name: string, args?: Record<string, unknown>, options?: MCPCallOptions): Promise<MCPCallToolResult>;
  ping(options?: MCPCallOptions): Promise<void>;
  /** Any other request, by method name. */
  request(method: string, params?: Record<string, unknown>, options?: MCPCallOptions): Promise<unknown>;
  /** Called after the server says its tools changed (`notifications/tools/list_changed`); returns the unsubscribe. */
  onToolsChanged(listener: () => void): () => void;
  /** Ends the session (HTTP DELETE) and every pending call (`MCPError` `closed`). */
  close(): Promise<void>;
}
