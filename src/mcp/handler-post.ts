/**
 * @internal A POST to the MCP endpoint, in the order of the checks: `Accept` (406), `Content-Type` (415), the
 * `mcp-protocol-version` header (400), the body (413, 408, -32700), each message (-32600, -32602: HTTP 400), then
 * `initialize` (creates the session) or the session (400 without an id, 404 for an unknown one), then the batch rule,
 * then notifications (202) and requests (answered in the response mode). An `initialize` that finds `maxSessions`
 * sessions all with calls in flight gets 503 with `Retry-After: 1` (no running call is dropped to make room).
 *
 * Batches: JSON-RPC batches exist in revisions 2025-03-26 and 2024-11-05 and were removed in 2025-06-18, so a batch
 * is accepted when the revision in effect (the header, else the session's, else 2025-03-26 as the spec says) is one
 * of those two, and refused with -32600 otherwise. A batch holds at most 100 messages and never `initialize`.
 */
import { linkedController } from '../internal/delay.js';
import { truncate } from '../internal/json.js';
import { answerRequests } from './handler-answer.js';
import { initializeAnswer, isInitialize, type Dispatcher, type DispatchScope } from './handler-dispatch.js';
import type { MCPSettings } from './handler-options.js';
import { classifyMessage, readJSONBody, type InboundMessage } from './handler-request.js';
import type { MCPSession, MCPSessionStore } from './handler-sessions.js';
import { isJSONContentType } from '../internal/media-types.js';
import { accepted, acceptsBoth, errorMessage, refusal, resultMessage, type Answer } from './handler-wire.js';
import { MCP_PROTOCOL_VERSIONS, MCPErrorCode, SESSION_HEADER, VERSION_HEADER } from './protocol.js';

/** @internal Messages one batch may hold. */
export const MAX_BATCH_MESSAGES = 100;

/** @internal The revision assumed when nothing says which (the spec's rule for a missing header). */
export const DEFAULT_ASSUMED_VERSION = '2025-03-26';

/** @internal Revisions whose base protocol has JSON-RPC batches. */
export const BATCH_VERSIONS: ReadonlySet<string> = new Set(['2025-03-26', '2024-11-05']);

/** @internal The 503 message of an `initialize` that finds every session busy (no idle one to drop). */
export const TOO_MANY_BUSY = 'Service Unavailable: too many sessions with calls in flight; try again';

/** @internal What a POST needs. */
export interface PostContext {
  settings: MCPSettings;
  sessions: MCPSessionStore | undefined;
  dispatcher: Dispatcher;
}

/** @internal The `mcp-protocol-version` header: absent, a revision we speak, or refused. */
export function versionHeader(request: Request, secrets: readonly string[]): { version: string | undefined } | Response {
  const header = request.headers.get(VERSION_HEADER);
  if (header === null) return { version: undefined };
  if (MCP_PROTOCOL_VERSIONS.includes(header)) return { version: header };
  return refusal(400, null, MCPErrorCode.InvalidRequest, `Bad Request: unsupported ${VERSION_HEADER} ${truncate(header, 40)} (supported: ${MCP_PROTOCOL_VERSIONS.join(', ')})`, secrets);
}

/** @internal The request's session: found and marked used, or the 400 (no id) / 404 (unknown, expired, ended) to answer. */
export function findSession(request: Request, sessions: MCPSessionStore, secrets: readonly string[]): MCPSession | Response {
  const id = request.headers.get(SESSION_HEADER);
  if (id === null || id === '') {
    return refusal(400, null, MCPErrorCode.SessionRequired, `Bad Request: the ${SESSION_HEADER} header is required (send initialize first to get a session)`, secrets);
  }
  const session = sessions.use(id);
  if (!session) return refusal(404, null, MCPErrorCode.SessionRequired, 'Session not found: it expired or was ended; send initialize to start a new one', secrets);
  return session;
}

