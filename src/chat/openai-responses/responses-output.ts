/**
 * @internal What the OpenAI Responses API answers, decoded for both a whole response (`complete()`) and the end of a
 * stream: output items (`message` with `output_text` / `refusal` parts, `function_call`, `reasoning`), usage, the
 * finish reason of a `completed` / `incomplete` response, and the typed failure of a `failed` one or an `error` event.
 *
 * What goes back (the per-provider rule): when an answer holds `reasoning` items, the assistant message keeps, in
 * `replay` (protocol `openai-responses`), the answer's output items in order — each reasoning item verbatim, and the
 * ids of its `message` and `function_call` items — so the next request can pass them back as the API requires for
 * reasoning models calling tools. Without reasoning nothing is kept, and the transcript is plain items.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 * @see https://platform.openai.com/docs/guides/reasoning#keeping-reasoning-items-in-context
 */
import { ChatClientError } from '../../errors/chat-client-error.js';
import { read } from '../../internal/error-chain.js';
import { isPlainObject, tryStringify } from '../../internal/json.js';
import { misfit } from '../core/event-decoder.js';
import { codeClass } from '../core/provider-error-codes.js';
import { describeRemote, excerpt, listed } from '../core/remote-value.js';
import { MAX_ID_LENGTH, MAX_REPLAY_LENGTH, overLimit } from '../core/replay-bounds.js';
import { toolArgumentsText } from '../core/tool-call-arguments.js';
import type { ChatMessage, ChatResponse, FinishReason, ReplayItem, ToolCall, Usage } from '../core/types.js';

/** The protocol name of Responses items in `ChatMessage.replay`. */
export const RESPONSES_REPLAY = 'openai-responses';

/**
 * Output items of tools OpenAI runs itself (their results are in the text that follows): left out on purpose. Any
 * other item type this client does not know — including ones that would need an answer from us, such as
 * `computer_call` — is an error naming it.
 */
const SERVER_ITEMS = new Set(['web_search_call', 'file_search_call', 'code_interpreter_call', 'image_generation_call', 'mcp_call', 'mcp_list_tools']);

/** How an output item is handled: decoded, skipped on purpose, or unknown. */
export function itemKind(type: unknown): 'message' | 'function_call' | 'reasoning' | 'skipped' | 'unknown' {
  if (type === 'message' || type === 'function_call' || type === 'reasoning') return type;
  return typeof type === 'string' && SERVER_ITEMS.has(type) ? 'skipped' : 'unknown';
}

/** Usage: `input_tokens` (with `input_tokens_details.cached_tokens`), `output_tokens` (with reasoning tokens). */
export function toUsage(usage: unknown): Usage | undefined {
  const input = read(usage, 'input_tokens');
  const output = read(usage, 'output_tokens');
  if (typeof input !== 'number' && typeof output !== 'number') return undefined;
  const promptTokens = typeof input === 'number' ? input : 0;
  const completionTokens = typeof output === 'number' ? output : 0;
  const total = read(usage, 'total_tokens');
  const result: Usage = { promptTokens, completionTokens, totalTokens: typeof total === 'number' ? total : promptTokens + completionTokens };
  const cached = read(read(usage, 'input_tokens_details'), 'cached_tokens');
  if (typeof cached === 'number') result.cachedPromptTokens = cached;
  const reasoning = read(read(usage, 'output_tokens_details'), 'reasoning_tokens');
  if (typeof reasoning === 'number') result.reasoningTokens = reasoning;
  return result;
}

/**
 * The finish reason of a finished response: `incomplete` by `max_output_tokens` → `length`, by `content_filter` →
 * `content_filter`; a completed answer that only refused → `refusal`; with function calls → `tool_calls`; else `stop`.
 */
export function finishOf(response: unknown, calls: number, refused: boolean, secrets: readonly string[]): FinishReason {
  if (read(response, 'status') === 'incomplete') {
    const reason = read(read(response, 'incomplete_details'), 'reason');
    if (reason === 'max_output_tokens') return 'length';
    return typeof reason === 'string' && reason !== '' ? excerpt(reason, secrets, 100) : 'length';
  }
  if (calls > 0) return 'tool_calls';
  return refused ? 'refusal' : 'stop';
}

/** The text of a `message` item's parts: `output_text` as text, `refusal` as text that marks the answer refused. */
export function messageText(item: unknown, label: string, secrets: readonly string[]): { text: string; refused: boolean } {
  let text = '';
  let refused = false;
  const content = read(item, 'content');
  for (const part of Array.isArray(content) ? content : []) {
    const type = read(part, 'type');
    if (type === 'output_text' && typeof read(part, 'text') === 'string') text += read(part, 'text') as string;
    else if (type === 'refusal' && typeof read(part, 'refusal') === 'string') {
      text += read(part, 'refusal') as string;
      refused = true;
    } else {
      throw new ChatClientError(`${label} answered with a message part of a type this client does not decode (${excerpt(String(type), secrets, 60)})`, { reason: 'invalid_response', retryable: false });
    }
  }
  return { text, refused };
}

