/**
 * @internal The frame of a provider's stream decoder whose events are JSON objects (Anthropic Messages, OpenAI
 * Responses): bytes in through the bounded SSE parser, batches of chunks out, progress counted in events, and the
 * rule that output decoded before a failure in the same bytes is returned first, the failure raised on the next call.
 * A provider writes `event()` (one parsed JSON object) and says when its answer is `finished`; it may also read its
 * most frequent frames without `JSON.parse` (`frame()`), when it can tell exactly that `JSON.parse` would read the same.
 */
import { ChatClientError } from '../../errors/chat-client-error.js';
import { StreamError } from '../../errors/stream-error.js';
import { truncate } from '../../internal/json.js';
import { redactError, redactText } from '../../internal/redact.js';
import { DEFAULT_MAX_EVENT_LENGTH, SSEDataParser } from '../../wire/sse-decoder.js';
import { detachDeltas } from './frame-template.js';
import { codeClass } from './provider-error-codes.js';
import { decodingFailure } from './decoding-failure.js';
import { describeRemote } from './remote-value.js';
import type { StreamDecoder } from './stream-reader.js';
import type { ChatChunk } from './types.js';

/**
 * A field of a value `JSON.parse` made, or `undefined` when the value is no object. Such values are plain data (no
 * getters, no proxies), so the guarded read of `internal/error-chain.ts` is not needed on the hot path.
 */
export function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** True for a JSON object `JSON.parse` made: an object that is not an array (its prototype is always `Object.prototype`). */
export function isJSONObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a provider's field holds when it is there (neither absent nor null): `s` a string, `o` a JSON object, `a` an array. */
export type FieldKind = 's' | 'o' | 'a';

const KINDS: Record<FieldKind, string> = { s: 'a string', o: 'an object', a: 'an array' };

/**
 * The first field of `value` that is there with a value of another JSON type than `shape` gives it, said for a
 * `malformed_chunk` (`tool_calls as an object where an array belongs`); `undefined` when each one is of its type. A
 * field of the wrong type is never read as absent: the answer would be quieter than the one the provider sent.
 */
export function misfit(value: unknown, shape: Readonly<Record<string, FieldKind>>): string | undefined {
  for (const key in shape) {
    const given = field(value, key);
    const kind = shape[key] as FieldKind;
    if (given === undefined || given === null || (kind === 's' ? typeof given === 'string' : kind === 'a' ? Array.isArray(given) : isJSONObject(given))) continue;
    return `${key} as ${Array.isArray(given) ? 'an array' : typeof given === 'object' ? 'an object' : `a ${typeof given}`} where ${KINDS[kind]} belongs`;
  }
  return undefined;
}

/** What every JSON-event decoder needs. */
export interface EventDecoderOptions {
  maxLineLength?: number | undefined;
  /** Secrets to remove from excerpts in errors. */
  secrets: readonly string[];
  /** For errors: e.g. `Anthropic API (api.anthropic.com)`. */
  label: string;
  model: string;
  /** The request id of the answer, for errors. */
  requestId?: string | undefined;
  attempt: number;
}

/** The shared frame of the Anthropic and Responses stream decoders (see the module's summary). */
export abstract class EventDecoder implements StreamDecoder {
  private readonly parser: SSEDataParser;
  private readonly textDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
  protected out: ChatChunk[] = [];
  /** True once any chunk left this decoder: a provider error is then after output. */
  protected emitted = false;
  /** Set by the provider when its answer is complete: later events are ignored, and the end is clean. */
  protected finished = false;
  private pending: { error: unknown } | undefined;
  private dispatched = 0;

  constructor(protected readonly options: EventDecoderOptions) {
    this.parser = new SSEDataParser((type, data) => {
      this.dispatched++;
      if (!this.finished) this.json(type, data);
    }, { maxLineLength: options.maxLineLength, maxEventLength: eventBound(options.maxLineLength) });
  }

  /** SSE events dispatched so far: the stream's progress (comments, blank lines and parts of a line are not events). */
  get events(): number {
    return this.dispatched;
  }

  /** True once the answer's final event arrived. */
  get done(): boolean {
    return this.finished && this.pending === undefined;
  }

  /** One event's JSON object; `raw` is its data, for excerpts. */
  protected abstract event(type: string, data: Record<string, unknown>, raw: string): void;

  /**
   * A frame the provider reads without `JSON.parse` (its most frequent ones, in the exact form the API sends them);
   * `false` leaves it to `JSON.parse` and {@link event}, which must then decide it exactly as this would have. The
   * text it reads may be views of the network read: the batch's deltas are copied once when it is returned
   * (`detachDeltas`), and whatever a provider keeps past its batch it keeps `detached`.
   */
  protected frame?(raw: string): boolean;

  /**
   * Called after the full path decoded a frame {@link frame} did not take (`data` is its parsed value, which
   * {@link event} has applied): where a provider learns its frame templates (`frame-template.ts`).
   */
  protected learn?(raw: string, data: Record<string, unknown>): void;

  /** The failure of a body that ended before the answer was complete. */
  protected abstract unfinished(): StreamError;

  /** Feeds network bytes; returns the chunks they completed (possibly none). */
  push(bytes: Uint8Array): ChatChunk[] {
    this.throwIfPending();
    this.out = [];
    try {
      this.parser.feed(this.textDecoder.decode(bytes, { stream: true }));
    } catch (error) {
      this.hold(error);
    }
    this.close();
    return this.out;
  }

