/** @internal The `reason` of an `abort` chunk: a short sentence from the abort reason (redacted with the frame). */
import { messageOf } from '../internal/error-chain.js';
import { truncate } from '../internal/json.js';

export function abortText(reason: unknown): string {
  const said = reason === undefined ? '' : messageOf(reason).trim();
  return truncate(said === '' ? 'The run was cancelled.' : `The run was cancelled: ${said}`, 200);
}
