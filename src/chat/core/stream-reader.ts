/**
 * Reads a streamed answer in batches of chunks, for every provider: the provider's decoder turns bytes into chunks,
 * this reader owns the attempt's timers around it. Only progress — an SSE event (a `ping` included) — re-arms the
 * idle limit; comments, blank lines and parts of a line mark the attempt as having sent bytes but no event, which is
 * what a timeout then says. Reading stops at the answer's final event: the body is cancelled there, so a peer that
 * keeps the connection open after it cannot turn a complete answer into a timeout.
 *
 * One plain read loop, no promise per read around `reader.read()`: the reader asks the attempt once to be told of its
 * abort (`whenAborted`), and when the attempt aborts (a limit, the caller) it cancels the body, which ends the pending
 * read at once; the reader then raises the abort's reason. A read that settled before the abort still
 * delivers its bytes (as a race per read would), and nothing is held per read.
 *
 * Bytes that are already there are one batch: after a read that decoded chunks, the reader asks for the next read
 * and, when it has settled by the next microtask (its bytes were waiting in the body's queue), decodes it into the
 * same batch, up to {@link MAX_READS_PER_BATCH} reads; otherwise the batch is returned at once and that read is the
 * first of the next batch. So no chunk waits for bytes that are not there yet, and a consumer reading faster than
 * the network sees the same batches as before, while one that fell behind pays the per-batch costs (the call's
 * generator, the caller's stream pulling) once per burst instead of once per read. The chunks are those of each read,
 * in order (deltas are joined within a read, as before, not across reads). A failure met after chunks of the batch
 * waits for the next call, as the decoders hold theirs: the chunks decoded before it are never lost.
 *
 * The idle limit measures the provider, not the consumer: it runs only while a read of the body is pending. Once a
 * batch is returned and no read is pending (or the read asked for ahead settles while the consumer still holds the
 * batch) its deadline is taken off the attempt's deadlines — no timer is cleared or armed — and the next call
 * puts it back, `idleMs` from then, as an event does. So a consumer slower than `idleMs` (a UI stream's backpressure, a
 * tool run between chunks) never turns bytes that had all arrived into an idle timeout blaming the provider, while a
 * provider that goes silent while the reader waits still times out. The first-chunk and total limits are unchanged.
 */
import { MAX_STREAM_BYTES, type Attempt } from './attempt.js';
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

/** Most network reads decoded into one batch while their bytes are already waiting. */
export const MAX_READS_PER_BATCH = 32;

