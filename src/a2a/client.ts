import { A2ATransportError } from '../errors/a2a-transport-error.js';
import { StreamError } from '../errors/stream-error.js';
import { ConfigError } from '../errors/config-error.js';
import { SerializeError } from '../errors/serialize-error.js';
import { isAbortSignal } from '../internal/call-options.js';
import { createId } from '../internal/ids.js';
import { isPlainObject, preview } from '../internal/json.js';
import { removeSecrets, urlView, type URLView } from '../internal/redact.js';
import { delay, untilAborted } from '../internal/delay.js';
import { backoffDelay, resolveRetryOptions } from '../internal/retry.js';
import { checkOrigin, validateClientOptions, type A2AClientOptions } from './client-options.js';

import { iterableStream } from '../internal/streams.js';
import { endpointOf, loadAgentCard, type AgentEndpoint } from './agent-card.js';
import { CLIENT_METHODS, isStreamEndState, TERMINAL_STATES, type A2AProtocolVersion } from './constants.js';
import { decodeSendResult, decodeStreamEvent, decodeTask } from './decode.js';
import { createTransport, type A2ATransport } from './transport.js';
import type { ResumeDecision } from '../interrupts/interrupt.js';
import type { SpanHandle } from '../telemetry/telemetry.js';
import type { A2AMessage, A2AStreamEvent, AgentCard, MessageSendParams, SendMessageResult, Task } from './types.js';
import { messageToV1 } from './v1-codec.js';

export type { A2AClientOptions } from './client-options.js';

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
 * The follow-up message that answers an `input-required` task: on the same task (`taskId`, `contextId`), one data part
 * `{ decisions }`. Send it with `sendMessage` or `streamMessage`; a refused answer is a `JSONRPCError` (-32602, `data:
 * { type: 'resume', code }`) and the task keeps waiting. Bad arguments are a `ConfigError`.
 * @example `await client.sendMessage({ message: decisionsMessage(waiting, [{ id: 'int_1', approved: false, reason: 'Too large' }]) })`
 */
