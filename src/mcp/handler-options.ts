/** @internal The options of `createMCPHandler`: what each one means, its default, and the checks made at creation. */
import { ConfigError } from '../errors/config-error.js';
import { callerSettings, type CallerSettings } from '../internal/caller-check.js';
import { isPlainObject, positiveIntegerProblems } from '../internal/json.js';
import { isTool, type AnyTool } from '../tools/define-tool.js';
import { toolLogOptionProblem, type ToolLogOption } from '../tools/tool-log-option.js';
import { MAX_JSON_DEPTH } from '../wire/safe-json.js';
import type { MCPImplementation } from './protocol.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import { secretsProblem } from '../internal/secret-forms.js';

/**
 * Options of {@link createMCPHandler}. Only `tools` and `serverInfo` are required.
 *
 * @example
 * ```ts
 * const options: MCPHandlerOptions = {
 *   tools: [getWeather],
 *   serverInfo: { name: 'weather', version: '1.0.0' },
 *   secrets: [env.WEATHER_API_KEY],
 *   responseMode: 'sse',
 * };
 * ```
 */
export interface MCPHandlerOptions {
  /** The tools served (made by `defineTool`), with unique names. An empty list serves no tools. */
  tools: readonly AnyTool[];
  /** The `serverInfo` answered to `initialize`: a non-empty `name` and a `version`. */
  serverInfo: MCPImplementation;
  /** Text answered to `initialize` as `instructions` (how a client's model should use these tools). */
  instructions?: string | undefined;
  /**
   * Sessions: `initialize` creates one (header `mcp-session-id`), every later request must carry its id (no id:
   * HTTP 400; an unknown, expired or deleted id: HTTP 404, which tells the client to initialize again), DELETE ends
   * it. `false` is stateless: no header, every request accepted, `notifications/cancelled` ignored (no session
   * scopes its request id; a call still stops when its client disconnects). @default true
   */
  sessions?: boolean | undefined;
  /**
   * Sessions held at once. A new `initialize` past it drops the least recently used session with no call in flight;
   * when every session has a call in flight, that `initialize` is refused with HTTP 503, `Retry-After: 1` and
   * JSON-RPC -32000 (running calls are never dropped to make room). @default 10000
   */
  maxSessions?: number | undefined;
  /** A session unused this long (and with no call in flight) is forgotten, checked when it is next used. @default 3600000 (1 h) */
  sessionIdleMs?: number | undefined;
  /**
   * How requests are answered: `'json'` (one `application/json` body) or `'sse'` (a `text/event-stream` with one
   * `event: message` frame per response, `: keep-alive` comments while a call runs, then the stream closes).
   * @default 'json'
   */
  responseMode?: 'json' | 'sse' | undefined;
  /** In `'sse'` mode, a `: keep-alive` comment this often while an answer is pending; `false` turns it off. @default 15000 */
  keepAliveMs?: number | false | undefined;
  /** Tools per `tools/list` page; past it the answer has an opaque `nextCursor`. @default 100 */
  pageSize?: number | undefined;
  /** Largest request body accepted; a larger one gets HTTP 413 and JSON-RPC -32600. @default 1048576 */
  maxBodyBytes?: number | undefined;
  /** Time for the request body to arrive; a client that trickles it gets HTTP 408 and JSON-RPC -32600. @default 30000 */
  bodyTimeoutMs?: number | undefined;
  /** Deepest nesting accepted in `params`; deeper gets HTTP 400 and JSON-RPC -32602 naming the path. @default 100 */
  maxDepth?: number | undefined;
  /**
   * `Host` names this server answers to besides loopback ones (`localhost`, `127.0.0.1`, `[::1]`, any port, always
   * accepted): `'api.example.com'` (any port) or `'api.example.com:8443'`, matched case-insensitively, a trailing dot
   * ignored. A request to another name gets HTTP 421 and JSON-RPC -32600 — the defence against DNS rebinding, where a
   * web page points its own name at this machine. Not set, a caller on a public address (as `toNodeListener`,
   * `Deno.serve` or a Worker report it) may use any name, and every other caller — on loopback, a private network,
   * or unknown (no platform arguments) — only loopback names: behind a reverse proxy, list the public name. `'*'`
   * accepts every name (only for a server no browser can reach, or that authenticates every request). See
   * docs/security.md. @default not set
   */
  allowedHosts?: readonly string[] | '*' | undefined;
  /**
   * Origins allowed to call besides the endpoint's own (the spec's defence against DNS rebinding: servers MUST check
   * `Origin`). A request with an `Origin` header that is neither the request's own origin (scheme://host:port, its
   * Host checked first: see `allowedHosts`), nor a loopback origin of the same scheme and port on a loopback Host,
   * nor listed here gets HTTP 403 and JSON-RPC -32600; requests without an `Origin` header (non-browser clients, such
   * as the SDK's Node client) are always accepted. List each origin as browsers send it (`https://app.example`,
   * `http://localhost:5173`: no path). `Origin: null` passes only with `'*'`, which accepts every origin (only for a
   * server browsers cannot reach, or that authenticates every request). @default [] (the endpoint's own origin only)
   */
  allowedOrigins?: readonly string[] | '*' | undefined;
  /**
   * Strings that must never reach a client (your tools' API keys): removed, in every form (as is, URL-encoded,
   * JSON-escaped, base64), from every byte the handler sends, and from the developer log records.
   */
  secrets?: readonly string[] | undefined;
  /** The tools' developer log: `false`, `console` or a function (real errors, stacks, arguments; redacted). @default crashes only, one line on `console.error` */
  logger?: ToolLogOption | undefined;
  /**
   * Hears every unexpected failure inside the handler (answered -32603 with a generic message), redacted. What it
   * throws, or rejects with, is ignored: the answer goes out either way.
   */
  onError?: ((error: unknown) => void) | undefined;
}

