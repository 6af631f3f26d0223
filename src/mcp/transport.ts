/**
 * @internal The client side of MCP's Streamable HTTP transport: every request a POST accepting a JSON or SSE answer,
 * the session and protocol-version headers, server messages met on the way handed to the client, a stream that ends
 * before its response resumed with `Last-Event-ID`, retries of transient failures, one time limit per request that
 * only the response ends (not keep-alives or notifications), and `notifications/cancelled` for a request given up.
 */
import { MCPError } from '../errors/mcp-error.js';
import { Attempt } from '../internal/attempt.js';
import { linkedController, startTimer } from '../internal/delay.js';
import { NO_REDIRECTS } from '../internal/http-status.js';
import { messageOf } from '../internal/error-chain.js';
import { readBodyUntil } from '../internal/http-body.js';
import { redactText } from '../internal/redact.js';
import { retry, type ResolvedRetryOptions, type RetryGuard } from '../internal/retry.js';
import { AnswerQueue, MAX_ANSWERS_WAITING } from './answer-queue.js';
import { readStreamAnswer, type StreamAnswerHost } from './stream-answer.js';
import { listenToServer } from './server-stream.js';
import { httpFailure, parseMessages, protocolError, sessionExpired, tooLarge, type AnswerContext, type ServerMessage } from './client-messages.js';
import { readJSONAnswer, type AnswerOf } from './json-answer.js';
import { LAST_EVENT_ID_HEADER, SESSION_HEADER, VERSION_HEADER, type MCPRequestId } from './protocol.js';
import { mcpRequestSpan, traceRequest } from './request-span.js';
import { requestTimer, transportFailure } from './transport-failure.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { requestBody } from '../wire/jsonrpc-request.js';

/** @internal */
export interface TransportConfig {
  /** The endpoint requests go to. */
  url: string;
  fetch: typeof fetch;
  headers: Readonly<Record<string, string>>;
  retry: ResolvedRetryOptions;
  /** The client's circuit breaker / retry budget, if any. */
  guard?: RetryGuard | undefined;
  /** Where each request's `client` span goes; its `traceparent` is sent with the request. */
  telemetry?: Telemetry | undefined;
  maxResponseBytes: number;
  /** Resumptions of one request's stream at most. */
  maxResumes: number;
  /** The server's own stream: longest silence before it is opened again. */
  listenIdleMs: number;
  answer: AnswerContext;
  /** A notification or a request of the server's own, met in any answer. */
  onServerMessage: (message: Exclude<ServerMessage, { kind: 'response' }>) => void;
  /** Something given up on that is not a call's failure (the server's own stream). */
  onWarning: (message: string) => void;
}

/** @internal Options of one request. */
export interface RequestOptions {
  signal?: AbortSignal | undefined;
  timeoutMs: number;
  /** The option that sets the limit, and its name in the error. */
  limit: 'request' | 'initialize';
  /** Safe to repeat (lists, ping, the handshake): retried on timeouts too. */
  idempotent: boolean;
}

const CANCEL_TIMEOUT_MS = 5_000;
const SESSION_ID = /^[\x21-\x7e]{1,256}$/;

export class MCPTransport {
  // Fields set in the constructor or starting undefined are declared only (`declare`): no field definitions to bundle.
  declare private readonly config: TransportConfig;
  declare sessionId: string | undefined;
  declare protocolVersion: string | undefined;
  private nextId = 0;
  private readonly live = new Set<AbortController>();
  /** The error `close()` ended everything with: set once closed. */
  declare private closed: MCPError | undefined;
  declare private listening: AbortController | undefined;
  /** Cancel notifications on their way. */
  private readonly background = new Set<Promise<void>>();
  /** Answers to the server's own requests, a few at a time. */
  private readonly answers = new AnswerQueue(async (body) => {
    if (!this.closed) await this.send(body, 'an answer to its request', { timeoutMs: CANCEL_TIMEOUT_MS, quiet: true });
  });

  constructor(config: TransportConfig) {
    this.config = config;
  }

  /**
   * Opens the server's own stream (an HTTP GET) and reads it until `close()`: notifications such as
   * `tools/list_changed` arrive there. Reconnects (with `Last-Event-ID`) after a drop, backing off, and after a
   * silence past `listenIdleMs`; stops for good on a server that offers no such stream (405, anything but SSE) or after
   * ten failures in a row.
   */
  listen(): void {
    if (this.listening || this.closed) return;
    const controller = new AbortController();
    this.listening = controller;
    const deliver = (data: string) => this.route(parseMessages(this.ctx, data, 'an event of its own stream'), -1);
    const session = () => this.sessionId;
    void listenToServer({ ...this.streamHost('its own stream (listen)'), deliver, session }, controller.signal).finally(() => {
      if (this.listening === controller) this.listening = undefined;
    });
  }

  private get ctx(): AnswerContext {
    return this.config.answer;
  }

