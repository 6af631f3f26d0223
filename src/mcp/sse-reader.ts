/**
 * @internal Reading one SSE body event by event, for both kinds of MCP stream (a request's answer, the server's own
 * stream): every event handed to `onEvent` in order until it says stop, the body ends, or the connection drops. One
 * bound, the client's `maxResponseBytes`, holds for an event's data in UTF-8 bytes, as for a JSON body: the parser's
 * line and event bounds are derived from it (a line is its `data:` field name longer), so no inner bound refuses what
 * the option allows.
 */
import { StreamError } from '../errors/stream-error.js';
import { SSEParser, type SSEEvent } from '../wire/sse-decoder.js';

/** How a read ended. */
export type SSEReadEnd = 'stopped' | 'ended' | 'dropped';

/**
 * @internal What both kinds of MCP stream are read with: the bound, the error for an event over it, and a wait before
 * the next read (the transport's, named as the client's options name them).
 */
export interface StreamBounds {
  /** Largest data of one event, in UTF-8 bytes (the client's `maxResponseBytes`). */
  maxResponseBytes: number;
  /** The error thrown for an event (or a line) over `maxResponseBytes`: it names the option. */
  tooLarge: () => Error;
  /** A wait before the next read while what the events asked for has not caught up (undefined: read on). */
  pause?: (() => Promise<void> | undefined) | undefined;
}

export interface SSEReadOptions extends StreamBounds {
  /** Return true to stop reading (the body is then cancelled). Throwing stops it too, with that error. */
  onEvent: (event: SSEEvent) => boolean;
  onRetry: (ms: number) => void;
  /** Races each read against what must stop it at once (an abort, a limit), whose reason is then thrown. */
  race: <T>(promise: Promise<T>) => Promise<T>;
  /** Aborted when the read must stop: a read that fails after it is that stop, not a dropped connection. */
  signal: AbortSignal;
}

/** Characters a line may hold beyond its data: the longest field name and its colon and space (`event: `). */
const FIELD_SLACK = 16;

export async function readSSE(body: ReadableStream<Uint8Array>, options: SSEReadOptions): Promise<SSEReadEnd> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true }); // the parser strips the one BOM the spec allows
  const queue: SSEEvent[] = [];
  const { maxResponseBytes: maxBytes } = options;
  // UTF-16 code units never outnumber UTF-8 bytes, so these bounds refuse nothing the option allows.
  const parser = new SSEParser({ onEvent: (event) => queue.push(event), onRetry: options.onRetry, maxEventLength: maxBytes, maxLineLength: maxBytes + FIELD_SLACK });
  const drain = (): boolean => {
    while (queue.length > 0) {
      const event = queue.shift() as SSEEvent;
      // a code unit is at most 3 bytes: only data over a third of the bound can be over it
      if (event.data.length * 3 > maxBytes && utf8Length(event.data) > maxBytes) throw options.tooLarge();
      if (options.onEvent(event)) return true;
    }
    return false;
  };
  /** Feeds text and hands on its events; the events before a broken bound go first (one may be the response). */
  const step = (text: string, end: boolean): boolean => {
    let broken: { error: unknown } | undefined;
    try {
      parser.feed(text);
      if (end) parser.end();
    } catch (error) {
      broken = { error };
    }
    if (drain()) return true;
    if (!broken) return false;
    throw StreamError.isInstance(broken.error) && broken.error.reason === 'line_too_long' ? options.tooLarge() : broken.error;
  };
  try {
    for (;;) {
      const paused = options.pause?.();
      if (paused) await options.race(paused);
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await options.race(reader.read());
      } catch (error) {
        if (options.signal.aborted) throw error;
        return drain() ? 'stopped' : 'dropped';
      }
      if (chunk.done) return step(decoder.decode(), true) ? 'stopped' : 'ended';
      if (step(decoder.decode(chunk.value, { stream: true }), false)) return 'stopped';
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** True when `response` is an SSE stream (its content type `text/event-stream`, any case, any parameters). */
export function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
}

/** The UTF-8 length of `text` in bytes (decoded text: a surrogate comes in a pair, 4 bytes for the two). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x80) bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}
