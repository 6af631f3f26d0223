/**
 * The three chat wire protocols of src/chat/, described once each so one scenario list can run against all of them:
 * a provider-neutral model turn (text pieces, tool calls, a finish), and per protocol a {@link Wire} that writes that
 * turn as the exact SSE text the provider sends, writes its documented HTTP error answers, cuts a stream (a broken
 * event, a dropped connection, a stall) after some text, builds our client for it, and reads back a captured request
 * body as a provider-neutral conversation (what the model was sent: prompts, its own tool calls, our tool results).
 *
 * Shapes (field names and order) are copied from the recorded fixtures in test/fixtures/ (see its README.md):
 * - Chat Completions: `openai-tool-call.sse`, `openai-parallel-tool-calls.sse`, `openai-text.sse`; errors
 *   `openai-errors.json` (`{error: {message, type, param, code}}`, `x-request-id`, `retry-after-ms`).
 * - Anthropic Messages: `anthropic-text.sse`, `anthropic-tool-use.sse` (a `tool_use` block per call, its input as
 *   `input_json_delta` fragments, the first one empty; `message_delta` with `stop_reason: tool_use`); errors
 *   `anthropic-errors.json` (`{type: 'error', error: {type, message}, request_id}`, `request-id`, `retry-after` in
 *   whole seconds). https://docs.anthropic.com/en/docs/build-with-claude/streaming, https://docs.anthropic.com/en/api/errors
 * - OpenAI Responses: `responses-text.sse`, `responses-function-call.sse` (a `function_call` item per call,
 *   `response.function_call_arguments.delta` / `.done`, `response.output_item.done`, then `response.completed`);
 *   errors as OpenAI's. https://platform.openai.com/docs/api-reference/responses-streaming
 *
 * Every streamed answer is served one SSE event per network read (pull-based), as a provider streams tokens: a fault
 * happens only after the reader took everything sent before it, and each text piece is its own `text-delta`.
 */
import {
  createAnthropicClient,
  createOpenAICompatibleClient,
  createOpenAIResponsesClient,
  type ChatClient,
  type ChatTimeouts,
  type ToolCall,
  type Usage,
} from '../../src/chat/index.js';

/** What a model turn ends with, in neutral terms (each wire writes its own stop reason). */
export type TurnFinish = 'stop' | 'tool_calls' | 'length';

/** One model turn, provider-neutral. */
export interface ModelTurn {
  /** The answer's text: one delta event per piece. */
  text?: string | readonly string[];
  /** Tool calls, in order (parallel when several); `arguments` is the exact JSON text the model streams. */
  toolCalls?: readonly ToolCall[];
  /** @default 'tool_calls' with tool calls, else 'stop' */
  finish?: TurnFinish;
}

/** The options every wire's client takes here (the rest is fixed per wire). */
export interface ClientOverrides {
  apiKey?: string;
  retry?: { maxAttempts?: number; initialDelayMs?: number; maxDelayMs?: number } | false;
  timeouts?: ChatTimeouts;
}

/** One entry of a request's conversation as the provider got it, provider-neutral. */
export type SentEntry =
  | { role: 'system' | 'user' | 'assistant'; text: string }
  /** A tool call of the model sent back to it: `input` is the parsed arguments (the raw text when they are not JSON). */
  | { role: 'tool-call'; id: string; name: string; input: unknown }
  /** A tool result the model got; `isError` only where the protocol marks failed results (Anthropic `is_error`). */
  | { role: 'tool-result'; callId: string; content: string; isError?: true };

/** What an HTTP error answer says. */
export interface ErrorAnswer {
  message: string;
  /** The back-off the server asks for; each wire writes it in its documented header(s). */
  retryAfterMs?: number;
}

