/**
 * @internal Reading one SSE body event by event, for both kinds of MCP stream (a request's answer, the server's own
 * stream): every event handed to `onEvent` in order until it says stop, the body ends, or the connection drops.
 */
import { SSEParser, type SSEEvent } from '../wire/sse-decoder.js';

/** How a read ended. */
export type SSEReadEnd = 'stopped' | 'ended' | 'dropped';

export interface SSEReadOptions {
  /** Return true to stop reading (the body is then cancelled). Throwing stops it too, with that error. */
  onEvent: (event: SSEEvent) => boolean;
  onRetry: (ms: number) => void;
  maxEventLength: number;
  /** Races each read against what must stop it at once (an abort, a limit), whose reason is then thrown. */
  race: <T>(promise: Promise<T>) => Promise<T>;
  /** Aborted when the read must stop: a read that fails after it is that stop, not a dropped connection. */
  signal: AbortSignal;
}

export async function readSSE(body: ReadableStream<Uint8Array>, options: SSEReadOptions): Promise<SSEReadEnd> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true }); // the parser strips the one BOM the spec allows
  const queue: SSEEvent[] = [];
  const parser = new SSEParser({ onEvent: (event) => queue.push(event), onRetry: options.onRetry, maxEventLength: options.maxEventLength });
  const drain = (): boolean => {
    while (queue.length > 0) if (options.onEvent(queue.shift() as SSEEvent)) return true;
    return false;
  };
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await options.race(reader.read());
      } catch (error) {
        if (options.signal.aborted) throw error;
        return drain() ? 'stopped' : 'dropped';
      }
      if (chunk.done) {
        parser.feed(decoder.decode());
        parser.end();
        return drain() ? 'stopped' : 'ended';
      }
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      if (drain()) return 'stopped';
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
