import { A2ATransportError } from '../errors/a2a-transport-error.js';
import { ConfigError } from '../errors/config-error.js';
import { StreamError } from '../errors/stream-error.js';
import { createId } from '../internal/ids.js';
import { isPlainObject } from '../internal/json.js';
import { headerSecrets, redactURL, removeSecrets } from '../internal/redact.js';
import { delay } from '../internal/delay.js';
import { backoffDelay, resolveRetryOptions, retryOptionProblems, type RetryOptions } from '../internal/retry.js';
import { dependencyOf, resilienceGuard, resilienceProblems, type ResilienceOptions } from '../resilience/guard.js';
import { streamFromBatches } from '../internal/streams.js';
import { endpointOf, fetchAgentCard, type AgentEndpoint } from './agent-card.js';
import { A2AMethod, A2AMethodV1, isStreamEndState, TERMINAL_STATES, type A2AProtocolVersion } from './constants.js';
import { decodeSendResult, decodeStreamEvent, decodeTask } from './decode.js';
import { A2ATransport } from './transport.js';
import type { A2AMessage, A2AStreamEvent, AgentCard, MessageSendParams, SendMessageResult, Task } from './types.js';
import { messageToV1 } from './v1-codec.js';

/** Options of {@link createA2AClient}. One of `url`, `agentCardUrl` or `card` is required. */
export interface A2AClientOptions extends ResilienceOptions {
  /** The JSON-RPC endpoint (no card discovery). */
  url?: string | undefined;
  /** The agent's base URL or its card's URL: the card is fetched (`/.well-known/agent-card.json`, then `agent.json`). */
  agentCardUrl?: string | undefined;
  /** A card you already have. */
  card?: AgentCard | undefined;
  /** Force a protocol version. @default from the card; `0.3` without one */
  protocolVersion?: A2AProtocolVersion | undefined;
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /** Extra request headers (credential-like values never appear in errors). */
  headers?: Record<string, string> | undefined;
  /** Retries of retryable failures before any output: reads and cancels always; sends only on 429/503. @default { maxAttempts: 3 } */
  retry?: RetryOptions | false | undefined;
  /**
   * Limit of a unary call (until its whole answer is read), of card discovery (the whole card), and of waiting for a
   * stream's first event (an SSE event: comments, blank lines and parts of a line do not count). A timeout error says
   * which limit fired (`timeout`: `call` or `first_event`); both are retried like any retryable failure. `Infinity`
   * disables it. @default 60000
   */
  timeoutMs?: number | undefined;
  /**
   * Limit between two events of a stream: re-armed by each SSE event only, so a remote that sends nothing but
   * keep-alive comments is idle (`timeout: 'idle'`, not retried). `Infinity` disables it. @default 300000
   */
  idleTimeoutMs?: number | undefined;
  /**
   * Limit of a whole stream (`streamMessage`, `resubscribe`), from its first request to its final event, the
   * resubscriptions and their back-off waits included (`timeout: 'total'`, not retried). `Infinity` disables it.
   * @default 1800000 (30 minutes)
   */
  streamTimeoutMs?: number | undefined;
  /**
   * Which endpoint origins a fetched card (`agentCardUrl`) may name besides its own: the client sends its `headers`
   * (credentials) to that endpoint, so by default an endpoint on another origin is refused with a `ConfigError`.
   * `true` trusts any origin; a list trusts those origins (compared as `new URL(entry).origin`). A `card` you pass
   * and a `url` are trusted as given. @default false
   */
  allowCrossOrigin?: boolean | readonly string[] | undefined;
  /** Resubscribe (`tasks/resubscribe`) with backoff when a stream drops before its final event. @default false */
  resubscribe?: RetryOptions | false | undefined;
}

/** Per-call options. */
export interface A2ACallOptions {
  signal?: AbortSignal | undefined;
}

/** A stream of A2A events. */
export type A2AEventStream = ReadableStream<A2AStreamEvent> & AsyncIterable<A2AStreamEvent>;

