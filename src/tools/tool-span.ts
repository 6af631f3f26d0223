/**
 * @internal A tool call's `execute_tool` span (OpenTelemetry GenAI conventions): its name, call id and type; retries
 * as events; the outcome and attempts when it ends; a result the model sees as an error fails the span with that
 * error's `type`. Arguments and results are recorded only with `recordContent`.
 */
import type { RetryNotice } from '../internal/retry.js';
import { CommonAttribute, FaultlineAttribute, GenAIAttribute, GenAIOperation, GenAIToolType, TelemetryEvent, toolSpanName } from '../telemetry/attributes.js';
import { NO_SPAN, NO_TELEMETRY } from '../telemetry/no-telemetry.js';
import type { SpanHandle, Telemetry } from '../telemetry/telemetry.js';
import type { AnyTool } from './define-tool.js';
import type { ToolRun } from './tool-run.js';

/** The span of one call of `tool`. */
export function toolSpan(tool: AnyTool, callId: string, options: { telemetry?: Telemetry | undefined; parentSpan?: SpanHandle | undefined }, rawArguments: unknown): SpanHandle {
  const telemetry = options.telemetry ?? NO_TELEMETRY;
  if (telemetry === NO_TELEMETRY) return NO_SPAN; // nothing records: no attributes are built
  return telemetry.startSpan(toolSpanName(tool.name), {
    parent: options.parentSpan,
    attributes: {
      [GenAIAttribute.OperationName]: GenAIOperation.ExecuteTool,
      [GenAIAttribute.ToolName]: tool.name,
      [GenAIAttribute.ToolCallId]: callId,
      [GenAIAttribute.ToolType]: GenAIToolType.Function,
      [GenAIAttribute.ToolCallArguments]: telemetry.recordContent ? (typeof rawArguments === 'string' ? rawArguments : safeJSON(rawArguments)) : undefined,
    },
  });
}

/** A retry of the call, as an event of its span. */
export function traceRetry(span: SpanHandle, notice: RetryNotice, type: string): void {
  span.addEvent(TelemetryEvent.Retry, {
    [FaultlineAttribute.RetryAttempt]: notice.attempt + 1,
    [FaultlineAttribute.RetryDelayMs]: notice.delayMs,
    [FaultlineAttribute.RetryBudgetExhausted]: notice.budgetExhausted,
    [CommonAttribute.ErrorType]: type,
  });
}

/** Ends the span with the call's outcome; a result the model sees as an error fails it with that error's type. */
export function endToolSpan(span: SpanHandle, run: ToolRun, telemetry: Telemetry | undefined): void {
  if (span === NO_SPAN) return;
  span.setAttributes({
    [FaultlineAttribute.ToolOutcome]: run.outcome,
    [FaultlineAttribute.ToolAttempts]: run.attempts,
    [GenAIAttribute.ToolCallResult]: telemetry?.recordContent ? run.content : undefined,
  });
  if (!run.result.ok && run.result.error) span.fail(run.result.error, { type: run.result.error.type });
  span.end();
}

function safeJSON(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