/** @internal Answers one POST. */
export async function handlePost(request: Request, context: PostContext): Promise<Response> {
  const { settings, sessions } = context;
  const { secrets } = settings;
  if (!acceptsBoth(request.headers.get('accept'))) {
    return refusal(406, null, MCPErrorCode.InvalidRequest, 'Not Acceptable: the Accept header must list both application/json and text/event-stream', secrets);
  }
  if (!isJSONContentType(request.headers.get('content-type'))) {
    return refusal(415, null, MCPErrorCode.InvalidRequest, 'Unsupported Media Type: Content-Type must be application/json', secrets);
  }
  const header = versionHeader(request, secrets);
  if (header instanceof Response) return header;
  const body = await readJSONBody(request, settings.limits);
  if (body.refused) return refusal(body.status, null, body.code, body.message, secrets);
  const batch = Array.isArray(body.value);
  const raw: unknown[] = batch ? (body.value as unknown[]) : [body.value];
  if (batch && raw.length === 0) return refusal(400, null, MCPErrorCode.InvalidRequest, 'Invalid Request: an empty batch', secrets);
  if (raw.length > MAX_BATCH_MESSAGES) return refusal(400, null, MCPErrorCode.InvalidRequest, `Invalid Request: a batch holds at most ${MAX_BATCH_MESSAGES} messages`, secrets);
  const messages = raw.map((value) => classifyMessage(value, settings.limits.maxDepth));
  const first = messages[0] as InboundMessage;
  if (!batch && first.kind === 'invalid') return refusal(400, first.id, first.code, first.message, secrets, {}, first.data);
  if (batch && messages.some(isInitialize)) return refusal(400, null, MCPErrorCode.InvalidRequest, 'Invalid Request: initialize must be sent alone, not in a batch', secrets);
  if (!batch && first.kind === 'request' && first.method === 'initialize') return initialize(first, context);

  let session: MCPSession | undefined;
  if (sessions) {
    const found = findSession(request, sessions, secrets);
    if (found instanceof Response) return found;
    session = found;
  }
  if (batch) {
    const version = header.version ?? session?.protocolVersion ?? DEFAULT_ASSUMED_VERSION;
    if (!BATCH_VERSIONS.has(version)) {
      return refusal(400, null, MCPErrorCode.InvalidRequest, `Invalid Request: batches are not supported in MCP ${version} (JSON-RPC batches were removed in 2025-06-18)`, secrets);
    }
  }
  return dispatchAll(request, messages, session, batch, context);
}

function initialize(message: Extract<InboundMessage, { kind: 'request' }>, context: PostContext): Promise<Response> {
  const { settings, sessions } = context;
  const answer = initializeAnswer(message, settings);
  let reply: Answer;
  let headers: Record<string, string> = {};
  if ('error' in answer) {
    reply = answer.error;
  } else {
    if (sessions) {
      const session = sessions.create(answer.version);
      if (!session) return Promise.resolve(refusal(503, message.id, MCPErrorCode.SessionRequired, TOO_MANY_BUSY, settings.secrets, { 'retry-after': '1' }));
      headers = { [SESSION_HEADER]: session.id };
    }
    reply = resultMessage(message.id, answer.result);
  }
  const noop = () => {};
  return answerRequests([Promise.resolve(reply)], { mode: settings.responseMode, keepAliveMs: false, secrets: settings.secrets, headers, batch: false, abort: noop, done: noop });
}

function dispatchAll(request: Request, messages: readonly InboundMessage[], session: MCPSession | undefined, batch: boolean, context: PostContext): Promise<Response> {
  const { settings, dispatcher } = context;
  const client = linkedController(request.signal as AbortSignal | undefined);
  const scope: DispatchScope = { session, signal: client.controller.signal };
  const pending: Promise<Answer>[] = [];
  for (const message of messages) {
    if (message.kind === 'notification') dispatcher.notification(message, scope);
    else if (message.kind === 'request') pending.push(dispatcher.request(message, scope));
    else if (message.kind === 'invalid') pending.push(Promise.resolve(errorMessage(message.id, message.code, message.message, message.data)));
  }
  if (pending.length === 0) {
    client.dispose();
    return Promise.resolve(accepted());
  }
  return answerRequests(pending, {
    mode: settings.responseMode,
    keepAliveMs: settings.keepAliveMs,
    secrets: settings.secrets,
    headers: {},
    batch,
    abort: () => client.controller.abort(new DOMException('The client closed the answer stream', 'AbortError')),
    done: client.dispose,
  });
}