/** The readable reasoning of a `reasoning` item: its summary texts (and `content` reasoning text, where a server sends it). */
export function reasoningText(item: unknown): string {
  let text = '';
  for (const key of ['summary', 'content'] as const) {
    const parts = read(item, key);
    for (const part of Array.isArray(parts) ? parts : []) {
      const value = read(part, 'text');
      if (typeof value === 'string') text += (text === '' ? '' : '\n\n') + value;
    }
  }
  return text;
}

/**
 * Why an output item cannot be kept to go back (`core/replay-bounds.ts`): its `id`, `call_id` or `name` past
 * {@link MAX_ID_LENGTH}, or a reasoning item — its `encrypted_content`, its summary, whatever else it holds: it goes
 * back verbatim — past {@link MAX_REPLAY_LENGTH} as JSON, or not writable as JSON at all (nested past the runtime's
 * stack, which `JSON.parse` accepts); `undefined` when it can.
 */
export function replayProblem(item: Record<string, unknown>): string | undefined {
  for (const key of ['id', 'call_id', 'name']) {
    const value = item[key];
    const long = typeof value === 'string' ? overLimit(`an output item's ${key}`, value.length, MAX_ID_LENGTH) : undefined;
    if (long) return long;
  }
  if (item.type !== 'reasoning') return undefined;
  const text = tryStringify(item);
  return text === undefined ? 'a reasoning item that cannot be written back as JSON' : overLimit('a reasoning item', text.length, MAX_REPLAY_LENGTH);
}

/** The replay slot an output item leaves: a reasoning item verbatim, the ids of the others. */
export function replaySlot(item: Record<string, unknown>): ReplayItem | undefined {
  if (item.type === 'reasoning') return { protocol: RESPONSES_REPLAY, item: { ...item } };
  if (item.type === 'message' && typeof item.id === 'string') return { protocol: RESPONSES_REPLAY, item: { type: 'message', id: item.id } };
  if (item.type === 'function_call' && typeof item.id === 'string' && typeof item.call_id === 'string') {
    return { protocol: RESPONSES_REPLAY, item: { type: 'function_call', id: item.id, call_id: item.call_id } };
  }
  return undefined;
}

/** Where an answer came from, for its errors. */
export interface FailureContext {
  label: string;
  model: string;
  secrets: readonly string[];
  requestId?: string | undefined;
  attempt?: number | undefined;
}