/** One chat wire protocol: how its provider talks, and our client for it. */
export interface Wire {
  readonly id: 'openai-chat' | 'anthropic-messages' | 'openai-responses';
  /** For test names. */
  readonly title: string;
  /** The API root our client is pointed at. */
  readonly baseURL: string;
  /** The endpoint under the root. */
  readonly path: string;
  /** `baseURL + path`: where msw answers. */
  readonly url: string;
  /** The client's label in error messages, e.g. `Chat API (llm.test)`. */
  readonly label: string;
  /** The client's `name` (`<host>/<model>`): what `model-request` events and fallback notices say. */
  readonly clientName: string;
  /** The usage each turn of {@link Wire.stream} reports, as our client reads it. */
  readonly usage: Usage;
  /** Whether failed tool results are marked as such in the request (`tool_result.is_error`). */
  readonly marksFailedResults: boolean;
  /** Our client for this provider, at `baseURL`. */
  client(baseURL: string, overrides?: ClientOverrides): ChatClient;
  /** The SSE events of `turn`, each a complete event text ending in a blank line. */
  events(turn: ModelTurn): string[];
  /** The exact SSE text the provider sends for `turn`. */
  stream(turn: ModelTurn): string;
  /** `turn` as a streamed HTTP answer. */
  respond(turn: ModelTurn): Response;
  /** The provider's documented HTTP error answer: its error body, request id and back-off headers. */
  httpError(status: number, answer: ErrorAnswer): Response;
  /** The request id {@link Wire.httpError} sends for `status`. */
  requestId(status: number): string;
  /** The `code` our client reports for {@link Wire.httpError}'s `status` (the provider's error code, else its type). */
  errorCode(status: number): string;
  /** The wait our client honours for an answer asking for `retryAfterMs` (the header's granularity decides). */
  hintedDelayMs(retryAfterMs: number): number;
  /** The data of the broken event {@link Wire.malformed} sends. */
  readonly brokenData: string;
  /** A stream that opens a text answer, sends `text`, then an event whose data is not JSON ({@link Wire.brokenData}). */
  malformed(text: string | readonly string[]): Response;
  /** A stream that opens a text answer, sends `text`, then drops the connection. */
  textThenDrop(text: string | readonly string[]): Response;
  /** A stream that opens a text answer, sends `text`, then sends nothing more and stays open (until cancelled). */
  textThenStall(text: string | readonly string[]): Response;
  /** The conversation a captured request body sent, provider-neutral. */
  sent(body: Record<string, unknown>): SentEntry[];
}

/** The error a dropped connection raises in the body (what undici says when the peer closes). */
export const DROP_MESSAGE = 'terminated: other side closed';

const TOKENS = { input: 10, output: 5 };
const pieces = (text: string | readonly string[] | undefined): readonly string[] => (text === undefined ? [] : typeof text === 'string' ? [text] : text);
const finishOf = (turn: ModelTurn): TurnFinish => turn.finish ?? (turn.toolCalls?.length ? 'tool_calls' : 'stop');
/** A call's arguments in two fragments, as providers split them (the second holds the rest). */
const halves = (text: string): string[] => [text.slice(0, Math.floor(text.length / 2)), text.slice(Math.floor(text.length / 2))].filter((part) => part !== '');
const dataEvent = (data: unknown) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
const namedEvent = (data: { type: string } & Record<string, unknown>) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
/** Arguments as the model meant them: parsed JSON, or the raw text when it is not JSON. */
const parsedOr = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};
const list = (value: unknown): Array<Record<string, unknown>> => (Array.isArray(value) ? (value as Array<Record<string, unknown>>) : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

type Ending = 'end' | 'drop' | 'stall';

/** An SSE answer served one event per read, then ended, dropped or stalled. */
function sseAnswer(events: readonly string[], headers: Record<string, string>, ending: Ending = 'end'): Response {
  const encoder = new TextEncoder();
  let index = 0;
  let release: (() => void) | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (index < events.length) {
          controller.enqueue(encoder.encode(events[index++]));
        } else if (ending === 'drop') {
          controller.error(new TypeError(DROP_MESSAGE));
        } else if (ending === 'stall') {
          await new Promise<void>((resolve) => (release = resolve));
        } else {
          controller.close();
        }
      },
      cancel() {
        release?.();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...headers } });
}

