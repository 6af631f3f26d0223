/**
 * @internal The types of the Chat Completions fields that carry the answer — in a streamed chunk and in a whole
 * completion alike — for `misfit` (`core/event-decoder.ts`): such a field of another type is a typed error, never read
 * as absent (which would decode a quieter answer than the one the provider sent).
 */
import { field, misfit } from '../core/event-decoder.js';

const CHOICE = { delta: 'o', message: 'o', finish_reason: 's' } as const;
const MESSAGE = { reasoning_content: 's', reasoning: 's', refusal: 's', tool_calls: 'a' } as const;
const CALL = { id: 's', function: 'o' } as const;
const FUNCTION = { name: 's' } as const;

/** The first field of a choice, or of its delta or message, of another type than its own, said; `undefined` when none is. */
export function choiceMisfit(choice: unknown): string | undefined {
  return misfit(choice, CHOICE) ?? misfit(field(choice, 'delta') ?? field(choice, 'message'), MESSAGE);
}

/**
 * The same for a tool call (a streamed fragment or a whole call). Its `arguments` are text, or a JSON object or array
 * some servers send instead (written back as its text): a number or a boolean is no arguments.
 */
export function callMisfit(call: unknown): string | undefined {
  const fn = field(call, 'function');
  const given = field(fn, 'arguments');
  return misfit(call, CALL) ?? misfit(fn, FUNCTION) ?? (typeof given === 'number' || typeof given === 'boolean' ? `arguments as a ${typeof given}` : undefined);
}
