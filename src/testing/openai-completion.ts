/**
 * @internal Non-streamed OpenAI-compatible answers for `chatFaultHandlers` (a request without `"stream": true`): the
 * whole `chat.completion` as JSON, the object the chunks of `openai-stream.ts` add up to (same id, model and usage).
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */

/** What the model answers: text, or tool calls (their arguments sent as they are, JSON or not). */
export interface CompletionReply {
  content?: string;
  toolCalls?: ReadonlyArray<{ id: string; name: string; arguments: string }>;
}

/** The JSON text of a `chat.completion` answering `reply`. */
export function completionText(reply: CompletionReply): string {
  const toolCalls = reply.toolCalls?.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
  return JSON.stringify({
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply.content ?? null, refusal: null, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
        logprobs: null,
        finish_reason: toolCalls ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });
}

/** A 200 `application/json` answer of `body` (the whole text, or a paced body that may fail on the way). */
export function jsonResponse(body: string | ReadableStream<Uint8Array>): Response {
  return new Response(body, { headers: { 'content-type': 'application/json', 'x-request-id': `req_${Math.random().toString(16).slice(2, 10)}` } });
}
