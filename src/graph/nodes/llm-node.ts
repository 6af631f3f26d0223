/** A graph node that makes one model call over the state's messages (the agent loop's model step, inside a graph). */
import { collectChatStream } from '../../chat/core/collect-chat-stream.js';
import { chatToolDefinitions } from '../../chat/core/tool-definitions.js';
import type { ChatChunk, ChatClient, ChatMessage, ToolChoice } from '../../chat/core/types.js';
import { ObjectType } from '../../runner/constants.js';
import { chunkEvent, createEvent, type RunEvent } from '../../runner/event.js';
import type { AnyTool } from '../../tools/define-tool.js';
import { EXECUTION, type NodeContext } from '../core/node-context.js';
import type { State } from '../core/state-schema.js';

/** Options of `addLLMNode`. */
export interface LLMNodeOptions {
  name?: string | undefined;
  /** Sent first as the system message. */
  instructions?: string | undefined;
  /** Tools offered to the model (run them with a tools node). */
  tools?: readonly AnyTool[] | undefined;
  toolChoice?: ToolChoice | undefined;
  temperature?: number | undefined;
  /** @default 'messages' */
  messagesKey?: string | undefined;
}

/** The conversation so far, and the user message to add to it when the state has only `user_input`. */
function messagesOf(state: State, key: string): { history: ChatMessage[]; added: ChatMessage[] } {
  const messages = state[key];
  if (Array.isArray(messages) && messages.length > 0) return { history: messages as ChatMessage[], added: [] };
  const added: ChatMessage[] = typeof state.user_input === 'string' && state.user_input !== '' ? [{ role: 'user', content: state.user_input }] : [];
  return { history: added, added };
}

/** The node function of an LLM node: appends the assistant message and sets `last_response`. */
export function llmNode(id: string, client: ChatClient, options: LLMNodeOptions) {
  const key = options.messagesKey ?? 'messages';
  const tools = options.tools && options.tools.length > 0 ? chatToolDefinitions(options.tools) : undefined; // fixed per node
  return async (state: State, context: NodeContext): Promise<State> => {
    const { history, added } = messagesOf(state, key);
    const messages: ChatMessage[] = options.instructions ? [{ role: 'system', content: options.instructions }, ...history] : history;
    const emit = context[EXECUTION]?.emit;
    const origin = { invocationId: context.invocationId, author: id };
    const stream = client.stream({
      messages,
      signal: context.signal,
      ...(tools ? { tools } : {}),
      ...(options.toolChoice !== undefined ? { toolChoice: options.toolChoice } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    });
    const observed = emit
      ? stream.pipeThrough(
          new TransformStream<ChatChunk, ChatChunk>({
            transform(chunk, controller) {
              const event = deltaEvent(origin, chunk);
              if (event) emit(event);
              controller.enqueue(chunk);
            },
          }),
        )
      : stream;
    const response = await collectChatStream(observed);
    const message = response.message;
    emit?.(
      createEvent(origin, {
        response: {
          object: ObjectType.ChatCompletion,
          done: true,
          ...(response.responseId ? { id: response.responseId } : {}),
          ...(response.usage ? { usage: response.usage } : {}),
          choices: [{ index: 0, message: { role: 'assistant', content: message.content ?? '', ...(message.toolCalls ? { toolCalls: message.toolCalls } : {}) }, finishReason: response.finishReason }],
        },
      }),
    );
    const update: State = { [key]: [...added, message] };
    if (!message.toolCalls || message.toolCalls.length === 0) update.last_response = message.content ?? '';
    return update;
  };
}

function deltaEvent(origin: { invocationId: string; author: string }, chunk: ChatChunk): RunEvent | undefined {
  if (chunk.type !== 'text-delta' && chunk.type !== 'reasoning-delta') return undefined;
  return chunkEvent(origin, chunk.type === 'text-delta' ? { content: chunk.delta } : { reasoning: chunk.delta });
}
