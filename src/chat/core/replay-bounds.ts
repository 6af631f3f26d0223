/**
 * @internal Bounds on what the decoders keep from a provider's answer and send back, verbatim, on the next request:
 * the ids and names of tool calls and output items (an agent's transcript repeats them in the assistant message and
 * in each tool result), and the opaque reasoning a provider asks to get back (Anthropic's thinking blocks with their
 * signatures and redacted data, OpenAI Responses' reasoning items with their `encrypted_content`). A value past its
 * bound is a typed error — `StreamError` `malformed_chunk` in a stream, `ChatClientError` `invalid_response` for a
 * whole answer — raised as soon as it is seen (a stream's signature is checked at each part, so nothing near the
 * excess is held), never kept and sent back.
 */

/**
 * Longest tool-call id, tool name or output item id kept, in characters. Provider ids are under 100 characters; a
 * gateway that carries a Gemini thought signature inside the id (LiteLLM's `call_…__thought__…`) makes ids of about
 * 1,000, so the bound leaves room for those.
 */
export const MAX_ID_LENGTH = 4096;

/**
 * Longest reasoning kept for replay, in characters: a thinking block's text, its signature (which holds the whole
 * thinking encrypted), a `redacted_thinking` block's data, a Responses reasoning item as JSON. About six times the
 * largest real one (a 128k-token thinking budget, encrypted and base64-encoded, is under 700,000 characters).
 */
export const MAX_REPLAY_LENGTH = 4_194_304;

/** `what` of `length` characters past `limit`, said as an error says it; `undefined` within the bound. */
export function overLimit(what: string, length: number, limit: number): string | undefined {
  return length > limit ? `${what} of ${length} characters, over the limit of ${limit}` : undefined;
}
