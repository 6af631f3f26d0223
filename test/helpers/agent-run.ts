/**
 * Helpers for agent-loop tests: recorded fixtures served through msw, model endpoints that record what they were
 * sent, reading a run to its end, transcript checks, and an asymmetric matcher for typed errors.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { http, HttpResponse, type HttpResponseResolver } from 'msw';
import { expect } from 'vitest';
import type { AgentRunItem } from '../../src/agent/index.js';
import type { ChatMessage, ToolCall } from '../../src/chat/index.js';

/** The raw text of a file in test/fixtures/. */
export function fixtureText(name: string): string {
  return readFileSync(join(import.meta.dirname, '..', 'fixtures', name), 'utf8');
}

/**
 * A fresh `text/event-stream` response carrying a recorded `.sse` fixture, byte for byte as recorded, one event per
 * network read (as a provider streams tokens; deltas decoded from one read are coalesced, see openai-stream-decoder).
 */
export function fixtureStream(name: string): HttpResponse<ReadableStream<Uint8Array>> {
  const events = fixtureText(name).split(/(?<=\n\n)/);
  const encoder = new TextEncoder();
  let index = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (index < events.length) controller.enqueue(encoder.encode(events[index++]));
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } });
}

/** A recorded HTTP error of openai-errors.json (`401`, `429`, `500`, `503`): its raw body and headers. */
export interface RecordedError {
  headers: Record<string, string>;
  rawBody: string;
}

export function recordedError(status: '401' | '429' | '500' | '503'): RecordedError {
  const all = JSON.parse(fixtureText('openai-errors.json')) as Record<string, RecordedError>;
  return all[status] as RecordedError;
}

/** A model endpoint: answers each call with the next resolver (the last one repeats) and records every JSON body. */
export interface ModelEndpoint {
  handler: ReturnType<typeof http.post>;
  /** The JSON bodies received, in order. */
  bodies: Array<Record<string, unknown>>;
  /** The requests received, in order (their signals tell whether the call was cancelled). */
  requests: Request[];
  readonly calls: number;
}

export function modelEndpoint(url: string, ...answers: HttpResponseResolver[]): ModelEndpoint {
  const bodies: Array<Record<string, unknown>> = [];
  const requests: Request[] = [];
  const handler = http.post(url, async (info) => {
    const index = requests.length;
    requests.push(info.request);
    bodies.push((await info.request.clone().json()) as Record<string, unknown>);
    const answer = answers[Math.min(index, answers.length - 1)] as HttpResponseResolver;
    return answer(info);
  });
  return {
    handler,
    bodies,
    requests,
    get calls() {
      return requests.length;
    },
  };
}

/** Reads a run stream to its end. A run stream never errors: every failure is an item. */
export async function readRun(stream: ReadableStream<AgentRunItem>): Promise<AgentRunItem[]> {
  const items: AgentRunItem[] = [];
  for await (const item of stream as ReadableStream<AgentRunItem> & AsyncIterable<AgentRunItem>) items.push(item);
  return items;
}

/** The `message` item of a model call: its assistant message as the transcript holds it. */
export function messageItem(iteration: number, message: ChatMessage): AgentRunItem {
  return { type: 'message', iteration, message };
}

/** A model `retry` item (its error matched by `error`'s fields), as a run streams it while the call waits. */
export function modelRetryItem(iteration: number, attempt: number, error: Record<string, unknown>, extra: Record<string, unknown> = {}): unknown {
  return { type: 'retry', iteration, source: 'model', attempt, delayMs: expect.any(Number), error: expect.objectContaining(error), ...extra };
}

/** The `finish` item of a run (fails the test when there is none). */
export function finishOf(items: readonly AgentRunItem[]): Extract<AgentRunItem, { type: 'finish' }> {
  const last = items.at(-1);
  if (last?.type !== 'finish') throw new Error(`expected the run to end with a finish item, got ${JSON.stringify(last?.type)}`);
  return last;
}