  /** Raises a failure held back by {@link push} (call it before waiting for more bytes). */
  throwIfPending(): void {
    if (this.pending) throw this.pending.error;
  }

  /** The body ended: the final chunks, or the provider's `incomplete` failure when the answer never finished. */
  end(): ChatChunk[] {
    this.throwIfPending();
    this.out = [];
    try {
      this.parser.feed(this.textDecoder.decode());
      this.parser.end();
      if (!this.finished) throw this.unfinished();
    } catch (error) {
      this.hold(error);
    }
    this.close();
    return this.out;
  }

  /** The batch is complete: its deltas become strings of their own (`detachDeltas`), and output has left. */
  private close(): void {
    if (this.out.length === 0) return;
    this.emitted = true;
    detachDeltas(this.out);
  }

  /** True while nothing has left the decoder and nothing is waiting in this batch. */
  protected get beforeOutput(): boolean {
    return !this.emitted && this.out.length === 0;
  }

  /** Consecutive deltas of one kind decoded from one network read become one chunk. */
  protected textDelta(type: 'text-delta' | 'reasoning-delta', delta: string): void {
    const last = this.out[this.out.length - 1];
    if (last?.type === type) last.delta += delta;
    else this.out.push({ type, delta });
  }

  /** Appends to the last chunk when it is the same call's arguments delta. */
  protected argumentsDelta(index: number, id: string, part: string): void {
    const last = this.out[this.out.length - 1];
    if (last?.type === 'tool-call-delta' && last.id === id) last.argumentsDelta += part;
    else this.out.push({ type: 'tool-call-delta', index, id, argumentsDelta: part });
  }

  /**
   * `data[key]` when it is an index — a non-negative safe integer (past 2^53 two indexes read as one) — else the typed
   * error saying what came instead: `a content_block_stop without index`, `… with an invalid output_index -1`.
   */
  protected index(data: Record<string, unknown>, key: string, type: string, raw: string): number {
    const value = data[key];
    if (Number.isSafeInteger(value) && (value as number) >= 0) return value as number;
    const said = value === undefined ? `without ${key}` : `with an invalid ${key} ${describeRemote(value, this.options.secrets)}`;
    throw this.malformed(`a ${type} ${said}`, raw);
  }

  protected malformed(what: string, raw: string, cause?: unknown): StreamError {
    const chunk = this.excerpt(raw);
    return new StreamError(`The ${this.options.label} stream sent ${what}: ${chunk}`, { reason: 'malformed_chunk', chunk, cause: redactError(cause, this.options.secrets) }); // V8 quotes the frame's start
  }

  /** Remote text that reaches chunks, events and errors: redacted and bounded. */
  protected excerpt(text: string, length = 200): string {
    return truncate(redactText(text, this.options.secrets), length);
  }

  /**
   * A failure of a decoding step: raised now when the step decoded nothing, else held back so that the chunks decoded
   * before it are returned first (output that arrived before an error is never lost). One that is no faultline error
   * is a `malformed_chunk` (`decoding-failure.ts`).
   */
  private hold(error: unknown): void {
    const failure = decodingFailure(error, this.options.label, this.options.secrets);
    if (this.out.length === 0) throw failure;
    this.pending = { error: failure };
  }

  private json(eventType: string, raw: string): void {
    if (this.frame?.(raw) === true) return;
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch (error) {
      throw this.malformed('an event that is not JSON', raw, error);
    }
    if (!isJSONObject(data)) throw this.malformed('an event that is not a JSON object', raw);
    const type = data.type;
    this.event(typeof type === 'string' ? type : eventType, data, raw);
    this.learn?.(raw, data);
  }
}

/** A provider's error in its event stream, as found. */
export interface ProviderFailure {
  /** The provider's error code or type, excerpted. */
  code?: string | undefined;
  /** Its message, excerpted. */
  said: string;
  /** The event's data, excerpted. */
  chunk: string;
}

/**
 * A provider's error event. Before any output, a code the classification table lists (`provider-error-codes.ts`, the
 * one the HTTP path reads) is the `ChatClientError` of the HTTP status it stands for, retryable exactly as that
 * answer would be (`overloaded_error` → 529, retried; `insufficient_quota` → 429, not retried); anything else, and
 * any error after output, is a `StreamError` `provider_error` with the code.
 */
export function providerFailure(context: EventDecoderOptions, found: ProviderFailure, beforeOutput: boolean): ChatClientError | StreamError {
  const { code, said } = found;
  const known = codeClass(code);
  if (known !== undefined && beforeOutput) {
    const { status, retryable } = known;
    return new ChatClientError(`${context.label} sent ${code} in its event stream before any output (the stream form of HTTP ${status}): ${said}`, {
      reason: 'http',
      status,
      retryable,
      code,
      providerMessage: said,
      requestId: context.requestId,
      model: context.model,
      attempts: context.attempt,
    });
  }
  return new StreamError(`The model provider reported an error mid-stream${code ? ` (${code})` : ''}: ${said}`, { reason: 'provider_error', chunk: found.chunk, code });
}

/**
 * The bound on one event's data in a chat stream: the SSE default, or `maxLineLength` when that is larger — a chat
 * client's `maxLineLength` is the one option for both, and a line it accepts is never refused as an event.
 */
export function eventBound(maxLineLength: number | undefined): number {
  return Math.max(DEFAULT_MAX_EVENT_LENGTH, maxLineLength ?? 0);
}
