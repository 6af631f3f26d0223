/**
 * @internal Encoding a `ChatRequest` as an OpenAI Responses request body (`input` items): system and user messages
 * as role messages, an assistant's text as an assistant message and each of its tool calls as a `function_call` item
 * (`call_id`, `name`, `arguments`), each tool message as a `function_call_output` item. Tools are `function` tools,
 * `responseFormat` is `text.format: json_schema`, `maxTokens` is `max_output_tokens`. Every problem of the request
 * is reported at once, as a `ConfigError`.
 *
 * What is sent back (the per-provider rule): an assistant message's `replay` items of protocol `openai-responses`
 * rebuild that turn's output items in their order — each `reasoning` item verbatim, then its `message` and
 * `function_call` items with their ids — as the API requires when a reasoning model called tools ("reasoning items
 * must be passed back with the function calls they led to"). `reasoning` text alone, and other protocols' items,
 * are never sent. A tool call the output limit cut (its result says so) goes back with `{}` arguments.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 * @see https://platform.openai.com/docs/guides/function-calling
 */
import { ConfigError } from '../../errors/config-error.js';
import { cutOffCallIds, requestProblems } from '../core/request-checks.js';
import type { ChatMessage, ChatRequest, ToolCall } from '../core/types.js';
import { RESPONSES_REPLAY } from './responses-output.js';
import { refusedValue } from '../../internal/json.js';

/** What the encoder needs besides the request. */
export interface ResponsesEncodeSettings {
  model: string;
  stream: boolean;
  /** `false`: nothing stored at OpenAI, so reasoning items come back with `encrypted_content` to pass back. */
  store?: boolean | undefined;
  /** `max_output_tokens` when the request has none. */
  maxOutputTokens?: number | undefined;
  /** Extra top-level fields (e.g. `{ reasoning: { effort: 'low' } }`); the SDK's own fields win. */
  body?: Record<string, unknown> | undefined;
}

type Item = Record<string, unknown>;

/** The JSON body of a Responses request. Throws `ConfigError` listing every problem. */
export function encodeResponsesRequest(request: ChatRequest, settings: ResponsesEncodeSettings): string {
  const problems = requestProblems(request);
  if (problems.length > 0) throw ConfigError.fromProblems('chat request', problems);
  const cutOff = cutOffCallIds(request.messages);
  const input: Item[] = [];
  for (const message of request.messages) {
    if (message.role === 'system' || message.role === 'user') {
      if (message.content) input.push({ role: message.role, content: message.content });
    } else if (message.role === 'assistant') {
      input.push(...assistantItems(message, cutOff));
    } else {
      input.push({ type: 'function_call_output', call_id: message.toolCallId, output: message.content ?? '' });
    }
  }
  if (input.length === 0) problems.push('messages must hold at least one message with content');
  const maxTokens = request.maxTokens ?? settings.maxOutputTokens;
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 1)) problems.push(`maxTokens must be an integer ≥ 1 (got ${refusedValue(maxTokens)})`);
  if (problems.length > 0) throw ConfigError.fromProblems('chat request', problems);

  const body: Record<string, unknown> = { ...settings.body, model: settings.model, input };
  if (settings.stream) body.stream = true;
  if (settings.store === false) {
    body.store = false;
    const include = Array.isArray(settings.body?.include) ? (settings.body.include as unknown[]) : [];
    body.include = include.includes('reasoning.encrypted_content') ? include : [...include, 'reasoning.encrypted_content'];
  }
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters, strict: false }));
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.toolChoice !== undefined) body.tool_choice = typeof request.toolChoice === 'string' ? request.toolChoice : { type: 'function', name: request.toolChoice.name };
  if (request.responseFormat !== undefined) {
    body.text = { format: { type: 'json_schema', name: request.responseFormat.name, schema: request.responseFormat.schema, strict: false } };
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (maxTokens !== undefined) body.max_output_tokens = maxTokens;
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw new ConfigError('The chat request cannot be written as JSON', { cause: error });
  }
}

function callItem(call: ToolCall, cutOff: ReadonlySet<string>, id?: unknown): Item {
  const item: Item = { type: 'function_call', call_id: call.id, name: call.name, arguments: cutOff.has(call.id) ? '{}' : call.arguments };
  if (typeof id === 'string') item.id = id;
  return item;
}

function textItem(text: string, id?: unknown): Item {
  const item: Item = typeof id === 'string' ? { type: 'message', role: 'assistant', id, status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] } : { role: 'assistant', content: text };
  return item;
}

/** An assistant turn as input items: rebuilt in its original order from its Responses replay items, else plain. */
function assistantItems(message: ChatMessage, cutOff: ReadonlySet<string>): Item[] {
  const items: Item[] = [];
  // Every call goes out once, in order; a replay slot takes the first call with its id not yet sent (ids may repeat
  // in a transcript that came from another provider).
  const calls = [...(message.toolCalls ?? [])];
  const sent = new Set<ToolCall>();
  let text = message.content ?? '';
  for (const { protocol, item } of Array.isArray(message.replay) ? message.replay : []) {
    if (protocol !== RESPONSES_REPLAY) continue;
    if (item.type === 'reasoning') items.push(item);
    else if (item.type === 'message' && text !== '') {
      items.push(textItem(text, item.id));
      text = '';
    } else if (item.type === 'function_call' && typeof item.call_id === 'string') {
      const call = calls.find((candidate) => candidate.id === item.call_id && !sent.has(candidate));
      if (!call) continue;
      sent.add(call);
      items.push(callItem(call, cutOff, item.id));
    }
  }
  if (text !== '') items.push(textItem(text));
  for (const call of calls) if (!sent.has(call)) items.push(callItem(call, cutOff));
  return items;
}
