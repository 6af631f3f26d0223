/**
 * The MCP client: the `initialize` handshake (version and capability negotiation), `tools/list` (every page),
 * `tools/call`, `ping`, a session the server forgot re-established once, server messages answered or handed on, and
 * `close()` ending the session and every pending call. `client.tools()` turns the server's tools into faultline
 * tools that fail exactly like local ones.
 */
import { MCPError } from '../errors/mcp-error.js';
import { ConfigError } from '../errors/config-error.js';
import { callOptionsProblems } from '../internal/call-options.js';
import { isPlainObject, refusedValue, truncate } from '../internal/json.js';
import { untilAborted } from '../internal/delay.js';
import { resolveRetryOptions } from '../internal/retry.js';
import type { AnyTool } from '../tools/define-tool.js';
import { resolveClientOptions, timeoutProblems, type MCPClientOptions, type ResolvedClientOptions } from './client-options.js';
import { protocolError, sessionExpired, type AnswerContext, type ServerMessage } from './client-messages.js';
import { toFaultlineTools, type MCPToolsOptions, type ToolHost } from './mcp-tools.js';
import { MCP_PROTOCOL_VERSIONS, type MCPCallToolResult, type MCPInitializeResult, type MCPToolDescription } from './protocol.js';
import { MCPTransport } from './transport.js';
import { encodeParams } from '../wire/jsonrpc-request.js';
import type { MCPCallOptions, MCPClient } from './client-api.js';

export type { MCPCallOptions, MCPClient } from './client-api.js';

/** Pages of `tools/list` read at most, and tools kept. */
const MAX_PAGES = 100;
const MAX_TOOLS = 10_000;
/** Skipped entries of a listing quoted in its one warning (each cut to 120 characters); the rest are counted. */
const SKIPPED_SHOWN = 3;

class Client implements MCPClient {
  readonly url: string;
  server: MCPInitializeResult | undefined;
  private readonly transport: MCPTransport;
  private readonly ctx: AnswerContext;
  private connecting: Promise<MCPInitializeResult> | undefined;
  private listing: Promise<MCPToolDescription[]> | undefined;
  private readonly listeners = new Set<() => void>();
  private closed = false;

  constructor(private readonly options: ResolvedClientOptions) {
    this.url = options.shownURL;
    this.ctx = { url: this.url, server: hostOf(this.url), secrets: options.secrets };
    this.transport = new MCPTransport({
      ...options, // the endpoint (url), fetch, headers, guard, telemetry and the bounds, as resolved
      retry: resolveRetryOptions(options.retry),
      answer: this.ctx,
      onServerMessage: (message) => this.onServerMessage(message),
      onWarning: (message) => this.warn(message),
    });
  }

  get sessionId(): string | undefined {
    return this.transport.sessionId;
  }

  connect(options: MCPCallOptions = {}): Promise<MCPInitializeResult> {
    if (this.closed) return Promise.reject(this.closedError());
    const problems = callOptionProblems(options);
    if (problems.length > 0) return Promise.reject(ConfigError.fromProblems('MCP call options', problems));
    if (!this.connecting) {
      // Shared by every caller, so it runs on the client's own terms (bounded by initializeMs, ended by close()):
      // one caller giving up must not fail the others, who each wait on their own signal below.
      const connecting = this.handshake().catch((error: unknown) => {
        if (this.connecting === connecting) this.connecting = undefined;
        throw error;
      });
      this.connecting = connecting;
      connecting.catch(() => {}); // each caller gets the failure through its own wait below, even when none is left
    }
    return untilAborted(this.connecting, options.signal);
  }

  private async handshake(): Promise<MCPInitializeResult> {
    this.transport.protocolVersion = undefined;
    const params = { protocolVersion: this.options.protocolVersion, capabilities: {}, clientInfo: this.options.clientInfo };
    const encoded = encodeParams(`MCP initialize request to ${this.ctx.server}`, params, this.ctx.secrets); // clientInfo is the caller's
    const answer = await this.transport.request('initialize', params, { timeoutMs: this.options.initializeMs, limit: 'initialize', idempotent: true }, encoded);
    if (!isPlainObject(answer) || typeof answer.protocolVersion !== 'string' || !isPlainObject(answer.capabilities)) {
      throw protocolError(this.ctx, 'its initialize answer has no protocolVersion or capabilities', undefined, 'initialize');
    }
    if (!MCP_PROTOCOL_VERSIONS.includes(answer.protocolVersion)) {
      await this.transport.endSession(5_000); // the next call tries a new handshake: the server may be redeployed
      throw protocolError(this.ctx, `it speaks protocol revision ${truncate(answer.protocolVersion, 40)}, none of ours (${MCP_PROTOCOL_VERSIONS.join(', ')})`, undefined, 'initialize');
    }
    const info = isPlainObject(answer.serverInfo) ? answer.serverInfo : {};
    const server: MCPInitializeResult = {
      protocolVersion: answer.protocolVersion,
      capabilities: answer.capabilities,
      serverInfo: { name: typeof info.name === 'string' ? info.name : '', version: typeof info.version === 'string' ? info.version : '' },
      ...(typeof answer.instructions === 'string' ? { instructions: answer.instructions } : {}),
    };
    if (server.serverInfo.name !== '') this.ctx.server = `'${truncate(server.serverInfo.name.replace(/[\r\n]/g, ' '), 80)}' (${hostOf(this.url)})`;
    this.transport.protocolVersion = server.protocolVersion;
    await this.transport.notify('notifications/initialized', undefined, { timeoutMs: this.options.initializeMs });
    this.server = server;
    if (this.options.listen) this.transport.listen();
    return server;
  }

