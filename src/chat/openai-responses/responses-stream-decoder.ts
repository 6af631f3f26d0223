/**
 * @internal Decodes an OpenAI Responses stream (SSE of semantic events, each with a `type`) into typed chunks.
 * `response.created` gives the response id and model; `response.output_item.added` opens an item (`message`,
 * `function_call` → `tool-call-start`, `reasoning`); `response.output_text.delta` is text, `response.refusal.delta`
 * text that makes the finish `refusal`, `response.reasoning_summary_text.delta` / `response.reasoning_text.delta`
 * reasoning, `response.function_call_arguments.delta` a call's arguments (`.done` has the whole of them);
 * `response.output_item.done` ends an item (a call → `tool-call-end`; a reasoning item is kept for `replay`). The
 * answer ends with exactly one of `response.completed`, `response.incomplete` (`max_output_tokens` → `length`,
 * `content_filter`) or `response.failed`; there is no `[DONE]`. Other event types (content parts, annotations, the
 * progress of OpenAI's own tools, types added later) are ignored.
 *
 * An item is known by its `output_index`: every event for an index must be of the item it opened (its type, `id`,
 * a call's `call_id`; an arguments event's `item_id`). Items may be announced twice (the same item), only by their
 * `output_item.done`, or only in the final `output` (an item never shown is decoded from there); indexes may skip and
 * interleave; a text delta needs no item. A delta's `content_index` is not read: an item's text is its deltas in order.
 *
 * Errors: `response.failed` and an `error` event before any output are the `ChatClientError` of the HTTP status their
 * code stands for when the classification table lists it (`core/provider-error-codes.ts`: `server_error`,
 * `rate_limit_exceeded` retried; `insufficient_quota` a 429 that is not), else a `StreamError` `provider_error` with
 * the code; `malformed_chunk` (not JSON, a field of the answer of another JSON type than its own (`answerMisfit`), an
 * item of a type this client does not know, an `output_index` missing or
 * invalid, another item at an index that holds one, a second call with a `call_id` seen already, arguments for an
 * index that holds no call or for a call that had ended, an id or reasoning item to send back past its bound:
 * `core/replay-bounds.ts`); `incomplete` (the body ended without a final event).
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
import { StreamError } from '../../errors/stream-error.js';
import { EventDecoder, field, isJSONObject, providerFailure } from '../core/event-decoder.js';
import { responseChunks } from '../core/collect-chat-stream.js';
import { detached, FrameTemplates, type TemplateMatch } from '../core/frame-template.js';
import type { ChatChunk, ReplayItem } from '../core/types.js';
import { hotFrame, type DeltaContext } from './responses-delta-frame.js';
import { answerMisfit, decodeResponse, finishOf, itemKind, messageText, reasoningText, replayProblem, replaySlot, toUsage } from './responses-output.js';
import { unseenItems, type OpenItem } from './responses-final-output.js';

export class ResponsesStreamDecoder extends EventDecoder {
  private readonly items = new Map<number, OpenItem>();
  /** The highest `output_index` that holds an item (a running maximum: a spread of every key overflows the stack). */
  private lastIndex = -1;
  /** Text or reasoning arrived as deltas of no item: a message or reasoning item seen only at the end holds it already. */
  private readonly loose = { text: false, reasoning: false };
  private calls = 0;
  private refused = false;
  /** Anything of the answer arrived as events (items, deltas): the final event's `output` then adds what they did not show. */
  private sawOutput = false;
  private readonly callIds = new Set<string>();
  private readonly itemIds = new Set<string>();
  private hasReasoning = false;
  /** Replay slots with their place in the output: the final output may add items before those the events showed. */
  private readonly replay: Array<{ at: number; slot: ReplayItem }> = [];
  private responseId: string | undefined;
  private model: string | undefined;
  private readonly templates = new FrameTemplates<DeltaContext>(hotFrame);
  private readonly matched: TemplateMatch<DeltaContext> = { text: '', context: { type: '', outputIndex: undefined, itemId: undefined } };

  /** A delta event read from a template: what {@link event} does with its type, `output_index`, `item_id` and `delta`. */
  protected override frame(raw: string): boolean {
    if (!this.templates.match(raw, this.matched)) return false;
    const { context, text } = this.matched;
    this.dispatch(context.type, { output_index: context.outputIndex, item_id: context.itemId, delta: text }, raw);
    return true;
  }

  protected override learn(raw: string, data: Record<string, unknown>): void {
    this.templates.learn(raw, data);
  }

  protected unfinished(): StreamError {
    return new StreamError(`The ${this.options.label} stream ended without response.completed, response.incomplete or response.failed`, { reason: 'incomplete' });
  }

  protected event(type: string, data: Record<string, unknown>, raw: string): void {
    const wrong = answerMisfit(type, data); // a field of another type would be read as absent: a quieter answer
    if (wrong) throw this.malformed(`a ${type} with ${wrong}`, raw);
    this.dispatch(type, data, raw);
  }

  /** An event whose fields are of their types (a template's frame is: its delta is text). */
  private dispatch(type: string, data: Record<string, unknown>, raw: string): void {
    switch (type) {
      case 'response.created':
      case 'response.in_progress':
        return this.identify(data.response);
      case 'response.output_item.added':
        return this.itemAdded(data, type, raw);
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        return this.text(data, type, raw);
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        return this.reasoning(data, type, raw);
      case 'response.function_call_arguments.delta':
        return this.argumentsPart(data, type, raw);
      case 'response.function_call_arguments.done':
        return this.argumentsDone(data, type, raw);
      case 'response.output_item.done':
        return this.itemDone(data, type, raw);
      case 'response.completed':
      case 'response.incomplete':
        return this.complete(data.response, raw);
      case 'response.failed': {
        const error = field(data.response, 'error');
        throw this.failure(isJSONObject(error) ? error : data, raw, 'a failed response');
      }
      case 'error':
        throw this.failure(field(data, 'error') ?? data, raw, 'an error');
      default:
        return;
    }
  }

  private identify(response: unknown): void {
    const id = field(response, 'id');
    if (typeof id === 'string' && this.responseId === undefined) this.responseId = this.excerpt(id);
    const model = field(response, 'model');
    if (typeof model === 'string' && this.model === undefined) this.model = this.excerpt(model);
  }

  /** The item at a delta's `output_index`, if any; a delta without one belongs to no item (its text still counts). */
  private itemOf(data: Record<string, unknown>, type: string, raw: string): OpenItem | undefined {
    return data.output_index === undefined ? undefined : this.items.get(this.index(data, 'output_index', type, raw));
  }

  private itemAdded(data: Record<string, unknown>, type: string, raw: string): void {
    const index = this.index(data, 'output_index', type, raw);
    const item = data.item;
    const known = this.items.get(index);
    if (known) return this.sameItem(known, item, index, raw); // a repeated output_item.added: the item is open already
    const kind = itemKind(field(item, 'type'));
    if (kind === 'unknown') throw this.malformed(`an output item of a type this client does not decode (${this.excerpt(String(field(item, 'type')), 60)})`, raw);
    const long = isJSONObject(item) ? replayProblem(item) : undefined;
    if (long) throw this.malformed(long, raw);
    this.sawOutput = true;
    const given = field(item, 'id');
    const itemId = typeof given === 'string' ? given : undefined;
    // An id seen already at another index: the same item twice (its text, or its call, given again).
    if (itemId !== undefined) {
      if (this.itemIds.has(itemId)) throw this.malformed(`a second output item ${this.excerpt(itemId, 60)}`, raw);
      this.itemIds.add(itemId);
    }
    const open: OpenItem = { kind, streamed: false, done: false, id: itemId };
    if (kind === 'function_call') {
      const id = field(item, 'call_id');
      const name = field(item, 'name');
      if (typeof id !== 'string' || id === '' || typeof name !== 'string') throw this.malformed('a function_call item without a call_id or name', raw);
      // A second call with a call id seen already would run the same call twice.
      if (this.callIds.has(id)) throw this.malformed(`a second function_call ${this.excerpt(id, 60)}`, raw);
      const initial = field(item, 'arguments');
      open.call = { index: this.calls++, id, name, arguments: typeof initial === 'string' ? initial : '', ended: false };
      this.callIds.add(id);
      this.out.push({ type: 'tool-call-start', index: open.call.index, id, name });
      if (open.call.arguments !== '') this.argumentsDelta(open.call.index, id, open.call.arguments);
    }
    if (kind === 'reasoning') this.hasReasoning = true;
    this.items.set(index, open);
    if (index > this.lastIndex) this.lastIndex = index;
  }

  /**
   * Another event for the item at `index` carries `item`: it must be the same one (its type, its id, a call's
   * call_id). Another item there would take the place of the first (a call started and never ended, or one call's
   * arguments given to another), so it is no stream this client reads.
   */
  private sameItem(known: OpenItem, item: unknown, index: number, raw: string): void {
    const id = field(item, 'id');
    const other = itemKind(field(item, 'type')) !== known.kind || (known.call !== undefined && field(item, 'call_id') !== known.call.id) || (typeof id === 'string' && known.id !== undefined && id !== known.id);
    if (other) throw this.malformed(`another item at output_index ${index}`, raw);
  }

  private text(data: Record<string, unknown>, type: string, raw: string): void {
    const delta = data.delta;
    if (typeof delta !== 'string' || delta === '') return;
    const open = this.itemOf(data, type, raw);
    if (open) open.streamed = true;
    else this.loose.text = true;
    this.sawOutput = true;
    if (type === 'response.refusal.delta') this.refused = true;
    this.textDelta('text-delta', delta);
  }

  private reasoning(data: Record<string, unknown>, type: string, raw: string): void {
    const delta = data.delta;
    if (typeof delta !== 'string' || delta === '') return;
    const open = this.itemOf(data, type, raw);
    if (open) open.streamed = true;
    else this.loose.reasoning = true;
    this.sawOutput = true;
    this.textDelta('reasoning-delta', delta);
  }

  /** The open call an arguments event is for; a typed error naming what is at its `output_index` when that is no call. */
  private openCall(data: Record<string, unknown>, type: string, raw: string): NonNullable<OpenItem['call']> {
    const index = this.index(data, 'output_index', type, raw);
    const open = this.items.get(index);
    const call = open?.call;
    // Another item's arguments at this index would be given to this call (the template path reads frames of one item).
    const itemId = data.item_id;
    const other = typeof itemId === 'string' && open?.id !== undefined && itemId !== open.id;
    if (!call || other || call.ended) throw this.malformed(`a ${type} for output_index ${index}, which holds ${!call ? (open ? `a ${open.kind}` : 'nothing') : other ? 'another item' : 'a call that had ended'}`, raw);
    return call;
  }

  private argumentsPart(data: Record<string, unknown>, type: string, raw: string): void {
    const call = this.openCall(data, type, raw);
    const part = data.delta;
    if (typeof part !== 'string' || part === '') return;
    call.arguments += detached(part); // kept past the batch: not a view of the read
    this.argumentsDelta(call.index, call.id, part);
  }

  /** The whole arguments: authoritative when they differ from the deltas (a proxy that sends only `.done`). */
  private argumentsDone(data: Record<string, unknown>, type: string, raw: string): void {
    const call = this.openCall(data, type, raw);
    if (typeof data.arguments === 'string') this.endCall(call, data.arguments);
  }

  private endCall(call: NonNullable<OpenItem['call']>, args: string): void {
    if (call.ended) return;
    call.ended = true;
    // Lengths first: the common `.done` equal to its deltas is not compared (that would flatten and scan the whole text).
    if (args.length > call.arguments.length && args.startsWith(call.arguments)) this.argumentsDelta(call.index, call.id, args.slice(call.arguments.length));
    call.arguments = args;
    this.out.push({ type: 'tool-call-end', index: call.index, id: call.id, name: call.name, arguments: args });
  }

  /** `at`: the item's place in the answer's output, for the order of its replay slot (else its `output_index`). */
  private itemDone(data: Record<string, unknown>, type: string, raw: string, at?: number): void {
    const index = this.index(data, 'output_index', type, raw);
    const item = data.item;
    if (!isJSONObject(item)) throw this.malformed(`a ${type} without its item`, raw);
    const known = this.items.get(index);
    // An item never announced by output_item.added is opened here: its content is in this event, never dropped.
    if (known) this.sameItem(known, item, index, raw);
    else this.itemAdded(data, type, raw);
    const open = this.items.get(index);
    if (!open || open.done) return;
    open.done = true;
    if (open.call) {
      const given = field(item, 'arguments');
      const args = typeof given === 'string' ? given : open.call.arguments;
      // No arguments at all are `{}`, unless the output limit cut the call (the agent loop then refuses to run it).
      this.endCall(open.call, args === '' && field(item, 'status') !== 'incomplete' ? '{}' : args);
    } else if (open.kind === 'message' && !open.streamed) {
      // An item whose text came only whole (no deltas): never an empty answer.
      const said = messageText(item, this.options.label, this.options.secrets);
      if (said.text !== '') this.textDelta('text-delta', said.text);
      this.refused ||= said.refused;
    } else if (open.kind === 'reasoning' && !open.streamed) {
      const said = reasoningText(item);
      if (said !== '') this.textDelta('reasoning-delta', said);
    }
    if (open.kind !== 'skipped') {
      const long = replayProblem(item);
      if (long) throw this.malformed(long, raw);
      const slot = replaySlot(item);
      if (slot) this.replay.push({ at: at ?? index, slot });
    }
  }

  private complete(response: unknown, raw: string): void {
    this.identify(response);
    const output = field(response, 'output');
    if (!this.sawOutput && Array.isArray(output) && output.length > 0) {
      // A server that sent only the final event: the whole answer, as the chunks a stream of it would have given.
      const whole = decodeResponse(response, this.options);
      this.out.push(...responseChunks(whole));
      this.finished = true;
      return;
    }
    // An item of the final output the events never showed is done at a slot of its own: the answer complete() gives.
    for (const { at, item } of unseenItems(Array.isArray(output) ? output : [], { items: this.items, itemIds: this.itemIds, callIds: this.callIds })) {
      const slot = this.lastIndex + 1;
      this.itemAdded({ output_index: slot, item }, 'response.completed', raw);
      const open = this.items.get(slot);
      if (open?.kind === 'message' || open?.kind === 'reasoning') open.streamed = this.loose[open.kind === 'message' ? 'text' : 'reasoning'];
      this.itemDone({ output_index: slot, item }, 'response.completed', raw, at);
    }
    // Calls still open at the end: what arrived, which a cut (incomplete) answer may leave unfinished or empty.
    const cut = field(response, 'status') === 'incomplete';
    for (const open of this.items.values()) if (open.call && !open.call.ended) this.endCall(open.call, cut || open.call.arguments !== '' ? open.call.arguments : '{}');
    this.finished = true;
    const usage = toUsage(field(response, 'usage'));
    if (usage) this.out.push({ type: 'usage', usage });
    const finish: ChatChunk = { type: 'finish', reason: finishOf(response, this.calls, this.refused, this.options.secrets) };
    if (usage) finish.usage = usage;
    if (this.responseId) finish.responseId = this.responseId;
    if (this.model) finish.model = this.model;
    if (this.hasReasoning && this.replay.length > 0) finish.replay = this.replay.sort((a, b) => a.at - b.at).map(({ slot }) => slot);
    this.out.push(finish);
  }

  private failure(detail: unknown, raw: string, what: string) {
    const given = field(detail, 'code') ?? field(detail, 'type');
    const code = typeof given === 'string' && given !== '' ? this.excerpt(given, 100) : undefined;
    const message = field(detail, 'message');
    const said = this.excerpt(typeof message === 'string' ? message : raw, 500);
    return providerFailure(this.options, { code, said: `${what}: ${said}`, chunk: this.excerpt(raw) }, this.beforeOutput);
  }
}
