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
import { callMisfit, choiceMisfit } from './openai-fields.js';
import { toolArgumentsText } from '../core/tool-call-arguments.js';
import { MAX_ID_LENGTH, overLimit } from '../core/replay-bounds.js';
import type { ChatMessage, ChatRequest, ChatResponse, ChatToolDefinition, ToolCall } from '../core/types.js';
import { isSealedToolDefinition } from '../core/tool-definitions.js';

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
  const tools = request.tools && request.tools.length > 0 ? request.tools : undefined;
  // The tools as text written once per definition (an agent's are sealed), spliced after the fields before them —
  // unless extra fields reuse one of the later names, whose place in the body the general path keeps.
  const splice = tools !== undefined && !reusesLaterField(extra.body);
  const rest: Record<string, unknown> = splice ? {} : body;
  if (tools !== undefined) {
    if (!splice) body.tools = tools.map(toolJSON);
    if (request.parallelToolCalls !== undefined) rest.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.toolChoice !== undefined) {
    rest.tool_choice = typeof request.toolChoice === 'string' ? request.toolChoice : { type: 'function', function: { name: request.toolChoice.name } };
  }
  if (request.responseFormat !== undefined) {
    rest.response_format = { type: 'json_schema', json_schema: { name: request.responseFormat.name, schema: request.responseFormat.schema, strict: false } };
  }
  if (request.temperature !== undefined) rest.temperature = request.temperature;
  if (request.maxTokens !== undefined) rest.max_tokens = request.maxTokens;
  try {
    if (!splice) return JSON.stringify(body);
    const head = JSON.stringify(body);
    const tail = JSON.stringify(rest);
    return `${head.slice(0, -1)},"tools":${toolsText(tools as readonly ChatToolDefinition[])}${tail === '{}' ? '}' : `,${tail.slice(1)}`}`;
  } catch (error) {
    throw new ConfigError('The chat request cannot be written as JSON', { cause: error });
  }
}

/** The body fields written after `tools` (and `toJSON`): extra fields that reuse one keep their own place (general path). */
const LATER_FIELDS = ['tools', 'parallel_tool_calls', 'tool_choice', 'response_format', 'temperature', 'max_tokens', 'toJSON'];

function reusesLaterField(extraBody: Record<string, unknown> | undefined): boolean {
  if (extraBody === undefined) return false;
  for (const name of LATER_FIELDS) if (Object.prototype.hasOwnProperty.call(extraBody, name)) return true;
  return false;
}

function toolJSON(tool: ChatToolDefinition): Record<string, unknown> {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

/** The encoded text of each sealed definition, written once (an agent sends the same tools with every call). */
const encodedTools = new WeakMap<ChatToolDefinition, string>();

/** `JSON.stringify(tools.map(toolJSON))`, reusing the text of sealed definitions. */
function toolsText(tools: readonly ChatToolDefinition[]): string {
  let text = '[';
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index] as ChatToolDefinition;
    let encoded = encodedTools.get(tool);
    if (encoded === undefined) {
      encoded = JSON.stringify(toolJSON(tool));
      if (isSealedToolDefinition(tool)) encodedTools.set(tool, encoded);
    }
    text += index === 0 ? encoded : `,${encoded}`;
  }
  return `${text}]`;
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
  const invalid = (what: string) => new ChatClientError(`${label} answered with ${what}`, { reason: 'invalid_response', retryable: false });
  const wrong = choiceMisfit(choice); // a field of another type would be read as absent: a quieter answer
  if (wrong) throw invalid(`a choice with ${wrong}`);
  const toolCalls: ToolCall[] = [];
  const rawCalls = message.tool_calls;
  if (Array.isArray(rawCalls)) {
    for (const raw of rawCalls) {
      const fn = read(raw, 'function');
      const given = read(fn, 'name');
      const wrongCall = callMisfit(raw) ?? (typeof given === 'string' ? undefined : 'no function name'); // never a call dropped
      if (wrongCall) throw invalid(`a tool call with ${wrongCall}`);
      const name = given as string;
      const args = read(fn, 'arguments');
      const id = read(raw, 'id');
      // Kept to go back on the next request: past the bound (`core/replay-bounds.ts`), refused.
      const long = overLimit('a tool call id', typeof id === 'string' ? id.length : 0, MAX_ID_LENGTH) ?? overLimit('a tool name', name.length, MAX_ID_LENGTH);
      if (long) throw invalid(long);
      if (typeof id === 'string' && toolCalls.some((call) => call.id === id)) throw invalid(`a second tool call with the id ${truncate(redactText(id, secrets), 60)}`); // one call run twice
      toolCalls.push({
        id: typeof id === 'string' && id !== '' ? id : createId(),
        name,
        arguments: toolArgumentsText(args, name, secrets),
      });
    }
  }
  const parts = contentParts(message.content);
  if (parts.unknown.length > 0) {
    throw new ChatClientError(`${label} answered with content parts of a type this client does not decode (${truncate(redactText([...new Set(parts.unknown)].join(', '), secrets), 200)})`, {
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
