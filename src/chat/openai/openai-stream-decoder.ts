/**
 * Decodes an OpenAI-compatible chat completions stream (SSE of `chat.completion.chunk` objects) into typed chunks:
 * text and reasoning deltas (DeepSeek `reasoning_content`; content as an array of parts, e.g. Mistral's `thinking`
 * and `text`), a refusal (its words as text, the finish `refusal`), tool calls assembled by `index` (parallel
 * calls), usage, and one `finish`. Bytes in, batches of chunks out: one call per network chunk keeps per-event overhead low.
 *
 * Errors are `StreamError`s: `malformed_chunk` (not JSON / not an object; a field of the answer of another JSON type
 * than its own (`openai-fields.ts`); a choice other than index 0, or an index
 * that is no index; a tool-call fragment that starts and continues nothing, or repeats a call id seen already; an id
 * or name past its bound: `core/replay-bounds.ts`), `provider_error` (`data: {"error": …}` or `event: error`),
 * `incomplete` (the body ended before `finish_reason` or `[DONE]`), `line_too_long`. A failure no check names (a
 * `RangeError` of a value nested past the stack) is a `malformed_chunk` too: `core/decoding-failure.ts`.
 * @see https://platform.openai.com/docs/api-reference/chat/streaming
 */
import { StreamError } from '../../errors/stream-error.js';
import { truncate } from '../../internal/json.js';
import { redactError, redactText } from '../../internal/redact.js';
import { SSEDataParser } from '../../wire/sse-decoder.js';
import { contentParts, type ContentParts } from './openai-content.js';
import { toUsage } from './openai-usage.js';
import { eventBound, isJSONObject } from '../core/event-decoder.js';
import { providerError } from './openai-stream-error.js';
import { callMisfit, choiceMisfit } from './openai-fields.js';
import { detachDeltas, detached, FrameTemplates, type TemplateMatch } from '../core/frame-template.js';
import { chatDeltaFrame, TEXT } from './openai-delta-frame.js';
import { ToolCalls, type OpenCall } from './openai-tool-calls.js';
import { toolArgumentsText } from '../core/tool-call-arguments.js';
import { decodingFailure } from '../core/decoding-failure.js';
import { describeRemote } from '../core/remote-value.js';
import { MAX_ID_LENGTH, overLimit } from '../core/replay-bounds.js';
import type { ChatChunk, FinishReason, Usage } from '../core/types.js';

export interface OpenAIStreamDecoderOptions {
  maxLineLength?: number | undefined;
  /** Secrets to remove from chunk excerpts in errors. */
  secrets?: readonly string[] | undefined;
  /** Generates ids for tool calls a provider streams without one. */
  createId: () => string;
}

export class OpenAIStreamDecoder {
  private readonly parser: SSEDataParser;
  private readonly textDecoder = new TextDecoder('utf-8', { ignoreBOM: true }); // the SSE parser strips the BOM
  private out: ChatChunk[] = [];
  private readonly calls: ToolCalls;
  private finishReason: FinishReason | undefined;
  private usage: Usage | undefined;
  private responseId: string | undefined;
  private rawResponseId: string | undefined;
  private model: string | undefined;
  private rawModel: string | undefined;
  private finished = false;
  /** The stream's delta frames (text, a call's arguments) read without `JSON.parse` (`frame-template.ts`). */
  private readonly templates = new FrameTemplates<number>((parsed) => chatDeltaFrame(parsed, this.rawResponseId, this.rawModel));
  private readonly matched: TemplateMatch<number> = { text: '', context: TEXT };
  /** True once the provider sent `[DONE]` or a `finish_reason`. */
  get sawEnd(): boolean {
    return this.finished || this.finishReason !== undefined;
  }

  private dispatched = 0;

  /** True once `[DONE]` arrived (a `finish_reason` alone may still be followed by the usage chunk). */
  get done(): boolean {
    return this.finished && this.pending === undefined;
  }
  /** SSE events dispatched so far: the stream's progress (comments, blank lines and parts of a line are not events). */
  get events(): number {
    return this.dispatched;
  }

  constructor(private readonly options: OpenAIStreamDecoderOptions) {
    this.calls = new ToolCalls(options.createId, (text, length) => this.excerpt(text, length));
    this.parser = new SSEDataParser((type, data) => {
      this.dispatched++;
      this.event(type, data);
    }, { maxLineLength: options.maxLineLength, maxEventLength: eventBound(options.maxLineLength) });
  }

