import type { NodeIncomingRequest } from './node-types.js';

/** A request body read from a Node request's chunks, and whether all of it was read. */
export interface RequestBody {
  readonly stream: ReadableStream<Uint8Array>;
  /** True once the request's `end` came: every byte of the body was read. */
  readonly ended: () => boolean;
  /** Stops feeding the stream and lets the rest of the body (already arrived) drain away. */
  readonly discard: () => void;
}

/**
 * The chunks of `request` as a web stream, pulled with backpressure (the request is paused while the stream is
 * full). A cancel only stops reading: the connection is the listener's to close, after its response.
 */
export function requestBody(request: NodeIncomingRequest): RequestBody {
  let ended = false;
  let done = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        request.on('data', (chunk) => {
          if (done) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) request.pause();
        });
        request.on('end', () => {
          ended = true;
          if (done) return;
          done = true;
          controller.close();
        });
        request.on('error', (error) => {
          if (done) return;
          done = true;
          controller.error(error);
        });
        request.pause();
      },
      pull() {
        request.resume();
      },
      cancel() {
        done = true;
        request.pause();
      },
    },
    { highWaterMark: 65_536, size: (chunk) => chunk.byteLength },
  );
  const discard = () => {
    done = true;
    request.resume();
  };
  return { stream, ended: () => ended, discard };
}