/** What differs per protocol; {@link defineWire} derives the rest the same way for all. */
interface WireSpec {
  id: Wire['id'];
  title: string;
  baseURL: string;
  path: string;
  host: string;
  label: string;
  model: string;
  usage: Usage;
  marksFailedResults: boolean;
  client(baseURL: string, overrides: ClientOverrides): ChatClient;
  events(turn: ModelTurn): string[];
  /** The events that open a text answer and carry `text`, nothing that closes it. */
  opening(text: readonly string[]): string[];
  /** A broken event (its data not JSON) and that data. */
  broken: { event: string; data: string };
  /** The headers of a streamed answer (the request id). */
  streamHeaders(): Record<string, string>;
  httpError(status: number, answer: ErrorAnswer, requestId: string): Response;
  requestId(status: number): string;
  errorCode(status: number): string;
  hintedDelayMs(retryAfterMs: number): number;
  sent(body: Record<string, unknown>): SentEntry[];
}

function defineWire(spec: WireSpec): Wire {
  const respond = (events: readonly string[], ending?: Ending) => sseAnswer(events, spec.streamHeaders(), ending);
  return {
    id: spec.id,
    title: spec.title,
    baseURL: spec.baseURL,
    path: spec.path,
    url: `${spec.baseURL}${spec.path}`,
    label: spec.label,
    clientName: `${spec.host}/${spec.model}`,
    usage: spec.usage,
    marksFailedResults: spec.marksFailedResults,
    client: (baseURL, overrides = {}) => spec.client(baseURL, overrides),
    events: (turn) => spec.events(turn),
    stream: (turn) => spec.events(turn).join(''),
    respond: (turn) => respond(spec.events(turn)),
    httpError: (status, answer) => spec.httpError(status, answer, spec.requestId(status)),
    requestId: (status) => spec.requestId(status),
    errorCode: (status) => spec.errorCode(status),
    hintedDelayMs: (retryAfterMs) => spec.hintedDelayMs(retryAfterMs),
    brokenData: spec.broken.data,
    malformed: (text) => respond([...spec.opening(pieces(text)), spec.broken.event]),
    textThenDrop: (text) => respond(spec.opening(pieces(text)), 'drop'),
    textThenStall: (text) => respond(spec.opening(pieces(text)), 'stall'),
    sent: (body) => spec.sent(body),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// OpenAI's error answers (Chat Completions and Responses share them): openai-errors.json.

/** `type` and `code` of OpenAI's error body by status (the 500/503 recordings have `code: null`). */
const OPENAI_ERRORS: Readonly<Record<number, { type: string; code: string | null }>> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: null },
};
const openAIError = (status: number) => OPENAI_ERRORS[status] ?? { type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null };

function openAIHttpError(status: number, answer: ErrorAnswer, requestId: string): Response {
  const { type, code } = openAIError(status);
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId, 'openai-version': '2020-10-01' };
  if (answer.retryAfterMs !== undefined) {
    headers['retry-after'] = String(Math.ceil(answer.retryAfterMs / 1000));
    headers['retry-after-ms'] = String(answer.retryAfterMs);
  }
  // The recordings' 4-space layout.
  return new Response(JSON.stringify({ error: { message: answer.message, type, param: null, code } }, null, 4), { status, headers });
}

/** OpenAI's request id form: `req_` and 32 hex digits. */
const openAIRequestId = (prefix: string) => (status: number) => `req_${prefix}${String(status).padStart(4, '0')}`.padEnd(36, '0');
const openAICode = (status: number) => openAIError(status).code ?? openAIError(status).type;

// ---------------------------------------------------------------------------------------------------------------
// OpenAI Chat Completions.

const CHAT_MODEL = 'test-model';

function chatChunk(delta: Record<string, unknown>, finishReason: string | null = null): Record<string, unknown> {
  return { id: 'chatcmpl-wire', object: 'chat.completion.chunk', created: 1_727_346_178, model: CHAT_MODEL, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] };
}

const CHAT_FINISH: Record<TurnFinish, string> = { stop: 'stop', tool_calls: 'tool_calls', length: 'length' };

