import { AsyncQueue } from '../internal/async-queue.js';
import { messageOf } from '../internal/error-chain.js';
import { cloneJSONLike } from '../internal/json.js';
import { A2AErrorCode } from './constants.js';
import { errorBody, jsonResponse, resultBody, rpcError, SSE_HEADERS, sseFrame, type RequestId } from './jsonrpc.js';
import { MAX_STREAMS_PER_TASK, type TaskExecution } from './task-execution.js';
import type { A2AStreamEvent, Task } from './types.js';
import { startTimer } from '../internal/delay.js';

/** @internal How an SSE answer behaves while it waits and when its client falls behind. */
export interface StreamLimits {
  keepAliveMs: number | false;
  /** Events held for a client that does not read; past it the stream ends with an error frame. */
  maxQueuedEvents: number;
}

/**
 * @internal An SSE answer: the events of `execution` from now on (after `snapshot`, for a resubscription), until the final one.
 * Events cross from the task's request to this one through a queue and are written by this stream's own `pull`; while
 * it waits, a keep-alive comment goes out every `keepAliveMs`. The queue is bounded: a client that stops reading ends
 * its stream with a JSON-RPC error frame saying so (the task itself goes on). A frame that cannot be encoded ends the
 * stream with an error frame too: the stream always closes. A task serves at most `MAX_STREAMS_PER_TASK` (100)
 * streams at once; one more is answered HTTP 503 with `Retry-After`.
 */
export function streamResponse(id: RequestId, execution: TaskExecution, encode: (event: A2AStreamEvent) => unknown, snapshot: Task | undefined, limits: StreamLimits): Response {
  const { keepAliveMs, maxQueuedEvents } = limits;
  const encoder = new TextEncoder();
  const queue = new AsyncQueue<A2AStreamEvent>();
  let queued = 0;
  let overflowed = false;
  if (snapshot) {
    queue.push(cloneJSONLike(snapshot));
    queued++;
  }
  const subscription = execution.subscribe((event) => {
    if (overflowed) return;
    if (queued >= maxQueuedEvents) {
      overflowed = true;
      queue.close();
      return;
    }
    queued++;
    queue.push(event);
    if (event.kind === 'status-update' && event.final) queue.close();
  });
  if (!subscription) {
    return jsonResponse(
      errorBody(id, rpcError(A2AErrorCode.InternalError, `Task ${execution.task.id} already has ${MAX_STREAMS_PER_TASK} streams; retry shortly, or read it with tasks/get`, '0.3')),
      503,
      { 'retry-after': '1' },
    );
  }
  const unsubscribe = subscription;
  let pending: Promise<IteratorResult<A2AStreamEvent>> | undefined; // kept across pulls: a keep-alive must not drop an event
  let timer: ReturnType<typeof setTimeout> | undefined;
  const errorFrame = (message: string) => encoder.encode(sseFrame(errorBody(id, rpcError(A2AErrorCode.InternalError, message, '0.3'))));
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      pending ??= queue.next();
      const next = keepAliveMs === false ? await pending : await Promise.race([pending, new Promise<'keep-alive'>((resolve) => (timer = startTimer(() => resolve('keep-alive'), keepAliveMs)))]);
      clearTimeout(timer);
      if (next === 'keep-alive') {
        controller.enqueue(encoder.encode(': keep-alive\n\n'));
        return;
      }
      pending = undefined;
      if (next.done) {
        unsubscribe();
        if (overflowed) {
          controller.enqueue(
            errorFrame(`The client fell more than ${maxQueuedEvents} events behind, so this stream ends; the task ${execution.task.id} goes on (tasks/get or tasks/resubscribe)`),
          );
        }
        controller.close();
        return;
      }
      queued--;
      let frame: string;
      try {
        frame = sseFrame(resultBody(id, encode(next.value)));
      } catch (error) {
        unsubscribe();
        controller.enqueue(errorFrame(`An event of task ${execution.task.id} could not be encoded as JSON: ${messageOf(error).slice(0, 200)}`));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(frame));
    },
    cancel() {
      clearTimeout(timer);
      unsubscribe();
      queue.close();
      if (!snapshot) execution.cancel();
    },
  });
  return new Response(body, { headers: SSE_HEADERS });
}
