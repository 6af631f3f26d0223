/**
 * @internal Anthropic Messages answers for `anthropicFaultHandlers`: a reply (text, then an optional `tool_use`
 * block) written either as the documented SSE event flow — `message_start`, `content_block_start` / `ping` /
 * `content_block_delta` / `content_block_stop` per block, `message_delta`, `message_stop`, each `event: <type>` line
 * repeating the data's `type` — optionally cut by an `event: error`, or as one JSON Message; HTTP error answers in
 * the documented `{type: 'error', error: {type, message}, request_id}` shape. Plain Web `Response`s.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 * @see https://docs.anthropic.com/en/api/errors
 */

/** What the model answers: text pieces (one `text_delta` each), then optionally one `tool_use` block. */
export interface AnthropicReply {
  text: readonly string[];
  toolUse?: { id: string; name: string; input: Record<string, unknown>; parts: readonly string[] };
  /**
   * Where an `event: error` (`overloaded_error`) ends the stream: `before-content` (after `message_start` and a
   * `ping`), `after-text` (after the text deltas; no `content_block_stop` and no `message_stop` follow).
   */
  cut?: 'before-content' | 'after-text';
}

/** Identity of one answer: the message id, the request id header, the model echoed back. */
export interface AnswerIds {
  messageId: string;
  requestId: string;
  model: string;
}

/** The documented error event of an overloaded API. */
const OVERLOADED = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
const INPUT_TOKENS = 12;

/** Output tokens, made up: three per delta, at least one. */
const outputTokens = (reply: AnthropicReply) => Math.max(1, 3 * (reply.text.length + (reply.toolUse?.parts.length ?? 0)));

/** The `[event name, data]` pairs of a streamed reply, in the documented order. */
export function replyEvents(reply: AnthropicReply, ids: AnswerIds): Array<[string, Record<string, unknown>]> {
  const events: Array<[string, Record<string, unknown>]> = [];
  const add = (data: Record<string, unknown>) => events.push([data.type as string, data]);
  add({
    type: 'message_start',
    message: { id: ids.messageId, type: 'message', role: 'assistant', model: ids.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: INPUT_TOKENS, output_tokens: 1 } },
  });
  if (reply.cut === 'before-content') {
    add({ type: 'ping' });
    add(OVERLOADED);
    return events;
  }
  let index = 0;
  if (reply.text.length > 0) {
    add({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    reply.text.forEach((piece, position) => {
      add({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
      if (position === 0) add({ type: 'ping' });
    });
    if (reply.cut === 'after-text') {
      add(OVERLOADED);
      return events;
    }
    add({ type: 'content_block_stop', index });
    index++;
  }
  if (reply.toolUse) {
    const { id, name, parts } = reply.toolUse;
    add({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } });
    for (const part of ['', ...parts]) add({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } });
    add({ type: 'content_block_stop', index });
  }
  add({ type: 'message_delta', delta: { stop_reason: reply.toolUse ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: outputTokens(reply) } });
  add({ type: 'message_stop' });
  return events;
}

/**
 * A streamed reply: one SSE event per read of the client (pull-based, so what comes before an error event has been
 * taken before it, as on a real connection), then a clean end.
 */
export function streamedReply(reply: AnthropicReply, ids: AnswerIds, headers: Record<string, string>): Response {
  const encoder = new TextEncoder();
  const events = replyEvents(reply, ids);
  let index = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = events[index++];
        if (next === undefined) controller.close();
        else controller.enqueue(encoder.encode(`event: ${next[0]}\ndata: ${JSON.stringify(next[1])}\n\n`));
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'request-id': ids.requestId, ...headers } });
}

/** A non-streamed reply: the whole Message as JSON (a cut reply is not one: the caller answers 529 instead). */
export function messageReply(reply: AnthropicReply, ids: AnswerIds, headers: Record<string, string>): Response {
  const content: Array<Record<string, unknown>> = [];
  if (reply.text.length > 0) content.push({ type: 'text', text: reply.text.join('') });
  if (reply.toolUse) content.push({ type: 'tool_use', id: reply.toolUse.id, name: reply.toolUse.name, input: reply.toolUse.input });
  const message = {
    id: ids.messageId,
    type: 'message',
    role: 'assistant',
    model: ids.model,
    content,
    stop_reason: reply.toolUse ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: INPUT_TOKENS, output_tokens: outputTokens(reply) },
  };
  return Response.json(message, { headers: { 'request-id': ids.requestId, ...headers } });
}

/** An HTTP error answer in Anthropic's shape, with its `request-id` header (and the body's `request_id`). */
export function errorReply(status: number, type: string, message: string, requestId: string, headers: Record<string, string> = {}): Response {
  return Response.json(
    { type: 'error', error: { type, message }, request_id: requestId },
    { status, headers: { 'request-id': requestId, 'x-should-retry': status === 429 || status >= 500 ? 'true' : 'false', ...headers } },
  );
}