  /** One JSON-RPC request (`encoded`: its params as JSON, the caller's encoded first); its `result`, or a typed failure. */
  request(method: string, params: unknown, options: RequestOptions, encoded: string | undefined): Promise<unknown> {
    if (this.closed) return Promise.reject(this.closed);
    // The request's own scope: the caller's signal, and close() — which also ends a retry's wait.
    const scope = this.scope(options.signal);
    const span = mcpRequestSpan(this.config.telemetry, method, params, this.ctx.url, this.sessionId && redactText(this.sessionId, this.ctx.secrets)); // the server's text
    const traceparent = span.traceparent();
    return traceRequest(span, retry((attemptNumber) => this.attempt(method, encoded, options, scope.signal, traceparent), {
      options: this.config.retry,
      signal: scope.signal,
      classify: (error) => {
        if (!MCPError.isInstance(error) || !error.retryable) return { retry: false };
        return { retry: options.idempotent || error.reason !== 'timeout', retryAfterMs: error.retryAfterMs };
      },
      guard: this.config.guard,
    })).finally(scope.end);
  }

  /** The signal of a controller linked to `signal` that `close()` aborts with the closed error; `end()` releases it. */
  private scope(signal: AbortSignal | undefined): { signal: AbortSignal; end: () => void } {
    const { controller, dispose } = linkedController(signal);
    this.live.add(controller);
    return {
      signal: controller.signal,
      end: () => {
        this.live.delete(controller);
        dispose();
      },
    };
  }

  private async attempt(method: string, encoded: string | undefined, options: RequestOptions, signal: AbortSignal, traceparent: string | undefined): Promise<unknown> {
    if (this.closed) throw this.closed;
    const id = ++this.nextId;
    const attempt = new Attempt(signal, (controller) => requestTimer(this.ctx, controller, method, options));
    const carried = this.sessionId; // what this request says it belongs to: a 404 is about that session
    try {
      const response = await attempt.race(this.post(requestBody(id, method, encoded), attempt.signal, traceparent));
      if (method === 'initialize') this.takeSession(response);
      return await this.answer(response, attempt, { method, id, carried, idempotent: options.idempotent });
    } catch (error) {
      const failure = transportFailure(this.ctx, error, attempt.signal, signal, method);
      const given = signal.aborted && !this.closed; // the caller gave up (closing ends the session instead)
      if (method !== 'initialize' && (given || (MCPError.isInstance(failure) && failure.reason === 'timeout'))) {
        this.cancel(id, given ? `aborted: ${redactText(messageOf(signal.reason), this.ctx.secrets)}` : messageOf(failure));
      }
      throw failure;
    } finally {
      attempt.close();
    }
  }

  /** A notification (no answer but an HTTP status). `quiet`: failures are swallowed. */
  async notify(method: string, params: unknown, options: { timeoutMs: number; quiet?: boolean }): Promise<void> {
    if (this.closed && !options.quiet) throw this.closed;
    await this.send(JSON.stringify({ jsonrpc: '2.0', method, params }), method, options); // undefined params are not written
  }

  /** Posts a message that gets no JSON-RPC answer (a notification, an answer of ours), bounded in time. */
  private async send(body: string, method: string, options: { timeoutMs: number; quiet?: boolean }): Promise<void> {
    const scope = this.scope(undefined);
    const attempt = new Attempt(scope.signal, (controller) => requestTimer(this.ctx, controller, method, { ...options, limit: 'request' }));
    try {
      const response = await attempt.race(this.post(body, attempt.signal));
      const text = await attempt.race(readBodyUntil(response, attempt.signal));
      if (!response.ok) throw httpFailure(this.ctx, response, text, method, undefined);
    } catch (error) {
      if (!options.quiet) throw transportFailure(this.ctx, error, attempt.signal, scope.signal, method);
    } finally {
      attempt.close();
      scope.end();
    }
  }

  /**
   * Answers a request of the server's own (a ping, or a method we do not offer), in order, a few at a time (see
   * `answer-queue.ts`); throws a protocol error when too many already wait.
   */
  respond(id: MCPRequestId, answer: { result: unknown } | { error: { code: number; message: string } }): void {
    if (this.closed) return;
    if (!this.answers.push(JSON.stringify({ jsonrpc: '2.0', id, ...answer }))) {
      throw protocolError(this.ctx, `it sent more than ${MAX_ANSWERS_WAITING} requests of its own that wait for an answer`);
    }
  }

  /** Ends the session on the server (HTTP DELETE, bounded), keeping the transport usable for a new handshake. */
  async endSession(timeoutMs: number): Promise<void> {
    const sessionId = this.sessionId;
    if (sessionId === undefined) return;
    this.sessionId = undefined;
    const attempt = new Attempt(undefined, (controller) => startTimer(() => controller.abort(), timeoutMs));
    try {
      const response = await this.config.fetch(this.config.url, { method: 'DELETE', headers: this.headers('application/json', sessionId), signal: attempt.signal, redirect: NO_REDIRECTS });
      await readBodyUntil(response, attempt.signal);
    } catch {
      // the session ends on the server's own clock then (405: the server does not let clients end sessions)
    } finally {
      attempt.close();
    }
  }