  /** Feeds network bytes; returns the chunks they completed (possibly none). */
  push(bytes: Uint8Array): ChatChunk[] {
    if (this.pending) throw this.pending.error;
    this.out = [];
    try {
      this.parser.feed(this.textDecoder.decode(bytes, { stream: true }));
    } catch (error) {
      // Chunks decoded from the same bytes before a failure are returned first, the failure raised on the next call:
      // output that arrived before an error is never lost.
      const failure = decodingFailure(error, 'model', this.secrets);
      if (this.out.length === 0) throw failure;
      this.pending = { error: failure };
    }
    detachDeltas(this.out); // the fast paths' deltas are views of the read: one copy per chunk
    return this.out;
  }

  private pending: { error: unknown } | undefined;

  /** Raises a failure held back by {@link push} (call it before waiting for more bytes). */
  throwIfPending(): void {
    if (this.pending) throw this.pending.error;
  }

  /** The body ended: returns the final chunks, or throws `StreamError('incomplete')` when the model never finished. */
  end(): ChatChunk[] {
    if (this.pending) throw this.pending.error;
    this.out = [];
    this.parser.feed(this.textDecoder.decode());
    this.parser.end();
    if (!this.finished) {
      if (this.finishReason === undefined) {
        throw new StreamError('The model stream ended before the model finished (no finish_reason and no [DONE])', { reason: 'incomplete' });
      }
      this.complete();
    }
    detachDeltas(this.out);
    return this.out;
  }

  private event(type: string, data: string): void {
    if (this.finished) return;
    if (type === 'error') throw providerError(data, undefined, this.secrets);
    if (data === '[DONE]') {
      this.complete();
      return;
    }
    const known = this.templates.match(data, this.matched);
    if (known && this.fromTemplate(this.matched)) return;
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch (error) {
      throw this.malformed('a chunk that is not JSON', data, error);
    }
    if (!isJSONObject(chunk)) throw this.malformed('a chunk that is not a JSON object', data);
    if (chunk.error !== undefined && chunk.error !== null) throw providerError(data, chunk.error, this.secrets);
    // Remote text that reaches events and A2A metadata (llm_response_id): bounded and redacted like any other.
    if (typeof chunk.id === 'string' && chunk.id !== this.rawResponseId) {
      this.responseId = this.excerpt((this.rawResponseId = chunk.id));
      this.templates.clear(); // a template's frames carry the id they were learned with
    }
    if (typeof chunk.model === 'string' && chunk.model !== this.rawModel) {
      this.model = this.excerpt((this.rawModel = chunk.model));
      this.templates.clear();
    }
    const choices = chunk.choices;
    if (Array.isArray(choices)) {
      for (const choice of choices) {
        if (!isJSONObject(choice)) throw this.malformed('a choice that is not a JSON object', data);
        const index = choice.index ?? 0;
        // One choice is asked for: another one (a request body with `n`) would be dropped, so it is no stream this reads.
        if (index !== 0) throw this.malformed(`a choice with index ${describeRemote(index, this.secrets)}, where this client reads choice 0 only (no \`n\`)`, data);
        this.choice(choice, data);
      }
    } else if (choices !== undefined && choices !== null) {
      throw this.malformed('"choices" that is not an array', data);
    }
    const usage = toUsage(chunk.usage);
    if (usage) {
      this.usage = usage;
      this.out.push({ type: 'usage', usage });
    }
    if (!known) this.templates.learn(data, chunk);
  }

  /** A frame read from a template: its text delta, or its call's arguments (`false`: the call is not open, full path). */
  private fromTemplate(match: TemplateMatch<number>): boolean {
    const text = match.text;
    if (match.context === TEXT) {
      if (text !== '') this.textDelta('text-delta', text);
      return true;
    }
    const call = this.calls.open.get(match.context);
    if (call === undefined) return false;
    this.appendArguments(call, text);
    return true;
  }

  private appendArguments(call: OpenCall, argumentsDelta: string): void {
    if (argumentsDelta === '') return;
    call.arguments += detached(argumentsDelta); // kept past the batch: not a view of the read
    const last = this.out[this.out.length - 1];
    if (last?.type === 'tool-call-delta' && last.id === call.id) last.argumentsDelta += argumentsDelta;
    else this.out.push({ type: 'tool-call-delta', index: call.index, id: call.id, argumentsDelta });
  }

