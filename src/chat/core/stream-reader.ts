/**
 * Reads a streamed answer in batches of chunks, for every provider: the provider's decoder turns bytes into chunks,
 * this reader owns the attempt's timers around it. Only progress — an SSE event (a `ping` included) — re-arms the
 * idle limit; comments, blank lines and parts of a line mark the attempt as having sent bytes but no event, which is
 * what a timeout then says. Reading stops at the answer's final event: the body is cancelled there, so a peer that
 * keeps the connection open after it cannot turn a complete answer into a timeout.
 *
 * One plain read loop, no promise per read around `reader.read()`: the reader races one promise that never settles
 * against the attempt, once, and when the attempt aborts (a limit, the caller) that race cancels the body, which ends
 * the pending read at once; the reader then raises the abort's reason. A read that settled before the abort still
 * delivers its bytes (as a race per read would), and nothing is held per read.
 */
import type { Attempt } from './attempt.js';
import type { ChatChunk } from './types.js';

/** What a provider's stream decoder offers the reader. */
export interface StreamDecoder {
  /** SSE events dispatched so far: the stream's progress. */
  readonly events: number;
  /** Feeds network bytes; returns the chunks they completed (possibly none). */
  push(bytes: Uint8Array): ChatChunk[];
  /** The body ended: the final chunks, or a typed failure when the model never finished. */
  end(): ChatChunk[];
  /** Raises a failure held back so that the chunks decoded before it are delivered first. */
  throwIfPending(): void;
  /** True once the answer's final event arrived: whatever the connection still sends is not read. */
  readonly done: boolean;
}

/** Batches of chunks from one attempt's body; `undefined` at the end. */
export class StreamReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly signal: AbortSignal;
  private finished = false;
  private ended = false;

  constructor(
    private readonly attempt: Attempt,
    body: ReadableStream<Uint8Array>,
    private readonly decoder: StreamDecoder,
    private readonly requestId: string | undefined,
  ) {
    this.reader = body.getReader();
    this.signal = attempt.controller.signal;
    // The attempt's abort ends a pending read (a cancelled stream resolves its reads as done) and releases the body.
    attempt.race(new Promise<never>(() => {})).catch((reason: unknown) => {
      this.reader.cancel(reason).catch(() => {});
    });
  }

  /** The next non-empty batch, or `undefined` at the end. */
  async next(): Promise<ChatChunk[] | undefined> {
    while (!this.finished) {
      try {
        this.decoder.throwIfPending();
      } catch (error) {
        this.stop();
        throw error;
      }
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        if (this.signal.aborted) throw this.signal.reason;
        result = await this.reader.read();
      } catch (error) {
        this.stop();
        throw this.attempt.failure(error, 'read');
      }
      if (result.done) {
        if (this.signal.aborted) {
          // The abort cancelled the body: its reason, never a clean end.
          this.stop();
          throw this.attempt.failure(this.signal.reason, 'read');
        }
        this.finished = true;
        this.ended = true;
        this.attempt.close();
        const last = this.decoder.end();
        return last.length > 0 ? this.stamp(last) : undefined;
      }
      const events = this.decoder.events;
      let batch: ChatChunk[];
      try {
        batch = this.decoder.push(result.value);
      } catch (error) {
        this.stop();
        throw error;
      }
      if (this.decoder.events > events) this.attempt.arm('idle');
      else this.attempt.partial = true;
      if (this.decoder.done) {
        // The answer is complete: a peer that keeps the connection open (pings, comments, silence) holds nothing.
        this.stop();
        this.ended = true;
        return batch.length > 0 ? this.stamp(batch) : undefined;
      }
      if (batch.length > 0) return this.stamp(batch);
    }
    if (this.ended) this.decoder.throwIfPending(); // a failure decoded with the body's last chunks
    return undefined;
  }

  /** The answer's request id on its finish chunk (the last of a batch: decoders ignore everything after it). */
  private stamp(batch: ChatChunk[]): ChatChunk[] {
    const last = batch[batch.length - 1];
    if (this.requestId !== undefined && last?.type === 'finish') last.requestId = this.requestId;
    return batch;
  }

  /** Stops reading: the attempt's timers end and the body is cancelled (releasing the connection). */
  stop(): void {
    this.finished = true;
    this.attempt.close();
    this.reader.cancel().catch(() => {});
  }
}
