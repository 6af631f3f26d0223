/**
 * @internal The parts of an Anthropic Messages answer shared by the streamed and the non-streamed path: finish reasons,
 * usage, content block kinds, and decoding a whole (non-streamed) `Message` into a `ChatResponse`. A block of a type
 * this client does not decode is a typed error naming it, never an empty success.
 * @see https://docs.anthropic.com/en/api/messages (the Message object, `stop_reason`, `usage`)
 * @see https://docs.anthropic.com/en/api/handling-stop-reasons
 */
import { ChatClientError } from '../../errors/chat-client-error.js';
import { read } from '../../internal/error-chain.js';
import { isPlainObject } from '../../internal/json.js';
import { misfit } from '../core/event-decoder.js';
import { toolArgumentsText } from '../core/tool-call-arguments.js';
import { excerpt, listed } from '../core/remote-value.js';
import { MAX_ID_LENGTH, MAX_REPLAY_LENGTH, overLimit } from '../core/replay-bounds.js';
import type { ChatMessage, ChatResponse, FinishReason, ReplayItem, ToolCall, Usage } from '../core/types.js';

/**
 * Anthropic's `stop_reason` as a faultline finish reason: `end_turn` / `stop_sequence` → `stop`, `tool_use` →
 * `tool_calls`, `max_tokens` (and `model_context_window_exceeded`) → `length` (so the agent loop's cut-off-call rule
 * applies), `refusal` → `refusal`, and `pause_turn` → `pause_turn`: a long turn with server tools (web search…) was
 * paused; the caller may continue it by sending the answer back as it is. Anything else is passed on unchanged.
 */
export function finishReasonOf(stopReason: string): FinishReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    default:
      return stopReason; // refusal, pause_turn, and reasons added later
  }
}

/** Raw token counts as Anthropic reports them (`message_start` has all, `message_delta` the cumulative ones it updates). */
export interface AnthropicTokens {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheCreation?: number;
}

/** Reads Anthropic `usage` JSON into `into` (fields present overwrite: `message_delta` counts are cumulative). */
export function readTokens(value: unknown, into: AnthropicTokens = {}): AnthropicTokens {
  if (!isPlainObject(value)) return into;
  const take = (key: string): number | undefined => {
    const field = value[key];
    return typeof field === 'number' && Number.isFinite(field) && field >= 0 ? field : undefined;
  };
  into.input = take('input_tokens') ?? into.input;
  into.output = take('output_tokens') ?? into.output;
  into.cacheRead = take('cache_read_input_tokens') ?? into.cacheRead;
  into.cacheCreation = take('cache_creation_input_tokens') ?? into.cacheCreation;
  return into;
}

/**
 * Anthropic's counts as `Usage`. Anthropic's `input_tokens` leaves out the cached part of the prompt, so
 * `promptTokens` is input + cache reads + cache writes (the whole prompt, as other providers count it) and
 * `cachedPromptTokens` the cache reads; `completionTokens` is `output_tokens`. `undefined` when nothing was reported.
 */
