/**
 * Builders of OpenAI-compatible chat completion streams (the `chat.completion.chunk` shape of the recorded fixtures in
 * our test/fixtures/), with faults injected on demand. Plain Web `Response`s: use them in msw handlers, in a Worker,
 * or in a `fetch` stub.
 */
import { plannedBody, type StreamPlan } from './paced-body.js';
import { checkInput, countProblems, eventListProblems, objectProblems, streamPlanProblems, stringListProblems, stringProblems, toolCallListProblems } from './input-check.js';

export type { StreamPlan } from './paced-body.js';

/**
 * One `chat.completion.chunk` object. `delta` and `extra` must be objects, `finishReason` a string or `null`, else a
 * `ConfigError` naming each problem.
 * @example `chunk({ content: 'Hel' })`
 */
export function chunk(delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  checkInput('chunk input', [...objectProblems(delta, 'delta'), ...(finishReason === null ? [] : stringProblems(finishReason, 'finishReason')), ...objectProblems(extra, 'extra')]);
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...extra,
  };
}

/**
 * The final usage chunk (`choices: []`) sent with `stream_options.include_usage`. Token counts are integers ≥ 0, else
 * a `ConfigError` naming each.
 * @example `usageChunk(10, 5)`
 */
export function usageChunk(prompt = 10, completion = 5): Record<string, unknown> {
  checkInput('usageChunk input', [...countProblems(prompt, 'prompt'), ...countProblems(completion, 'completion')]);
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

/**
 * The data payloads of a streamed text answer: role, one delta per piece, finish, usage, `[DONE]`. `pieces` is an
 * array of strings and `finishReason` a string, else a `ConfigError` naming each problem.
 * @example `sseResponse(textEvents(['Hel', 'lo']))`
 */
export function textEvents(pieces: readonly string[], finishReason = 'stop'): unknown[] {
  checkInput('textEvents input', [...stringListProblems(pieces, 'pieces'), ...stringProblems(finishReason, 'finishReason')]);
  return [chunk({ role: 'assistant', content: '' }), ...pieces.map((piece) => chunk({ content: piece })), chunk({}, finishReason), usageChunk(), '[DONE]'];
}

/**
 * The data payloads of streamed tool calls (parallel when several), each call's arguments split in two. `calls` is an
 * array of `{ id, name, arguments }` strings, else a `ConfigError` naming each problem by position.
 * @example `textEvents` for answers, `toolCallEvents([{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }])` for tool calls
 */
export function toolCallEvents(calls: ReadonlyArray<{ id: string; name: string; arguments: string }>): unknown[] {
  checkInput('toolCallEvents input', toolCallListProblems(calls, 'calls'));
  const events: unknown[] = [chunk({ role: 'assistant', content: null })];
  calls.forEach((call, index) => {
    const middle = Math.floor(call.arguments.length / 2);
    events.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    events.push(chunk({ tool_calls: [{ index, function: { arguments: call.arguments.slice(0, middle) } }] }));
    events.push(chunk({ tool_calls: [{ index, function: { arguments: call.arguments.slice(middle) } }] }));
  });
  events.push(chunk({}, 'tool_calls'), usageChunk(), '[DONE]');
  return events;
}

/**
 * SSE text of data payloads (objects JSON-encoded, strings sent as they are). A payload that cannot be encoded (a
 * `bigint`, a cycle, `undefined`), or `events` not an array, is a `ConfigError` naming each by position.
 * @example `sseText(['[DONE]']) // 'data: [DONE]\n\n'`
 */
export function sseText(events: readonly unknown[]): string {
  checkInput('sseText input', eventListProblems(events, 'events'));
  return events.map(dataLine).join('');
}

/** One payload's `data:` line (checked before). */
function dataLine(event: unknown): string {
  return `data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`;
}

/**
 * An SSE response produced event by event, with faults injected per the plan. Pull-based, one event per read: a
 * fault happens only after the reader took everything sent before it, as on a real connection. Events and plan are
 * checked before the response is built (as `sseText` checks events; plan names known, event numbers integers ≥ 0,
 * delays ≥ 0, headers strings, `signal` an `AbortSignal`): bad input is a `ConfigError` naming each problem, never a
 * body that fails on read. Every wait of the plan ends as soon as the client cancels the body or `plan.signal` aborts
 * (in an msw handler pass `request.signal`: msw keeps a copy of the body, so a cancel alone never reaches it), and
 * no timer outlives the test.
 * @example `http.post(url, ({ request }) => sseResponse(textEvents(['late']), { firstByteDelayMs: 5_000, signal: request.signal }))`
 */
export function sseResponse(events: readonly unknown[], plan: StreamPlan = {}): Response {
  checkInput('sseResponse input', [...eventListProblems(events, 'events'), ...streamPlanProblems(plan)]);
  return new Response(plannedBody(events.map(dataLine), plan), {
    headers: { 'content-type': 'text/event-stream', 'x-request-id': `req_${Math.random().toString(16).slice(2, 10)}`, ...plan.headers },
  });
}
