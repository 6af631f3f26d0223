/**
 * @internal The HTTP answer to a POST that held requests, in the handler's response mode:
 * - `json`: waits for every answer, then one `application/json` body (an array for a batch);
 * - `sse`: a `text/event-stream` at once, one `event: message` frame (with a unique `id`) per answer as it is
 *   ready, a `: keep-alive` comment every `keepAliveMs` while one is pending, then the stream closes. Cancelling the
 *   stream (the client left) aborts the calls behind it.
 * Requests that get no answer (cancelled) are left out; when none is left, the answer is an event stream that closes
 * without a message.
 */
import { AsyncQueue } from '../internal/async-queue.js';
import { randomUUID } from '../internal/ids.js';
import { emptyEventStream, encodeMessage, jsonAnswer, NO_ANSWER, SSE_HEADERS, sseFrame, type Answer } from './handler-wire.js';
import { startTimer } from '../internal/delay.js';

/** @internal How to answer. */
export interface AnswerSettings {
  mode: 'json' | 'sse';
  keepAliveMs: number | false;
  secrets: readonly string[];
  /** Extra headers (the new session's id, for `initialize`). */
  headers: Readonly<Record<string, string>>;
  /** True for a batch: a JSON answer is then an array. */
  batch: boolean;
  /** Called when the client left before the answer was complete (aborts its calls). */
  abort: () => void;
  /** Called once the answer is complete or abandoned (releases what watched the client). */
  done: () => void;
}

/** @internal The answer to `pending` (promises that never reject). */
export async function answerRequests(pending: readonly Promise<Answer>[], settings: AnswerSettings): Promise<Response> {
  if (settings.mode === 'sse') return streamAnswers(pending, settings);
  try {
    const answers = (await Promise.all(pending)).filter((answer) => answer !== NO_ANSWER);
    if (answers.length === 0) return emptyEventStream(settings.headers);
    return jsonAnswer(settings.batch ? answers : answers[0], settings.secrets, 200, settings.headers);
  } finally {
    settings.done();
  }
}

function streamAnswers(pending: readonly Promise<Answer>[], settings: AnswerSettings): Response {
  const { keepAliveMs, secrets } = settings;
  const encoder = new TextEncoder();
  const queue = new AsyncQueue<Record<string, unknown>>();
  const streamId = randomUUID();
  let left = pending.length;
  let sent = 0;
  for (const answer of pending) {
    void answer
      .then((value) => {
        if (value !== NO_ANSWER) queue.push(value);
      })
      .finally(() => {
        if (--left === 0) queue.close();
      });
  }
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    settings.done();
  };
  let next: Promise<IteratorResult<Record<string, unknown>>> | undefined; // kept across pulls: a keep-alive must not drop an answer
  let timer: ReturnType<typeof setTimeout> | undefined;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      next ??= queue.next();
      const item =
        keepAliveMs === false ? await next : await Promise.race([next, new Promise<'keep-alive'>((resolve) => (timer = startTimer(() => resolve('keep-alive'), keepAliveMs)))]);
      clearTimeout(timer);
      if (finished) return; // cancelled while waiting
      if (item === 'keep-alive') {
        controller.enqueue(encoder.encode(': keep-alive\n\n'));
        return;
      }
      next = undefined;
      if (item.done) {
        finish();
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(sseFrame(encodeMessage(item.value, secrets), `${streamId}-${sent++}`)));
    },
    cancel() {
      if (finished) return;
      finish();
      settings.abort();
      queue.close();
    },
  });
  return new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...settings.headers } });
}