  /** Ends every pending request with `error`; later requests fail with it too. Then the session is deleted. */
  async close(error: MCPError, timeoutMs: number): Promise<void> {
    if (this.closed) return;
    this.closed = error;
    for (const controller of this.live) controller.abort(error);
    this.live.clear();
    this.listening?.abort(error);
    this.listening = undefined;
    this.answers.clear();
    await Promise.allSettled([...this.background]);
    await this.endSession(timeoutMs);
  }

  /** Tells the server to stop a request we gave up on (fire and forget, bounded; `close()` waits for it). */
  private cancel(requestId: number, reason: string): void {
    if (this.closed) return; // closing ends the session, and every request of it, at once
    const sending = this.notify('notifications/cancelled', { requestId, reason }, { timeoutMs: CANCEL_TIMEOUT_MS, quiet: true });
    this.background.add(sending);
    void sending.finally(() => this.background.delete(sending));
  }

  private post(body: string, signal: AbortSignal, traceparent?: string): Promise<Response> {
    const headers = this.headers('application/json, text/event-stream');
    if (traceparent !== undefined) headers.traceparent = traceparent;
    return this.config.fetch(this.config.url, { method: 'POST', headers, body, signal, redirect: NO_REDIRECTS });
  }

  /** A GET of the server's stream, resuming after `lastEventId` when there is one (it has no body: no content type). */
  private getStream(lastEventId: string | undefined, signal: AbortSignal): Promise<Response> {
    const headers = this.headers('text/event-stream');
    delete headers['content-type'];
    if (lastEventId !== undefined) headers[LAST_EVENT_ID_HEADER] = lastEventId;
    return this.config.fetch(this.config.url, { method: 'GET', headers, signal, redirect: NO_REDIRECTS });
  }

  private headers(accept: string, sessionId = this.sessionId): Record<string, string> {
    const headers: Record<string, string> = { ...this.config.headers, 'content-type': 'application/json', accept };
    if (sessionId !== undefined) headers[SESSION_HEADER] = sessionId;
    if (this.protocolVersion !== undefined) headers[VERSION_HEADER] = this.protocolVersion;
    return headers;
  }

  private takeSession(response: Response): void {
    const id = response.headers.get(SESSION_HEADER);
    if (id === null || !response.ok) return;
    if (!SESSION_ID.test(id)) throw protocolError(this.ctx, 'the session id it gave is not 1–256 visible ASCII characters', undefined, 'initialize');
    this.sessionId = id;
  }

  /** The result for request `id` out of an HTTP answer: a JSON body, or an SSE stream (resumed when it ends early). */
  private async answer(response: Response, attempt: Attempt, request: AnswerOf): Promise<unknown> {
    const { method, id, carried } = request;
    const type = (response.headers.get('content-type') ?? '').toLowerCase();
    if (!response.ok) {
      const body = await attempt.race(readBodyUntil(response, attempt.signal));
      if (response.status === 404 && carried !== undefined && method !== 'initialize') {
        throw sessionExpired(this.ctx, 'no longer knows the session', method);
      }
      throw httpFailure(this.ctx, response, body, method, id);
    }
    if (type.startsWith('text/event-stream')) return this.stream(response, attempt, method, id);
    if (!type.startsWith('application/json')) {
      // the media type alone, as sent (a secret keeps its case) and redacted: a server may echo anything in a header
      const shown = type === '' ? 'no content type' : `content type ${JSON.stringify(redactText((response.headers.get('content-type') ?? '').split(';')[0]!.trim(), this.ctx.secrets).slice(0, 100))}`;
      response.body?.cancel().catch(() => {});
      throw protocolError(this.ctx, `its answer to ${method} has ${shown} (expected application/json or text/event-stream; HTTP ${response.status})`, undefined, method);
    }
    return readJSONAnswer({ ...this.config, route: (messages) => this.route(messages, id) }, response, attempt, request);
  }

  /** Hands server messages to the client; returns the response to `id`, if there is one. */
  private route(messages: readonly ServerMessage[], id: number): Extract<ServerMessage, { kind: 'response' }> | undefined {
    let found: Extract<ServerMessage, { kind: 'response' }> | undefined;
    for (const message of messages) {
      if (message.kind !== 'response') this.config.onServerMessage(message);
      else if (message.id === id) found = message;
    }
    return found;
  }

  private stream(first: Response, attempt: Attempt, method: string, id: number): Promise<unknown> {
    const host: StreamAnswerHost = { ...this.streamHost(method), route: (messages) => this.route(messages, id) };
    return readStreamAnswer(host, first, attempt, method, id);
  }

  /** What both kinds of stream need: the config as it is (its bounds, `onWarning`…), a GET, the wait, the error for an event over the bound. */
  private streamHost(where: string) {
    return {
      ...this.config,
      get: (lastEventId: string | undefined, signal: AbortSignal) => this.getStream(lastEventId, signal),
      pause: () => this.answers.backlog(),
      tooLarge: () => tooLarge(this.ctx, where, this.config.maxResponseBytes),
    };
  }
}
