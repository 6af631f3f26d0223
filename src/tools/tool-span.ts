/**
 * @internal A tool call's `execute_tool` span (OpenTelemetry GenAI conventions): its name, call id and type; retries
 * as events; the outcome and attempts when it ends; a result the model sees as an error fails the span with that
 * error's `type`. Arguments and results are recorded only with `recordContent`.
 */
import type { RetryNotice } from '../internal/retry.js';
import {
  ERROR_TYPE,
  EVENT_RETRY,
  FAULTLINE_RETRY_ATTEMPT,
  FAULTLINE_RETRY_BUDGET_EXHAUSTED,
  FAULTLINE_RETRY_DELAY_MS,
  FAULTLINE_TOOL_ATTEMPTS,
  FAULTLINE_TOOL_OUTCOME,
  GEN_AI_OPERATION_EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME,
  GEN_AI_TOOL_CALL_ARGUMENTS,
  GEN_AI_TOOL_CALL_ID,
  GEN_AI_TOOL_CALL_RESULT,
  GEN_AI_TOOL_NAME,
  GEN_AI_TOOL_TYPE,
  GEN_AI_TOOL_TYPE_FUNCTION,
} from '../telemetry/attribute-names.js';
import { toolSpanName } from '../telemetry/span-names.js';
import { NO_SPAN, traces } from '../telemetry/no-telemetry.js';
import type { SpanHandle, Telemetry } from '../telemetry/telemetry.js';
import type { AnyTool } from './define-tool.js';
import type { ToolRun } from './tool-run.js';

/** The span of one call of `tool`. */
export function toolSpan(tool: AnyTool, callId: string, options: { telemetry?: Telemetry | undefined; parentSpan?: SpanHandle | undefined }, rawArguments: unknown): SpanHandle {
  const { telemetry } = options;
  if (!traces(telemetry)) return NO_SPAN;
  return telemetry.startSpan(toolSpanName(tool.name), {
    parent: options.parentSpan,
    attributes: {
      [GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_EXECUTE_TOOL,
      [GEN_AI_TOOL_NAME]: tool.name,
      [GEN_AI_TOOL_CALL_ID]: callId,
      [GEN_AI_TOOL_TYPE]: GEN_AI_TOOL_TYPE_FUNCTION,
      [GEN_AI_TOOL_CALL_ARGUMENTS]: telemetry.recordContent ? (typeof rawArguments === 'string' ? rawArguments : safeJSON(rawArguments)) : undefined,
    },
  });
}

/** A retry of the call, as an event of its span. */
export function traceRetry(span: SpanHandle, notice: RetryNotice, type: string): void {
  if (!traces(span)) return;
  span.addEvent(EVENT_RETRY, {
    [FAULTLINE_RETRY_ATTEMPT]: notice.attempt + 1,
    [FAULTLINE_RETRY_DELAY_MS]: notice.delayMs,
    [FAULTLINE_RETRY_BUDGET_EXHAUSTED]: notice.budgetExhausted,
    [ERROR_TYPE]: type,
  });
}

/** Ends the span with the call's outcome; a result the model sees as an error fails it with that error's type. */
export function endToolSpan(span: SpanHandle, run: ToolRun, telemetry: Telemetry | undefined): void {
  if (!traces(span)) return;
  span.setAttributes({
    [FAULTLINE_TOOL_OUTCOME]: run.outcome,
    [FAULTLINE_TOOL_ATTEMPTS]: run.attempts,
    [GEN_AI_TOOL_CALL_RESULT]: telemetry?.recordContent ? run.content : undefined,
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