export function decisionsMessage(task: { taskId: string; contextId?: string | undefined }, decisions: readonly ResumeDecision[]): A2AMessage {
  const problems: string[] = [];
  const taskId: unknown = isPlainObject(task) ? task.taskId : undefined;
  const contextId: unknown = isPlainObject(task) ? task.contextId : undefined;
  if (typeof taskId !== 'string' || taskId === '') problems.push('task.taskId must be a non-empty string');
  if (contextId !== undefined && (typeof contextId !== 'string' || contextId === '')) problems.push('task.contextId must be a non-empty string when given');
  if (!Array.isArray(decisions) || decisions.length === 0 || decisions.length > 1_000) problems.push('decisions must be an array of 1 to 1000 decisions');
  else decisions.forEach((each: unknown, index) => {
    if (!isPlainObject(each) || typeof each.id !== 'string' || each.id === '') problems.push(`decisions[${index}] must be { id, approved } / { id, approved: false, reason } / { id, value }`);
  });
  if (problems.length > 0) throw ConfigError.fromProblems('decisions message', problems);
  const data = { decisions: decisions.map((each) => ({ ...each })) };
  return { kind: 'message', messageId: createId('msg'), role: 'user', taskId: taskId as string, ...(contextId ? { contextId: contextId as string } : {}), parts: [{ kind: 'data', data }] };
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
  // The configured secrets and the credentials of the headers (checked), and what the URLs given hide (a token in a
  // path): a remote echoing one of them finds it removed. The endpoint's, when a card names it, join at discovery.
  const secrets = validateClientOptions(options);
  const settings = options;
  // The spans of each call: openTelemetry's A2A client tracing, or an inert one (the options check refuses a telemetry
  // without it), so an app without telemetry bundles no tracing code and the calls no untraced path. A call uses only
  // three methods of its span: the inert span has only those.
  const tracing: CallTracing = settings.telemetry?.a2aClient ?? { start: () => ({ traceparent() { return undefined; }, fail() {}, end() {} }), result() {} };
  for (const url of [settings.url, settings.agentCardUrl]) if (url !== undefined) secrets.push(...urlView(url, secrets).hidden);
  const fetchImpl: typeof fetch = (input, init) => (settings.fetch ?? globalThis.fetch)(input, init);
  // A remote may quote the credentials we sent (a failed task forwarding our Authorization header's refusal): they are
  // removed, in every form, from every result and event before the caller sees it (the same object when none is there).
  const clean = <T>(value: T): T => removeSecrets(value, secrets);
  let resolved: Promise<{ endpoint: AgentEndpoint; view: URLView; card?: AgentCard; transport: A2ATransport }> | undefined;

  const resubscribe = settings.resubscribe ? resolveRetryOptions(settings.resubscribe) : undefined;
  const timeoutMs = settings.timeoutMs ?? 60_000;
  // Shared by every caller, so it runs on the client's own terms (bounded by timeoutMs): one caller giving up must not
  // fail the others, who each wait on their own signal.
  const connection = (signal: AbortSignal | undefined) => {
    if (resolved) return untilAborted(resolved, signal);
    resolved = (async () => {
      let card = settings.card;
      let cardURL: string | undefined;
      if (!card && settings.agentCardUrl) {
        ({ card, url: cardURL } = await loadAgentCard(settings.agentCardUrl, { fetch: fetchImpl, headers: settings.headers, secrets, timeoutMs }));
      }
      const endpoint: AgentEndpoint = settings.url ? { url: settings.url, version: settings.protocolVersion ?? '0.3' } : endpointOf(card as AgentCard, settings.protocolVersion);
      if (cardURL !== undefined && !settings.url) checkOrigin(endpoint.url, cardURL, settings.allowCrossOrigin, secrets);
      const view = urlView(endpoint.url, secrets);
      for (const part of view.hidden) if (!secrets.includes(part)) secrets.push(part);
      const transport = createTransport(endpoint, view, settings, fetchImpl, secrets);
      return { endpoint, view, card, transport };
    })();
    resolved.catch(() => (resolved = undefined)); // a failed discovery is tried again by the next call
    return untilAborted(resolved, signal);
  };

  const method = (version: A2AProtocolVersion, name: keyof typeof CLIENT_METHODS): string => CLIENT_METHODS[name][version === '1.0' ? 1 : 0];
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

  /**
   * One call, unary or streaming, through one path: a unary call (`message/send`, not idempotent: retried only on
   * 429/503; `tasks/get`, `tasks/cancel`) is a call whose single result ends it, decoded by `decode`; a stream
   * (`message/stream`, `tasks/resubscribe`) runs until its final event, resubscribing after a drop when configured.
   */
  async function* call<T>(
    kind: keyof typeof CLIENT_METHODS,
    params: MessageSendParams | string | { id: string; historyLength?: number },
    callOptions: A2ACallOptions | undefined,
    decode: (value: unknown, version: A2AProtocolVersion) => T = decodeStreamEvent as never,
  ): AsyncGenerator<T, void, undefined> {
    const callerSignal = checkCallOptions(callOptions);
    const { endpoint, view, transport } = await connection(callerSignal);
    const unary = kind !== 'StreamMessage' && kind !== 'Resubscribe';
    const send = kind === 'StreamMessage' || kind === 'SendMessage'; // not idempotent: retried only on 429/503
    const body = send ? sendParams(params as MessageSendParams | string, endpoint.version) : params;
    // The whole call — for a stream every request of it and the waits between — runs under one scope: a stream's
    // total limit, nothing for a unary call (its call limit is per attempt).
    const name = method(endpoint.version, kind);
    const scope = transport.scope(callerSignal, name, unary);
    const signal = scope.controller.signal;
    const span = tracing.start(kind, name, view.url);
    const traceparent = span.traceparent();
    try {
      let taskId: string | undefined;
      let final = false;
      let inTask = kind === 'Resubscribe';
      let stream = transport.stream(name, body, { signal, idempotent: !send, traceparent, unary });
      for (let resubscriptions = 0; ; ) {
        let dropped: unknown;
        try {
          for await (const result of stream) {
            const event = clean(decode(result, endpoint.version)) as A2AStreamEvent;
            tracing.result(span, event);
            const of = event.kind === 'task' ? event.id : event.taskId;
            // One stream follows one task: an event of another (a confused or hostile server) would end it or stand for it.
            if (taskId !== undefined && of !== undefined && of !== taskId) throw new SerializeError(`The A2A stream of task ${preview(taskId, 200)} sent an event of task ${preview(of, 200)}`, { subject: 'A2A stream' });
            taskId ??= of;
            final = unary || isFinalStreamEvent(event, { inTask });
            if (event.kind !== 'message') inTask = true;
            yield event as T;
            if (final) return;
          }
        } catch (error) {
          // A drop (no answer: `network`) is resubscribed when configured, once the task is known.
          if (signal.aborted || !resubscribe || !taskId || !(A2ATransportError.isInstance(error) && error.reason === 'network')) throw error;
          dropped = error;
        }
        if (final) return;
        if (!resubscribe || !taskId || resubscriptions >= resubscribe.maxAttempts) {
          if (dropped !== undefined) throw dropped;
          throw new StreamError(`The A2A stream ended before its final event${taskId ? ` (task ${taskId})` : ''}`, { reason: 'incomplete', afterOutput: taskId !== undefined });
        }
        resubscriptions++;
        await delay(backoffDelay(resubscriptions, resubscribe), signal);
        stream = transport.stream(method(endpoint.version, 'Resubscribe'), { id: taskId }, { signal, idempotent: true, traceparent });
      }
    } catch (error) {
      span.fail(error);
      throw error;
    } finally {
      span.end();
      scope.close();
    }
  }

  return {
    async getAgentCard(callOptions) {
      return clean((await connection(checkCallOptions(callOptions))).card); // a card may quote what it was sent
    },
    sendMessage: (message, callOptions) => single(call('SendMessage', message, callOptions, decodeSendResult)),
    streamMessage: (message, callOptions) => eventStream(call('StreamMessage', message, callOptions)),
    getTask: (params, callOptions) => single(call('GetTask', params, callOptions, decodeTask)),
    cancelTask: (params, callOptions) => single(call('CancelTask', params, callOptions, decodeTask)),
    resubscribe: (params, callOptions) => eventStream(call('Resubscribe', params, callOptions)),
  };
}