export const OPENAI_CHAT: Wire = defineWire({
  id: 'openai-chat',
  title: 'OpenAI Chat Completions',
  baseURL: 'https://llm.test/v1',
  path: '/chat/completions',
  host: 'llm.test',
  label: 'Chat API (llm.test)',
  model: CHAT_MODEL,
  usage: { promptTokens: TOKENS.input, completionTokens: TOKENS.output, totalTokens: TOKENS.input + TOKENS.output },
  marksFailedResults: false,
  client: (baseURL, overrides) => createOpenAICompatibleClient({ baseURL, model: CHAT_MODEL, ...overrides }),
  events(turn) {
    const calls = turn.toolCalls ?? [];
    const events: unknown[] = [chatChunk({ role: 'assistant', content: calls.length > 0 && turn.text === undefined ? null : '' })];
    for (const piece of pieces(turn.text)) events.push(chatChunk({ content: piece }));
    calls.forEach((call, index) => {
      events.push(chatChunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
      for (const part of halves(call.arguments)) events.push(chatChunk({ tool_calls: [{ index, function: { arguments: part } }] }));
    });
    events.push(chatChunk({}, CHAT_FINISH[finishOf(turn)]));
    events.push({
      id: 'chatcmpl-wire',
      object: 'chat.completion.chunk',
      created: 1_727_346_178,
      model: CHAT_MODEL,
      choices: [],
      usage: { prompt_tokens: TOKENS.input, completion_tokens: TOKENS.output, total_tokens: TOKENS.input + TOKENS.output },
    });
    events.push('[DONE]');
    return events.map(dataEvent);
  },
  opening: (text) => [chatChunk({ role: 'assistant', content: '' }), ...text.map((piece) => chatChunk({ content: piece }))].map(dataEvent),
  broken: { event: 'data: {"id": broken\n\n', data: '{"id": broken' },
  streamHeaders: () => ({ 'x-request-id': 'req_chat_stream' }),
  httpError: openAIHttpError,
  requestId: openAIRequestId('c'),
  errorCode: openAICode,
  hintedDelayMs: (retryAfterMs) => retryAfterMs,
  sent(body) {
    const entries: SentEntry[] = [];
    for (const message of list(body.messages)) {
      const role = message.role;
      if (role === 'system' || role === 'user') entries.push({ role, text: text(message.content) });
      else if (role === 'assistant') {
        if (typeof message.content === 'string') entries.push({ role: 'assistant', text: message.content });
        for (const call of list(message.tool_calls)) {
          const fn = call.function as Record<string, unknown>;
          entries.push({ role: 'tool-call', id: text(call.id), name: text(fn.name), input: parsedOr(text(fn.arguments)) });
        }
      } else if (role === 'tool') entries.push({ role: 'tool-result', callId: text(message.tool_call_id), content: text(message.content) });
    }
    return entries;
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Anthropic Messages.

const CLAUDE_MODEL = 'claude-sonnet-4-5';
const CLAUDE_STOP: Record<TurnFinish, string> = { stop: 'end_turn', tool_calls: 'tool_use', length: 'max_tokens' };

/** Anthropic's error `type` by status (https://docs.anthropic.com/en/api/errors); other 5xx are `api_error`. */
const ANTHROPIC_ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};
const anthropicType = (status: number) => ANTHROPIC_ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');

function messageStart(): string {
  return namedEvent({
    type: 'message_start',
    message: { id: 'msg_01WireTurn000001', type: 'message', role: 'assistant', model: CLAUDE_MODEL, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: TOKENS.input, output_tokens: 1 } },
  });
}

function textBlock(index: number, text: readonly string[]): string[] {
  return [
    namedEvent({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }),
    ...text.map((piece) => namedEvent({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } })),
  ];
}

export const ANTHROPIC: Wire = defineWire({
  id: 'anthropic-messages',
  title: 'Anthropic Messages',
  baseURL: 'https://anthropic.test',
  path: '/v1/messages',
  host: 'anthropic.test',
  label: 'Anthropic API (anthropic.test)',
  model: CLAUDE_MODEL,
  usage: { promptTokens: TOKENS.input, completionTokens: TOKENS.output, totalTokens: TOKENS.input + TOKENS.output },
  marksFailedResults: true,
  client: (baseURL, overrides) => createAnthropicClient({ baseURL, model: CLAUDE_MODEL, maxTokens: 1024, ...overrides }),
  events(turn) {
    const events = [messageStart()];
    let index = 0;
    const text = pieces(turn.text);
    if (text.length > 0) {
      events.push(...textBlock(index, text), namedEvent({ type: 'content_block_stop', index }));
      index++;
    }
    for (const call of turn.toolCalls ?? []) {
      events.push(namedEvent({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } }));
      for (const part of ['', ...halves(call.arguments)]) events.push(namedEvent({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } }));
      events.push(namedEvent({ type: 'content_block_stop', index }));
      index++;
    }
    events.push(namedEvent({ type: 'message_delta', delta: { stop_reason: CLAUDE_STOP[finishOf(turn)], stop_sequence: null }, usage: { output_tokens: TOKENS.output } }));
    events.push(namedEvent({ type: 'message_stop' }));
    return events;
  },
  opening: (text) => [messageStart(), ...textBlock(0, text)],
  broken: { event: 'event: content_block_delta\ndata: {"type": "content_block_delta", broken\n\n', data: '{"type": "content_block_delta", broken' },
  streamHeaders: () => ({ 'request-id': 'req_011WireStream' }),
  httpError(status, answer, requestId) {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'request-id': requestId, 'x-should-retry': status === 429 || status >= 500 ? 'true' : 'false' };
    if (answer.retryAfterMs !== undefined) headers['retry-after'] = String(Math.ceil(answer.retryAfterMs / 1000));
    return new Response(JSON.stringify({ type: 'error', error: { type: anthropicType(status), message: answer.message }, request_id: requestId }), { status, headers });
  },
  requestId: (status) => `req_011CVWire${status}Ab`,
  errorCode: anthropicType,
  /** `retry-after` carries whole seconds only. */
  hintedDelayMs: (retryAfterMs) => Math.ceil(retryAfterMs / 1000) * 1000,
  sent(body) {
    const entries: SentEntry[] = [];
    if (typeof body.system === 'string') entries.push({ role: 'system', text: body.system });
    for (const message of list(body.messages)) {
      const role = message.role === 'assistant' ? 'assistant' : 'user';
      const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : list(message.content);
      for (const block of blocks) {
        if (block.type === 'text') entries.push({ role, text: text(block.text) });
        else if (block.type === 'tool_use') entries.push({ role: 'tool-call', id: text(block.id), name: text(block.name), input: block.input });
        else if (block.type === 'tool_result') {
          const entry: SentEntry = { role: 'tool-result', callId: text(block.tool_use_id), content: text(block.content) };
          if (block.is_error === true) entry.isError = true;
          entries.push(entry);
        }
      }
    }
    return entries;
  },
});

