/**
 * The parts of the Model Context Protocol both sides of faultline speak: revisions, header names, JSON-RPC codes and
 * the message shapes of the tools capability (spec revisions 2025-11-25, 2025-06-18, 2025-03-26 and 2024-11-05;
 * https://modelcontextprotocol.io/specification/2025-11-25).
 */

/**
 * The revision we ask for first: the one `@modelcontextprotocol/sdk` 1.x (1.32) speaks.
 * @example `createMCPClient({ url, protocolVersion: MCP_LATEST_PROTOCOL_VERSION })`
 */
export const MCP_LATEST_PROTOCOL_VERSION = '2025-11-25';

/**
 * Every revision we interoperate with, newest first. A server that answers `initialize` with another is refused
 * (`MCPError` `protocol`); our handler answers a client asking for another with the newest.
 * @example `MCP_PROTOCOL_VERSIONS.includes(client.protocolVersion)`
 */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = /* @__PURE__ */ Object.freeze(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);

/** @internal Header names of the Streamable HTTP transport (lower case: `Headers` compares them so). */
export const SESSION_HEADER = 'mcp-session-id';
/** @internal */
export const VERSION_HEADER = 'mcp-protocol-version';
/** @internal */
export const LAST_EVENT_ID_HEADER = 'last-event-id';

/**
 * JSON-RPC error codes MCP uses.
 * @example `if (error.rpcCode === MCPErrorCode.InvalidParams) …`
 */
export const MCPErrorCode = /* @__PURE__ */ Object.freeze({
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Our handler: a request that needs a session came without one, or with one it does not know. */
  SessionRequired: -32000,
} as const);

/** @internal A JSON-RPC id. */
export type MCPRequestId = string | number;

/** The name and version a client or server gives in `initialize`. */
export interface MCPImplementation {
  name: string;
  version: string;
  title?: string | undefined;
}

/** One tool as `tools/list` describes it. */
export interface MCPToolDescription {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  /** A JSON Schema of the arguments object. */
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown> | undefined;
  annotations?: Record<string, unknown> | undefined;
}

/** One block of a tool result's `content`. */
export type MCPContent =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string }
  | { type: 'resource'; resource: Record<string, unknown> }
  | { type: string; [key: string]: unknown };

/** What `tools/call` answers: a tool execution error is a result with `isError: true`, not a JSON-RPC error. */
export interface MCPCallToolResult {
  content: MCPContent[];
  structuredContent?: Record<string, unknown> | undefined;
  isError?: boolean | undefined;
  _meta?: Record<string, unknown> | undefined;
}

/** What the server answers to `initialize`. */
export interface MCPInitializeResult {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  serverInfo: MCPImplementation;
  instructions?: string | undefined;
}
