import type { ToolRun } from './tool-run.js';
import type { ToolErrorFormat } from './tool-error-format.js';

export type { ToolErrorFormat } from './tool-error-format.js';
import { formatSealed, sealedOf, sealToolResult } from './seal-tool-result.js';
import type { ToolResult } from './tool-result.js';

/** Options of {@link serializeToolResult}. */
export interface SerializeToolResultOptions {
  /** @default 'structured' */
  errorFormat?: ToolErrorFormat;
}

/**
 * The exact string a model receives as the tool message content: JSON with keys `ok`, `data`, `error` in that order.
 * Throws `SerializeError` naming the path when the data cannot be represented as JSON (a cycle, a `BigInt`, a
 * throwing getter, a function or Symbol as the whole data); `runTool` turns that into a `ToolInternalError` result,
 * so the model still gets an answer.
 *
 * @example
 * ```ts
 * serializeToolResult(ToolResult.error('File not found'));                          // {"ok":false,"error":{"type":"ToolExecutionFailed","message":"File not found"}}
 * serializeToolResult(ToolResult.error('File not found'), { errorFormat: 'flat' }); // {"ok":false,"error":"File not found"}
 * ```
 */
export function serializeToolResult(result: ToolResult, options: SerializeToolResultOptions = {}): string {
  return formatSealed(sealToolResult(result), options?.errorFormat);
}

/**
 * The tool-message content of a run in `format`: for a run made by `runTool`, the text it checked (nothing is
 * serialized again, so what the model gets is exactly what was checked); otherwise its `result` serialized.
 * @example `const content = toolRunContent(await runTool(tool, args), 'flat')`
 */
export function toolRunContent(run: ToolRun, format: ToolErrorFormat = 'structured'): string {
  const sealed = sealedOf(run);
  return sealed ? formatSealed(sealed, format) : serializeToolResult(run.result, { errorFormat: format });
}