// ---------------------------------------------------------------------------------------------------------------
// OpenAI Responses.

const RESPONSES_MODEL = 'gpt-5-mini';
const RESPONSE_ID = 'resp_68af1c2a9e0c8190a1b2c3d4e5f6wire';

/** The `response` object of the lifecycle events; `output` and `usage` filled in at the end. */
function responseObject(status: string, output: unknown[] = [], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: RESPONSE_ID,
    object: 'response',
    created_at: 1_756_306_474,
    status,
    model: `${RESPONSES_MODEL}-2025-08-07`,
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    usage: null,
    error: null,
    incomplete_details: null,
    ...extra,
  };
}

/** Events of one Responses stream, numbered as they are added. */
class ResponsesEvents {
  readonly events: string[] = [];
  private sequence = 0;

  add(type: string, data: Record<string, unknown>): this {
    this.events.push(namedEvent({ type, sequence_number: this.sequence++, ...data }));
    return this;
  }

  start(): this {
    return this.add('response.created', { response: responseObject('in_progress') }).add('response.in_progress', { response: responseObject('in_progress') });
  }

  /** A message item's opening and its text deltas; returns the item id. */
  openMessage(outputIndex: number, text: readonly string[]): string {
    const id = `msg_68af1c2b4d5c8190b1c2d3e4f506wire${outputIndex}`;
    this.add('response.output_item.added', { output_index: outputIndex, item: { id, type: 'message', status: 'in_progress', content: [], role: 'assistant' } });
    this.add('response.content_part.added', { item_id: id, output_index: outputIndex, content_index: 0, part: { type: 'output_text', annotations: [], text: '' } });
    for (const piece of text) this.add('response.output_text.delta', { item_id: id, output_index: outputIndex, content_index: 0, delta: piece, logprobs: [] });
    return id;
  }
}

