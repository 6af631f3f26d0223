/**
 * @internal Encoding a `ChatRequest` as an Anthropic Messages request body: system messages become the top-level
 * `system`, user and assistant messages carry content blocks, an assistant's tool calls are `tool_use` blocks (their
 * `input` the parsed JSON arguments), and consecutive tool messages become one user message of `tool_result` blocks
 * (`is_error: true` when the text is a faultline tool result with `"ok":false`, so the model sees our structured
 * error as an error). Every problem of the request is reported at once, as a `ConfigError`.
 *
 * What is sent back of the model's reasoning (the per-provider rule): Anthropic requires `thinking` blocks to be
 * passed back unmodified, with their `signature` (and `redacted_thinking` blocks with their `data`), on the assistant
 * turn that called tools when extended thinking is on; a thinking block without its signature is rejected. So the
 * assistant message's `replay` items of protocol `anthropic-messages` go back first in its content, as they came;
 * `reasoning` text alone (from another provider, or without a signature) is never sent, nor are other protocols'
 * items.
 * @see https://docs.anthropic.com/en/api/messages
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks
 */
import { ConfigError } from '../../errors/config-error.js';
import { isPlainObject, refusedValue } from '../../internal/json.js';
import { requestProblems } from '../core/request-checks.js';
import { ANTHROPIC_REPLAY } from './anthropic-message.js';
import { addOutputTool, outputToolName } from './anthropic-output-tool.js';
import type { ChatMessage, ChatRequest } from '../core/types.js';

/** One content block of a request message. */
export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: true };

/** One message of the `messages` array. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

/** What the encoder needs besides the request. */
export interface AnthropicEncodeSettings {
  model: string;
  /** `max_tokens` when the request has none (Anthropic requires it). */
  maxTokens: number;
  stream: boolean;
  /** Extra top-level fields (e.g. `{ thinking: … }`, `metadata`); the SDK's own fields win. */
  body?: Record<string, unknown> | undefined;
}

/** True when `text` is a faultline tool result JSON saying the call failed (`{"ok":false,…}`). */
export function isFailedToolResult(text: string | null): boolean {
  if (text === null || !text.trimStart().startsWith('{')) return false;
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) && parsed.ok === false;
  } catch {
    return false;
  }
}

/** The JSON body of a Messages request. Throws `ConfigError` listing every problem. */
export function encodeAnthropicRequest(request: ChatRequest, settings: AnthropicEncodeSettings): string {
  const problems = requestProblems(request);
  if (problems.length > 0) throw ConfigError.fromProblems('chat request', problems);
  const system: string[] = [];
  const messages: AnthropicMessage[] = [];
  const push = (role: 'user' | 'assistant', blocks: AnthropicBlock[]) => {
    if (blocks.length === 0) return; // Anthropic rejects empty content; an empty message says nothing
    const last = messages[messages.length - 1];
    // Consecutive messages of one role are one turn (the API merges them too); tool results stay first in theirs.
    if (last && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const message of request.messages) {
    if (message.role === 'system') {
      if (message.content) system.push(message.content);
    } else if (message.role === 'user') {
      push('user', textBlocks(message));
    } else if (message.role === 'assistant') {
      push('assistant', [...thinkingBlocks(message), ...textBlocks(message), ...toolUseBlocks(message)]);
    } else {
      const result: AnthropicBlock = { type: 'tool_result', tool_use_id: message.toolCallId as string, content: message.content ?? '' };
      if (isFailedToolResult(message.content)) result.is_error = true;
      push('user', [result]);
    }
  }
  if (messages.length === 0) problems.push('messages must hold at least one user or assistant message with content (system messages alone are not a conversation)');
  const maxTokens = request.maxTokens ?? settings.maxTokens;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) problems.push(`maxTokens must be an integer ≥ 1 (got ${refusedValue(maxTokens)})`);
  if (problems.length > 0) throw ConfigError.fromProblems('chat request', problems);

  const body: Record<string, unknown> = { ...settings.body, model: settings.model, max_tokens: maxTokens, messages };
  if (system.length > 0) body.system = system.join('\n\n');
  if (settings.stream) body.stream = true;
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
  }
  const choice = toolChoice(request);
  if (choice) body.tool_choice = choice;
  const output = outputToolName(request);
  if (output) addOutputTool(body, request, output);
  if (request.temperature !== undefined) body.temperature = request.temperature;
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw new ConfigError('The chat request cannot be written as JSON', { cause: error });
  }
}

/** The assistant's Anthropic replay items (thinking with signature, redacted thinking), in the order they came. */
function thinkingBlocks(message: ChatMessage): AnthropicBlock[] {
  const blocks: AnthropicBlock[] = [];
  for (const { protocol, item } of message.replay ?? []) {
    if (protocol !== ANTHROPIC_REPLAY) continue;
    if (item.type === 'thinking' && typeof item.thinking === 'string' && typeof item.signature === 'string') {
      blocks.push({ type: 'thinking', thinking: item.thinking, signature: item.signature });
    } else if (item.type === 'redacted_thinking' && typeof item.data === 'string') blocks.push({ type: 'redacted_thinking', data: item.data });
  }
  return blocks;
}

function textBlocks(message: ChatMessage): AnthropicBlock[] {
  return message.content ? [{ type: 'text', text: message.content }] : [];
}

/**
 * An assistant's tool calls as `tool_use` blocks. Arguments are what the model wrote, and a transcript the model
 * wrote is never refused: arguments that are not a JSON object (cut by the output limit, broken JSON, an array…) were
 * never run — the agent answered them with an `InputValidationError` result saying why — so they go back as `{}`,
 * the one input Anthropic accepts for such a call, next to that result.
 */
function toolUseBlocks(message: ChatMessage): AnthropicBlock[] {
  return (message.toolCalls ?? []).map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: objectArguments(call.arguments) }));
}

function objectArguments(text: string): Record<string, unknown> {
  if (!text.trimStart().startsWith('{')) return {};
  try {
    const input: unknown = JSON.parse(text);
    return isPlainObject(input) ? input : {};
  } catch {
    return {};
  }
}

/** `tool_choice`: auto / any (`'required'`) / tool (`{name}`) / none; `parallelToolCalls: false` disables parallel use. */
function toolChoice(request: ChatRequest): Record<string, unknown> | undefined {
  const given = request.toolChoice;
  let choice: Record<string, unknown> | undefined;
  if (given === 'auto') choice = { type: 'auto' };
  else if (given === 'required') choice = { type: 'any' };
  else if (given === 'none') return { type: 'none' };
  else if (isPlainObject(given) && typeof given.name === 'string') choice = { type: 'tool', name: given.name };
  if (request.parallelToolCalls === false && request.tools && request.tools.length > 0) {
    choice = { ...(choice ?? { type: 'auto' }), disable_parallel_tool_use: true };
  }
  return choice;
}
