/**
 * @internal Decodes an Anthropic Messages stream (SSE) into typed chunks, in the house style of the OpenAI decoder:
 * bytes in, batches of chunks out. `message_start` gives the response id, model and the first usage;
 * `content_block_start/delta/stop` carry `text_delta` (text), `thinking_delta` (reasoning) and `input_json_delta`
 * (a `tool_use` block's arguments, ended by its `content_block_stop` with the accumulated JSON, `{}` when none came);
 * `message_delta` the `stop_reason` and final usage; `message_stop` ends the answer. A `thinking` block's
 * `signature_delta` and a `redacted_thinking` block's `data` make a `ChatMessage.replay` item on the finish chunk, sent
 * back on the next request as Anthropic requires. `ping` is ignored, and so are `citations_delta` and event types
 * added later (as the docs ask).
 *
 * Errors: `event: error` before any output is the `ChatClientError` of the HTTP status its type stands for when the
 * classification table lists it (`core/provider-error-codes.ts`: `overloaded_error`, `api_error`, `rate_limit_error`
 * and `timeout_error` are HTTP 529, 500, 429 and 504, retried, with fallback; `billing_error` is a 402, not retried),
 * else a `StreamError` `provider_error` with the error type as `code`; `malformed_chunk` (not JSON, not an object, a
 * field of the answer of another JSON type than its own (`BLOCK`, `DELTA`), a
 * block type this client does not know, an index missing or invalid, a `content_block_start` out of the blocks' order
 * — an index that started already or one past the next — a delta or stop for a block that ended or never started, a
 * delta of a kind its block does not take, a tool_use id seen already in this answer (the same call twice), an id, a
 * name or thinking to send back past its bound:
 * `core/replay-bounds.ts`); `incomplete` (the body ended before `message_stop`); `line_too_long`. Blocks may
 * interleave; one still open at `message_stop` ends there as its `content_block_stop` would have ended it.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
import type { ChatClientError } from '../../errors/chat-client-error.js';
import { StreamError } from '../../errors/stream-error.js';
import { toolArgumentsText } from '../core/tool-call-arguments.js';
import { MAX_ID_LENGTH, MAX_REPLAY_LENGTH, overLimit } from '../core/replay-bounds.js';
import { detached } from '../core/frame-template.js';
import { EventDecoder, field, isJSONObject, misfit, providerFailure, type EventDecoderOptions } from '../core/event-decoder.js';
import type { ChatChunk, FinishReason, ReplayItem } from '../core/types.js';
import { readDeltaFrame, type DeltaFrame, type DeltaFrameKind } from './anthropic-delta-frame.js';
import { BLOCK, blockKind, finishReasonOf, readTokens, thinkingReplay, toUsage, type AnthropicTokens } from './anthropic-message.js';

interface OpenBlock {
  kind: 'text' | 'thinking' | 'redacted_thinking' | 'tool_use' | 'skipped';
  /** For thinking: its text and signature so far (for redacted_thinking: its data), sent back as they arrived. */
  thinking?: { text: string; signature: string };
  /** For tool_use: the tool call's ordinal among this answer's calls, id, name and arguments so far. */
  call?: { index: number; id: string; name: string; arguments: string };
}

export type AnthropicStreamDecoderOptions = EventDecoderOptions;

/** The types of the fields that carry the answer (`misfit`: another type is a typed error, never read as absent). */
const DELTA = { type: 's', text: 's', thinking: 's', partial_json: 's', signature: 's' } as const;
const EVENT = { content_block: 'o', delta: 'o', usage: 'o' } as const;
const STOP = { stop_reason: 's' } as const;

/** A stop reason that means the output was cut (`max_tokens`, `model_context_window_exceeded`: finish `length`). */
function cutBy(stopReason: unknown): boolean {
  return typeof stopReason === 'string' && finishReasonOf(stopReason) === 'length';
}

