import { StreamError } from '../errors/stream-error.js';
import type { NodeIncomingRequest } from './node-types.js';
import { watchClose } from './socket-close.js';

/** What the stream holds before the request is paused: the most read ahead of the handler. */
const WINDOW = 65_536;
const UNREAD_TEXT =
  'The answer was sent before the request body arrived in full, and the connection closed after it: the rest of the body was discarded. To get all of it, read the body before answering, or start reading it before answering on a keep-alive connection.';
const CLOSED_TEXT = 'The connection closed before the request body arrived in full (the client left, the answer failed, or the server timed the connection out); the rest of the body was lost.';

/**
 * A request body read from a Node request's chunks, and how the listener lets go of it.
 * @example
 * ```ts
 * const body: RequestBody = requestBody(incoming);
 * body.letGo('closing', true); // the answer went out with the body still arriving: a reader gets a StreamError
 * ```
 */
export interface RequestBody {
  readonly stream: ReadableStream<Uint8Array>;
  /** True once the request's `end` came: every byte of the body arrived. */
  readonly ended: () => boolean;
  /**
   * Whether the rest of the body is worth keeping the connection open for after the answer: a reader is taking it
   * (it holds the stream and has not cancelled it), or it is small — a declared `Content-Length` within the stream's
   * window, which the listener holds for any request anyway.
   */
  readonly keepable: () => boolean;
  /**
   * The listener is done with the connection (`answered`: its answer went out in full). A body that had all arrived
   * stays readable; one still arriving is fed on while the connection is `kept` for a reader, or fails with a
   * `StreamError` (`read_failed`) when the connection is `closing`.
   */
  readonly letGo: (connection: 'closing' | 'kept', answered: boolean) => void;
}

/**
 * The chunks of `request` as a web stream, pulled with backpressure (the request is paused while the stream is
 * full). A cancel only stops reading: the connection is the listener's to close, after its response. Every way the
 * stream stops being fed — the request's end, its failure, a connection closed with the body still arriving — goes
 * through one `settle`, so a reader always sees the end or a typed `StreamError` (`read_failed`), never a read that
 * waits forever.
 * @example
 * ```ts
 * const body = requestBody(incoming);
 * const request = new Request(url, { method: 'POST', body: body.stream, duplex: 'half' } as RequestInit);
 * ```
 */
export function requestBody(request: NodeIncomingRequest): RequestBody {
  const declared = Number(request.headers['content-length']);
  const small = declared >= 0 && declared <= WINDOW;
  let ended = false;
  let settled = false;
  let bounded = true;
  let onCancel: (() => void) | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const settle = (reason?: Error) => {
    if (settled) return;
    settled = true;
    if (reason === undefined) controller.close();
    else controller.error(reason);
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(given) {
        controller = given;
        request.on('data', (chunk) => {
          if (settled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if (bounded && (controller.desiredSize ?? 0) <= 0) request.pause();
        });
        request.on('end', () => {
          ended = true;
          settle();
        });
        request.on('error', (error) => {
          const why = error instanceof Error && error.message !== '' ? ` (${error.message})` : '';
          settle(new StreamError(`The connection failed before the request body arrived in full${why}; the rest of the body was lost.`, { reason: 'read_failed', cause: error }));
        });
        request.pause();
      },
      pull() {
        request.resume();
      },
      cancel() {
        settled = true;
        request.pause();
        onCancel?.();
      },
    },
    { highWaterMark: WINDOW, size: (chunk) => chunk.byteLength },
  );

  // All of it arrived: the rest sits in the request's paused buffers (the backpressure window), so taking it into the
  // stream costs nothing more, frees the connection for its next request, and a reader still gets every byte (a
  // connection that closes now loses none of it). A cancelled stream's rest drains away.
  const drain = () => {
    bounded = false;
    request.resume();
  };
  const letGo = (connection: 'closing' | 'kept', answered: boolean) => {
    if (ended) return;
    if (request.complete === true) return drain();
    const socket = request.socket;
    if (connection === 'kept' && !settled && socket?.destroyed !== true && typeof socket?.once === 'function') {
      // The answer left the connection open for the rest, which arrives as before — a small one taken in whole, so a
      // handler that reads only later gets it too. Node no longer errors a request once its answer is out, so the
      // connection's close is watched here; a reader that cancels leaves the rest unread, and its connection closes.
      if (small) drain();
      // A close after the last byte came (the client sent it all and left) loses nothing: the reader gets it all.
      const closed = () => (request.complete === true ? drain() : settle(new StreamError(CLOSED_TEXT, { reason: 'read_failed' })));
      request.on('end', watchClose(socket, closed));
      onCancel = () => void socket.destroy?.();
      return;
    }
    // An answer still being written (a 500) is followed by Node's own close, as its head says: not cut here.
    if (answered) socket?.destroy?.();
    settle(new StreamError(answered ? UNREAD_TEXT : CLOSED_TEXT, { reason: 'read_failed' }));
    request.resume();
  };
  return { stream, ended: () => ended, keepable: () => !settled && (small || stream.locked), letGo };
}
