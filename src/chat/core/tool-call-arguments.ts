/**
 * @internal The text of a tool call's `arguments` when a provider sends a JSON value instead of the JSON string the
 * wire format specifies (some OpenAI-compatible servers do). Written with `encodeJSON`: a value that cannot be
 * written back (nested deeper than the runtime's stack, which JSON.parse itself accepts) is a `StreamError`
 * (`malformed_chunk`) naming the call, never a raw `RangeError`.
 */
import { StreamError } from '../../errors/stream-error.js';
import { isPlainObject } from '../../internal/json.js';
import { encodeJSON, MAX_JSON_DEPTH, nestingProblem } from '../../wire/safe-json.js';

/** `arguments` as text: a string as is, an object or array encoded (depth-checked), a number/boolean/null as JSON, nothing as `''`. */
export function toolArgumentsText(value: unknown, toolName: string): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (!isPlainObject(value) && !Array.isArray(value)) return '';
  const tooDeep = nestingProblem(value, 'arguments', MAX_JSON_DEPTH);
  if (tooDeep) {
    throw new StreamError(`The model sent arguments for the tool call ${JSON.stringify(toolName)} that cannot be taken: ${tooDeep.path} ${tooDeep.message}`, { reason: 'malformed_chunk' });
  }
  try {
    return encodeJSON(value, `arguments of the tool call ${JSON.stringify(toolName)}`, 'arguments');
  } catch (error) {
    throw new StreamError(`The model sent arguments for the tool call ${JSON.stringify(toolName)} that cannot be written as JSON`, { reason: 'malformed_chunk', cause: error });
  }
}
