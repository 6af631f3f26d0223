import { StreamError } from '../errors/stream-error.js';
import { startTimer } from '../internal/delay.js';
import { refusedValue } from '../internal/json.js';
import type { NodeServerResponse } from './node-types.js';

const NO_BODY_STATUSES = new Set([101, 204, 205, 304]);
/**
 * The most handed to Node per write. `drain` comes once Node's buffer went to the kernel: a chunk handed whole (one
 * 16 MiB `Uint8Array`) would need the client to read most of it within `writeStallMs`, so a client reading steadily
 * but slowly would be given up; in slices, each wait is for the kernel's room alone, whatever the handler's chunks.
 */
const WRITE_SLICE = 65_536;

/**
 * How the answer is written: the client's disconnect, and how long one write may wait for the client to take it.
 * @example
 * ```ts
 * const context: WriteContext = { outgoing, signal: controller.signal, stallMs: 60_000 };
 * ```
 */
export interface WriteContext {
  readonly outgoing: NodeServerResponse;
  /** Aborted once the client went away. */
  readonly signal: AbortSignal;
  /** The write-stall bound, `writeStallMs`. */
  readonly stallMs: number;
}

/**
 * Writes `response` to `outgoing`: its head, its body with backpressure, its end. Resolves once the answer left (or
 * the client left: that is no failure); rejects with what failed once the head may be out — the body's own error,
 * or a `StreamError` when the client took nothing for `stallMs` — and the caller cuts the connection.
 * @example
 * ```ts
 * await writeResponse(new Response('ok'), 'GET', false, { outgoing, signal, stallMs: 60_000 });
 * ```
 */
export async function writeResponse(response: Response, method: string, close: boolean, context: WriteContext): Promise<void> {
  const { outgoing, signal } = context;
  if (signal.aborted) {
    await response.body?.cancel(signal.reason).catch(() => {});
    return;
  }
  let withBody: boolean;
  try {
    withBody = writeHead(response, method, outgoing, close);
  } catch (error) {
    // A head Node refuses (a status out of its range, a header it cannot send): the listener answers 500 instead.
    await response.body?.cancel().catch(() => {});
    throw error;
  }
  if (!withBody) await response.body?.cancel().catch(() => {});
  else if (!(await writeBody(response.body as ReadableStream<Uint8Array>, context))) return;
  // A response whose client left is never ended: Node would not call back, nor emit `finish`, on a dead socket.
  if (signal.aborted) return;
  await flushed(context, 'finish', () => (outgoing.end(), outgoing.writableFinished));
}

/** Sets the status and headers of `response` on `outgoing`, and sends them when a body follows; whether one does. */
function writeHead(response: Response, method: string, outgoing: NodeServerResponse, close: boolean): boolean {
  outgoing.statusCode = response.status;
  if (response.statusText !== '') outgoing.statusMessage = response.statusText;
  for (const [name, value] of response.headers) if (name !== 'set-cookie') outgoing.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) outgoing.setHeader('set-cookie', cookies);
  if (close) outgoing.setHeader('connection', 'close');
  const withBody = response.body !== null && method !== 'HEAD' && !NO_BODY_STATUSES.has(response.status);
  if (withBody) outgoing.flushHeaders();
  return withBody;
}

/**
 * Streams `body` to the client; true when it ended, false when the client left (not a failure: nothing to report).
 * Throws what failed otherwise, the body cancelled with it so its source is released.
 */
async function writeBody(body: ReadableStream<Uint8Array>, context: WriteContext): Promise<boolean> {
  const { outgoing, signal } = context;
  const reader = body.getReader();
  const cancel = () => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const chunk = await reader.read();
      // Checked first: the cancel of a client that left resolves the pending read as `done`, which is no end.
      if (signal.aborted) return false;
      if (chunk.done) return true;
      // Node would write a string as UTF-8, not bytes: a handler's stream that yields one is broken, not skipped.
      if (!(chunk.value instanceof Uint8Array)) throw new StreamError(`The response body yielded a chunk that is not a Uint8Array (${typeof chunk.value === 'string' ? 'a string' : refusedValue(chunk.value)}): the answer was cut.`, { reason: 'malformed_chunk', afterOutput: true });
      for (let offset = 0; offset < chunk.value.byteLength && !signal.aborted; offset += WRITE_SLICE) {
        const slice = chunk.value.subarray(offset, offset + WRITE_SLICE);
        await flushed(context, 'drain', () => outgoing.write(slice));
      }
    }
  } catch (error) {
    if (signal.aborted) return false;
    void reader.cancel(error).catch(() => {});
    throw error;
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

/**
 * Calls `write` (a `write` or an `end`, saying whether Node took it all) and, unless it did, waits for `event` —
 * `drain` or `finish` — or the response's close, or the client's leaving (`signal`), at most `stallMs`: a client that
 * takes none of it for that long stopped reading, and is given up with a `StreamError` (`buffer_full`) rather than
 * holding the answer, the handler's stream and the connection. A pipelined answer queued behind the one before it
 * (no socket yet) is not the client's to take: its clock starts once Node gives it the connection (`socket`).
 */
function flushed(context: WriteContext, event: 'drain' | 'finish', write: () => boolean): Promise<void> {
  const { outgoing, signal, stallMs } = context;
  if (write()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      clearTimeout(timer);
      outgoing.off(event, done);
      outgoing.off('close', done);
      outgoing.off('socket', arm);
      signal.removeEventListener('abort', done);
    };
    const done = () => {
      stop();
      resolve();
    };
    function arm() {
      timer = startTimer(() => {
        stop();
        const what = event === 'drain' ? 'a write of the answer' : 'the end of the answer';
        reject(new StreamError(`The client did not take ${what} within ${stallMs} ms (writeStallMs): it stopped reading, so the answer was given up and the connection closed.`, { reason: 'buffer_full', afterOutput: true }));
      }, stallMs);
    }
    if (outgoing.socket === null) outgoing.once('socket', arm);
    else arm();
    // All are emitted on a later tick than the write that makes them due: listening after the write misses none.
    outgoing.once(event, done);
    outgoing.once('close', done);
    signal.addEventListener('abort', done, { once: true });
    if (signal.aborted) done();
  });
}