export const OPENAI_RESPONSES: Wire = defineWire({
  id: 'openai-responses',
  title: 'OpenAI Responses',
  baseURL: 'https://openai.test/v1',
  path: '/responses',
  host: 'openai.test',
  label: 'Responses API (openai.test)',
  model: RESPONSES_MODEL,
  usage: { promptTokens: TOKENS.input, completionTokens: TOKENS.output, totalTokens: TOKENS.input + TOKENS.output, cachedPromptTokens: 0, reasoningTokens: 0 },
  marksFailedResults: false,
  client: (baseURL, overrides) => createOpenAIResponsesClient({ baseURL, model: RESPONSES_MODEL, ...overrides }),
  events(turn) {
    const stream = new ResponsesEvents().start();
    const output: Array<Record<string, unknown>> = [];
    const text = pieces(turn.text);
    if (text.length > 0) {
      const id = stream.openMessage(0, text);
      const whole = text.join('');
      const part = { type: 'output_text', annotations: [], text: whole };
      stream.add('response.output_text.done', { item_id: id, output_index: 0, content_index: 0, text: whole, logprobs: [] });
      stream.add('response.content_part.done', { item_id: id, output_index: 0, content_index: 0, part });
      const item = { id, type: 'message', status: 'completed', content: [part], role: 'assistant' };
      stream.add('response.output_item.done', { output_index: 0, item });
      output.push(item);
    }
    for (const call of turn.toolCalls ?? []) {
      const outputIndex = output.length;
      const id = `fc_68af1c2d7b3c8190d1e2f3041526wire${outputIndex}`;
      stream.add('response.output_item.added', { output_index: outputIndex, item: { id, type: 'function_call', status: 'in_progress', arguments: '', call_id: call.id, name: call.name } });
      for (const part of halves(call.arguments)) stream.add('response.function_call_arguments.delta', { item_id: id, output_index: outputIndex, delta: part });
      stream.add('response.function_call_arguments.done', { item_id: id, output_index: outputIndex, arguments: call.arguments });
      const item = { id, type: 'function_call', status: 'completed', arguments: call.arguments, call_id: call.id, name: call.name };
      stream.add('response.output_item.done', { output_index: outputIndex, item });
      output.push(item);
    }
    const usage = { input_tokens: TOKENS.input, input_tokens_details: { cached_tokens: 0 }, output_tokens: TOKENS.output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: TOKENS.input + TOKENS.output };
    if (finishOf(turn) === 'length') {
      stream.add('response.incomplete', { response: responseObject('incomplete', output, { usage, incomplete_details: { reason: 'max_output_tokens' } }) });
    } else {
      stream.add('response.completed', { response: responseObject('completed', output, { usage }) });
    }
    return stream.events;
  },
  opening(text) {
    const stream = new ResponsesEvents().start();
    stream.openMessage(0, text);
    return stream.events;
  },
  broken: { event: 'event: response.output_text.delta\ndata: {"type": "response.output_text.delta", broken\n\n', data: '{"type": "response.output_text.delta", broken' },
  streamHeaders: () => ({ 'x-request-id': 'req_resp_stream' }),
  httpError: openAIHttpError,
  requestId: openAIRequestId('r'),
  errorCode: openAICode,
  hintedDelayMs: (retryAfterMs) => retryAfterMs,
  sent(body) {
    const entries: SentEntry[] = [];
    for (const item of list(body.input)) {
      if (item.type === 'function_call') entries.push({ role: 'tool-call', id: text(item.call_id), name: text(item.name), input: parsedOr(text(item.arguments)) });
      else if (item.type === 'function_call_output') entries.push({ role: 'tool-result', callId: text(item.call_id), content: text(item.output) });
      else if (item.role === 'system' || item.role === 'user' || item.role === 'assistant') {
        const content = typeof item.content === 'string' ? item.content : list(item.content).map((part) => text(part.text)).join('');
        entries.push({ role: item.role, text: content });
      }
    }
    return entries;
  },
});

/** The three wires, in the order the suites run. */
export const WIRES: readonly Wire[] = [OPENAI_CHAT, ANTHROPIC, OPENAI_RESPONSES];

/** The wire that answers when `wire`'s client fails in the fallback scenario: always another protocol. */
export function fallbackPartner(wire: Wire): Wire {
  return WIRES[(WIRES.indexOf(wire) + 1) % WIRES.length] as Wire;
}