  /** A request after the handshake; a session the server forgot is re-established once. */
  private async call(method: string, params: unknown, options: MCPCallOptions, idempotent: boolean): Promise<unknown> {
    const encoded = encodeParams(`MCP ${method} request to ${this.ctx.server}`, params, this.ctx.secrets);
    await this.connect(options); // checks the options first
    const settings = { signal: options.signal, timeoutMs: options.timeoutMs ?? this.options.requestMs, limit: 'request' as const, idempotent };
    const session = this.transport.sessionId;
    for (let again = false; ; again = true) {
      try {
        return await this.transport.request(method, params, settings, encoded);
      } catch (error) {
        if (!MCPError.isInstance(error) || error.reason !== 'session_expired') throw error;
        if (again) throw sessionExpired(this.ctx, 'forgot the session again right after a new handshake', method, error);
        await this.reconnect(session, options);
      }
    }
  }

  /** One new handshake for every call that met the same forgotten session. */
  private async reconnect(forgotten: string | undefined, options: MCPCallOptions): Promise<void> {
    if (this.transport.sessionId === forgotten) {
      this.transport.sessionId = undefined;
      this.connecting = undefined;
      this.listing = undefined;
    }
    await this.connect(options);
  }

  async listTools(options: MCPCallOptions = {}): Promise<MCPToolDescription[]> {
    const tools: MCPToolDescription[] = [];
    const seen = new Set<string>();
    // Entries without a name cannot be called: skipped, and said once per listing (a hostile server may list millions).
    let skipped = 0;
    const shown: string[] = [];
    let cursor: string | undefined;
    try {
      for (let page = 0; page < MAX_PAGES; page++) {
        const answer = await this.call('tools/list', cursor === undefined ? {} : { cursor }, options, true);
        if (!isPlainObject(answer) || !Array.isArray(answer.tools)) throw protocolError(this.ctx, 'its tools/list answer has no tools array', undefined, 'tools/list');
        for (const tool of answer.tools) {
          if (!isPlainObject(tool) || typeof tool.name !== 'string' || tool.name === '') {
            if (skipped++ < SKIPPED_SHOWN) shown.push(truncate(JSON.stringify(tool) ?? String(tool), 120));
            continue;
          }
          if (tools.length >= MAX_TOOLS) throw protocolError(this.ctx, `it lists more than ${MAX_TOOLS} tools`, undefined, 'tools/list');
          tools.push(tool as unknown as MCPToolDescription);
        }
        const next = answer.nextCursor;
        if (typeof next !== 'string' || next === '') return tools;
        if (seen.has(next)) throw protocolError(this.ctx, 'its tools/list repeats a cursor (the pages would never end)', undefined, 'tools/list');
        seen.add(next);
        cursor = next;
      }
      throw protocolError(this.ctx, `its tools/list has more than ${MAX_PAGES} pages`, undefined, 'tools/list');
    } finally {
      if (skipped > 0) this.warn(`tools/list: entries without a name skipped: ${skipped} (${shown.join(', ')}${skipped > shown.length ? ', …' : ''})`);
    }
  }

  /** The listing shared by `tools()` and its tools (like the handshake: on the client's own terms, each caller on its own signal). */
  private cachedList(signal?: AbortSignal): Promise<MCPToolDescription[]> {
    if (!this.listing) {
      const listing = this.listTools().catch((error: unknown) => {
        if (this.listing === listing) this.listing = undefined;
        throw error;
      });
      this.listing = listing;
      listing.catch(() => {}); // a caller whose signal had already aborted does not wait: its failure is no one's to handle
    }
    return untilAborted(this.listing, signal);
  }

