import type { ToolCall, Usage } from '../chat/core/types.js';
import { ErrorType } from '../errors/constants.js';
import type { ResponseError } from '../errors/response-error.js';
import type { Interrupt } from '../interrupts/interrupt.js';
import { isoTimestamp } from '../internal/clock.js';
import { messageOf } from '../internal/error-chain.js';
import { createId } from '../internal/ids.js';
import { ObjectType } from './constants.js';

/** One choice of a response: a complete message, or a streamed delta. */
export interface EventChoice {
  index: number;
  message?: { role: 'assistant' | 'tool'; content: string; toolCalls?: ToolCall[]; toolCallId?: string };
  delta?: { content?: string; reasoning?: string };
  finishReason?: string;
}

/** The response part of an event (tRPC-Agent-Go's `model.Response`). */
export interface EventResponse {
  id?: string;
  /** What the event is: `error`, `runner.completion`, `graph.node.start`, `chat.completion`… */
  object: string;
  /** Unix seconds. */
  created?: number;
  done: boolean;
  /** A streamed piece (never carries the final state). */
  partial?: boolean;
  error?: ResponseError;
  choices?: EventChoice[];
  usage?: Usage;
  model?: string;
  /**
   * The questions a run stopped on, on the event that ends an interrupted run and on its `runner.completion`: the
   * run is not failed, it waits (resume it with a decision for each).
   */
  interrupts?: Interrupt[];
  /**
   * On the event that ends a resumed run: the same resume was sent again and this is the first one's outcome, given
   * again — nothing new happened (the Runner adds nothing of it to the session).
   */
  replay?: true;
}

/**
 * An event of a run: plain serializable data. `stateDelta` values are JSON texts per state key (`null` for a nil
 * value), wire-compatible with tRPC-Agent-Go's `map[string][]byte`.
 *
 * @example
 * ```ts
 * for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'hi' })) {
 *   if (isTerminalError(event)) console.error(event.response?.error);
 *   if (isRunnerCompletion(event)) console.log(executionErrorsFromStateDelta(event.stateDelta));
 * }
 * ```
 */
export interface RunEvent {
  id: string;
  invocationId: string;
  author: string;
  /** ISO-8601. */
  timestamp: string;
  response?: EventResponse;
  stateDelta?: Record<string, string | null>;
  branch?: string;
  requestId?: string;
}

/**
 * The one `runner.completion` event of a run, as {@link isRunnerCompletion} narrows it: its `response` is there.
 * @example `function summarize(event: RunnerCompletionEvent) { return event.response.error?.code ?? 'ok'; }`
 */
export type RunnerCompletionEvent = RunEvent & { response: EventResponse & { object: typeof ObjectType.RunnerCompletion; done: true } };

/**
 * An event that ends a run with a failure, as {@link isTerminalError} narrows it: its `response.error` is there.
 * @example `function report(event: TerminalErrorEvent) { return event.response.error.type + ': ' + event.response.error.message; }`
 */
export type TerminalErrorEvent = RunEvent & { response: EventResponse & { error: ResponseError } };

/**
 * `response && done && object === 'runner.completion'` (seed-systems §2.1). A type guard: inside the `if`,
 * `event.response` needs no `?.`.
 * @example `if (isRunnerCompletion(event)) console.log(event.response.error?.code ?? 'completed')`
 */
export function isRunnerCompletion(event: RunEvent | undefined | null): event is RunnerCompletionEvent {
  return !!event?.response && event.response.done === true && event.response.object === ObjectType.RunnerCompletion;
}

/**
 * `response && (object === 'error' || error)` — also true for non-terminal `graph.node.error` events (§2.1).
 * @example `if (isErrorEvent(event)) log(event.response?.error)`
 */
export function isErrorEvent(event: RunEvent | undefined | null): boolean {
  return !!event?.response && (event.response.object === ObjectType.Error || event.response.error !== undefined);
}

/**
 * `response && error && (object === 'error' || done)`: the failure that ends a run (§2.1). A `graph.node.error` is
 * not terminal; a `runner.completion` carrying an error is. A type guard: inside the `if`, `event.response.error` is
 * a `ResponseError`.
 * @example `if (isTerminalError(event)) transportError = event.response.error`
 */
export function isTerminalError(event: RunEvent | undefined | null): event is TerminalErrorEvent {
  return !!event?.response && event.response.error !== undefined && (event.response.object === ObjectType.Error || event.response.done === true);
}

/** Fields shared by the events of one invocation. */
export interface EventOrigin {
  invocationId: string;
  author: string;
  branch?: string | undefined;
  requestId?: string | undefined;
}

/**
 * A new event with a fresh id and timestamp.
 * @example `createEvent(origin, { response: { object: 'chat.completion', done: true } })`
 */
export function createEvent(origin: EventOrigin, fields: Pick<RunEvent, 'response' | 'stateDelta'>): RunEvent {
  const event: RunEvent = { id: createId('event'), invocationId: origin.invocationId, author: origin.author, timestamp: isoTimestamp() };
  if (origin.branch !== undefined) event.branch = origin.branch;
  if (origin.requestId !== undefined) event.requestId = origin.requestId;
  if (fields.response !== undefined) event.response = fields.response;
  if (fields.stateDelta !== undefined) event.stateDelta = fields.stateDelta;
  return event;
}

/**
 * @internal A streamed piece of text or reasoning: a partial `chat.completion.chunk` event (`responseId` when known).
 */
export function chunkEvent(origin: EventOrigin, delta: { content: string } | { reasoning: string }, responseId?: string): RunEvent {
  return createEvent(origin, { response: { ...(responseId ? { id: responseId } : {}), object: ObjectType.ChatCompletionChunk, done: false, partial: true, choices: [{ index: 0, delta }] } });
}

/** @internal The error of a run stopped by its caller: `cancelled`, saying why (the abort reason's message). */
export function cancelledError(reason: unknown): ResponseError {
  return { type: ErrorType.Cancelled, message: `The run was cancelled: ${messageOf(reason)}` };
}

/**
 * A terminal error event: `{object: 'error', done: true, error: {type, message}}` (tRPC's `event.NewErrorEvent`).
 * @example `createErrorEvent(origin, { type: 'run_error', message: 'A2A request failed' })`
 */
export function createErrorEvent(origin: EventOrigin, error: ResponseError, responseId?: string): RunEvent {
  const response: EventResponse = { object: ObjectType.Error, done: true, error, created: Math.floor(Date.now() / 1000) };
  if (responseId !== undefined) response.id = responseId;
  return createEvent(origin, { response });
}
