/**
 * @internal Reads a run into SSE frames through a pull-based byte stream: the run is read only when the reader wants
 * more (backpressure reaches the run), every frame is redacted on its way out, and the stream always ends with its
 * ending chunk and `data: [DONE]` — after the run's own ending, after the run stream broke or ended early, after an
 * encoding bug, after `signal` aborted (at once, even while the run has not answered a read), after a reader that
 * stopped reading left more than `maxBufferedBytes` untaken. A reader that cancels cancels the run (an agent run is
 * aborted: its tools and timers stop).
 */
import { AgentError } from '../errors/agent-error.js';
import { StreamError } from '../errors/stream-error.js';
import { startTimer, watchAbort } from '../internal/delay.js';
import { messageOf } from '../internal/error-chain.js';
import { abortText } from './abort-text.js';
import { ChunkWriter } from './chunk-writer.js';
import { FrameRedactor } from './frame-redactor.js';
import type { ResolvedUIOptions } from './ui-message-stream-options.js';

/** What turns a run's values into chunks (one per kind of run). */
export interface RunEncoder {
  item(value: unknown): void;
  /** The run stream ended: write the ending if the run gave none. */
  end(): void;
}

/** Bytes of frames read ahead of the reader. */
const READ_AHEAD = 16_384;
/**
 * How long more than `maxBufferedBytes` may wait with the reader taking none of it before the run is given up: the
 * only way to tell a reader that stopped from one between two reads (the frames of one item of the run, a large tool
 * output, can land ahead of either).
 */
export const STALL_MS = 10_000;
const DONE = 'data: [DONE]\n\n';

export class StreamPump {
  readonly stream: ReadableStream<Uint8Array>;
  private readonly writer: ChunkWriter;
  private readonly redactor: FrameRedactor;
  private readonly bytes = new TextEncoder();
  private reader: ReadableStreamDefaultReader<unknown> | undefined;
  private iterator: AsyncIterator<unknown> | undefined;
  private encoder: RunEncoder | undefined;
  private released = false;
  private cancelled = false;
  // Declared only (no field definitions to bundle):
  /** Gives up the read of the run in flight (set only while one is): a run that never answers holds nothing up. */
  declare private giveUp: ((reason: unknown) => void) | undefined;
  /** Stops watching `signal` (one listener per signal, however many streams watch it). */
  declare private readonly unwatch: () => void;
  /** The grace of frames past the bound (armed only while they wait). */
  declare private stall: ReturnType<typeof setTimeout> | undefined;

