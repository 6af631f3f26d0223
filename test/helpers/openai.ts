/**
 * Builders for OpenAI-compatible chat completion streams served through msw. Shapes follow the recorded fixtures in
 * test/fixtures/ (OpenAI `chat.completion.chunk`).
 */
import { http, HttpResponse, type HttpResponseResolver } from 'msw';

export const BASE_URL = 'https://llm.test/v1';
export const COMPLETIONS_URL = `${BASE_URL}/chat/completions`;

let sequence = 0;

/** One `chat.completion.chunk` JSON object. */
export function chunk(delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...extra,
  };
}

export const usageChunk = (prompt = 10, completion = 5) => ({
  id: 'chatcmpl-test',
  object: 'chat.completion.chunk',
  created: 1_700_000_000,
  model: 'test-model',
  choices: [],
  usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
});

/** The data payloads of a streamed text answer, split into `pieces`. */
export function textEvents(pieces: string[], finishReason = 'stop'): unknown[] {
  return [
    chunk({ role: 'assistant', content: '' }),
    ...pieces.map((piece) => chunk({ content: piece })),
    chunk({}, finishReason),
    usageChunk(),
    '[DONE]',
  ];
}

/** The data payloads of streamed tool calls (parallel when several), arguments split in two. */
export function toolCallEvents(calls: Array<{ id: string; name: string; arguments: string }>): unknown[] {
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

/** SSE text of data payloads (objects are JSON-encoded, strings sent as they are). */
export function sseText(events: readonly unknown[]): string {
  return events.map((event) => `data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`).join('');
}

export interface StreamPlan {
  /** Stop after this many events and drop the connection (error the body). */
  dropAfter?: number;
  /** Stop after this many events and end the body cleanly (no finish). */
  endAfter?: number;
  /** Stop after this many events and send nothing more, keeping the connection open. */
  stallAfter?: number;
  /** Wait this long before the first byte. */
  firstByteDelayMs?: number;
}

/** An SSE response whose body is produced event by event, with faults injected per the plan. */
export function sseResponse(events: readonly unknown[], plan: StreamPlan = {}): HttpResponse<ReadableStream> {
  const encoder = new TextEncoder();
  let index = 0;
  // Pull-based, one event per pull: a fault happens only after the reader took everything sent before it, as on a
  // real connection (erroring a push-based stream would discard bytes still queued).
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (index === 0 && plan.firstByteDelayMs) await new Promise((resolve) => setTimeout(resolve, plan.firstByteDelayMs));
        if (plan.dropAfter === index) {
          controller.error(new TypeError('terminated: other side closed'));
          return;
        }
        if (plan.endAfter === index || index >= events.length) {
          controller.close();
          return;
        }
        if (plan.stallAfter === index) return new Promise<void>(() => {});
        controller.enqueue(encoder.encode(sseText([events[index]])));
        index++;
      },
    },
    { highWaterMark: 0 },
  );
  return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream', 'x-request-id': `req_${++sequence}` } });
}

/** An msw handler answering each successive call with the next resolver (the last one repeats). */
export function completions(...answers: Array<HttpResponseResolver>): ReturnType<typeof http.post> {
  let call = 0;
  return http.post(COMPLETIONS_URL, (info) => {
    const answer = answers[Math.min(call, answers.length - 1)] as HttpResponseResolver;
    call++;
    return answer(info);
  });
}

/** Records the JSON bodies sent to the completions endpoint. */
export async function requestBody(request: Request): Promise<Record<string, unknown>> {
  return (await request.clone().json()) as Record<string, unknown>;
}
