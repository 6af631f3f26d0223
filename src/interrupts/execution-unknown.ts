import { preview } from '../internal/json.js';
import type { ToolErrorInfo } from '../tools/tool-failure.js';

/**
 * The `error.type` the model sees for an approved call that was started but whose result was never recorded.
 * @example `if (result.error?.type === EXECUTION_UNKNOWN_TYPE) checkTheOrder();`
 */
export const EXECUTION_UNKNOWN_TYPE = 'ToolExecutionUnknown';

/**
 * What the model is told when an approved call was started and the process stopped before its result was recorded:
 * it may have run, so it is not run again, and the model is asked to check before retrying.
 * @example `executionUnknown('refund').type // 'ToolExecutionUnknown'`
 */
export function executionUnknown(toolName: string): ToolErrorInfo {
  return {
    type: EXECUTION_UNKNOWN_TYPE,
    message: `The call of ${preview(toolName, 80)} was started, but the process stopped before its result was recorded: it may have run.`,
    context: { tool: toolName },
    suggestion: 'Check whether its effect happened (look the order or record up) before calling it again; tell the user the outcome is unknown if you cannot check.',
  };
}