  constructor(
    run: ReadableStream<unknown> | AsyncIterable<unknown>,
    private readonly settings: ResolvedUIOptions,
    private readonly encoderFor: (first: unknown, writer: ChunkWriter) => RunEncoder,
  ) {
    this.redactor = new FrameRedactor(settings.secrets);
    this.writer = new ChunkWriter(settings, this.redactor);
    if (run instanceof ReadableStream) this.reader = run.getReader();
    else this.iterator = run[Symbol.asyncIterator]();
    const signal = settings.signal;
    this.unwatch = signal ? watchAbort(signal, () => this.release(signal.reason)) : () => {};
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: () => this.writer.start(),
        pull: (controller) => this.pull(controller),
        cancel: (reason) => {
          this.cancelled = true;
          this.release(reason);
        },
      },
      { highWaterMark: Math.min(READ_AHEAD, settings.maxBufferedBytes), size: (chunk) => chunk.byteLength },
    );
  }

  private async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    clearTimeout(this.stall); // a pull means the reader made room: whatever outgrew the bound was taken
    const writer = this.writer;
    const signal = this.settings.signal;
    try {
      while (writer.chunks.length === 0 && !writer.ended && !signal?.aborted) {
        const next = await this.read();
        if (signal?.aborted) break;
        if (next.done) {
          if (this.encoder) this.encoder.end();
          else writer.fail(writer.errors.fromError(new StreamError('The run stream ended before its first item', { reason: 'incomplete' }), { scope: 'run' }));
          break;
        }
        this.encoder ??= this.encoderFor(next.value, writer);
        this.encode(next.value);
      }
    } catch (error) {
      // The read failed, or the abort gave it up (the run may never answer it).
      if (!signal?.aborted) writer.fail(writer.errors.fromError(new StreamError(`Reading the run failed: ${messageOf(error)}`, { reason: 'read_failed', cause: error }), { scope: 'run' }));
    }
    if (signal?.aborted) writer.abort(abortText(signal.reason)); // nothing once the stream has its ending
    this.flush(controller);
  }

  /** One value of the run; an encoding bug ends the stream as a failure, never a broken stream. */
  private encode(value: unknown): void {
    try {
      (this.encoder as RunEncoder).item(value);
    } catch (error) {
      this.writer.fail(this.writer.errors.fromError(new AgentError(`The UI message stream could not encode an item of the run: ${messageOf(error)}`, { cause: error }), { scope: 'run' }));
    }
  }

  /**
   * The run's next value, or the reason it was released first: the read's own outcome is then ignored (handled: a
   * rejection that comes later is no unhandled one), and forgotten once it settles (no value is kept alive).
   */
  private read(): Promise<IteratorResult<unknown>> {
    if (this.released) return Promise.resolve({ done: true, value: undefined });
    const read = this.reader ? this.reader.read() : (this.iterator as AsyncIterator<unknown>).next();
    const givenUp = new Promise<never>((_resolve, reject) => (this.giveUp = reject));
    return Promise.race([read, givenUp]).finally(() => (this.giveUp = undefined));
  }

  /**
   * Writes out the pending chunks and ends the stream after its ending. A reader that is reading takes every frame,
   * whatever its size; frames that outgrow the bound are given {@link STALL_MS} to be taken, since a large one read
   * ahead lands between two reads as it does before a reader that stopped.
   */
  private flush(controller: ReadableStreamDefaultController<Uint8Array>): void {
    if (this.cancelled) return;
    this.enqueue(controller);
    if (this.writer.ended) {
      controller.close();
      this.release(undefined);
      return;
    }
    const queued = Math.min(READ_AHEAD, this.settings.maxBufferedBytes) - (controller.desiredSize ?? 0);
    if (queued > this.settings.maxBufferedBytes) this.stall = startTimer(() => this.overflow(controller, queued), STALL_MS);
  }

  /**
   * The reader took none of what outgrew the bound for {@link STALL_MS}: it stopped reading. The run is stopped, the
   * stream ends. (The reader's next take calls `pull` at once, which disarms this; so does `release`.)
   */
  private overflow(controller: ReadableStreamDefaultController<Uint8Array>, queued: number): void {
    const max = this.settings.maxBufferedBytes;
    const overflow = new StreamError(
      `The UI message stream held ${queued} bytes its reader did not take for ${STALL_MS} ms, more than maxBufferedBytes (${max}); the run was stopped. Read the stream faster, or raise maxBufferedBytes for runs with large tool outputs.`,
      { reason: 'buffer_full' },
    );
    this.release(overflow);
    this.writer.fail(this.writer.errors.fromError(overflow, { scope: 'run' }));
    this.enqueue(controller);
    controller.close();
  }

  private enqueue(controller: ReadableStreamDefaultController<Uint8Array>): void {
    const chunks = this.writer.chunks;
    this.writer.chunks = [];
    let text = '';
    for (const chunk of chunks) text += `data: ${JSON.stringify(this.redactor.value(chunk))}\n\n`;
    if (this.writer.ended) text += DONE;
    if (text !== '') controller.enqueue(this.bytes.encode(text));
  }

  /**
   * Stops reading the run (cancelling it: an agent run is aborted) and forgets the signal. Once. A read in flight is
   * given up at once: an iterator's `return()` waits behind its pending `next()`, which may never settle.
   */
  private release(reason: unknown): void {
    if (this.released) return;
    this.released = true;
    this.unwatch();
    clearTimeout(this.stall);
    this.giveUp?.(reason);
    // Not awaited: an iterator's return() waits behind a pending next(). A cancel that throws or rejects is ignored.
    void (async () => (this.reader ? this.reader.cancel(reason) : this.iterator?.return?.(reason)))().catch(() => {});
  }
}
