/**
 * @internal An agent run's items as AG-UI events: each model call a step (`step-<iteration>`), its text and reasoning
 * as streamed messages, each tool call as `TOOL_CALL_START/ARGS/END` (the arguments the model wrote), each tool's
 * answer as `TOOL_CALL_RESULT` whose content is the exact `ToolResultJSON` the model got — with a `faultline.error`
 * custom event for a failed one — retries as `faultline.retry`, recoverable failures as `faultline.error`; then
 * `RUN_FINISHED` (result `{finishReason, iterations, output?}` and the token usage), `RUN_FINISHED` with the outcome
 * `cancelled` for an aborted run, or a terminal failure's `faultline.error` and the one `RUN_ERROR`; a run that
 * stopped for approvals (`interrupted`) as a `faultline.interrupt` event per question and `RUN_FINISHED` with the
 * outcome `interrupt`.
 */
import type { AgentRunItem } from '../agent/types.js';
import type { Usage } from '../chat/core/types.js';
import { ChatClientError } from '../errors/chat-client-error.js';
import { ToolError } from '../errors/tool-error.js';
import { isAbortError } from '../internal/error-chain.js';
import { thrownErrorValue, toolErrorValue } from './ag-ui-error-value.js';
import type { AGUITokenUsage } from './ag-ui-events.js';
import type { AGUIWriter } from './ag-ui-writer.js';

/**
 * A retry notice a run may carry as an item (a model or tool call retried, or a fallback model taking over): read by
 * shape, so a run that reports retries as items gets them on the wire as `faultline.retry`.
 */
interface RetryNotice {
  type: 'retry';
  iteration: number;
  source: string;
  attempt: number;
  delayMs: number;
  error: unknown;
  callId?: string;
  toolName?: string;
  fallbackTo?: string;
  budgetExhausted?: boolean;
}

/** @internal An item of an agent run, or a retry notice. */
export type AgentItem = AgentRunItem | RetryNotice;

/** The finish's usage in AG-UI's names; none when the finish has none (the writer keeps only counts that are counts). */
function tokenUsage(usage: Usage | undefined): AGUITokenUsage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const counted: AGUITokenUsage = { inputTokens: usage.promptTokens, outputTokens: usage.completionTokens, totalTokens: usage.totalTokens };
  if (usage.reasoningTokens !== undefined) counted.reasoningTokens = usage.reasoningTokens;
  if (usage.cachedPromptTokens !== undefined) counted.cachedInputTokens = usage.cachedPromptTokens;
  return counted;
}

/** @internal Writes the events of agent run items. */
export class AgentAGUIMapper {
  private iteration = 0;

  constructor(
    private readonly writer: AGUIWriter,
    private readonly stopped: () => boolean,
  ) {}

  private step(iteration: number): string {
    if (iteration !== this.iteration && iteration > 0) {
      if (this.iteration > 0) this.writer.stepFinished(`step-${this.iteration}`);
      this.iteration = iteration;
      this.writer.stepStarted(`step-${iteration}`);
    }
    return `s${this.iteration}`;
  }

  map(item: AgentItem): void {
    const writer = this.writer;
    const stopped = item as unknown as { type: string; runId?: unknown; interrupts?: unknown };
    if (stopped.type === 'interrupted') {
      // the run stopped for approvals (read by shape: the agent's item types may not name it)
      writer.interrupted(stopped.interrupts, { finishReason: 'interrupted', ...(typeof stopped.runId === 'string' ? { runId: stopped.runId } : {}) });
      return;
    }
    switch (item.type) {
      case 'text-delta':
        writer.textDelta(item.delta, this.step(item.iteration));
        break;
      case 'reasoning-delta':
        writer.reasoningDelta(item.delta, this.step(item.iteration));
        break;
      case 'tool-call':
        this.step(item.iteration);
        writer.toolCall(item.call.id, item.call.name, item.call.arguments);
        break;
      case 'tool-result':
        this.step(item.iteration);
        writer.toolResult(item.callId, item.content);
        if (!item.ok && item.result.error) {
          const { retryable, retryAfterMs, cause } = item as { retryable?: unknown; retryAfterMs?: unknown; cause?: unknown };
          writer.error(toolErrorValue({ callId: item.callId, toolName: item.toolName, outcome: item.outcome, error: item.result.error, retryable, retryAfterMs, cause }));
        }
        break;
      case 'retry': {
        const notice: Record<string, unknown> = { source: item.source, attempt: item.attempt, delayMs: item.delayMs, error: item.error };
        for (const key of ['callId', 'toolName', 'fallbackTo', 'budgetExhausted'] as const) if (item[key] !== undefined) notice[key === 'callId' ? 'toolCallId' : key] = item[key];
        writer.custom('faultline.retry', notice);
        break;
      }
      case 'error':
        if (item.terminal) this.end(item.error);
        // a crashed tool's answer already says what the model saw (its `faultline.error`); the rest is news
        else if (!ToolError.isInstance(item.error)) writer.error(thrownErrorValue(item.error, ChatClientError.isInstance(item.error) ? 'model' : 'run'));
        break;
      case 'finish': {
        const result: Record<string, unknown> = { finishReason: item.finishReason, iterations: item.iterations };
        if (item.output !== undefined) result.output = item.output;
        writer.finished(result, tokenUsage(item.usage));
        break;
      }
      default:
        break;
    }
  }

  /** The run ended with `error` (terminal): cancelled when it was aborted, else failed. */
  end(error: unknown): void {
    if (this.stopped() || isAbortError(error)) this.writer.cancelled();
    else this.writer.failed(thrownErrorValue(error, 'run'));
  }
}
