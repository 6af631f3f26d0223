/**
 * @internal Turns a provider ended in a way that is no answer to return as one: a refusal, a content filter, a turn
 * that finished to call tools and sent none, a turn that gave two calls one id.
 */
import type { FinishReason, ToolCall } from '../chat/core/types.js';
import { ChatClientError } from '../errors/chat-client-error.js';
import { truncate } from '../internal/json.js';
import { redactText } from '../internal/redact.js';
import type { AgentSettings } from './types.js';

/** The error item of a turn the model refused or the provider's content filter stopped; undefined otherwise. */
export function stoppedByProvider(reason: FinishReason, text: string, settings: AgentSettings): ChatClientError | undefined {
  if (reason !== 'refusal' && reason !== 'content_filter') return undefined;
  const model = settings.chatClient.name;
  const said = redactText(text, settings.secrets);
  if (reason === 'refusal') {
    return new ChatClientError(`${model} refused to answer${said === '' ? '' : `: ${truncate(said, 300)}`}`, { reason: 'refused', retryable: false, providerMessage: truncate(said, 2000) });
  }
  return new ChatClientError(`The content filter of ${model} stopped its answer${said === '' ? '' : ` after ${said.length} characters`}`, { reason: 'content_filter', retryable: false });
}

/**
 * The terminal error of a turn that finished with `tool_calls` and sent no call: the provider sent its calls in a form
 * no decoder read (inside the text, or a field it does not know), so there is neither a call to run nor an answer —
 * ending the run with that turn's text as the answer would be a quieter success than what the model did.
 */
export function noCallsSent(model: string): ChatClientError {
  return new ChatClientError(`${model} finished its turn to call tools (finish_reason tool_calls) but sent no tool call this client could read: there is no call to run and no answer`, { reason: 'invalid_response', retryable: false });
}

/**
 * The terminal error of a turn whose calls share an id (a client or server that repeats one): each call's answer is
 * matched by its id — in approvals, in the session, in the provider's next request — so one call could run twice or
 * take another's result. `undefined` when every id is its own.
 */
export function repeatedCallId(model: string, calls: readonly ToolCall[], secrets: readonly string[]): ChatClientError | undefined {
  const ids = new Set<string>();
  for (const call of calls) {
    if (ids.has(call.id)) return new ChatClientError(`${model} gave two tool calls of one turn the id ${truncate(redactText(call.id, secrets), 80)}: neither is run`, { reason: 'invalid_response', retryable: false });
    ids.add(call.id);
  }
  return undefined;
}