export class AnthropicStreamDecoder extends EventDecoder {
  private readonly blocks = new Map<number, OpenBlock>();
  private calls = 0;
  /** The tool_use ids of this answer: a second call with one would run the same call twice. */
  private readonly callIds = new Set<string>();
  /** Content blocks started so far: the index the next `content_block_start` must have. */
  private started = 0;
  private readonly replay: ReplayItem[] = [];
  private readonly tokens: AnthropicTokens = {};
  private stopReason: string | undefined;
  private responseId: string | undefined;
  private model: string | undefined;
  /** A tool_use block that ended with no arguments: `{}`, unless the next event says the output limit cut it. */
  private emptyEnd: OpenBlock['call'];
  /** The delta frame being read, refilled for each one. */
  private readonly frameRead: DeltaFrame = { index: 0, kind: 'text_delta', value: '' };

  protected unfinished(): StreamError {
    return new StreamError(`The ${this.options.label} stream ended before message_stop${this.stopReason ? ` (stop_reason ${this.stopReason} had arrived)` : ''}`, { reason: 'incomplete' });
  }

  protected event(type: string, data: Record<string, unknown>, raw: string): void {
    // A call that ended with no arguments stays open until an event says whether the output limit cut it: `ping` and
    // event types added later say nothing, so they leave it pending.
    if (this.emptyEnd) {
      const telling = type.startsWith('content_block_') || type === 'message_delta' || type === 'message_stop';
      if (telling && !(type === 'message_delta' && cutBy(field(data.delta, 'stop_reason')))) this.endEmpty('{}');
    }
    switch (type) {
      case 'message_start':
        return this.start(data.message);
      case 'content_block_start':
        return this.blockStart(data, raw);
      case 'content_block_delta':
        return this.blockDelta(data, raw);
      case 'content_block_stop':
        return this.blockStop(data, raw);
      case 'message_delta':
        return this.messageDelta(data, raw);
      case 'message_stop':
        return this.complete();
      case 'error':
        throw this.providerError(data.error ?? data, raw);
      default:
        return; // ping, and event types added later: "handle unknown event types gracefully"
    }
  }

  private start(message: unknown): void {
    const id = field(message, 'id');
    if (typeof id === 'string') this.responseId = this.excerpt(id);
    const model = field(message, 'model');
    if (typeof model === 'string') this.model = this.excerpt(model);
    readTokens(field(message, 'usage'), this.tokens);
  }

  private blockStart(data: Record<string, unknown>, raw: string): void {
    const index = this.index(data, 'index', 'content_block_start', raw);
    // Blocks are numbered by their place in the message, in order: a start out of that order would drop (a repeated
    // index) or hide (a skipped one) a block, so it is no stream this client reads.
    if (index !== this.started) throw this.malformed(`a content_block_start for block ${index} where block ${this.started} was next`, raw);
    const block = data.content_block;
    const wrong = misfit(data, EVENT) ?? misfit(block, BLOCK);
    if (wrong) throw this.malformed(`a content_block_start with ${wrong}`, raw);
    const type = field(block, 'type');
    const kind = typeof type === 'string' ? blockKind(type) : 'unknown';
    if (kind === 'unknown') throw this.malformed(`a content block of a type this client does not decode (${this.excerpt(String(type), 60)})`, raw);
    this.started++;
    const open: OpenBlock = { kind };
    if (kind === 'tool_use') {
      const id = field(block, 'id');
      const name = field(block, 'name');
      if (typeof id !== 'string' || id === '' || typeof name !== 'string') throw this.malformed('a tool_use block without an id or name', raw);
      const long = overLimit('a tool_use id', id.length, MAX_ID_LENGTH) ?? overLimit('a tool name', name.length, MAX_ID_LENGTH);
      if (long) throw this.malformed(long, raw);
      if (this.callIds.has(id)) throw this.malformed(`a second tool call with the id ${this.excerpt(id, 60)}`, raw);
      this.callIds.add(id);
      open.call = { index: this.calls++, id, name, arguments: '' };
      this.out.push({ type: 'tool-call-start', index: open.call.index, id, name });
      // The API starts every tool_use with `input: {}` and streams the rest; a gateway may send the whole input here.
      const input = field(block, 'input');
      if (isJSONObject(input) && Object.keys(input).length > 0) {
        open.call.arguments = toolArgumentsText(input, name, this.options.secrets);
        this.argumentsDelta(open.call.index, id, open.call.arguments);
      }
    } else if (kind === 'text' || kind === 'thinking') {
      const initial = field(block, kind);
      if (typeof initial === 'string' && initial !== '') this.textDelta(kind === 'text' ? 'text-delta' : 'reasoning-delta', initial);
      if (kind === 'thinking') {
        const signature = field(block, 'signature');
        open.thinking = { text: typeof initial === 'string' ? initial : '', signature: typeof signature === 'string' ? signature : '' };
      }
    } else if (kind === 'redacted_thinking') {
      const data = field(block, 'data');
      open.thinking = { text: '', signature: typeof data === 'string' ? data : '' };
    }
    if (open.thinking) this.checkReplay(open.thinking, raw);
    this.blocks.set(index, open);
  }