  private choice(choice: Record<string, unknown>, data: string): void {
    const delta = choice.delta;
    const wrong = choiceMisfit(choice); // a field of another type would be read as absent: a quieter answer
    if (wrong) throw this.malformed(`a choice with ${wrong}`, data);
    if (isJSONObject(delta)) {
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (typeof reasoning === 'string' && reasoning !== '') this.textDelta('reasoning-delta', reasoning);
      const content = delta.content;
      if (typeof content === 'string') {
        if (content !== '') this.textDelta('text-delta', content);
      } else if (content !== undefined && content !== null) {
        this.parts(contentParts(content), data);
      }
      if (typeof delta.refusal === 'string' && delta.refusal !== '') this.refusal(delta.refusal);
      const toolCalls = delta.tool_calls;
      if (Array.isArray(toolCalls)) for (let position = 0; position < toolCalls.length; position++) this.toolCall(toolCalls[position], position, data);
    }
    const finishReason = choice.finish_reason;
    if (typeof finishReason === 'string' && finishReason !== '') {
      this.finishReason = finishReason;
      this.calls.endAll(this.out);
    }
  }

  /** Content sent as an array of parts (Mistral's reasoning models): each part decoded, or a typed error naming it. */
  private parts(parts: ContentParts, data: string): void {
    if (parts.reasoning !== '') this.textDelta('reasoning-delta', parts.reasoning);
    if (parts.text !== '') this.textDelta('text-delta', parts.text);
    if (parts.refusal !== '') this.refusal(parts.refusal);
    if (parts.unknown.length > 0) {
      throw this.malformed(`content parts of a type this client does not decode (${this.excerpt([...new Set(parts.unknown)].join(', '))})`, data);
    }
  }

  /** A refusal (OpenAI, with structured outputs): its words reach the caller as text, and the finish says `refusal`. */
  private refusal(text: string): void {
    this.refused = true;
    this.textDelta('text-delta', text);
  }

  private refused = false;

  /**
   * A text or reasoning delta. Consecutive deltas of the same kind decoded from one network read become one chunk:
   * the text is the same, and a consumer pays per chunk, not per SSE event (a provider sends one per token).
   */
  private textDelta(type: 'text-delta' | 'reasoning-delta', delta: string): void {
    const last = this.out[this.out.length - 1];
    if (last?.type === type) last.delta += delta;
    else this.out.push({ type, delta });
  }

  /** One fragment of a tool call (`openai-tool-calls.ts`): its `index`, else its place in the list, says which. */
  private toolCall(toolCall: unknown, position: number, data: string): void {
    if (!isJSONObject(toolCall)) throw this.malformed('a tool call that is not a JSON object', data);
    const index = toolCall.index ?? position;
    if (!Number.isSafeInteger(index) || (index as number) < 0) throw this.malformed(`a tool call with an invalid index ${describeRemote(index, this.secrets)}`, data);
    const wrong = callMisfit(toolCall);
    if (wrong) throw this.malformed(`a tool call with ${wrong}`, data);
    const fn = isJSONObject(toolCall.function) ? toolCall.function : {};
    const given = fn.arguments; // text, or JSON some servers send instead (written back); null is none
    const id = typeof toolCall.id === 'string' && toolCall.id !== '' ? toolCall.id : undefined;
    const name = typeof fn.name === 'string' && fn.name !== '' ? fn.name : undefined;
    const long = overLimit('a tool call id', id?.length ?? 0, MAX_ID_LENGTH) ?? overLimit('a tool name', name?.length ?? 0, MAX_ID_LENGTH);
    if (long) throw this.malformed(long, data);
    const call = this.calls.fragment(index as number, id, name, this.out);
    if (typeof call === 'string') throw this.malformed(call, data);
    const argumentsDelta = given === undefined || given === null ? '' : toolArgumentsText(given, call.name, this.secrets);
    this.appendArguments(call, argumentsDelta);
  }

  private complete(): void {
    if (this.finished) return;
    this.calls.endAll(this.out);
    this.finished = true;
    const given = this.finishReason ?? (this.calls.ended > 0 ? 'tool_calls' : 'stop');
    const reason = this.refused && given === 'stop' ? 'refusal' : given; // a refusal is never a plain `stop`
    const finish: ChatChunk = { type: 'finish', reason };
    if (this.usage) finish.usage = this.usage;
    if (this.responseId) finish.responseId = this.responseId;
    if (this.model) finish.model = this.model;
    this.out.push(finish);
  }

  private get secrets(): readonly string[] {
    return this.options.secrets ?? [];
  }

  private excerpt(text: string, length = 200): string {
    return truncate(redactText(text, this.secrets), length);
  }

  private malformed(what: string, data: string, cause?: unknown): StreamError {
    const chunk = this.excerpt(data);
    return new StreamError(`The model stream sent ${what}: ${chunk}`, { reason: 'malformed_chunk', chunk, cause: redactError(cause, this.secrets) }); // V8 quotes the frame's start
  }
}
