/**
 * The request of each model call of a run: the conversation, the tools, the output format, and the hooks that turn
 * the chat client's retries and fallbacks into the run's events and items.
 */
import { sealedToolDefinitions } from '../chat/core/tool-definitions.js';
import { requestUnder } from '../chat/core/request-abort.js';
import type { AbortSource } from '../internal/abort-source.js';
import type { ChatMessage, ChatRequest, ChatToolDefinition } from '../chat/core/types.js';
import type { AnyTool } from '../tools/define-tool.js';
import { redactValue } from '../internal/redact.js';
import type { StandardSchemaV1 } from '../tools/standard-schema.js';
import { errorJSON, safeEmit } from './agent-events.js';
import type { LoopContext } from './loop-context.js';
import { outputFormat } from './structured-output.js';
import type { AgentRunItem, AgentSettings } from './types.js';
import { ERROR_TYPE, EVENT_FALLBACK, EVENT_RETRY, FAULTLINE_FALLBACK_FROM, FAULTLINE_FALLBACK_TO, FAULTLINE_RETRY_ATTEMPT, FAULTLINE_RETRY_BUDGET_EXHAUSTED, FAULTLINE_RETRY_DELAY_MS } from '../telemetry/attribute-names.js';
import { errorTypeOf } from '../telemetry/error-type.js';
import { traces } from '../telemetry/no-telemetry.js';
import type { SpanHandle } from '../telemetry/telemetry.js';

/**
 * The tool definitions of an agent's (frozen) tool list, made once: every model call of every run sends the same.
 * Each request gets its own array of the shared definitions, deep-frozen so an encoder can reuse their JSON.
 */
const definitions = new WeakMap<readonly AnyTool[], readonly ChatToolDefinition[]>();
function toolDefinitionsOf(tools: readonly AnyTool[]): ChatToolDefinition[] {
  let made = definitions.get(tools);
  if (made === undefined) {
    made = sealedToolDefinitions(tools);
    definitions.set(tools, made);
  }
  return [...made];
}

/** Builds the request of one model call. */
export function modelRequest(
  settings: AgentSettings,
  conversation: readonly ChatMessage[],
  abort: AbortSource,
  hooks: Pick<ChatRequest, 'onRetry' | 'onFallback'>,
  output?: StandardSchemaV1,
): ChatRequest {
  const request = requestUnder([...conversation], hooks, abort);
  const format = output ? outputFormat(output) : undefined;
  if (format) request.responseFormat = format;
  if (settings.tools.length > 0) {
    request.tools = toolDefinitionsOf(settings.tools);
    if (settings.toolChoice !== undefined) request.toolChoice = settings.toolChoice;
  }
  if (settings.temperature !== undefined) request.temperature = settings.temperature;
  return request;
}

/** The conversation sent to the model: instructions, the session so far, the new input. */
export function initialConversation(settings: AgentSettings, history: readonly ChatMessage[], input: readonly ChatMessage[]): ChatMessage[] {
  const system: ChatMessage[] = settings.instructions ? [{ role: 'system', content: settings.instructions }] : [];
  return [...system, ...history, ...input];
}

/** The model-request hooks of a run: retries and fallbacks become `retry` items and events, a fallback also a recoverable error item. */
export function requestHooks(
  context: Pick<LoopContext, 'runId' | 'settings' | 'emitter' | 'waker'>,
  queue: AgentRunItem[],
  iteration: () => number,
  span: () => SpanHandle | undefined = () => undefined,
): Pick<ChatRequest, 'onRetry' | 'onFallback'> {
  const agent = context.settings.name;
  return {
    onRetry: (notice) => {
      const traced = span();
      if (traces(traced)) {
        traced.addEvent(EVENT_RETRY, {
          [FAULTLINE_RETRY_ATTEMPT]: notice.attempt + 1,
          [FAULTLINE_RETRY_DELAY_MS]: notice.delayMs,
          [FAULTLINE_RETRY_BUDGET_EXHAUSTED]: notice.budgetExhausted,
          [ERROR_TYPE]: typeof notice.error.kind === 'string' ? notice.error.kind : undefined,
        });
      }
      const error = redactValue(notice.error, context.settings.secrets) as Record<string, unknown>;
      const budget = notice.budgetExhausted ? { budgetExhausted: true } : {};
      queue.push({ type: 'retry', iteration: iteration(), source: 'model', attempt: notice.attempt, delayMs: notice.delayMs, error, ...budget });
      safeEmit(context, queue, 'retry', () => ({ runId: context.runId, agent, source: 'model', attempt: notice.attempt, delayMs: notice.delayMs, error, ...budget }));
      context.waker.wake();
    },
    onFallback: (notice) => {
      const traced = span();
      if (traces(traced)) traced.addEvent(EVENT_FALLBACK, { [FAULTLINE_FALLBACK_FROM]: notice.from, [FAULTLINE_FALLBACK_TO]: notice.to, [ERROR_TYPE]: errorTypeOf(notice.error) });
      const error = errorJSON(notice.error, context.settings.secrets);
      queue.push({ type: 'error', iteration: iteration(), terminal: false, error: notice.error });
      queue.push({ type: 'retry', iteration: iteration(), source: 'model', attempt: 1, delayMs: 0, error, fallbackTo: notice.to });
      safeEmit(context, queue, 'retry', () => ({ runId: context.runId, agent, source: 'model', attempt: 1, delayMs: 0, error, fallbackTo: notice.to }));
      safeEmit(context, queue, 'error', () => ({ runId: context.runId, agent, iteration: iteration(), terminal: false, error: errorJSON(notice.error, context.settings.secrets) }));
      context.waker.wake();
    },
  };
}
