/**
 * @internal Reads a run into SSE frames through a pull-based byte stream: the run is read only when the reader wants
 * more (backpressure reaches the run), every frame is redacted on its way out, and the stream always ends with its
 * ending chunk and `data: [DONE]` — after the run's own ending, after the run stream broke or ended early, after an
 * encoding bug, after `signal` aborted, after the frames outgrew `maxBufferedBytes`. A reader that cancels cancels the
 * run (an agent run is aborted: its tools and timers stop).
 */
import { AgentError } from '../errors/agent-error.js';
import { StreamError } from '../errors/stream-error.js';
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
  private readonly onAbort: () => void;

  constructor(
    run: ReadableStream<unknown> | AsyncIterable<unknown>,
    private readonly settings: ResolvedUIOptions,
    private readonly encoderFor: (first: unknown, writer: ChunkWriter) => RunEncoder,
  ) {
    this.redactor = new FrameRedactor(settings.secrets);
    this.writer = new ChunkWriter(settings, this.redactor);
    if (run instanceof ReadableStream) this.reader = run.getReader();
    else this.iterator = run[Symbol.asyncIterator]();
    this.onAbort = () => this.release(settings.signal?.reason);
    settings.signal?.addEventListener('abort', this.onAbort, { once: true });
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
    const writer = this.writer;
    try {
      while (writer.chunks.length === 0 && !writer.ended) {
        if (this.settings.signal?.aborted) {
          writer.abort(abortText(this.settings.signal.reason));
          break;
        }
        const next = await this.read();
        if (this.settings.signal?.aborted) continue;
        if (next.done) {
          if (this.encoder) this.encoder.end();
          else writer.fail(writer.errors.fromError(new StreamError('The run stream ended before its first item', { reason: 'incomplete' }), { scope: 'run' }));
          break;
        }
        this.encoder ??= this.encoderFor(next.value, writer);
        this.encode(next.value);
      }
    } catch (error) {
      writer.fail(writer.errors.fromError(new StreamError(`Reading the run failed: ${messageOf(error)}`, { reason: 'read_failed', cause: error }), { scope: 'run' }));
    }
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

  private read(): Promise<IteratorResult<unknown>> {
    if (this.released) return Promise.resolve({ done: true, value: undefined });
    return this.reader ? this.reader.read() : (this.iterator as AsyncIterator<unknown>).next();
  }

  /** Writes out the pending chunks; ends the stream after its ending, or when the frames outgrew the bound. */
  private flush(controller: ReadableStreamDefaultController<Uint8Array>): void {
    if (this.cancelled) return;
    const writer = this.writer;
    this.enqueue(controller);
    const queued = Math.min(READ_AHEAD, this.settings.maxBufferedBytes) - (controller.desiredSize ?? 0);
    if (!writer.ended && queued > this.settings.maxBufferedBytes) {
      const overflow = new StreamError(
        `The UI message stream held ${queued} bytes for its reader, more than maxBufferedBytes (${this.settings.maxBufferedBytes}); the run was stopped. Read the stream faster, or raise maxBufferedBytes for runs with large tool outputs.`,
        { reason: 'buffer_full' },
      );
      this.release(overflow);
      writer.fail(writer.errors.fromError(overflow, { scope: 'run' }));
      this.enqueue(controller);
    }
    if (writer.ended) {
      controller.close();
      this.release(undefined);
    }
  }

  private enqueue(controller: ReadableStreamDefaultController<Uint8Array>): void {
    const chunks = this.writer.chunks;
    this.writer.chunks = [];
    let text = '';
    for (const chunk of chunks) text += `data: ${JSON.stringify(this.redactor.value(chunk))}\n\n`;
    if (this.writer.ended) text += DONE;
    if (text !== '') controller.enqueue(this.bytes.encode(text));
  }

  /** Stops reading the run (cancelling it: an agent run is aborted) and forgets the signal. Once. */
  private release(reason: unknown): void {
    if (this.released) return;
    this.released = true;
    this.settings.signal?.removeEventListener('abort', this.onAbort);
    if (this.reader) this.reader.cancel(reason).catch(() => {});
    else void Promise.resolve(this.iterator?.return?.(reason)).catch(() => {});
  }
}
