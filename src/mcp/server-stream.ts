/**
 * @internal The server's own stream (Streamable HTTP's GET): opened after the handshake when the client `listen`s,
 * read until the client closes, reconnected with `Last-Event-ID` after a drop (backing off), given up on a server
 * that offers none (405, or anything but an SSE answer) or after ten failures in a row.
 */
import { abortPromise, delay } from '../internal/delay.js';
import { LAST_EVENT_ID_HEADER } from './protocol.js';
import { readSSE } from './sse-reader.js';

/** @internal What the stream needs of its transport. */
export interface ServerStreamHost {
  fetch: typeof fetch;
  endpoint: string;
  /** The request headers now (session, protocol version, the user's). */
  headers: () => Record<string, string>;
  maxEventLength: number;
  /** One event's data: a JSON-RPC text to route. Throwing skips that event only. */
  deliver: (data: string) => void;
}

const MAX_FAILURES = 10;
const LONGEST_WAIT_MS = 30_000;

export async function listenToServer(host: ServerStreamHost, signal: AbortSignal): Promise<void> {
  let lastEventId: string | undefined;
  let retryMs = 1_000;
  for (let failures = 0; failures < MAX_FAILURES && !signal.aborted; ) {
    try {
      const headers = host.headers();
      delete headers['content-type'];
      if (lastEventId !== undefined) headers[LAST_EVENT_ID_HEADER] = lastEventId;
      const response = await host.fetch(host.endpoint, { method: 'GET', headers, signal });
      if (!response.ok || !(response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream') || !response.body) {
        response.body?.cancel().catch(() => {});
        return;
      }
      failures = 0;
      const aborted = abortPromise(signal);
      try {
        await readSSE(response.body, {
          onRetry: (ms) => (retryMs = ms),
          maxEventLength: host.maxEventLength,
          aborted: aborted.promise,
          onEvent: (event) => {
            if (event.id !== undefined && event.id !== '') lastEventId = event.id;
            if (event.data === '' || event.type !== 'message') return false;
            try {
              host.deliver(event.data);
            } catch {
              // one malformed event of the server's own stream is skipped: the stream and its later events go on
            }
            return false;
          },
        });
      } finally {
        aborted.dispose();
      }
    } catch {
      if (signal.aborted) return;
      failures++;
    }
    await delay(Math.min(retryMs * 2 ** failures, LONGEST_WAIT_MS), signal).catch(() => {});
  }
}
