/**
 * The vocabulary of model calls: messages, tool calls, streamed chunks, usage, requests and responses.
 * Plain serializable data throughout.
 */
import type { JSONSchema } from '../../tools/standard-schema.js';

/** Who wrote a message. */
export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

/** A complete tool call issued by the model. `arguments` is the raw JSON text the model produced. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One message of a conversation (OpenAI chat shape, camelCased). */
export interface ChatMessage {
  role: ChatRole;
  /** Text content; `null` for an assistant message that only calls tools. */
  content: string | null;
  /** Optional author name. */
  name?: string;
  /** Tool calls of an assistant message. */
  toolCalls?: ToolCall[];
  /** The call answered by a tool message. */
  toolCallId?: string;
  /**
   * Reasoning text of an assistant message (DeepSeek `reasoning_content`, Mistral `thinking` parts). Sent back only
   * where the provider requires it (see `reasoningReplay` of the OpenAI-compatible client).
   */
  reasoning?: string;
  /**
   * Provider data an assistant message must carry back to the same provider verbatim: Anthropic `thinking` blocks with
   * their `signature` (and `redacted_thinking`), OpenAI Responses `reasoning` items. Each client sends back only the
   * items of its own `protocol`, so a transcript that moves to another provider (a fallback) stays valid there.
   */
  replay?: ReplayItem[];
}

/**
 * One opaque item of {@link ChatMessage.replay}: plain JSON, kept in sessions like the rest of the message.
 * @example `{ protocol: 'anthropic-messages', item: { type: 'thinking', thinking: '…', signature: 'EqQB…' } }`
 */
export interface ReplayItem {
  /** The wire protocol that produced it and accepts it back: `anthropic-messages`, `openai-responses`. */
  protocol: string;
  item: Record<string, unknown>;
}

/** Token counts reported by the provider. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Tokens spent on reasoning, when reported. */
  reasoningTokens?: number;
  /** Prompt tokens served from the provider's cache, when reported. */
  cachedPromptTokens?: number;
}

/** Why the model stopped: the provider's reasons, plus `max_iterations` from the agent loop. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'refusal' | 'max_iterations' | (string & {});

/** A typed piece of a streamed model response. */
export type ChatChunk =
  | { type: 'text-delta'; delta: string }
  | { type: 'reasoning-delta'; delta: string }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; id: string; argumentsDelta: string }
  | { type: 'tool-call-end'; index: number; id: string; name: string; arguments: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; reason: FinishReason; usage?: Usage; responseId?: string; model?: string; requestId?: string; replay?: ReplayItem[] };

/** A tool as offered to the model. */
export interface ChatToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: JSONSchema;
}

/** Which tool the model may or must call. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** What a retry notice says (model calls). */
export interface ChatRetryNotice {
  attempt: number;
  delayMs: number;
  fromRetryAfter: boolean;
  /** The failure, JSON-safe. */
  error: Record<string, unknown>;
  /** The shared retry budget refused this retry: no wait follows, the call fails with `error`. */
  budgetExhausted?: boolean;
}

/** One model call. */
export interface ChatRequest {
  messages: readonly ChatMessage[];
  tools?: readonly ChatToolDefinition[] | undefined;
  toolChoice?: ToolChoice | undefined;
  temperature?: number | undefined;
  maxTokens?: number | undefined;
  parallelToolCalls?: boolean | undefined;
  /**
   * Ask for a final answer that is JSON matching `schema`: Chat Completions `response_format: json_schema`, Responses
   * `text.format: json_schema`, Anthropic a forced output tool whose input comes back as the answer's text. The agent
   * validates the answer either way.
   */
  responseFormat?: { name: string; schema: JSONSchema } | undefined;
  /** Cancels the call; the stream then errors with `signal.reason`. */
  signal?: AbortSignal | undefined;
  /** Observes retries made before any output; what it throws (or an `async` one rejects with) is dropped. */
  onRetry?: ((notice: ChatRetryNotice) => void) | undefined;
  /** Observes a fallback client moving on to its next client. */
  onFallback?: ((notice: ChatFallbackNotice) => void) | undefined;
}

/** What a fallback notice says. */
export interface ChatFallbackNotice {
  /** The client that failed. */
  from: string;
  /** The client tried next. */
  to: string;
  /** The failure of `from`. */
  error: unknown;
}

/** A complete (non-streamed) model answer. */
export interface ChatResponse {
  message: ChatMessage;
  finishReason: FinishReason;
  usage?: Usage;
  responseId?: string;
  model?: string;
  /** The provider's id of the HTTP request (`x-request-id`, Anthropic's `request-id`), for support tickets. */
  requestId?: string;
}

/** A Web `ReadableStream` of chunks that is also async-iterable in every runtime. */
export type ChatStream = ReadableStream<ChatChunk> & AsyncIterable<ChatChunk>;

/**
 * A model provider. `stream` returns immediately; everything that happens after the request is sent (HTTP errors
 * included) arrives through the stream. Invalid requests throw a `ConfigError` synchronously.
 */
export interface ChatClient {
  /** A label for logs and errors, e.g. `openai:gpt-4o-mini`. */
  readonly name: string;
  /** The model asked for, when the client has one (telemetry's `gen_ai.request.model`). */
  readonly model?: string | undefined;
  /** Who serves it, when known: `openai`, `anthropic`, or the API's host (telemetry's `gen_ai.provider.name`). */
  readonly provider?: string | undefined;
  /** The API's host (telemetry's `server.address`). */
  readonly host?: string | undefined;
  stream(request: ChatRequest): ChatStream;
  complete(request: ChatRequest): Promise<ChatResponse>;
}
