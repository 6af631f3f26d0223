import { SerializeError } from '../errors/serialize-error.js';
import { messageOf } from '../internal/error-chain.js';
import type { ToolResult, ToolResultJSON } from './tool-result.js';

/** How the error part of a tool result is written. */
export type ToolErrorFormat =
  /** `error: {type, message, context?, suggestion?}` (the course's structured form; the default). */
  | 'structured'
  /** `error: "<message>"`, RAF's flat string form, for peers that expect it (a suggestion is appended as a sentence). */
  | 'flat';

/** Options of {@link serializeToolResult}. */
export interface SerializeToolResultOptions {
  /** @default 'structured' */
  errorFormat?: ToolErrorFormat;
}

/**
 * The exact string a model receives as the tool message content: JSON with keys `ok`, `data`, `error` in that order.
 * Throws `SerializeError` when the data cannot be represented as JSON (a cycle, a `BigInt`); `runTool` turns that
 * into a `ToolInternalError` result, so the model still gets an answer.
 *
 * @example
 * ```ts
 * serializeToolResult(ToolResult.error('File not found'));                          // {"ok":false,"error":{"type":"ToolError","message":"File not found"}}
 * serializeToolResult(ToolResult.error('File not found'), { errorFormat: 'flat' }); // {"ok":false,"error":"File not found"}
 * ```
 */
export function serializeToolResult(result: ToolResult, options: SerializeToolResultOptions = {}): string {
  const json: ToolResultJSON = result.toJSON();
  const shaped: Record<string, unknown> = { ok: json.ok };
  if (json.data !== undefined) shaped.data = json.data;
  if (json.error !== undefined) {
    shaped.error =
      options.errorFormat === 'flat'
        ? flatError(json.error.message, json.error.suggestion)
        : json.error;
  }
  try {
    return JSON.stringify(shaped);
  } catch (error) {
    throw new SerializeError(`The tool result cannot be written as JSON: ${messageOf(error)}`, { cause: error, subject: 'tool result' });
  }
}

function flatError(message: string, suggestion: string | undefined): string {
  if (!suggestion) return message;
  return `${message}${/[.!?。]$/.test(message.trim()) ? '' : '.'} ${suggestion}`;
}