  /** A thinking block's text and signature (redacted data) are kept to go back: past their bound, a typed error at once. */
  private checkReplay(thinking: NonNullable<OpenBlock['thinking']>, raw: string): void {
    const long = overLimit('a thinking block', thinking.text.length + thinking.signature.length, MAX_REPLAY_LENGTH);
    if (long) throw this.malformed(long, raw);
  }

  /** A `content_block_delta` in the API's compact form, read without `JSON.parse` (`anthropic-delta-frame.ts`). */
  protected override frame(raw: string): boolean {
    // A call waiting for its `{}` and anything unusual take the full path, which decides them as before.
    if (this.emptyEnd !== undefined || !readDeltaFrame(raw, this.frameRead)) return false;
    const open = this.blocks.get(this.frameRead.index);
    return open !== undefined && this.deltaOf(open, this.frameRead.kind, this.frameRead.value, raw);
  }

  private blockDelta(data: Record<string, unknown>, raw: string): void {
    const open = this.openBlock(data, 'content_block_delta', raw);
    const delta = data.delta;
    const type = field(delta, 'type');
    const wrong = misfit(data, EVENT) ?? misfit(delta, DELTA) ?? (type === undefined ? 'no delta type' : undefined);
    if (wrong) throw this.malformed(`a content_block_delta with ${wrong}`, raw);
    let taken = true;
    if (type === 'text_delta') taken = this.deltaOf(open, type, field(delta, 'text'), raw);
    else if (type === 'thinking_delta') taken = this.deltaOf(open, type, field(delta, 'thinking'), raw);
    else if (type === 'input_json_delta') taken = this.deltaOf(open, type, field(delta, 'partial_json'), raw);
    else if (type === 'signature_delta') {
      const signature = field(delta, 'signature');
      taken = open.kind === 'thinking';
      if (taken && typeof signature === 'string') {
        (open.thinking as NonNullable<OpenBlock['thinking']>).signature += signature;
        this.checkReplay(open.thinking as NonNullable<OpenBlock['thinking']>, raw);
      }
    }
    // A delta of a kind its block does not take would be lost (a server tool's block takes its input deltas and keeps
    // nothing of them); citations_delta and delta types added later carry nothing a chunk can.
    if (!taken && open.kind !== 'skipped') throw this.malformed(`a ${String(type)} for block ${data.index as number}, a ${open.kind} block`, raw);
  }

  /** The open block a delta or stop is for; a typed error naming the block when it ended already or never started. */
  private openBlock(data: Record<string, unknown>, type: string, raw: string): OpenBlock {
    const index = this.index(data, 'index', type, raw);
    const open = this.blocks.get(index);
    if (open) return open;
    throw this.malformed(`a ${type} for block ${index}, which ${index < this.started ? 'had ended' : 'never started'}`, raw);
  }