/** Decodes a whole Responses answer; a `failed` one and anything that is not one are typed errors. */
export function decodeResponse(body: unknown, context: FailureContext): ChatResponse {
  const output = read(body, 'output');
  if (!isPlainObject(body) || !Array.isArray(output)) {
    throw new ChatClientError(`${context.label} answered with something that is not a Responses answer (no output array)`, { reason: 'invalid_response', retryable: false });
  }
  const wrong = responseMisfit(body);
  if (wrong) throw new ChatClientError(`${context.label} answered with a response with ${wrong}`, { reason: 'invalid_response', retryable: false });
  if (body.status === 'failed') {
    const given = read(body.error, 'code');
    const code = typeof given === 'string' && given !== '' ? excerpt(given, context.secrets, 100) : undefined;
    const message = read(body.error, 'message');
    const said = typeof message === 'string' ? excerpt(message, context.secrets, 500) : describeRemote(body.error ?? null, context.secrets, 500);
    // The classification table of the HTTP and stream paths: a listed code is the HTTP status it stands for.
    const known = codeClass(code);
    throw new ChatClientError(`${context.label} answered with a failed response${code ? ` (${code})` : ''}: ${said}`, {
      reason: known === undefined ? 'invalid_response' : 'http',
      status: known?.status,
      retryable: known?.retryable ?? false,
      code,
      providerMessage: said,
      requestId: context.requestId,
      model: context.model,
      attempts: context.attempt,
    });
  }
  let text = '';
  let reasoning = '';
  let refused = false;
  let hasReasoning = false;
  const toolCalls: ToolCall[] = [];
  const replay: ReplayItem[] = [];
  const unknown: string[] = [];
  for (const item of output) {
    const kind = isPlainObject(item) ? itemKind(item.type) : 'unknown';
    if (kind === 'message') {
      const said = messageText(item, context.label, context.secrets);
      text += said.text;
      refused ||= said.refused;
    } else if (kind === 'reasoning') {
      hasReasoning = true;
      const said = reasoningText(item);
      if (said !== '') reasoning += (reasoning === '' ? '' : '\n\n') + said;
    } else if (kind === 'function_call') {
      const callId = read(item, 'call_id');
      const name = read(item, 'name');
      if (typeof callId !== 'string' || callId === '' || typeof name !== 'string') {
        throw new ChatClientError(`${context.label} answered with a function_call without a call_id or name`, { reason: 'invalid_response', retryable: false });
      }
      if (toolCalls.some((call) => call.id === callId)) {
        throw new ChatClientError(`${context.label} answered with a second function_call ${excerpt(callId, context.secrets, 60)}`, { reason: 'invalid_response', retryable: false }); // one call run twice
      }
      const args = toolArgumentsText(read(item, 'arguments') ?? '', name, context.secrets);
      toolCalls.push({ id: callId, name, arguments: args });
    } else if (kind === 'unknown') unknown.push(excerpt(String(read(item, 'type') ?? typeof item), context.secrets, 60));
    if (kind !== 'unknown' && kind !== 'skipped') {
      const long = replayProblem(item as Record<string, unknown>);
      if (long) throw new ChatClientError(`${context.label} answered with ${long}`, { reason: 'invalid_response', retryable: false });
      const slot = replaySlot(item as Record<string, unknown>);
      if (slot) replay.push(slot);
    }
  }
  if (unknown.length > 0) {
    throw new ChatClientError(`${context.label} answered with output items of a type this client does not decode (${listed(unknown)})`, { reason: 'invalid_response', retryable: false });
  }
  const finishReason = finishOf(body, toolCalls.length, refused, context.secrets);
  // No arguments at all are `{}`, unless the output limit cut the call (the agent loop then refuses to run it).
  if (finishReason !== 'length') for (const call of toolCalls) if (call.arguments === '') call.arguments = '{}';
  const message: ChatMessage = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text };
  if (toolCalls.length > 0) message.toolCalls = toolCalls;
  if (reasoning !== '') message.reasoning = reasoning;
  if (hasReasoning) message.replay = replay;
  const response: ChatResponse = { message, finishReason };
  const usage = toUsage(body.usage);
  if (usage) response.usage = usage;
  if (typeof body.id === 'string') response.responseId = excerpt(body.id, context.secrets);
  if (typeof body.model === 'string') response.model = excerpt(body.model, context.secrets);
  return response;
}

/**
 * @internal The events the stream decoder reads the answer from (responses-stream-decoder.ts `dispatch`; a test keeps
 * the two in step: test/chat/responses-reads-in-step.test.ts), and the types of their fields that carry it.
 */
export const READS = [
  'response.completed',
  'response.incomplete',
  'response.output_item.added',
  'response.output_item.done',
  'response.output_text.delta',
  'response.refusal.delta',
  'response.reasoning_summary_text.delta',
  'response.reasoning_text.delta',
  'response.function_call_arguments.delta',
  'response.function_call_arguments.done',
];
const EVENT = { delta: 's', arguments: 's', item: 'o', response: 'o' } as const;
const ITEM = { id: 's', call_id: 's', name: 's', arguments: 's', status: 's', content: 'a', summary: 'a' } as const;
const PART = { text: 's', refusal: 's' } as const;
const RESPONSE = { status: 's', output: 'a', usage: 'o', incomplete_details: 'o' } as const;
const INCOMPLETE = { reason: 's' } as const;

/**
 * @internal In an event of a `type` the stream decoder reads, the first field of the answer of another JSON type than
 * its own (`misfit`: it would be read as absent, a quieter answer), said; `undefined` when there is none. Event types
 * it ignores are not checked (types added later are skipped whatever they hold).
 */
export function answerMisfit(type: string, data: Record<string, unknown>): string | undefined {
  return READS.includes(type) ? (misfit(data, EVENT) ?? itemMisfit(data.item) ?? responseMisfit(data.response)) : undefined;
}

/** @internal The same for a whole response: its status, output, usage and each output item. */
export function responseMisfit(response: unknown): string | undefined {
  let wrong = misfit(response, RESPONSE) ?? misfit(read(response, 'incomplete_details'), INCOMPLETE);
  const output = read(response, 'output');
  for (const item of Array.isArray(output) ? output : []) wrong ??= itemMisfit(item);
  return wrong;
}

/** The same for an output item, and the parts of its content or summary. */
function itemMisfit(item: unknown): string | undefined {
  let wrong = misfit(item, ITEM);
  for (const key of ['content', 'summary']) {
    const parts = read(item, key);
    for (const part of Array.isArray(parts) ? parts : []) wrong ??= isPlainObject(part) ? misfit(part, PART) : `${key} holding a part that is no object`;
  }
  return wrong;
}
