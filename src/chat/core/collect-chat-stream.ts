import { StreamError } from '../../errors/stream-error.js';
import type { ChatChunk, ChatMessage, ChatResponse, FinishReason, ToolCall, Usage } from './types.js';

/**
 * Reads a chat stream to the end and assembles the complete answer: text, reasoning, tool calls in the order they
 * finished, usage and finish reason. Rejects with the stream's error; a stream without a `finish` chunk is a
 * `StreamError` (`incomplete`).
 *
 * @example
 * ```ts
 * const response = await collectChatStream(client.stream({ messages: [{ role: 'user', content: 'Hi' }] }));
 * console.log(response.message.content, response.finishReason);
 * ```
 */
export async function collectChatStream(stream: ReadableStream<ChatChunk>): Promise<ChatResponse> {
  const reader = stream.getReader();
  let text = '';
  let reasoning = '';
  const toolCalls: ToolCall[] = [];
  let finish: Extract<ChatChunk, { type: 'finish' }> | undefined;
  let usage: Usage | undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      switch (value.type) {
        case 'text-delta':
          text += value.delta;
          break;
        case 'reasoning-delta':
          reasoning += value.delta;
          break;
        case 'tool-call-end':
          toolCalls.push({ id: value.id, name: value.name, arguments: value.arguments });
          break;
        case 'usage':
          usage = value.usage;
          break;
        case 'finish':
          finish = value;
          break;
        default:
          break;
      }
    }
  } finally {
    reader.releaseLock();
  }
  if (!finish) throw new StreamError('The model stream ended without a finish', { reason: 'incomplete', afterOutput: text !== '' || toolCalls.length > 0 });
  const message: ChatMessage = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text };
  if (toolCalls.length > 0) message.toolCalls = toolCalls;
  if (reasoning !== '') message.reasoning = reasoning;
  if (finish.replay && finish.replay.length > 0) message.replay = finish.replay;
  const response: ChatResponse = { message, finishReason: finish.reason };
  const finalUsage = finish.usage ?? usage;
  if (finalUsage) response.usage = finalUsage;
  if (finish.responseId) response.responseId = finish.responseId;
  if (finish.model) response.model = finish.model;
  if (finish.requestId) response.requestId = finish.requestId;
  return response;
}

/**
 * The chunks a streamed version of a complete answer would have produced (used when a server ignores `stream: true`,
 * and by the scripted client). Text can be split into pieces of `chunkSize` characters.
 * @example `responseChunks({ message: { role: 'assistant', content: 'Hi' }, finishReason: 'stop' })`
 */
export function responseChunks(response: ChatResponse, chunkSize = Infinity): ChatChunk[] {
  const chunks: ChatChunk[] = [];
  const split = (text: string, type: 'text-delta' | 'reasoning-delta') => {
    const size = Math.max(1, Math.min(chunkSize, text.length));
    for (let start = 0; start < text.length; start += size) chunks.push({ type, delta: text.slice(start, start + size) });
  };
  if (response.message.reasoning) split(response.message.reasoning, 'reasoning-delta');
  if (response.message.content) split(response.message.content, 'text-delta');
  (response.message.toolCalls ?? []).forEach((call, index) => {
    chunks.push({ type: 'tool-call-start', index, id: call.id, name: call.name });
    if (call.arguments !== '') chunks.push({ type: 'tool-call-delta', index, id: call.id, argumentsDelta: call.arguments });
    chunks.push({ type: 'tool-call-end', index, id: call.id, name: call.name, arguments: call.arguments });
  });
  if (response.usage) chunks.push({ type: 'usage', usage: response.usage });
  const finish: ChatChunk = { type: 'finish', reason: response.finishReason };
  if (response.usage) finish.usage = response.usage;
  if (response.responseId) finish.responseId = response.responseId;
  if (response.model) finish.model = response.model;
  if (response.requestId) finish.requestId = response.requestId;
  if (response.message.replay && response.message.replay.length > 0) finish.replay = response.message.replay;
  chunks.push(finish);
  return chunks;
}
