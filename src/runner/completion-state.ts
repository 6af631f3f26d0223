import { isRunnerCompletion, type RunEvent } from './event.js';
import { decodeStateDelta, withoutMetadata } from './state-delta.js';

/**
 * The state type of a graph, read from what its `run` resolves with (a completed outcome's `state`), so the runner
 * can type a completion's state without depending on the graph.
 */
export type CompletionStateOf<G> = G extends { run(...args: never[]): Promise<infer Outcome> }
  ? Extract<Outcome, { status: 'completed' }> extends { state: infer S }
    ? S
    : Record<string, unknown>
  : Record<string, unknown>;

/**
 * The business state a `runner.completion` carries, decoded: one value per state key (graph metadata keys left out),
 * so a caller reads `state.inventory_status` instead of a `JSON.parse` per key. The wire form stays on
 * `event.stateDelta`; this is a fresh copy on every call. A value that is not valid JSON is kept as its text (as
 * `decodeStateDelta` does). `{}` for a completion without state; `undefined` for an event that is not a completion.
 * Pass the compiled graph as `graph` to type the state by the graph's own (`Partial`: a failed run's fallback state
 * may lack keys). The values are not validated: check what you read (`executionErrorsFromStateDelta` does, for the
 * records).
 *
 * @param event - Any run event; only a `runner.completion` gives a state.
 * @param graph - The compiled graph the run ran, for the state's type only (not read).
 * @returns The decoded state, `{}`, or `undefined`.
 * @example
 * ```ts
 * for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'Order 42' })) {
 *   const state = completionState(event, compiled); // typed by the graph's state schema
 *   if (state?.inventory_status === 'unknown') console.log('order 42 waits for a stock check');
 * }
 * ```
 */
export function completionState(event: RunEvent | undefined | null): Record<string, unknown> | undefined;
export function completionState<G extends { run(...args: never[]): Promise<unknown> }>(event: RunEvent | undefined | null, graph: G): Partial<CompletionStateOf<G>> | undefined;
export function completionState(event: RunEvent | undefined | null): Record<string, unknown> | undefined {
  if (!isRunnerCompletion(event)) return undefined;
  return decodeStateDelta(withoutMetadata(event.stateDelta));
}