/** A client of one remote A2A agent. */
export interface A2AClient {
  /** The agent card (fetched once, when discovery is used). */
  getAgentCard(options?: A2ACallOptions): Promise<AgentCard | undefined>;
  /** `message/send`: a Task or a Message. A string is sent as one text part. */
  sendMessage(message: MessageSendParams | string, options?: A2ACallOptions): Promise<SendMessageResult>;
  /** `message/stream`: Message, Task, status and artifact updates until the final one. */
  streamMessage(message: MessageSendParams | string, options?: A2ACallOptions): A2AEventStream;
  /** `tasks/get`. */
  getTask(params: { id: string; historyLength?: number }, options?: A2ACallOptions): Promise<Task>;
  /** `tasks/cancel`. */
  cancelTask(params: { id: string }, options?: A2ACallOptions): Promise<Task>;
  /** `tasks/resubscribe`: the task's further events. */
  resubscribe(params: { id: string }, options?: A2ACallOptions): A2AEventStream;
}

/**
 * A user text message with a fresh id.
 * @example `client.sendMessage({ message: textMessage('hi', { contextId: 'session-1' }) })`
 */
export function textMessage(text: string, fields: Partial<A2AMessage> = {}): A2AMessage {
  return { kind: 'message', messageId: createId('msg'), role: 'user', parts: [{ kind: 'text', text }], ...fields };
}

/**
 * True when `event` ends a stream: a terminal or interrupted Task, a `final` status update, or a Message that is the
 * whole answer (a Message inside a running task's stream, `inTask`, is not final).
 * @example `if (isFinalStreamEvent(event, { inTask: sawTask })) break;`
 */
export function isFinalStreamEvent(event: A2AStreamEvent, options: { inTask?: boolean } = {}): boolean {
  switch (event.kind) {
    case 'message':
      return !options.inTask;
    case 'task':
      return isStreamEndState(event.status.state);
    case 'status-update':
      return event.final || TERMINAL_STATES.has(event.status.state);
    default:
      return false;
  }
}

/**
 * A client for a remote A2A agent over JSON-RPC (A2A 0.3; A2A 1.0 when its card offers only that, or on request).
 * Transport failures are `A2ATransportError`s (HTTP status and headers kept), JSON-RPC errors `JSONRPCError`s with
 * their code, message and data — also inside a stream, never skipped —, malformed payloads `SerializeError`s naming
 * the path. Failed, rejected and canceled tasks are results, not errors: decode them with the event converter.
 *
 * @example
 * ```ts
 * const client = createA2AClient({ agentCardUrl: 'https://agent.example' });
 * for await (const event of client.streamMessage('Check order 42')) {
 *   if (event.kind === 'status-update' && event.status.state === 'failed') console.log(event.metadata?.error_code);
 * }
 * ```
 */