export function toUsage(tokens: AnthropicTokens): Usage | undefined {
  if (tokens.input === undefined && tokens.output === undefined) return undefined;
  const promptTokens = (tokens.input ?? 0) + (tokens.cacheRead ?? 0) + (tokens.cacheCreation ?? 0);
  const completionTokens = tokens.output ?? 0;
  const usage: Usage = { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
  if (tokens.cacheRead !== undefined || tokens.cacheCreation !== undefined) usage.cachedPromptTokens = tokens.cacheRead ?? 0;
  return usage;
}

/** The protocol name of Anthropic's items in `ChatMessage.replay`. */
export const ANTHROPIC_REPLAY = 'anthropic-messages';

/**
 * A thinking block as it must go back (`thinking` + `signature`, unmodified), or a `redacted_thinking` block (its
 * encrypted `data`); `undefined` for a thinking block without a signature, which Anthropic would reject.
 */
export function thinkingReplay(type: 'thinking' | 'redacted_thinking', text: string, signatureOrData: string): ReplayItem | undefined {
  if (signatureOrData === '') return undefined;
  const item = type === 'thinking' ? { type, thinking: text, signature: signatureOrData } : { type, data: signatureOrData };
  return { protocol: ANTHROPIC_REPLAY, item };
}

/**
 * Content blocks that carry nothing a `ChatMessage` can hold and are left out on purpose: the blocks of server-side
 * tools, which Anthropic runs itself (their result is in the text that follows). Any other type this client does not
 * know is an error naming it.
 */
const SKIPPED_BLOCKS = new Set([
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
]);

/** How a content block is handled: decoded, skipped on purpose, or unknown. */
export function blockKind(type: string): 'text' | 'thinking' | 'redacted_thinking' | 'tool_use' | 'skipped' | 'unknown' {
  if (type === 'text' || type === 'thinking' || type === 'redacted_thinking' || type === 'tool_use') return type;
  return SKIPPED_BLOCKS.has(type) ? 'skipped' : 'unknown';
}

/**
 * @internal The types of a content block's fields that carry the answer, streamed or whole (`misfit`: another type is
 * a typed error, never read as absent — a quieter answer than the one sent).
 */
export const BLOCK = { id: 's', name: 's', input: 'o', text: 's', thinking: 's', signature: 's', data: 's' } as const;
const MESSAGE = { stop_reason: 's', usage: 'o' } as const;

/** Decodes a non-streamed Messages answer; anything that is not one is a `ChatClientError` (`invalid_response`). */
export function decodeMessage(body: unknown, label: string, secrets: readonly string[]): ChatResponse {
  const content = read(body, 'content');
  if (!isPlainObject(body) || !Array.isArray(content)) {
    throw new ChatClientError(`${label} answered with something that is not a Messages answer (no content array)`, { reason: 'invalid_response', retryable: false });
  }
  let text = '';
  let reasoning = '';
  const toolCalls: ToolCall[] = [];
  const replay: ReplayItem[] = [];
  const unknown: string[] = [];
  /** The first id, name or thinking past its bound (`core/replay-bounds.ts`): kept to go back, so refused. */
  let long: string | undefined;
  /** The first field of another type than its own, or a call id given twice (the same call would run twice). */
  const messageWrong = misfit(body, MESSAGE);
  let wrong = messageWrong && `a message with ${messageWrong}`;
  const ids = new Set<string>();
  for (const block of content) {
    const blockWrong = misfit(block, BLOCK);
    wrong ??= blockWrong && `a content block with ${blockWrong}`;
    const type = isPlainObject(block) && typeof block.type === 'string' ? block.type : typeof block;
    const kind = isPlainObject(block) ? blockKind(type) : 'unknown';
    if (kind === 'text' && typeof read(block, 'text') === 'string') text += read(block, 'text') as string;
    else if (kind === 'thinking' && typeof read(block, 'thinking') === 'string') {
      const thinking = read(block, 'thinking') as string;
      reasoning += thinking;
      const given = read(block, 'signature');
      const signature = typeof given === 'string' ? given : '';
      long ??= overLimit('a thinking block', thinking.length + signature.length, MAX_REPLAY_LENGTH);
      const item = thinkingReplay('thinking', thinking, signature);
      if (item) replay.push(item);
    } else if (kind === 'redacted_thinking') {
      const given = read(block, 'data');
      const data = typeof given === 'string' ? given : '';
      long ??= overLimit('a thinking block', data.length, MAX_REPLAY_LENGTH);
      const item = thinkingReplay('redacted_thinking', '', data);
      if (item) replay.push(item);
    } else if (kind === 'tool_use' && typeof read(block, 'id') === 'string' && typeof read(block, 'name') === 'string') {
      const id = read(block, 'id') as string;
      const name = read(block, 'name') as string;
      long ??= overLimit('a tool_use id', id.length, MAX_ID_LENGTH) ?? overLimit('a tool name', name.length, MAX_ID_LENGTH);
      if (ids.has(id)) wrong ??= `a second tool_use with the id ${excerpt(id, secrets, 60)}`;
      ids.add(id);
      const args = toolArgumentsText(read(block, 'input') ?? {}, name, secrets);
      toolCalls.push({ id, name, arguments: args === '' ? '{}' : args });
    } else if (kind !== 'skipped') unknown.push(excerpt(type, secrets, 60));
  }
  long ??= wrong;
  if (long) throw new ChatClientError(`${label} answered with ${long}`, { reason: 'invalid_response', retryable: false });
  if (unknown.length > 0) {
    throw new ChatClientError(`${label} answered with content blocks of a type this client does not decode (${listed(unknown)})`, {
      reason: 'invalid_response',
      retryable: false,
    });
  }
  const message: ChatMessage = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text };
  if (toolCalls.length > 0) message.toolCalls = toolCalls;
  if (reasoning !== '') message.reasoning = reasoning;
  if (replay.length > 0) message.replay = replay;
  const stopReason = body.stop_reason;
  const response: ChatResponse = {
    message,
    finishReason: typeof stopReason === 'string' && stopReason !== '' ? finishReasonOf(excerpt(stopReason, secrets, 100)) : toolCalls.length > 0 ? 'tool_calls' : 'stop',
  };
  const usage = toUsage(readTokens(body.usage));
  if (usage) response.usage = usage;
  if (typeof body.id === 'string') response.responseId = excerpt(body.id, secrets);
  if (typeof body.model === 'string') response.model = excerpt(body.model, secrets);
  return response;
}
