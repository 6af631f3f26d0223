/**
 * @internal The A2A server's HTTP and JSON-RPC layer: the agent card, the path and method, the version header, the
 * request checks (`readRPCRequest`), the method table and the params decoders. What passes becomes one {@link A2ACall}
 * for a task backend — the in-memory one of `createA2AHandler`, or a Durable Object (`faultline/cloudflare`) — so
 * every deployment answers malformed requests with the same JSON-RPC errors.
 */
import { SerializeError } from '../errors/serialize-error.js';
import { checkCaller, echo, type CallerSettings } from '../internal/caller-check.js';
import { read } from '../internal/error-chain.js';
import { buildAgentCard, type AgentCardInput } from './agent-card.js';
import { A2A_VERSION_HEADER, A2AErrorCode, A2AMethod, A2AMethodV1, AGENT_CARD_PATH, LEGACY_AGENT_CARD_PATH, PUSH_NOTIFICATION_METHODS, type A2AProtocolVersion } from './constants.js';
import { decodeMessageSendParams, decodeTaskQueryParams } from './decode.js';
import { normalizePath, parseVersion } from './handler-http.js';
import { readRPCRequest, type RequestLimits } from './handler-request.js';
import { errorBody, jsonResponse, rpcError, type RequestId } from './jsonrpc.js';
import type { MessageSendParams } from './types.js';
import { A2A_METHOD_NAME, RPC_METHOD, RPC_SYSTEM_JSONRPC, RPC_SYSTEM_NAME } from '../telemetry/attribute-names.js';
import { a2aSpanName } from '../telemetry/span-names.js';
import { traces } from '../telemetry/no-telemetry.js';
import type { SpanHandle, Telemetry } from '../telemetry/telemetry.js';
import { parseTraceparent } from '../telemetry/traceparent.js';

/** @internal `tasks/get`, `tasks/cancel`, `tasks/resubscribe` params. */
export interface TaskQueryParams {
  id: string;
  historyLength?: number;
}

interface CallBase {
  /** The JSON-RPC id. */
  id: RequestId;
  /** The protocol version of the method name (what the answer is encoded in). */
  version: A2AProtocolVersion;
  /** The method as the client named it (for messages). */
  method: string;
  /** Who asked (the handler's `userId` option). */
  userId: string;
  /** The W3C `traceparent` the task's run is a child of (the server span's, when the handler is traced). */
  traceparent?: string | undefined;
}

/** @internal One checked, decoded A2A request: what a task backend answers. Plain JSON (it crosses to a Durable Object). */
export type A2ACall =
  | (CallBase & { operation: 'SendMessage' | 'StreamMessage'; params: MessageSendParams; taskId?: string | undefined })
  | (CallBase & { operation: 'GetTask' | 'CancelTask' | 'Resubscribe'; params: TaskQueryParams });

/** @internal Answers one call; never rejects (failures are JSON-RPC errors). `platform` is what followed the request. */
export type CallBackend = (call: A2ACall, platform: readonly unknown[]) => Promise<Response>;

/** @internal What the front needs to know. */
export interface FrontSettings {
  card: AgentCardInput;
  basePath: string;
  versions: readonly A2AProtocolVersion[];
  limits: RequestLimits;
  userId?: ((request: Request) => string) | undefined;
  /** Where each request's `server` span goes: a child of the request's `traceparent`. */
  telemetry?: Telemetry | undefined;
  /** Who may call (`allowedHosts`, `allowedOrigins`): checked before anything else, the agent card included. */
  caller: CallerSettings;
}

type Operation = keyof typeof A2AMethod;
/** Method name → operation and the protocol version the name belongs to (a Map: no name reaches Object.prototype). */
let methods: Map<string, { operation: Operation; version: A2AProtocolVersion }> | undefined;
/** The operation a method name names, and its protocol version (the table is built on first use). */
function methodOf(name: string): { operation: Operation; version: A2AProtocolVersion } | undefined {
  methods ??= new Map<string, { operation: Operation; version: A2AProtocolVersion }>([
    ...Object.entries(A2AMethod).map(([key, value]) => [value, { operation: key as Operation, version: '0.3' as const }] as const),
    ...Object.entries(A2AMethodV1).map(([key, value]) => [value, { operation: key as Operation, version: '1.0' as const }] as const),
  ]);
  return methods.get(name);
}

/** @internal A JSON-RPC error answer. */
export function failure(id: RequestId, code: number, message: string | undefined, version: A2AProtocolVersion, data?: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return jsonResponse(errorBody(id, rpcError(code, message, version, data)), status, headers);
}

/**
 * @internal What a failure while answering `call` becomes: a `SerializeError` (bad params) is -32602 with its issues;
 * anything else -32603 naming the method and the kind of failure — never a stack, never a dependency's own text (a
 * store's "db-internal:5432 refused").
 */