export function createA2AClient(options: A2AClientOptions): A2AClient {
  const settings = validate(options);
  const secrets = headerSecrets(settings.headers);
  const fetchImpl: typeof fetch = (input, init) => (settings.fetch ?? globalThis.fetch)(input, init);
  // A remote may quote the credentials we sent (a failed task forwarding our Authorization header's refusal): they are
  // removed, in every form, from every result and event before the caller sees it (the same object when none is there).
  const clean = <T>(value: T): T => removeSecrets(value, secrets);
  let resolved: Promise<{ endpoint: AgentEndpoint; card?: AgentCard; transport: A2ATransport }> | undefined;

  const resubscribe = settings.resubscribe ? resolveRetryOptions(settings.resubscribe) : undefined;
  const timeoutMs = settings.timeoutMs ?? 60_000;
  const connection = (signal?: AbortSignal) => {
    if (resolved) return resolved;
    resolved = (async () => {
      let card = settings.card;
      let cardURL: string | undefined;
      if (!card && settings.agentCardUrl) {
        ({ card, url: cardURL } = await fetchAgentCard(settings.agentCardUrl, { fetch: fetchImpl, headers: settings.headers, signal, secrets, timeoutMs }));
      }
      const endpoint: AgentEndpoint = settings.url ? { url: settings.url, version: settings.protocolVersion ?? '0.3' } : endpointOf(card as AgentCard, settings.protocolVersion);
      if (cardURL !== undefined && !settings.url) checkOrigin(endpoint.url, cardURL, settings.allowCrossOrigin);
      const transport = new A2ATransport({
        endpoint: endpoint.url,
        version: endpoint.version,
        fetch: fetchImpl,
        headers: { ...settings.headers },
        retry: resolveRetryOptions(settings.retry),
        guard: resilienceGuard(dependencyOf(endpoint.url), settings),
        timeoutMs,
        idleTimeoutMs: settings.idleTimeoutMs ?? 300_000,
        streamTimeoutMs: settings.streamTimeoutMs ?? 1_800_000,
        secrets,
      });
      return { endpoint, card, transport };
    })();
    resolved.catch(() => (resolved = undefined)); // a failed discovery is tried again by the next call
    return resolved;
  };

  const method = (version: A2AProtocolVersion, name: keyof typeof A2AMethod) => (version === '1.0' ? A2AMethodV1[name] : A2AMethod[name]);
  const sendParams = (message: MessageSendParams | string, version: A2AProtocolVersion): unknown => {
    const params: MessageSendParams = typeof message === 'string' ? { message: textMessage(message) } : message;
    if (version === '0.3') return params;
    // A2A 1.0 spells "do not block" as `returnImmediately: true`.
    const { blocking, ...configuration } = params.configuration ?? {};
    const v1Configuration = blocking === false ? { ...configuration, returnImmediately: true } : configuration;
    return {
      ...params,
      message: messageToV1(params.message as unknown as Record<string, unknown>),
      ...(params.configuration ? { configuration: v1Configuration } : {}),
    };
  };

  async function* streaming(kind: 'StreamMessage' | 'Resubscribe', params: MessageSendParams | string | { id: string }, callerSignal?: AbortSignal) {
    const { endpoint, transport } = await connection(callerSignal);
    const body = kind === 'StreamMessage' ? sendParams(params as MessageSendParams | string, endpoint.version) : params;
    // The whole logical stream — every request of it and the waits between — runs under the total limit.
    const scope = transport.streamScope(callerSignal, method(endpoint.version, kind));
    const signal = scope.controller.signal;
    try {
      let taskId: string | undefined;
      let final = false;
      let inTask = kind === 'Resubscribe';
      let stream = transport.stream(method(endpoint.version, kind), body, { signal, idempotent: kind === 'Resubscribe' });
      for (let resubscriptions = 0; ; ) {
        let dropped: unknown;
        try {
          for await (const result of stream) {
            const event = clean(decodeStreamEvent(result, endpoint.version));
            taskId ??= event.kind === 'task' ? event.id : event.taskId;
            final = isFinalStreamEvent(event, { inTask });
            if (event.kind !== 'message') inTask = true;
            yield [event];
            if (final) return;
          }
        } catch (error) {
          if (signal.aborted || !resubscribe || !taskId || !isDrop(error)) throw error;
          dropped = error;
        }
        if (final) return;
        if (!resubscribe || !taskId || resubscriptions >= resubscribe.maxAttempts) {
          if (dropped !== undefined) throw dropped;
          throw new StreamError(`The A2A stream ended before its final event${taskId ? ` (task ${taskId})` : ''}`, { reason: 'incomplete', afterOutput: taskId !== undefined });
        }
        resubscriptions++;
        await delay(backoffDelay(resubscriptions, resubscribe), signal);
        stream = transport.stream(method(endpoint.version, 'Resubscribe'), { id: taskId }, { signal, idempotent: true });
      }
    } finally {
      scope.close();
    }
  }

  return {
    async getAgentCard(callOptions = {}) {
      return (await connection(callOptions.signal)).card;
    },
    async sendMessage(message, callOptions = {}) {
      const { endpoint, transport } = await connection(callOptions.signal);
      const result = await transport.call(method(endpoint.version, 'SendMessage'), sendParams(message, endpoint.version), { signal: callOptions.signal, idempotent: false });
      return clean(decodeSendResult(result, endpoint.version));
    },
    streamMessage(message, callOptions = {}) {
      return streamFromBatches(streaming('StreamMessage', message, callOptions.signal));
    },
    async getTask(params, callOptions = {}) {
      const { endpoint, transport } = await connection(callOptions.signal);
      return clean(decodeTask(await transport.call(method(endpoint.version, 'GetTask'), params, { signal: callOptions.signal, idempotent: true }), endpoint.version));
    },
    async cancelTask(params, callOptions = {}) {
      const { endpoint, transport } = await connection(callOptions.signal);
      return clean(decodeTask(await transport.call(method(endpoint.version, 'CancelTask'), params, { signal: callOptions.signal, idempotent: true }), endpoint.version));
    },
    resubscribe(params, callOptions = {}) {
      return streamFromBatches(streaming('Resubscribe', params, callOptions.signal));
    },
  };
}

