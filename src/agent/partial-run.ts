/**
 * What a run produced before it failed, kept beside its terminal error: a rejection carries the error itself (its
 * type is what callers branch on), and {@link partialRunOf} gives back the run's text, tool results and messages so far.
 * Kept in a `WeakMap` keyed by the error, so nothing is written on the error (an abort reason is the caller's own
 * object) and nothing outlives it.
 */
import type { ChatMessage } from '../chat/core/types.js';
import type { AgentRunItem } from './types.js';

/** What a failed run had produced when it ended: see {@link partialRunOf}. */
export interface AgentRunPartial {
  /** The text of the model call that was under way when the run failed (what streamed of it), else the last answer's. */
  text: string;
  /** The tool results so far, in call order. */
  toolResults: Array<Extract<AgentRunItem, { type: 'tool-result' }>>;
  /** The assistant messages of the model calls that ended. */
  messages: ChatMessage[];
  /** Recoverable errors seen before the end. */
  errors: unknown[];
  /** Model calls made. */
  iterations: number;
}

const partials = new WeakMap<object, AgentRunPartial>();

/** @internal Keeps `partial` for the terminal `error` (an object; a primitive abort reason keeps nothing). */
export function keepPartialRun(error: unknown, partial: AgentRunPartial): void {
  if ((typeof error === 'object' && error !== null) || typeof error === 'function') partials.set(error, partial);
}

/**
 * What a run produced before `error` ended it — `collectAgentRun`, `runAgent` and `Agent.run` collected: the text that
 * streamed, the tool results, the assistant messages — or `undefined` for an error no collected run ended with (and
 * for an abort reason that is not an object).
 *
 * @example
 * ```ts
 * try {
 *   await runAgent({ model, tools, prompt: 'Summarize order 42' });
 * } catch (error) {
 *   const partial = partialRunOf(error);
 *   console.log(partial?.text, partial?.toolResults.length); // what the user already saw, and the tools that ran
 * }
 * ```
 */
export function partialRunOf(error: unknown): AgentRunPartial | undefined {
  return (typeof error === 'object' && error !== null) || typeof error === 'function' ? partials.get(error) : undefined;
}
