/** Options of `createMCPClient`, their defaults and their checks. */
import { ConfigError } from '../errors/config-error.js';
import { isPlainObject, refusedValue } from '../internal/json.js';
import { headerSecrets, urlView } from '../internal/redact.js';
import { retryOptionProblems, type RetryGuard, type RetryOptions } from '../internal/retry.js';
import { dependencyOf, resilienceGuard, resilienceProblems, type ResilienceOptions } from '../resilience/guard.js';
import { isTelemetry, NO_TELEMETRY, telemetryProblems } from '../telemetry/no-telemetry.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { MCP_PROTOCOL_VERSIONS, type MCPImplementation } from './protocol.js';
import { retryNameProblems, unknownOptionProblems } from '../internal/option-names.js';
import { secretsProblem } from '../internal/secret-forms.js';

/** Time limits of an MCP client, in ms; `Infinity` disables one. */
export interface MCPClientTimeouts {
  /** One request, from sending it to its response; keep-alives and notifications do not extend it. @default 60000 */
  requestMs?: number | undefined;
  /** The `initialize` handshake. @default 30000 */
  initializeMs?: number | undefined;
  /**
   * The server's own stream (`listen`): longest wait for its answer and then between two bytes (an event or a
   * keep-alive comment) before the connection is dropped and opened again with `Last-Event-ID`. A connection that
   * died without closing delivers nothing and says nothing; this finds it. @default 300000
   */
  listenIdleMs?: number | undefined;
}

/** A notification the server sent (`notifications/progress`, `notifications/message`, …). */
export interface MCPNotification {
  method: string;
  params?: unknown;
}

/** Options of `createMCPClient`. */
export interface MCPClientOptions extends ResilienceOptions {
  /** The server's MCP endpoint (Streamable HTTP), e.g. `https://example.com/mcp`. */
  url: string | URL;
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /** Sent with every request (e.g. `Authorization`); credential values never appear in an error or a result. */
  headers?: Readonly<Record<string, string>> | undefined;
  timeouts?: MCPClientTimeouts | undefined;
  /** Retries of transient failures (network, 408/429/5xx, `Retry-After` honoured); a timed-out `tools/call` is not repeated. @default 3 attempts */
  retry?: RetryOptions | false | undefined;
  /** What the client tells the server it is. @default { name: 'faultline', version: '0.1.0' } */
  clientInfo?: MCPImplementation | undefined;
  /** The revision asked for first; the server may answer with any of `MCP_PROTOCOL_VERSIONS`. @default '2025-11-25' */
  protocolVersion?: string | undefined;
  /**
   * Strings that must never reach an error or a model (your API keys): removed in every form — also from the URL as
   * the client keeps and shows it (`client.url`, errors, circuit names), where credentials in the user info, a
   * credential-named query value (`?api_key=`) or a token-shaped path segment are masked without being listed.
   */
  secrets?: readonly string[] | undefined;
  /**
   * Largest message read, in UTF-8 bytes: a JSON body, and one event's data of a request's SSE stream and of the
   * server's own stream (`listen`) — the one bound of every reader (an SSE line may be as long as its event). Past
   * it: `MCPError` `protocol` naming this option (on the server's own stream, a warning). The server's own requests
   * are answered in order, 4 at a time; while 256 answers wait, their stream is read no further, and more than 4096
   * waiting (a JSON body cannot wait) is an `MCPError` `protocol`. @default 16777216 (16 MiB)
   */
  maxResponseBytes?: number | undefined;
  /** Resumptions (`Last-Event-ID`) of one request's stream that ended early. @default 3 */
  maxResumes?: number | undefined;
  /**
   * Open the server's own stream (an HTTP GET, kept until `close()`) after the handshake, where servers send
   * notifications such as `tools/list_changed`. Off by default: on Workers a stream belongs to the request that
   * opened it. @default false
   */
  listen?: boolean | undefined;
  /**
   * What the client dropped or gave up on that is not the failure of a call: listed tools without a name (one warning
   * per listing: how many, and the first three), the server's own stream (`listen`) given up. @default nothing (quiet)
   */
  onWarning?: ((warning: string) => void) | undefined;
  /** Every notification the server sends; `notifications/tools/list_changed` is also handled for you. */
  onNotification?: ((notification: MCPNotification) => void) | undefined;
  /**
   * Where each request's `client` span goes (`openTelemetry(otel)`: `tools/call get_weather`, `initialize`…); its
   * W3C `traceparent` is sent with the request. @default nothing recorded, no header
   */
  telemetry?: Telemetry | undefined;
}

/** @internal The defaults, filled in. */
export interface ResolvedClientOptions {
  /** The endpoint requests go to. */
  url: string;
  /** The endpoint as it is kept and shown: every credential in it replaced by `[REDACTED]`. */
  shownURL: string;
  fetch: typeof fetch;
  headers: Readonly<Record<string, string>>;
  requestMs: number;
  initializeMs: number;
  listenIdleMs: number;
  retry: RetryOptions | false | undefined;
  clientInfo: MCPImplementation;
  protocolVersion: string;
  /** The configured secrets, the credentials of `headers`, and the parts of the URL masked in `shownURL`. */
  secrets: readonly string[];
  maxResponseBytes: number;
  maxResumes: number;
  onNotification: ((notification: MCPNotification) => void) | undefined;
  listen: boolean;
  onWarning: ((warning: string) => void) | undefined;
  /** The circuit breaker / retry budget guard of the server's calls (one circuit per server URL). */
  guard: RetryGuard | undefined;
  telemetry: Telemetry | undefined;
}

