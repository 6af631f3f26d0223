import { ConfigError } from '../errors/config-error.js';
import { delay } from '../internal/delay.js';
import { batchClient, type ChatBatches } from './core/chat-batches.js';
import { collectChatStream, responseChunks } from './core/collect-chat-stream.js';
import { requestProblems } from './core/request-checks.js';
import { toolArgumentsText } from './core/tool-call-arguments.js';
import type { ChatChunk, ChatClient, ChatRequest, ChatResponse, FinishReason, ToolCall, Usage } from './core/types.js';

/** One scripted model answer. */
export interface ScriptedAnswer {
  /** Text to stream. */
  text?: string;
  /** Reasoning to stream before the text. */
  reasoning?: string;
  /** Tool calls to issue; `arguments` may be an object (JSON-encoded for you) or raw text (even invalid JSON). */
  toolCalls?: Array<{ id?: string; name: string; arguments: string | Record<string, unknown> }>;
  /** @default 'tool_calls' when there are tool calls, else 'stop' */
  finishReason?: FinishReason;
  usage?: Usage;
  /** Fail the call with this error — after streaming `reasoning`/`text` if given, else before any output. */
  error?: unknown;
  /** Wait before the first chunk, in ms (honours the request's signal). */
  delayMs?: number;
  /** Stream text in pieces of this many characters. @default 12 */
  chunkSize?: number;
}

/** A scripted answer, or a function that makes one from the request. */
export type ScriptedTurn = ScriptedAnswer | ((request: ChatRequest, call: number) => ScriptedAnswer | Promise<ScriptedAnswer>);

/** Options of {@link createScriptedChatClient}. */
export interface ScriptedChatClientOptions {
  /** @default 'scripted' */
  name?: string;
  /** Start again from the first turn when the script runs out (instead of failing). @default false */
  loop?: boolean;
}

/** A scripted client also records what it was asked. */
export interface ScriptedChatClient extends ChatClient {
  /** Every request received, in order. */
  readonly requests: readonly ChatRequest[];
}

/**
 * A chat client that replays given turns with no network: the embedded default for demos, docs and tests. Each
 * call consumes the next turn (text, reasoning, tool calls, or an error); a call past the end of the script fails
 * with a `ConfigError` saying so.
 *
 * @example
 * ```ts
 * const model = createScriptedChatClient([
 *   { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
 *   { text: 'It is 21 °C in Paris.' },
 * ]);
 * ```
 */
export function createScriptedChatClient(turns: readonly ScriptedTurn[], options: ScriptedChatClientOptions = {}): ScriptedChatClient {
  if (!Array.isArray(turns)) throw ConfigError.fromProblems('scripted chat client', ['turns must be an array']);
  const script = [...turns];
  const requests: ChatRequest[] = [];
  const name = options.name ?? 'scripted';

  const answerFor = async (request: ChatRequest, call: number): Promise<ScriptedAnswer> => {
    const index = options.loop && script.length > 0 ? (call - 1) % script.length : call - 1;
    const turn = script[index];
    if (turn === undefined) {
      throw new ConfigError(`The scripted chat client has no turn left for call ${call} (it was given ${script.length})`);
    }
    return typeof turn === 'function' ? await turn(request, call) : turn;
  };

  async function* play(request: ChatRequest, call: number): AsyncGenerator<ChatChunk[], void, undefined> {
    const answer = await answerFor(request, call);
    request.signal?.throwIfAborted();
    if (answer.delayMs) await delay(answer.delayMs, request.signal);
    const toolCalls: ToolCall[] = (answer.toolCalls ?? []).map((toolCall, index) => ({
      id: toolCall.id ?? `call_${call}_${index + 1}`,
      name: toolCall.name,
      arguments: toolArgumentsText(toolCall.arguments, toolCall.name, []),
    }));
    const response: ChatResponse = {
      message: { role: 'assistant', content: answer.text ?? null, toolCalls, ...(answer.reasoning ? { reasoning: answer.reasoning } : {}) },
      finishReason: answer.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      model: name,
    };
    if (answer.usage) response.usage = answer.usage;
    if (answer.error !== undefined) {
      response.message.toolCalls = [];
      const streamed = responseChunks(response, answer.chunkSize ?? 12).filter((chunk) => chunk.type === 'text-delta' || chunk.type === 'reasoning-delta');
      for (const chunk of streamed) {
        yield [chunk];
        await Promise.resolve();
        request.signal?.throwIfAborted();
      }
      throw answer.error;
    }
    for (const chunk of responseChunks(response, answer.chunkSize ?? 12)) {
      request.signal?.throwIfAborted();
      yield [chunk];
    }
  }

  const open = (request: ChatRequest): ChatBatches => {
    const problems = requestProblems(request);
    if (problems.length > 0) throw ConfigError.fromProblems('chat request', problems);
    requests.push(request);
    return { batches: play(request, requests.length), cancel: () => {} };
  };
  const client: ScriptedChatClient = batchClient<ScriptedChatClient>({
    name,
    requests,
    complete(request: ChatRequest): Promise<ChatResponse> {
      try {
        return collectChatStream(client.stream(request));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  }, open);
  return client;
}
