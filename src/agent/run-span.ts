/**
 * @internal A run's `invoke_agent` span (OpenTelemetry GenAI conventions): started with the run, told about every
 * item that matters — a terminal error fails it, a recoverable one is an event, the finish adds usage and its reason —
 * and ended when the stream ends, however it ends.
 */
import type { ChatMessage, FinishReason, ToolCall, Usage } from '../chat/core/types.js';
import { shownToolName } from '../tools/tool-call-name.js';
import {
  ERROR_TYPE,
  EVENT_RECOVERABLE_ERROR,
  FAULTLINE_FINISH_REASON,
  GEN_AI_AGENT_ID,
  GEN_AI_AGENT_NAME,
  GEN_AI_CONVERSATION_ID,
  GEN_AI_INPUT_MESSAGES,
  GEN_AI_OPERATION_CHAT,
  GEN_AI_OPERATION_INVOKE_AGENT,
  GEN_AI_OPERATION_NAME,
  GEN_AI_OUTPUT_MESSAGES,
  GEN_AI_PROVIDER_NAME,
  GEN_AI_REQUEST_MODEL,
  GEN_AI_RESPONSE_FINISH_REASONS,
  GEN_AI_RESPONSE_ID,
  GEN_AI_USAGE_INPUT_TOKENS,
  GEN_AI_USAGE_OUTPUT_TOKENS,
  SERVER_ADDRESS,
} from '../telemetry/attribute-names.js';
import { agentSpanName, chatSpanName } from '../telemetry/span-names.js';
import { errorTypeOf } from '../telemetry/error-type.js';
import { NO_SPAN, traces } from '../telemetry/no-telemetry.js';
import type { SpanHandle } from '../telemetry/telemetry.js';
import type { AgentRunItem, AgentRunOptions, AgentSettings } from './types.js';

/** The span of one run of the agent. */
export function runSpan(settings: Readonly<AgentSettings>, runId: () => string, options: AgentRunOptions): SpanHandle {
  if (!traces(settings.telemetry)) return NO_SPAN;
  return settings.telemetry.startSpan(agentSpanName(settings.name), {
    parent: options.parentSpan,
    attributes: {
      [GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_INVOKE_AGENT,
      [GEN_AI_AGENT_NAME]: settings.name,
      [GEN_AI_AGENT_ID]: runId(),
      [GEN_AI_CONVERSATION_ID]: options.session,
      [GEN_AI_REQUEST_MODEL]: settings.chatClient.model,
      [GEN_AI_PROVIDER_NAME]: settings.chatClient.provider,
    },
  });
}

/**
 * What a batch of items tells the run's span (a traced one: the caller asks `traces` first); true when it held the
 * run's last item.
 */
export function traceBatch(span: SpanHandle, batch: readonly AgentRunItem[]): boolean {
  let last = false;
  for (const item of batch) {
    if (item.type === 'error') {
      last ||= item.terminal;
      if (item.terminal) span.fail(item.error);
      else span.addEvent(EVENT_RECOVERABLE_ERROR, { [ERROR_TYPE]: errorTypeOf(item.error), 'faultline.iteration': item.iteration });
    } else if (item.type === 'interrupted') {
      last = true; // waiting on a person is no failure: the span ends unset
    } else if (item.type === 'finish') {
      last = true;
      span.setAttributes({
        [FAULTLINE_FINISH_REASON]: item.finishReason,
        [GEN_AI_USAGE_INPUT_TOKENS]: item.usage.promptTokens,
        [GEN_AI_USAGE_OUTPUT_TOKENS]: item.usage.completionTokens,
        'faultline.iterations': item.iterations,
      });
    }
  }
  return last;
}

/** A model call's `chat` span, a child of the run's. */
export function startModelSpan(settings: Readonly<AgentSettings>, parent: SpanHandle): SpanHandle {
  if (!traces(settings.telemetry)) return NO_SPAN;
  const client = settings.chatClient;
  return settings.telemetry.startSpan(chatSpanName(client.model ?? client.name), {
    kind: 'client',
    parent,
    attributes: {
      [GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_CHAT,
      [GEN_AI_PROVIDER_NAME]: client.provider,
      [GEN_AI_REQUEST_MODEL]: client.model ?? client.name,
      [SERVER_ADDRESS]: client.host,
    },
  });
}

/** With `recordContent` only: the messages sent (OpenTelemetry GenAI `gen_ai.input.messages`, JSON, redacted). */
export function recordModelInput(settings: Readonly<AgentSettings>, span: SpanHandle, messages: readonly ChatMessage[]): void {
  if (!settings.telemetry.recordContent || !traces(span)) return;
  // The transcript as sent, but a call's tool named as every output names it (a model-made name may echo a key).
  const named = (call: ToolCall): ToolCall => ({ ...call, name: shownToolName(settings.tools, call.name, settings.secrets) });
  span.setAttributes({ [GEN_AI_INPUT_MESSAGES]: JSON.stringify(messages.map((message) => ({ role: message.role, content: message.content, ...(message.toolCalls ? { tool_calls: message.toolCalls.map(named) } : {}) }))) });
}

/** Ends a model call's span with what its finish said (and, with `recordContent`, the answer's text). */
export function endModelSpan(span: SpanHandle, finishReason: FinishReason, usage: Usage | undefined, requestId: string | undefined, output?: string): void {
  if (!traces(span)) return;
  span.setAttributes({
    [GEN_AI_OUTPUT_MESSAGES]: output === undefined ? undefined : JSON.stringify([{ role: 'assistant', content: output, finish_reason: finishReason }]),
    [GEN_AI_RESPONSE_FINISH_REASONS]: [finishReason],
    [GEN_AI_USAGE_INPUT_TOKENS]: usage?.promptTokens,
    [GEN_AI_USAGE_OUTPUT_TOKENS]: usage?.completionTokens,
    [GEN_AI_RESPONSE_ID]: requestId,
  });
  span.end();
}

/** Fails and ends a span. */
export function failSpan(span: SpanHandle, error: unknown): void {
  span.fail(error);
  span.end();
}
