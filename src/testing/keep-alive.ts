import { HttpResponse } from './msw.js';
import { startTimer } from '../internal/delay.js';

/**
 * @internal A 200 `text/event-stream` answer: `first` (if any), then a `: keep-alive` comment 20 ms after each read of
 * the client, forever, and nothing else. Pull-based: nothing ticks while nobody reads (msw keeps an unread copy of
 * each mocked body), and the pending tick is cleared when the client cancels the body. The A2A and MCP fault
 * handlers' keep-alive-only peers.
 * @example `keepAliveAfter('data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n')`
 */
export function keepAliveAfter(first = ''): Response {
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (first !== '') controller.enqueue(encoder.encode(first));
      },
      pull(controller) {
        return new Promise<void>((resolve) => {
          timer = startTimer(() => {
            controller.enqueue(encoder.encode(': keep-alive\n\n'));
            resolve();
          }, 20);
        });
      },
      cancel() {
        clearTimeout(timer);
      },
    },
    { highWaterMark: 0 },
  );
  return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } });
}
