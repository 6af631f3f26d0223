/**
 * @internal A run's `invoke_agent` span (OpenTelemetry GenAI conventions): started with the run, told about every
 * item that matters — a terminal error fails it, a recoverable one is an event, the finish adds usage and its reason —
 * and ended when the stream ends, however it ends.
 */
import type { ChatMessage, FinishReason, ToolCall, Usage } from '../chat/core/types.js';
import { shownToolName } from '../tools/tool-call-name.js';
import { agentSpanName, chatSpanName, CommonAttribute, FaultlineAttribute, GenAIAttribute, GenAIOperation, TelemetryEvent } from '../telemetry/attributes.js';
import { errorTypeOf } from '../telemetry/error-type.js';
import { NO_SPAN, NO_TELEMETRY } from '../telemetry/no-telemetry.js';
import type { SpanHandle } from '../telemetry/telemetry.js';
import type { AgentRunItem, AgentRunOptions, AgentSettings } from './types.js';

/** False for the inert span of an untraced run (nothing it is told is kept). */
export function isTraced(span: SpanHandle): boolean {
  return span !== NO_SPAN;
}

/** The span of one run of the agent. */
export function runSpan(settings: Readonly<AgentSettings>, runId: () => string, options: AgentRunOptions): SpanHandle {
  if (settings.telemetry === NO_TELEMETRY) return NO_SPAN;
  return settings.telemetry.startSpan(agentSpanName(settings.name), {
    parent: options.parentSpan,
    attributes: {
      [GenAIAttribute.OperationName]: GenAIOperation.InvokeAgent,
      [GenAIAttribute.AgentName]: settings.name,
      [GenAIAttribute.AgentId]: runId(),
      [GenAIAttribute.ConversationId]: options.session,
      [GenAIAttribute.RequestModel]: settings.chatClient.model,
      [GenAIAttribute.ProviderName]: settings.chatClient.provider,
    },
  });
}

/** What a batch of items tells the run's span; true when it held the run's last item. */
export function traceBatch(span: SpanHandle, batch: readonly AgentRunItem[]): boolean {
  let last = false;
  for (const item of batch) {
    if (item.type === 'error') {
      last ||= item.terminal;
      if (item.terminal) span.fail(item.error);
      else span.addEvent(TelemetryEvent.RecoverableError, { [CommonAttribute.ErrorType]: errorTypeOf(item.error), 'faultline.iteration': item.iteration });
    } else if (item.type === 'interrupted') {
      last = true; // waiting on a person is no failure: the span ends unset
    } else if (item.type === 'finish') {
      last = true;
      if (span === NO_SPAN) continue;
      span.setAttributes({
        [FaultlineAttribute.FinishReason]: item.finishReason,
        [GenAIAttribute.UsageInputTokens]: item.usage.promptTokens,
        [GenAIAttribute.UsageOutputTokens]: item.usage.completionTokens,
        'faultline.iterations': item.iterations,
      });
    }
  }
  return last;
}

/** A model call's `chat` span, a child of the run's. */
export function startModelSpan(settings: Readonly<AgentSettings>, parent: SpanHandle): SpanHandle {
  if (settings.telemetry === NO_TELEMETRY) return NO_SPAN;
  const client = settings.chatClient;
  return settings.telemetry.startSpan(chatSpanName(client.model ?? client.name), {
    kind: 'client',
    parent,
    attributes: {
      [GenAIAttribute.OperationName]: GenAIOperation.Chat,
      [GenAIAttribute.ProviderName]: client.provider,
      [GenAIAttribute.RequestModel]: client.model ?? client.name,
      [CommonAttribute.ServerAddress]: client.host,
    },
  });
}

/** With `recordContent` only: the messages sent (OpenTelemetry GenAI `gen_ai.input.messages`, JSON, redacted). */
export function recordModelInput(settings: Readonly<AgentSettings>, span: SpanHandle, messages: readonly ChatMessage[]): void {
  if (!settings.telemetry.recordContent) return;
  // The transcript as sent, but a call's tool named as every output names it (a model-made name may echo a key).
  const named = (call: ToolCall): ToolCall => ({ ...call, name: shownToolName(settings.tools, call.name, settings.secrets) });
  span.setAttributes({ [GenAIAttribute.InputMessages]: JSON.stringify(messages.map((message) => ({ role: message.role, content: message.content, ...(message.toolCalls ? { tool_calls: message.toolCalls.map(named) } : {}) }))) });
}

/** Ends a model call's span with what its finish said (and, with `recordContent`, the answer's text). */
export function endModelSpan(span: SpanHandle, finishReason: FinishReason, usage: Usage | undefined, requestId: string | undefined, output?: string): void {
  if (span === NO_SPAN) return;
  span.setAttributes({
    [GenAIAttribute.OutputMessages]: output === undefined ? undefined : JSON.stringify([{ role: 'assistant', content: output, finish_reason: finishReason }]),
    [GenAIAttribute.ResponseFinishReasons]: [finishReason],
    [GenAIAttribute.UsageInputTokens]: usage?.promptTokens,
    [GenAIAttribute.UsageOutputTokens]: usage?.completionTokens,
    [GenAIAttribute.ResponseId]: requestId,
  });
  span.end();
}

/** Fails and ends a span. */
export function failSpan(span: SpanHandle, error: unknown): void {
  span.fail(error);
  span.end();
}
