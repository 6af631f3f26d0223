import { AsyncQueue } from '../internal/async-queue.js';
import { resultBody, SSE_HEADERS, sseFrame, type RequestId } from './jsonrpc.js';
import type { TaskExecution } from './task-execution.js';
import type { A2AStreamEvent, Task } from './types.js';

/**
 * @internal An SSE answer: the events of `execution` from now on (after `snapshot`, for a resubscription), until the final one.
 * Events cross from the task's request to this one through a queue and are written by this stream's own `pull`; while
 * it waits, a keep-alive comment goes out every `keepAliveMs`.
 */
export function streamResponse(id: RequestId, execution: TaskExecution, encode: (event: A2AStreamEvent) => unknown, snapshot: Task | undefined, keepAliveMs: number | false): Response {
  const encoder = new TextEncoder();
  const queue = new AsyncQueue<A2AStreamEvent>();
  if (snapshot) queue.push(structuredClone(snapshot));
  const unsubscribe = execution.subscribe((event) => {
    queue.push(event);
    if (event.kind === 'status-update' && event.final) queue.close();
  });
  let pending: Promise<IteratorResult<A2AStreamEvent>> | undefined; // kept across pulls: a keep-alive must not drop an event
  let timer: ReturnType<typeof setTimeout> | undefined;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      pending ??= queue.next();
      const next = keepAliveMs === false ? await pending : await Promise.race([pending, new Promise<'keep-alive'>((resolve) => (timer = setTimeout(resolve, keepAliveMs, 'keep-alive')))]);
      clearTimeout(timer);
      if (next === 'keep-alive') {
        controller.enqueue(encoder.encode(': keep-alive\n\n'));
        return;
      }
      pending = undefined;
      if (next.done) {
        unsubscribe();
        controller.close();
      } else {
        controller.enqueue(encoder.encode(sseFrame(resultBody(id, encode(next.value)))));
      }
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