/**
 * Refuses a fetched card's endpoint on another origin than the card's own, unless `allowCrossOrigin` trusts it: the
 * client's headers would go there.
 */
function checkOrigin(endpoint: string, cardURL: string, allow: A2AClientOptions['allowCrossOrigin']): void {
  const origin = originOf(endpoint, cardURL);
  const cardOrigin = originOf(cardURL);
  if (origin === cardOrigin || allow === true || (Array.isArray(allow) && allow.some((entry: string) => originOf(entry) === origin))) return;
  const problem = `the card at ${redactURL(cardURL)} names an endpoint on ${origin}, not ${cardOrigin}: the client's headers go there only if allowCrossOrigin is true or lists it`;
  throw new ConfigError(`Refused the A2A endpoint: ${problem}`, { problems: [problem] });
}

/** The origin of `url` (resolved against `base`), `'null'` for an opaque or unparsable one. */
function originOf(url: string, base?: string): string {
  try {
    return new URL(url, base).origin;
  } catch {
    return 'null';
  }
}

function isDrop(error: unknown): boolean {
  return A2ATransportError.isInstance(error) && error.reason === 'network';
}

function validate(options: A2AClientOptions): A2AClientOptions {
  if (!isPlainObject(options)) throw ConfigError.fromProblems('A2A client options', ['options must be an object']);
  const problems: string[] = [];
  if (options.url === undefined && options.agentCardUrl === undefined && options.card === undefined) problems.push('give url, agentCardUrl or card');
  for (const key of ['url', 'agentCardUrl'] as const) {
    const value: unknown = options[key];
    if (value === undefined) continue;
    try {
      const parsed = new URL(String(value));
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') problems.push(`${key} must be an http(s) URL`);
    } catch {
      problems.push(`${key} must be an absolute URL (got ${JSON.stringify(value)})`);
    }
  }
  if (options.card !== undefined && !isPlainObject(options.card)) problems.push('card must be an agent card object');
  if (options.protocolVersion !== undefined && options.protocolVersion !== '0.3' && options.protocolVersion !== '1.0') problems.push(`protocolVersion must be '0.3' or '1.0'`);
  if (options.fetch !== undefined && typeof options.fetch !== 'function') problems.push('fetch must be a function');
  if (options.headers !== undefined && (!isPlainObject(options.headers) || Object.values(options.headers).some((value) => typeof value !== 'string'))) problems.push('headers must be an object of strings');
  problems.push(...retryOptionProblems(options.retry, 'retry'), ...retryOptionProblems(options.resubscribe, 'resubscribe'), ...resilienceProblems(options));
  const allow: unknown = options.allowCrossOrigin;
  if (!(allow === undefined || typeof allow === 'boolean' || (Array.isArray(allow) && allow.every((entry) => originOf(String(entry)) !== 'null')))) {
    problems.push('allowCrossOrigin must be a boolean or a list of absolute URLs');
  }
  for (const key of ['timeoutMs', 'idleTimeoutMs', 'streamTimeoutMs'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'number' || !(value > 0))) problems.push(`${key} must be a number > 0 or Infinity`);
  }
  if (problems.length > 0) throw ConfigError.fromProblems('A2A client options', problems);
  return options;
}