/** Batches of chunks from one attempt's body; `undefined` at the end. */
export class StreamReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly signal: AbortSignal;
  private finished = false;
  private ended = false;
  /** A read asked for ahead of the consumer, not yet taken: the next batch starts with it. */
  private ahead: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  /** Bytes of the body read so far: bounded by `MAX_STREAM_BYTES`. */
  private received = 0;
  /** How the read ahead settled, once it has (set by its reactions): `pending`, `fulfilled` or `rejected`. */
  private settled: 'pending' | 'fulfilled' | 'rejected' = 'pending';
  /** Its result, or its failure. */
  private outcome: unknown;
  /**
   * The consumer holds a batch: the idle limit pauses when no read is pending (at once, or when the read asked for
   * ahead settles). `paused`: its deadline is off the attempt's deadlines until the next call puts it back.
   */
  private holding = false;
  private paused = false;
  private readonly fulfilled = (result: ReadableStreamReadResult<Uint8Array>): void => {
    this.settled = 'fulfilled';
    this.outcome = result;
    if (this.holding) this.pauseIdle();
  };
  private readonly rejected = (error: unknown): void => {
    this.settled = 'rejected';
    this.outcome = error;
    if (this.holding) this.pauseIdle();
  };
  /** A failure met after chunks of a batch: raised by the next call (`{ error }` keeps an `undefined` reason). */
  private failed: { error: unknown } | undefined;

  constructor(
    private readonly attempt: Attempt,
    body: ReadableStream<Uint8Array>,
    private readonly decoder: StreamDecoder,
    private readonly requestId: string | undefined,
  ) {
    this.reader = body.getReader();
    this.signal = attempt.controller.signal;
    // The attempt's abort ends a pending read (a cancelled stream resolves its reads as done) and releases the body.
    attempt.whenAborted((reason) => {
      this.reader.cancel(reason).catch(() => {});
    });
  }

  /** The next non-empty batch, or `undefined` at the end. */
  async next(): Promise<ChatChunk[] | undefined> {
    this.holding = false;
    if (this.paused) this.resumeIdle();
    if (this.failed !== undefined) {
      const { error } = this.failed;
      this.failed = undefined;
      throw error;
    }
    let batch: ChatChunk[] | undefined;
    let reads = 0;
    while (!this.finished) {
      try {
        this.decoder.throwIfPending();
      } catch (error) {
        this.stop();
        if (batch !== undefined) return this.deliver(batch, error);
        throw error;
      }
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        if (this.signal.aborted) throw this.signal.reason;
        if (batch === undefined) {
          const read = this.ahead ?? this.reader.read();
          this.ahead = undefined;
          result = await read;
          this.outcome = undefined; // a read ahead's reaction ran before this (registered first): drop its bytes
        } else {
          // Chunks are waiting: decode more only if its bytes are there already (settled by the next microtask).
          if (reads >= MAX_READS_PER_BATCH) return this.stamp(batch);
          const read = this.reader.read();
          this.settled = 'pending';
          read.then(this.fulfilled, this.rejected);
          await undefined;
          const settled = this.settled as 'pending' | 'fulfilled' | 'rejected';
          if (settled === 'pending') {
            this.ahead = read;
            return this.stamp(batch);
          }
          const outcome = this.outcome;
          this.outcome = undefined;
          if (settled === 'rejected') throw outcome;
          result = outcome as ReadableStreamReadResult<Uint8Array>;
        }
      } catch (error) {
        this.stop();
        const failure = this.attempt.failure(error, 'read');
        if (batch !== undefined) return this.deliver(batch, failure);
        throw failure;
      }
      reads++;
      if (result.done) {
        if (this.signal.aborted) {
          // The abort cancelled the body: its reason, never a clean end.
          this.stop();
          const failure = this.attempt.failure(this.signal.reason, 'read');
          if (batch !== undefined) return this.deliver(batch, failure);
          throw failure;
        }
        this.finished = true;
        this.ended = true;
        this.attempt.close();
        let last: ChatChunk[];
        try {
          last = this.decoder.end();
        } catch (error) {
          if (batch !== undefined) return this.deliver(batch, error);
          throw error;
        }
        batch = batch === undefined ? last : append(batch, last);
        return batch.length > 0 ? this.stamp(batch) : undefined;
      }
      this.received += result.value.byteLength;
      if (this.received > MAX_STREAM_BYTES) {
        this.stop();
        const failure = this.attempt.streamTooLarge();
        if (batch !== undefined) return this.deliver(batch, failure);
        throw failure;
      }
      const events = this.decoder.events;
      let decoded: ChatChunk[];
      try {
        decoded = this.decoder.push(result.value);
      } catch (error) {
        this.stop();
        if (batch !== undefined) return this.deliver(batch, error);
        throw error;
      }
      if (this.decoder.events > events) this.attempt.arm('idle');
      else this.attempt.partial = true;
      if (decoded.length > 0) batch = batch === undefined ? decoded : append(batch, decoded);
      if (this.decoder.done) {
        // The answer is complete: a peer that keeps the connection open (pings, comments, silence) holds nothing.
        this.stop();
        this.ended = true;
        return batch !== undefined && batch.length > 0 ? this.stamp(batch) : undefined;
      }
    }
    if (batch !== undefined) return this.stamp(batch);
    if (this.ended) this.decoder.throwIfPending(); // a failure decoded with the body's last chunks
    return undefined;
  }

  /** Returns `batch` now and keeps `error` for the next call: the chunks decoded before a failure come first. */
  private deliver(batch: ChatChunk[], error: unknown): ChatChunk[] {
    this.failed = { error };
    return this.stamp(batch);
  }

  /**
   * The answer's request id on its finish chunk (the last of a batch: decoders ignore everything after it). Every
   * batch goes out here: the consumer holds it from now, and the idle limit pauses unless a read is pending.
   */
  private stamp(batch: ChatChunk[]): ChatChunk[] {
    const last = batch[batch.length - 1];
    if (this.requestId !== undefined && last?.type === 'finish') last.requestId = this.requestId;
    if (!this.finished) {
      if (this.ahead === undefined || this.settled !== 'pending') this.pauseIdle();
      else this.holding = true;
    }
    return batch;
  }

  /** Pauses the attempt's idle limit: the consumer holds a batch (see {@link Attempt.pauseIdle}). */
  private pauseIdle(): void {
    this.holding = false;
    if (this.attempt.pauseIdle()) this.paused = true;
  }

  /** Puts the idle limit back, `idleMs` from now, as an event does. */
  private resumeIdle(): void {
    this.paused = false;
    this.attempt.resumeIdle();
  }

  /** Stops reading: the attempt's timers end and the body is cancelled (releasing the connection). */
  stop(): void {
    this.finished = true;
    this.ahead = undefined;
    this.attempt.close();
    this.reader.cancel().catch(() => {});
  }
}

/** `more` appended to `batch` (each read's chunks as the decoder made them: deltas are joined within a read only). */
function append(batch: ChatChunk[], more: readonly ChatChunk[]): ChatChunk[] {
  for (const chunk of more) batch.push(chunk);
  return batch;
}