export function callFailure(call: Pick<A2ACall, 'id' | 'method' | 'version'>, error: unknown): Response {
  if (SerializeError.isInstance(error)) return failure(call.id, A2AErrorCode.InvalidParams, error.message, call.version, error.issues.length > 0 ? { issues: [...error.issues] } : undefined);
  return failure(call.id, A2AErrorCode.InternalError, `Internal error while handling ${call.method.slice(0, 100)} (${errorKind(error)})`, call.version);
}

/** @internal `SerializeError`, `TypeError`…: what kind of failure, without its text. */
export function errorKind(error: unknown): string {
  const name = read(error, 'name');
  return typeof name === 'string' && /^[A-Za-z][\w.]{0,60}$/.test(name) ? name : typeof error;
}

/** @internal The fetch handler of an A2A server over `backend`. */
export function createRPCFront(settings: FrontSettings, backend: CallBackend): (request: Request, ...platform: unknown[]) => Promise<Response> {
  const { card, versions, limits } = settings;
  const basePath = normalizePath(settings.basePath);
  return async (request, ...platform) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return jsonResponse({ error: 'bad request URL' }, 400);
    }
    const refused = checkCaller(request, platform, settings.caller);
    if (refused) return failure(null, A2AErrorCode.InvalidRequest, refused.message, '0.3', undefined, refused.status);
    const path = normalizePath(url.pathname);
    if (request.method === 'GET' && (path.endsWith(AGENT_CARD_PATH) || path.endsWith(LEGACY_AGENT_CARD_PATH))) {
      return jsonResponse(buildAgentCard(card, `${url.origin}${basePath === '/' ? '/' : basePath}`, versions));
    }
    if (path !== basePath) return jsonResponse({ error: `not found: ${url.pathname}` }, 404);
    if (request.method !== 'POST') return jsonResponse({ error: 'method not allowed: use POST for JSON-RPC' }, 405, { allow: 'POST' });

    const headerVersion = request.headers.get(A2A_VERSION_HEADER)?.trim() || undefined;
    const parsedVersion = headerVersion === undefined ? '0.3' : parseVersion(headerVersion);
    const declared: A2AProtocolVersion = parsedVersion ?? '0.3';
    const checked = await readRPCRequest(request, limits, (id, code, message, data, status) => failure(id, code, message, declared, data, status));
    if (checked instanceof Response) return checked;
    const { id, method } = checked;
    const known = methodOf(method);
    const version: A2AProtocolVersion = known?.version ?? declared;
    if (parsedVersion === undefined) return failure(id, A2AErrorCode.VersionNotSupported, `A2A version ${echo(headerVersion as string)} is not supported; supported: ${versions.join(', ')}`, declared);
    if (!versions.includes(version)) return failure(id, A2AErrorCode.VersionNotSupported, `A2A ${version} is not served here; supported: ${versions.join(', ')}`, version);
    if (PUSH_NOTIFICATION_METHODS.has(method)) return failure(id, A2AErrorCode.PushNotificationNotSupported, undefined, version);
    const operation = known?.operation;
    if (!operation) return failure(id, A2AErrorCode.MethodNotFound, `Method not found: ${method.slice(0, 100)}`, version);
    if (operation === 'GetExtendedCard') return failure(id, A2AErrorCode.AuthenticatedExtendedCardNotConfigured, undefined, version);
    let span: SpanHandle | undefined;
    try {
      const userId = settings.userId?.(request) ?? 'a2a-user';
      const incoming = settings.telemetry ? request.headers.get('traceparent') : null;
      span = serverSpan(settings.telemetry, operation, method, incoming);
      const base = { id, version, method, userId, traceparent: span?.traceparent() ?? incoming ?? undefined };
      const call: A2ACall =
        operation === 'SendMessage' || operation === 'StreamMessage'
          ? { ...base, operation, params: decodeMessageSendParams(checked.params, version) }
          : { ...base, operation, params: decodeTaskQueryParams(checked.params) };
      return await backend(call, platform);
    } catch (error) {
      span?.fail(error);
      return callFailure({ id, method, version }, error);
    } finally {
      span?.end();
    }
  };
}

/** The `server` span of one request, a child of the caller's `traceparent` (none without telemetry). */
function serverSpan(telemetry: Telemetry | undefined, operation: string, method: string, traceparent: string | null): SpanHandle | undefined {
  if (!traces(telemetry)) return undefined;
  return telemetry.startSpan(a2aSpanName(operation), {
    kind: 'server',
    parent: parseTraceparent(traceparent),
    attributes: { [A2A_METHOD_NAME]: operation, [RPC_SYSTEM_NAME]: RPC_SYSTEM_JSONRPC, [RPC_METHOD]: method },
  });
}