/** @internal The options with every default applied. */
export interface MCPSettings {
  tools: ReadonlyMap<string, AnyTool>;
  serverInfo: MCPImplementation;
  instructions: string | undefined;
  sessions: boolean;
  maxSessions: number;
  sessionIdleMs: number;
  responseMode: 'json' | 'sse';
  keepAliveMs: number | false;
  pageSize: number;
  limits: { maxBodyBytes: number; bodyTimeoutMs: number; maxDepth: number };
  /** Who may call: the resolved `allowedHosts` and `allowedOrigins`. */
  caller: CallerSettings;
  secrets: readonly string[];
  logger: ToolLogOption | undefined;
  onError: ((error: unknown) => void) | undefined;
}

const positive = (value: unknown, finite: boolean) => typeof value === 'number' && value > 0 && (!finite || Number.isFinite(value));

function toolProblems(tools: unknown, problems: string[]): Map<string, AnyTool> {
  const byName = new Map<string, AnyTool>();
  if (!Array.isArray(tools)) {
    problems.push('tools must be an array of tools made by defineTool');
    return byName;
  }
  tools.forEach((tool: unknown, index) => {
    if (!isTool(tool)) problems.push(`tools[${index}] is not a faultline tool (make it with defineTool)`);
    else if (byName.has(tool.name)) problems.push(`tools[${index}]: the tool name ${JSON.stringify(tool.name)} is used twice`);
    else byName.set(tool.name, tool);
  });
  return byName;
}

function serverInfoProblems(info: unknown, problems: string[]): void {
  if (!isPlainObject(info)) {
    problems.push('serverInfo must be an object { name, version }');
    return;
  }
  if (typeof info.name !== 'string' || info.name.trim() === '') problems.push('serverInfo.name must be a non-empty string');
  if (typeof info.version !== 'string') problems.push('serverInfo.version must be a string');
  if (info.title !== undefined && typeof info.title !== 'string') problems.push('serverInfo.title must be a string');
}

/** @internal Checks the options of `createMCPHandler` (every problem in one `ConfigError`) and applies the defaults. */
export function resolveHandlerOptions(options: MCPHandlerOptions): MCPSettings {
  if (!isPlainObject(options)) throw ConfigError.fromProblems('MCP handler options', ['options must be an object { tools, serverInfo }']);
  const problems: string[] = unknownOptionProblems(options, ['tools', 'serverInfo', 'instructions', 'sessions', 'maxSessions', 'sessionIdleMs', 'responseMode', 'keepAliveMs', 'pageSize', 'maxBodyBytes', 'bodyTimeoutMs', 'maxDepth', 'allowedHosts', 'allowedOrigins', 'secrets', 'logger', 'onError']);
  const tools = toolProblems(options.tools, problems);
  serverInfoProblems(options.serverInfo, problems);
  if (options.instructions !== undefined && typeof options.instructions !== 'string') problems.push('instructions must be a string');
  if (options.sessions !== undefined && typeof options.sessions !== 'boolean') problems.push('sessions must be a boolean');
  if (options.responseMode !== undefined && options.responseMode !== 'json' && options.responseMode !== 'sse') problems.push(`responseMode must be 'json' or 'sse'`);
  problems.push(...positiveIntegerProblems(options, ['maxSessions', 'pageSize', 'maxDepth']));
  if (options.maxBodyBytes !== undefined && !positive(options.maxBodyBytes, true)) problems.push('maxBodyBytes must be a finite number > 0');
  if (options.bodyTimeoutMs !== undefined && !positive(options.bodyTimeoutMs, false)) problems.push('bodyTimeoutMs must be a number > 0 or Infinity');
  if (options.sessionIdleMs !== undefined && !positive(options.sessionIdleMs, false)) problems.push('sessionIdleMs must be a number > 0 or Infinity');
  if (options.keepAliveMs !== undefined && options.keepAliveMs !== false && !positive(options.keepAliveMs, true)) problems.push('keepAliveMs must be a finite number > 0 or false');
  const caller = callerSettings(options, problems);
  const secrets = secretsProblem(options.secrets);
  if (secrets) problems.push(secrets);
  const loggerProblem = toolLogOptionProblem(options.logger, 'logger');
  if (loggerProblem) problems.push(loggerProblem);
  if (options.onError !== undefined && typeof options.onError !== 'function') problems.push('onError must be a function');
  if (problems.length > 0) throw ConfigError.fromProblems('MCP handler options', problems);
  const info = options.serverInfo;
  return {
    tools,
    serverInfo: { name: info.name, version: info.version, ...(info.title !== undefined ? { title: info.title } : {}) },
    instructions: options.instructions,
    sessions: options.sessions ?? true,
    maxSessions: options.maxSessions ?? 10_000,
    sessionIdleMs: options.sessionIdleMs ?? 3_600_000,
    responseMode: options.responseMode ?? 'json',
    keepAliveMs: options.keepAliveMs ?? 15_000,
    pageSize: options.pageSize ?? 100,
    limits: { maxBodyBytes: options.maxBodyBytes ?? 1_048_576, bodyTimeoutMs: options.bodyTimeoutMs ?? 30_000, maxDepth: options.maxDepth ?? MAX_JSON_DEPTH },
    caller,
    secrets: Object.freeze([...(options.secrets ?? [])]),
    logger: options.logger,
    onError: options.onError,
  };
}
