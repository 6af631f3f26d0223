import { HttpResponse } from './msw.js';
import { pacedBody } from './paced-body.js';

/** How long a useless peer waits after each read of the client before it sends its next piece. */
const TICK_MS = 20;

/**
 * @internal A body that sends `first` (if any), then `piece(tick)` 20 ms after each read of the client, forever:
 * alive, never useful. Pull-based: nothing ticks while nobody reads (msw keeps an unread copy of each mocked body),
 * and the pending tick is cleared as soon as the client cancels the body or `signal` (the request's) aborts.
 * @example `everyTick(() => ': keep-alive\n\n', request.signal)`
 */
export function everyTick(piece: (tick: number) => string, signal: AbortSignal | undefined, first = ''): ReadableStream<Uint8Array> {
  let tick = 0;
  let opening = first;
  return pacedBody(async (clock) => {
    if (opening !== '') {
      const text = opening;
      opening = '';
      return text;
    }
    await clock.wait(TICK_MS);
    return piece(tick++);
  }, signal);
}

/**
 * @internal A 200 `text/event-stream` answer: `first` (if any), then a `: keep-alive` comment 20 ms after each read of
 * the client, forever, and nothing else (see {@link everyTick}). The A2A and MCP fault handlers' keep-alive-only peers.
 * @example `keepAliveAfter('data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n', request.signal)`
 */
export function keepAliveAfter(first: string, signal: AbortSignal | undefined): Response {
  return new HttpResponse(everyTick(() => ': keep-alive\n\n', signal, first), { headers: { 'content-type': 'text/event-stream' } });
}