/**
 * The caller's signal of a call whose options hold up, or a `ConfigError`: options that are not an object, or a signal
 * that is not an `AbortSignal` (a bare `TypeError` deep inside before). Not the shared `callOptionsProblems`: naming
 * the refused value brings `refusedValue` into the A2A app, 75 B it does not have under its 0.6× goal.
 */
function checkCallOptions(options: A2ACallOptions | undefined): AbortSignal | undefined {
  if (options !== undefined && !(typeof options === 'object' && options && (options.signal === undefined || isAbortSignal(options.signal)))) {
    throw ConfigError.fromProblems('A2A call options', ['options must be an object, its signal an AbortSignal']);
  }
  return options?.signal as AbortSignal | undefined;
}

/** The span methods a call uses. */
type CallSpan = Pick<SpanHandle, 'traceparent' | 'fail' | 'end'>;

/** What a call needs of the A2A client tracing (`A2AClientTracing`, whose spans have more). */
interface CallTracing {
  start(operation: string, method: string, url: string): CallSpan;
  result(span: CallSpan, result: unknown): void;
}

/** The one result of a unary call (its generator ends after it: the span ends, the attempt is closed). */
async function single<T>(results: AsyncGenerator<T, void, undefined>): Promise<T> {
  for await (const result of results) return result;
  return undefined as never; // never reached: a unary call yields its result or throws
}

/**
 * A pull-based stream of `events`: one event per pull (an A2A stream is paced by the network, so the batch machinery
 * of `streamFromBatches` buys nothing here); a generator error errors the stream, cancelling it returns the generator.
 */
function eventStream(events: AsyncGenerator<A2AStreamEvent, void, undefined>): A2AEventStream {
  return iterableStream(
    new ReadableStream<A2AStreamEvent>(
      {
        async pull(controller) {
          const next = await events.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        async cancel() {
          await events.return(undefined).catch(() => {});
        },
      },
      { highWaterMark: 0 },
    ),
  );
}