  /** A text, thinking or arguments delta for `open`; `false` when the block takes no delta of that kind (nothing done). */
  private deltaOf(open: OpenBlock, kind: DeltaFrameKind, value: unknown, raw: string): boolean {
    if (kind === 'text_delta') {
      if (open.kind !== 'text') return false;
      if (typeof value === 'string' && value !== '') this.textDelta('text-delta', value);
      return true;
    }
    if (kind === 'thinking_delta') {
      if (open.kind !== 'thinking') return false;
      if (typeof value === 'string' && value !== '') {
        const thinking = open.thinking as NonNullable<OpenBlock['thinking']>;
        thinking.text += detached(value); // kept past the batch (to go back): not a view of the read, and bounded
        if (thinking.text.length + thinking.signature.length > MAX_REPLAY_LENGTH) this.checkReplay(thinking, raw);
        this.textDelta('reasoning-delta', value);
      }
      return true;
    }
    const call = open.call;
    if (!call) return false;
    if (typeof value === 'string' && value !== '') {
      call.arguments += detached(value); // kept past the batch: not a view of the read
      this.argumentsDelta(call.index, call.id, value);
    }
    return true;
  }

  private blockStop(data: Record<string, unknown>, raw: string): void {
    const open = this.openBlock(data, 'content_block_stop', raw);
    this.blocks.delete(data.index as number);
    this.endBlock(open);
  }

  /** A block ended: its call, or its thinking kept for replay. */
  private endBlock(open: OpenBlock): void {
    if (open.call) this.endCall(open.call);
    if (open.thinking && (open.kind === 'thinking' || open.kind === 'redacted_thinking')) {
      const item = thinkingReplay(open.kind, open.thinking.text, open.thinking.signature);
      if (item) this.replay.push(item);
    }
  }

  /** A tool_use block ended: its arguments; none at all are `{}`, or held until the next event shows no output-limit cut. */
  private endCall(call: NonNullable<OpenBlock['call']>): void {
    if (call.arguments === '') this.emptyEnd = call;
    else this.out.push({ type: 'tool-call-end', index: call.index, id: call.id, name: call.name, arguments: call.arguments });
  }

  private endEmpty(args: string): void {
    const call = this.emptyEnd;
    this.emptyEnd = undefined;
    if (call) this.out.push({ type: 'tool-call-end', index: call.index, id: call.id, name: call.name, arguments: args });
  }

  private messageDelta(data: Record<string, unknown>, raw: string): void {
    const wrong = misfit(data, EVENT) ?? misfit(data.delta, STOP);
    if (wrong) throw this.malformed(`a message_delta with ${wrong}`, raw);
    const stopReason = field(data.delta, 'stop_reason');
    if (typeof stopReason === 'string' && stopReason !== '') this.stopReason = this.excerpt(stopReason, 100);
    // A tool_use block cut by the output limit keeps what arrived (maybe nothing): the agent loop refuses to run it.
    if (this.emptyEnd) this.endEmpty(cutBy(this.stopReason) ? '' : '{}');
    readTokens(data.usage, this.tokens);
  }

  private complete(): void {
    const cut = cutBy(this.stopReason);
    // Blocks still open end here as their content_block_stop would have ended them: nothing they hold is lost (each
    // call without arguments is decided at once, so a second one does not take the first one's place).
    for (const open of this.blocks.values()) {
      this.endBlock(open);
      this.endEmpty(cut ? '' : '{}');
    }
    this.blocks.clear();
    this.finished = true;
    const reason: FinishReason = this.stopReason ? finishReasonOf(this.stopReason) : this.calls > 0 ? 'tool_calls' : 'stop';
    const usage = toUsage(this.tokens);
    if (usage) this.out.push({ type: 'usage', usage });
    const finish: ChatChunk = { type: 'finish', reason };
    if (usage) finish.usage = usage;
    if (this.responseId) finish.responseId = this.responseId;
    if (this.model) finish.model = this.model;
    if (this.replay.length > 0) finish.replay = this.replay;
    this.out.push(finish);
  }

  /** `event: error`: before any output a `ChatClientError` for the types the classification table lists, else a `StreamError`. */
  private providerError(detail: unknown, raw: string): ChatClientError | StreamError {
    const type = field(detail, 'type');
    const code = typeof type === 'string' && type !== '' ? this.excerpt(type, 100) : undefined;
    const message = field(detail, 'message');
    const said = this.excerpt(typeof message === 'string' ? message : raw, 500);
    return providerFailure(this.options, { code, said, chunk: this.excerpt(raw) }, this.beforeOutput);
  }
}