/**
 * A transcript is a valid next request: every tool call of an assistant message has exactly one tool message,
 * after that assistant message and before the next one; every tool message answers a call.
 */
export function expectValidTranscript(messages: readonly ChatMessage[]): void {
  const problems: string[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'tool' && !messages.slice(0, index).some((earlier) => earlier.toolCalls?.some((call) => call.id === message.toolCallId))) {
      problems.push(`messages[${index}] answers an unknown call ${JSON.stringify(message.toolCallId)}`);
    }
    if (message.role !== 'assistant' || !message.toolCalls?.length) return;
    const nextAssistant = messages.findIndex((later, laterIndex) => laterIndex > index && later.role === 'assistant');
    const answers = messages.slice(index + 1, nextAssistant === -1 ? undefined : nextAssistant);
    for (const call of message.toolCalls) {
      const count = answers.filter((answer) => answer.role === 'tool' && answer.toolCallId === call.id).length;
      if (count !== 1) problems.push(`call ${call.id} of messages[${index}] has ${count} tool messages`);
    }
  });
  expect(problems).toEqual([]);
}

/** What an `isInstance` guard looks like (every framework error class has one). */
interface Guarded {
  name: string;
  isInstance(value: unknown): boolean;
}

/**
 * Matches an error of a given class (by its `isInstance` brand) whose fields include `fields`, for use inside
 * `toEqual`: `{ type: 'error', error: anError(ChatClientError, { status: 401 }) }`.
 */
export function anError(errorClass: Guarded, fields: Record<string, unknown> = {}): unknown {
  const contained = expect.objectContaining(fields) as { asymmetricMatch(other: unknown): boolean };
  return {
    $$typeof: Symbol.for('jest.asymmetricMatcher'),
    asymmetricMatch: (actual: unknown) => errorClass.isInstance(actual) && contained.asymmetricMatch(actual),
    toString: () => `${errorClass.name}Matching`,
    toAsymmetricMatcher: () => `${errorClass.name}Matching ${JSON.stringify(fields)}`,
  };
}

/** Every string inside a JSON-like value (keys excluded). */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

/** Resolves after `ms` milliseconds (real timers: msw needs them). */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The text-delta items of one iteration. */
export const textItems = (iteration: number, deltas: readonly string[]): AgentRunItem[] => deltas.map((delta) => ({ type: 'text-delta', iteration, delta }));

/** A successful tool-result item; `data` is what the tool returned. */
export function successItem(iteration: number, call: ToolCall, data: unknown): AgentRunItem {
  return {
    type: 'tool-result',
    iteration,
    callId: call.id,
    toolName: call.name,
    outcome: 'success',
    ok: true,
    result: { ok: true, data },
    content: JSON.stringify({ ok: true, data }),
    attempts: 1,
    durationMs: expect.any(Number) as number,
    synthetic: false,
  };
}

/** A failed tool-result item; `error` is what the model sees, `extra.cause` the real failure (any by default). */
export function failureItem(
  iteration: number,
  call: ToolCall,
  outcome: string,
  error: Record<string, unknown>,
  extra: { attempts?: number; durationMs?: number; synthetic?: boolean; cause?: unknown; retryable?: boolean } = {},
): AgentRunItem {
  // Every failure but a returned error result carries its real cause (developer side); a thrown ToolFailure also
  // says whether a later call may succeed.
  const cause = outcome === 'error_result' ? {} : { cause: 'cause' in extra ? extra.cause : expect.anything() };
  const thrown = ['not_found', 'invalid_arguments', 'failure', 'timeout'].includes(outcome) ? { retryable: extra.retryable ?? false } : {};
  return {
    type: 'tool-result',
    iteration,
    callId: call.id,
    toolName: call.name,
    outcome: outcome as never,
    ok: false,
    result: { ok: false, error: error as never },
    content: JSON.stringify({ ok: false, error }),
    attempts: extra.attempts ?? 0,
    durationMs: extra.durationMs ?? (expect.any(Number) as number),
    synthetic: extra.synthetic ?? false,
    ...thrown,
    ...cause,
  };
}
