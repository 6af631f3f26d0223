/**
 * The OpenAI chat completions wire format: encoding a `ChatRequest` (with validation that reports every problem at
 * once) and decoding a non-streamed completion.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
import { ChatClientError } from '../../errors/chat-client-error.js';
import { ConfigError } from '../../errors/config-error.js';
import { read } from '../../internal/error-chain.js';
import { isPlainObject, truncate } from '../../internal/json.js';
import { redactText } from '../../internal/redact.js';
import { requestProblems } from '../core/request-checks.js';
import { toUsage } from './openai-usage.js';
import { contentParts } from './openai-content.js';
import { toolArgumentsText } from '../core/tool-call-arguments.js';
import type { ChatMessage, ChatRequest, ChatResponse, ToolCall } from '../core/types.js';

/** The JSON body of a chat completions request. Throws `ConfigError` listing every problem of the request. */
export function encodeRequest(
  request: ChatRequest,
  model: string,
  stream: boolean,
  extra: { includeUsage: boolean; body?: Record<string, unknown> | undefined; reasoningReplay?: 'tool-calls' | 'none' | undefined },
): string {
  const problems = requestProblems(request);
  if (problems.length > 0) throw ConfigError.fromProblems('chat request', problems);
  const replay = extra.reasoningReplay === 'tool-calls';
  const body: Record<string, unknown> = { ...extra.body, model, messages: request.messages.map((message) => encodeMessage(message, replay)), stream };
  if (stream && extra.includeUsage) body.stream_options = { include_usage: true };
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.toolChoice !== undefined) {
    body.tool_choice = typeof request.toolChoice === 'string' ? request.toolChoice : { type: 'function', function: { name: request.toolChoice.name } };
  }
  if (request.responseFormat !== undefined) {
    body.response_format = { type: 'json_schema', json_schema: { name: request.responseFormat.name, schema: request.responseFormat.schema, strict: false } };
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw new ConfigError('The chat request cannot be written as JSON', { cause: error });
  }
}

function encodeMessage(message: ChatMessage, replayReasoning: boolean): Record<string, unknown> {
  const encoded: Record<string, unknown> = { role: message.role, content: message.content };
  if (message.name !== undefined) encoded.name = message.name;
  if (message.role === 'assistant' && message.toolCalls && message.toolCalls.length > 0) {
    encoded.tool_calls = message.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
    if (replayReasoning) encoded.reasoning_content = message.reasoning ?? ''; // DeepSeek/Moonshot thinking mode: required, even empty
  }
  if (message.role === 'tool') encoded.tool_call_id = message.toolCallId;
  return encoded;
}

/** Decodes a non-streamed completion; a body that is not one is a `ChatClientError` (`invalid_response`). */
export function decodeCompletion(body: unknown, label: string, createId: () => string, secrets: readonly string[] = []): ChatResponse {
  const choice = read(read(body, 'choices'), '0');
  const message = read(choice, 'message');
  if (!isPlainObject(message)) {
    throw new ChatClientError(`${label} answered with something that is not a chat completion (no choices[0].message)`, {
      reason: 'invalid_response',
      retryable: false,
    });
  }
  const toolCalls: ToolCall[] = [];
  const rawCalls = message.tool_calls;
  if (Array.isArray(rawCalls)) {
    for (const raw of rawCalls) {
      const fn = read(raw, 'function');
      const name = read(fn, 'name');
      if (typeof name !== 'string') continue;
      const args = read(fn, 'arguments');
      const id = read(raw, 'id');
      toolCalls.push({
        id: typeof id === 'string' && id !== '' ? id : createId(),
        name,
        arguments: toolArgumentsText(args, name),
      });
    }
  }
  const parts = contentParts(message.content);
  if (parts.unknown.length > 0) {
    throw new ChatClientError(`${label} answered with content parts of a type this client does not decode (${[...new Set(parts.unknown)].join(', ')})`, {
      reason: 'invalid_response',
      retryable: false,
    });
  }
  const refusal = parts.refusal + (typeof message.refusal === 'string' ? message.refusal : '');
  const text = parts.text + refusal;
  const chatMessage: ChatMessage = { role: 'assistant', content: text === '' && message.content !== '' ? null : text };
  if (toolCalls.length > 0) chatMessage.toolCalls = toolCalls;
  const reasoning = message.reasoning_content ?? message.reasoning;
  const thought = (typeof reasoning === 'string' ? reasoning : '') + parts.reasoning;
  if (thought !== '') chatMessage.reasoning = thought;
  const finish = read(choice, 'finish_reason');
  const given = typeof finish === 'string' && finish !== '' ? finish : toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const response: ChatResponse = {
    message: chatMessage,
    finishReason: refusal !== '' && given === 'stop' ? 'refusal' : given, // a refusal is never a plain `stop`
  };
  const usage = toUsage(read(body, 'usage'));
  if (usage) response.usage = usage;
  // Remote text that reaches events and A2A metadata (llm_response_id): bounded and redacted like any other.
  const id = read(body, 'id');
  if (typeof id === 'string') response.responseId = truncate(redactText(id, secrets), 200);
  const model = read(body, 'model');
  if (typeof model === 'string') response.model = truncate(redactText(model, secrets), 200);
  return response;
}
