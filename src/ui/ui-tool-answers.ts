/**
 * @internal The tool-message content of a tool part posted back by a browser. A part written by faultline's encoder
 * carries the exact content the model saw (`resultProviderMetadata.faultline.content`), and that is used as it is.
 * Without it (a history from an older page or another server) the content is rebuilt as faultline writes it: the
 * output as a `ToolResultJSON`, the error as its envelope. A call the browser holds no answer for (a stopped run) is
 * answered as the agent loop answers a call it could not finish, so the transcript stays a valid next request for
 * every provider.
 */
import { approvalDenied } from '../interrupts/approval-answers.js';
import { isPlainObject } from '../internal/json.js';
import { serializeToolResult, type ToolErrorFormat } from '../tools/serialize-tool-result.js';
import type { ToolErrorInfo } from '../tools/tool-failure.js';
import { ToolResult, type ToolResultJSON } from '../tools/tool-result.js';

/** @internal The content of an error result (throws `SerializeError` for data JSON cannot carry). */
export function errorContent(error: ToolErrorInfo, format: ToolErrorFormat): string {
  return serializeToolResult(ToolResult.error(error), { errorFormat: format });
}

/**
 * @internal The answer to a call whose outcome the browser never saw (it stopped reading): the text the agent loop
 * gives a call the run was cancelled under — the tool may or may not have run.
 */
export function abortedContent(toolName: string, format: ToolErrorFormat): string {
  return errorContent({ type: 'Aborted', message: `The run was cancelled before the tool '${toolName}' finished; its outcome is unknown.` }, format);
}

/** @internal The answer to a call whose arguments were still streaming when the run stopped: it was never run. */
export function cutOffContent(toolName: string, argumentsText: string, format: ToolErrorFormat): string {
  return errorContent(
    {
      type: 'InputValidationError',
      message: `The arguments of your call to '${toolName}' were cut off when the run was stopped (${argumentsText.length} characters arrived, not complete JSON); the tool was not run.`,
      context: { tool: toolName, cutOff: true },
      suggestion: 'Call the tool again if it is still needed.',
    },
    format,
  );
}

/**
 * @internal The answer to a call the user denied (an approval answered no): what the agent told the model when it
 * resumed with that denial, so the next turn's transcript is the one the model saw.
 */
export function deniedContent(toolName: string, reason: string | undefined, format: ToolErrorFormat): string {
  return errorContent(approvalDenied(toolName, reason), format);
}

/**
 * @internal The content of an output without faultline's metadata: a `ToolResultJSON` (`{ok: boolean, data?,
 * error?}`, what faultline's encoder sends as `output`) as it is, any other value as a success's data.
 */
export function outputContent(output: unknown, format: ToolErrorFormat): string {
  const result = isPlainObject(output) && typeof output.ok === 'boolean' ? ToolResult.fromJSON(output as unknown as ToolResultJSON) : ToolResult.success(output);
  return serializeToolResult(result, { errorFormat: format });
}

/** @internal An error envelope (`{type, message, context?, suggestion?}`) read from a data part, if `value` is one. */
export function envelopeOf(value: unknown): ToolErrorInfo | undefined {
  if (!isPlainObject(value) || typeof value.type !== 'string' || value.type === '' || typeof value.message !== 'string') return undefined;
  const envelope: ToolErrorInfo = { type: value.type, message: value.message };
  if (isPlainObject(value.context)) envelope.context = value.context;
  if (typeof value.suggestion === 'string') envelope.suggestion = value.suggestion;
  return envelope;
}
