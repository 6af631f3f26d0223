/**
 * @internal The text of a tool call's `arguments` when a provider sends a JSON value instead of the JSON string the
 * wire format specifies (some OpenAI-compatible servers do). Written with `encodeJSON`: a value that cannot be
 * written back (nested deeper than the runtime's stack, which JSON.parse itself accepts) is a `StreamError`
 * (`malformed_chunk`) naming the call, never a raw `RangeError`. The tool's name and the path of the problem are the
 * provider's text (a server may echo anything, the API key included): redacted and bounded like any other.
 */
import { StreamError } from '../../errors/stream-error.js';
import { isPlainObject, truncate } from '../../internal/json.js';
import { redactError, redactText } from '../../internal/redact.js';
import { encodeJSON, MAX_JSON_DEPTH, nestingProblem } from '../../wire/safe-json.js';

/**
 * `arguments` as text: a string as is, an object or array encoded (depth-checked), a number/boolean/null as JSON, nothing as `''`.
 * @param secrets Removed from what an error quotes (the tool's name, the path of what is wrong).
 */
export function toolArgumentsText(value: unknown, toolName: string, secrets: readonly string[]): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (!isPlainObject(value) && !Array.isArray(value)) return '';
  const excerpt = (text: string, length: number) => truncate(redactText(text, secrets), length);
  const tool = JSON.stringify(excerpt(toolName, 60));
  const tooDeep = nestingProblem(value, 'arguments', MAX_JSON_DEPTH);
  if (tooDeep) {
    throw new StreamError(`The model sent arguments for the tool call ${tool} that cannot be taken: ${excerpt(`${tooDeep.path} ${tooDeep.message}`, 300)}`, { reason: 'malformed_chunk' });
  }
  try {
    return encodeJSON(value, 'arguments of a tool call', 'arguments');
  } catch (error) {
    throw new StreamError(`The model sent arguments for the tool call ${tool} that cannot be written as JSON`, { reason: 'malformed_chunk', cause: redactError(error, secrets) });
  }
}
