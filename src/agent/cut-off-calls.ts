/**
 * @internal A turn the model's output limit cut (`finish_reason: length`, Anthropic's `max_tokens`, Responses'
 * `max_output_tokens`): a tool call whose arguments are not complete JSON is not a call to run — the model gets an
 * `InputValidationError` result saying its arguments were cut off at the output limit, with a suggestion, so the
 * transcript stays a valid next request.
 */
import type { ToolCall } from '../chat/core/types.js';
import { InputValidationError } from '../tools/input-validation-error.js';
import type { ToolRun } from '../tools/run-tool.js';
import { serializeToolResult, type ToolErrorFormat } from '../tools/serialize-tool-result.js';
import { ToolResult } from '../tools/tool-result.js';

/** Finish reasons that mean the output limit cut the turn. */
const CUT_BY_LIMIT = new Set(['length', 'max_tokens', 'max_output_tokens']);

/** True when `reason` says the model ran into its output token limit. */
export function cutByOutputLimit(reason: string | undefined): boolean {
  return reason !== undefined && CUT_BY_LIMIT.has(reason);
}

/** True when `text` is one whole JSON value (a cut-off call's arguments are not). */
function completeJSON(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The result for a call of a cut turn (its tool named as every output names it), or undefined when its arguments are complete and it may run. */
export function cutOffRun(call: ToolCall, toolName: string, errorFormat: ToolErrorFormat | undefined): ToolRun | undefined {
  if (completeJSON(call.arguments)) return undefined;
  const failure = new InputValidationError(
    `The arguments of your call to '${toolName}' were cut off at the output token limit (${call.arguments.length} characters arrived, not complete JSON); the tool was not run.`,
    {
      context: { tool: toolName, cutOffAtOutputLimit: true },
      suggestion: 'Call the tool again with shorter arguments, or split the work into several smaller calls.',
    },
  );
  const result = ToolResult.error(failure);
  return { toolName, callId: call.id, result, content: serializeToolResult(result, { errorFormat }), outcome: 'invalid_arguments', attempts: 0, durationMs: 0, error: failure };
}