/** @internal The problem with the time limit `name` (absent, or a number > 0: `Infinity` sets none), if any. */
export function timeoutProblems(value: unknown, name: string): string[] {
  return value === undefined || (typeof value === 'number' && value > 0) ? [] : [`${name} must be a number > 0 or Infinity (got ${refusedValue(value)})`];
}

/** @internal Checks every option (all problems in one `ConfigError`) and fills the defaults. */
export function resolveClientOptions(options: MCPClientOptions): ResolvedClientOptions {
  const problems: string[] = [];
  const record: Partial<MCPClientOptions> = isPlainObject(options) ? options : {};
  if (!isPlainObject(options)) problems.push('options must be an object');
  else problems.push(...unknownOptionProblems(options, ['url', 'fetch', 'headers', 'timeouts', 'retry', 'clientInfo', 'protocolVersion', 'secrets', 'maxResponseBytes', 'maxResumes', 'listen', 'onWarning', 'onNotification', 'telemetry', 'circuitBreaker', 'retryBudget']));
  let url = '';
  try {
    const parsed = new URL(String(record.url));
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') problems.push(`url must be http: or https: (got ${parsed.protocol})`);
    url = parsed.href;
  } catch {
    problems.push('url must be an absolute http(s) URL');
  }
  const fetchImpl = record.fetch ?? (globalThis.fetch as typeof fetch | undefined);
  if (typeof fetchImpl !== 'function') problems.push('fetch must be a function (no global fetch here)');
  const headers = record.headers ?? {};
  if (!isPlainObject(headers) || Object.values(headers).some((value) => typeof value !== 'string')) problems.push('headers must be an object of strings');
  const timeouts = record.timeouts ?? {};
  if (!isPlainObject(timeouts)) problems.push('timeouts must be an object');
  else problems.push(...unknownOptionProblems(timeouts, ['requestMs', 'initializeMs', 'listenIdleMs']).map((problem) => `timeouts: ${problem}`));
  for (const key of ['requestMs', 'initializeMs', 'listenIdleMs'] as const) {
    const value = (timeouts as MCPClientTimeouts)[key];
    problems.push(...timeoutProblems(value, `timeouts.${key}`));
  }
  problems.push(...retryOptionProblems(record.retry, 'retry'), ...retryNameProblems(record.retry, 'retry'), ...resilienceProblems(record));
  const clientInfo = record.clientInfo ?? { name: 'faultline', version: '0.1.0' };
  if (!isPlainObject(clientInfo) || typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') problems.push('clientInfo must be { name: string, version: string }');
  const protocolVersion = record.protocolVersion ?? (MCP_PROTOCOL_VERSIONS[0] as string);
  if (!MCP_PROTOCOL_VERSIONS.includes(protocolVersion)) problems.push(`protocolVersion must be one of ${MCP_PROTOCOL_VERSIONS.join(', ')} (got ${refusedValue(protocolVersion)})`);
  const secrets = record.secrets ?? [];
  const secretsRefused = secretsProblem(secrets);
  if (secretsRefused) problems.push(secretsRefused);
  if (record.maxResponseBytes !== undefined && !(Number.isInteger(record.maxResponseBytes) && record.maxResponseBytes > 0)) problems.push('maxResponseBytes must be an integer > 0');
  if (record.maxResumes !== undefined && !(Number.isInteger(record.maxResumes) && record.maxResumes >= 0)) problems.push('maxResumes must be an integer ≥ 0');
  if (record.listen !== undefined && typeof record.listen !== 'boolean') problems.push('listen must be a boolean');
  if (record.onWarning !== undefined && typeof record.onWarning !== 'function') problems.push('onWarning must be a function');
  if (record.onNotification !== undefined && typeof record.onNotification !== 'function') problems.push('onNotification must be a function');
  problems.push(...telemetryProblems(record.telemetry));
  // The spans are the telemetry object's (`mcpClient`, set by openTelemetry), so an app without tracing bundles none:
  // a telemetry made by hand would trace nothing here, and is refused rather than ignored.
  if (isTelemetry(record.telemetry) && record.telemetry !== NO_TELEMETRY && record.telemetry.mcpClient === undefined) {
    problems.push('telemetry must come from openTelemetry(otel) (or be NO_TELEMETRY): this one has no MCP client tracing (mcpClient)');
  }
  if (problems.length > 0) throw ConfigError.fromProblems('MCP client', problems);
  const known = [...secrets, ...headerSecrets(headers)];
  const view = urlView(url, known);
  return {
    url,
    shownURL: view.url,
    fetch: (input, init) => (fetchImpl as typeof fetch)(input, init), // called unbound: browsers and workerd refuse fetch with another `this`
    headers,
    requestMs: (timeouts as MCPClientTimeouts).requestMs ?? 60_000,
    initializeMs: (timeouts as MCPClientTimeouts).initializeMs ?? 30_000,
    listenIdleMs: (timeouts as MCPClientTimeouts).listenIdleMs ?? 300_000,
    retry: record.retry,
    clientInfo,
    protocolVersion,
    secrets: [...known, ...view.hidden],
    maxResponseBytes: record.maxResponseBytes ?? 16 * 1024 * 1024,
    maxResumes: record.maxResumes ?? 3,
    onNotification: record.onNotification,
    listen: record.listen === true,
    onWarning: record.onWarning,
    guard: resilienceGuard(dependencyOf(view), record),
    telemetry: record.telemetry,
  };
}