  async tools(options: MCPToolsOptions & MCPCallOptions = {}): Promise<AnyTool[]> {
    const problems = callOptionProblems(options);
    if (problems.length > 0) throw ConfigError.fromProblems('MCP call options', problems);
    this.listing = undefined;
    const descriptions = await this.cachedList(options.signal);
    const host: ToolHost = {
      ...this.options, // its secrets (the context's) and requestMs
      server: () => this.ctx.server,
      call: (name, args, signal) => this.callTool(name, args, { signal, timeoutMs: Number.POSITIVE_INFINITY }), // the tool's own timeoutMs (runTool) governs
      names: async (signal) => (await this.cachedList(signal)).map((tool) => tool.name),
    };
    return toFaultlineTools(host, descriptions, options);
  }

  async callTool(name: string, args: Record<string, unknown> = {}, options: MCPCallOptions = {}): Promise<MCPCallToolResult> {
    subjectCheck('callTool', 'the tool name', name, 'arguments', args);
    const answer = await this.call('tools/call', { name, arguments: args }, options, false);
    if (!isPlainObject(answer) || (answer.content !== undefined && !Array.isArray(answer.content))) {
      throw protocolError(this.ctx, `its tools/call answer for '${truncate(name, 64)}' is not a tool result`, undefined, 'tools/call');
    }
    return { ...answer, content: (answer.content as MCPCallToolResult['content'] | undefined) ?? [] } as MCPCallToolResult;
  }

  async ping(options: MCPCallOptions = {}): Promise<void> {
    await this.call('ping', undefined, options, true);
  }

  async request(method: string, params?: Record<string, unknown>, options: MCPCallOptions = {}): Promise<unknown> {
    subjectCheck('request', 'the method', method, 'params', params === undefined ? {} : params);
    return this.call(method, params, options, false);
  }

  onToolsChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.transport.close(this.closedError(), 5_000);
  }

  private warn(message: string): void {
    const onWarning = this.options.onWarning;
    if (onWarning) guarded(() => onWarning(`MCP server ${this.ctx.server}: ${message}`));
  }

  private closedError(): MCPError {
    return new MCPError(`The MCP client for ${this.ctx.server} is closed`, { reason: 'closed', url: this.url, retryable: false });
  }

  private onServerMessage(message: Exclude<ServerMessage, { kind: 'response' }>): void {
    if (message.kind === 'request') {
      this.transport.respond(
        message.id,
        message.method === 'ping' ? { result: {} } : { error: { code: -32601, message: `Method not found: this client offers no ${truncate(message.method, 100)}` } },
      );
      return;
    }
    if (message.method === 'notifications/tools/list_changed') {
      this.listing = undefined;
      for (const listener of [...this.listeners]) guarded(listener);
    }
    const notify = this.options.onNotification;
    if (notify) guarded(() => notify({ method: message.method, ...(message.params === undefined ? {} : { params: message.params }) }));
  }
}

/** The problems with a call's options: the shared check, and `timeoutMs` (a number > 0, or `Infinity`). */
function callOptionProblems(options: MCPCallOptions): string[] {
  const problems = callOptionsProblems(options);
  return problems.length > 0 ? problems : timeoutProblems(options.timeoutMs, 'timeoutMs');
}

/** Refuses a call whose name is not a non-empty string or whose arguments are not an object: either would be sent as given. */
function subjectCheck(call: string, what: string, name: unknown, argsName: string, args: unknown): void {
  const problems: string[] = [];
  if (typeof name !== 'string' || name === '') problems.push(`${what} must be a non-empty string (got ${refusedValue(name)})`);
  if (!isPlainObject(args)) problems.push(`${argsName} must be an object (got ${refusedValue(args)})`);
  if (problems.length > 0) throw ConfigError.fromProblems(`MCP ${call}`, problems);
}

function guarded(listener: () => void): void {
  try {
    listener();
  } catch {
    // a listener's failure is its own: the stream it came from goes on
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the MCP server';
  }
}

/**
 * A client for one MCP server over Streamable HTTP (JSON and SSE answers, sessions, revisions 2025-11-25 down to
 * 2024-11-05). Runs unchanged in browsers, Workers, Deno and Node.
 *
 * @example
 * ```ts
 * const docs = createMCPClient({ url: 'https://docs.example/mcp', headers: { authorization: `Bearer ${token}` } });
 * const agent = new AgentBuilder().model(model).tools(await docs.tools({ prefix: 'docs_' })).build();
 * // … later
 * await docs.close();
 * ```
 */
export function createMCPClient(options: MCPClientOptions): MCPClient {
  return new Client(resolveClientOptions(options));
}
