/**
 * @internal Which Chat Completions frames a learned template (`core/frame-template.ts`) may stand for: one choice
 * whose only effect is a text delta, or more arguments for a call already open — no id or name for the call, no
 * finish, no usage, no error, no reasoning or refusal, and the stream's own id and model. For such a frame the full
 * path of `OpenAIStreamDecoder` does exactly what its template path does (append the text, or the arguments).
 */
import { isJSONObject } from '../core/event-decoder.js';
import type { HotFrame } from '../core/frame-template.js';

/** The context of a text-delta template (a call's template has the call's `index`). */
export const TEXT = -1;

/** `undefined` or `null`: a field the decoder reads as absent. */
const absent = (value: unknown): boolean => value === undefined || value === null;

/**
 * The template reading of a parsed chunk, or `undefined` when a template may not stand for it.
 * @param responseId the stream's id so far (a chunk with another one changes it: full path)
 * @param model the stream's model so far
 */
export function chatDeltaFrame(chunk: unknown, responseId: string | undefined, model: string | undefined): HotFrame<number> | undefined {
  if (!isJSONObject(chunk) || !absent(chunk.error) || !absent(chunk.usage)) return undefined;
  if ((typeof chunk.id === 'string' && chunk.id !== responseId) || (typeof chunk.model === 'string' && chunk.model !== model)) return undefined;
  const choices = chunk.choices;
  if (!Array.isArray(choices) || choices.length !== 1) return undefined;
  const choice: unknown = choices[0];
  if (!isJSONObject(choice) || (choice.index !== undefined && choice.index !== 0) || !absent(choice.finish_reason)) return undefined;
  const delta = choice.delta;
  if (!isJSONObject(delta) || delta.reasoning_content !== undefined || delta.reasoning !== undefined || delta.refusal !== undefined) return undefined;
  if (typeof delta.content === 'string') return delta.tool_calls === undefined ? { text: delta.content, textKey: 'content', context: TEXT } : undefined;
  if (!absent(delta.content) || !Array.isArray(delta.tool_calls) || delta.tool_calls.length !== 1) return undefined;
  const call: unknown = delta.tool_calls[0];
  if (!isJSONObject(call) || typeof call.index !== 'number' || call.id !== undefined) return undefined;
  const fn = call.function;
  if (!isJSONObject(fn) || fn.name !== undefined || typeof fn.arguments !== 'string') return undefined;
  return { text: fn.arguments, textKey: 'arguments', context: call.index };
}
