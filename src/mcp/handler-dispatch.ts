/**
 * @internal The MCP methods the handler serves, once a message passed the transport's checks: `initialize` (version
 * negotiation), `ping`, `tools/list`, `tools/call`, and the notifications `notifications/cancelled` (aborts a call
 * in flight of the same session) and `notifications/initialized` (nothing to do). Unknown methods get -32601 and
 * anything unexpected -32603 with a generic message (the real error goes to `onError`, redacted).
 *
 * A call whose signal aborted gets no answer only when the client asked for it (`notifications/cancelled`) or is
 * gone (no one would read an answer); a call cut short by its session ending is answered with a JSON-RPC -32000
 * error that says why, so its client does not wait for a response that never comes.
 */
import { linkedController } from '../internal/delay.js';
import { truncate } from '../internal/json.js';
import { quietCall } from '../internal/quiet-call.js';
import { redactError } from '../internal/redact.js';
import type { MCPSettings } from './handler-options.js';
import type { InboundMessage } from './handler-request.js';
import { requestKey, SessionEnded, type MCPSession, type MCPSessionStore } from './handler-sessions.js';
import { callTool, ToolCatalog } from './handler-tools.js';
import { errorMessage, NO_ANSWER, resultMessage, type Answer } from './handler-wire.js';
import { MCP_LATEST_PROTOCOL_VERSION, MCP_PROTOCOL_VERSIONS, MCPErrorCode, type MCPInitializeResult } from './protocol.js';

type RPCRequest = Extract<InboundMessage, { kind: 'request' }>;
type RPCNotification = Extract<InboundMessage, { kind: 'notification' }>;

/** @internal Where a message is answered: its session (none when stateless) and the signal of its client leaving. */
export interface DispatchScope {
  session: MCPSession | undefined;
  /** Aborts when the client goes away (the HTTP request aborted, or its answer stream was cancelled). */
  signal: AbortSignal;
}

/** @internal Why a call was aborted by `notifications/cancelled`. */
export class RequestCancelled extends Error {
  override readonly name = 'RequestCancelled';
}

/** @internal The revision answered to a client asking for `requested`: its own when we speak it, else our newest. */
export function negotiateVersion(requested: string): string {
  return MCP_PROTOCOL_VERSIONS.includes(requested) ? requested : MCP_LATEST_PROTOCOL_VERSION;
}

/** @internal The `initialize` result, or the -32602 for params without a `protocolVersion`. */
export function initializeAnswer(message: RPCRequest, settings: MCPSettings): { version: string; result: MCPInitializeResult } | { error: Record<string, unknown> } {
  const requested = message.params?.protocolVersion;
  if (typeof requested !== 'string') {
    return { error: errorMessage(message.id, MCPErrorCode.InvalidParams, 'Invalid params: initialize needs params.protocolVersion (a string)') };
  }
  const version = negotiateVersion(requested);
  const result: MCPInitializeResult = { protocolVersion: version, capabilities: { tools: { listChanged: false } }, serverInfo: { ...settings.serverInfo } };
  if (settings.instructions !== undefined) result.instructions = settings.instructions;
  return { version, result };
}

/** @internal Answers requests and takes notifications for one handler. */
export class Dispatcher {
  private readonly catalog: ToolCatalog;

  constructor(
    private readonly settings: MCPSettings,
    private readonly sessions: MCPSessionStore | undefined,
  ) {
    this.catalog = new ToolCatalog(settings.tools, settings.pageSize);
  }

  /** The answer to one request; never rejects (an unexpected failure is a -32603 answer). */
  async request(message: RPCRequest, scope: DispatchScope): Promise<Answer> {
    try {
      return await this.answer(message, scope);
    } catch (error) {
      this.report(error);
      return errorMessage(message.id, MCPErrorCode.InternalError, `Internal error while handling ${truncate(message.method, 100)}`);
    }
  }

  /** Takes a notification (nothing is answered). */
  notification(message: RPCNotification, scope: DispatchScope): void {
    if (message.method !== 'notifications/cancelled' || !scope.session) return;
    const requestId = message.params?.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const reason = message.params?.reason;
    const text = typeof reason === 'string' ? `: ${truncate(reason, 200)}` : '';
    scope.session.calls.get(requestKey(requestId))?.abort(new RequestCancelled(`The client cancelled the request${text}`));
  }

  /** Hands an unexpected failure to `onError`, redacted; an `onError` that throws or rejects is ignored. */
  report(error: unknown): void {
    try {
      quietCall(this.settings.onError, redactError(error, this.settings.secrets));
    } catch {
      // an error whose redaction fails (hostile getters) is not worth breaking an answer for
    }
  }

  private async answer(message: RPCRequest, scope: DispatchScope): Promise<Answer> {
    const { id, method, params } = message;
    switch (method) {
      case 'ping':
        return resultMessage(id, {});
      case 'tools/list': {
        const page = this.catalog.list(params);
        return 'error' in page ? { jsonrpc: '2.0', id, error: page.error } : resultMessage(id, page.result);
      }
      case 'tools/call':
        return this.call(message, scope);
      default:
        return errorMessage(id, MCPErrorCode.MethodNotFound, `Method not found: ${truncate(method, 100)}`);
    }
  }

  private async call(message: RPCRequest, scope: DispatchScope): Promise<Answer> {
    const plan = this.catalog.plan(message.params);
    if ('error' in plan) return { jsonrpc: '2.0', id: message.id, error: plan.error };
    const { session } = scope;
    const key = requestKey(message.id);
    if (session?.calls.has(key)) {
      return errorMessage(message.id, MCPErrorCode.InvalidRequest, `The request id ${truncate(JSON.stringify(message.id), 100)} is already used by a call in flight`);
    }
    const { controller, dispose } = linkedController(scope.signal);
    session?.calls.set(key, controller);
    try {
      const result = await callTool(plan.result, { signal: controller.signal, secrets: this.settings.secrets, logger: this.settings.logger });
      return controller.signal.aborted ? abortedAnswer(message, controller.signal.reason) : resultMessage(message.id, result);
    } catch (error) {
      if (controller.signal.aborted) return abortedAnswer(message, controller.signal.reason);
      throw error;
    } finally {
      dispose();
      if (session) {
        if (session.calls.get(key) === controller) session.calls.delete(key);
        this.sessions?.touch(session);
      }
    }
  }
}

/**
 * @internal The answer to a call whose signal aborted: a -32000 error when its session ended under it (DELETE,
 * expiry, eviction), else none (the client cancelled it, or left).
 */
export function abortedAnswer(message: RPCRequest, reason: unknown): Answer {
  if (reason instanceof SessionEnded) return errorMessage(message.id, MCPErrorCode.SessionRequired, `${reason.message}; the call was stopped (send initialize to start a new session)`);
  return NO_ANSWER;
}

/** @internal True for an `initialize` request (it is handled by the front: it creates the session). */
export function isInitialize(message: InboundMessage): boolean {
  return (message.kind === 'request' || message.kind === 'notification') && message.method === 'initialize';
}
