import { isRunnerCompletion, type RunEvent } from './event.js';
import { decodeStateDelta, withoutMetadata } from './state-delta.js';

/**
 * The business state a `runner.completion` carries, decoded: one value per state key (graph metadata keys left out),
 * so a caller reads `state.inventory_status` instead of a `JSON.parse` per key. The wire form stays on
 * `event.stateDelta`; this is a fresh copy on every call. A value that is not valid JSON is kept as its text (as
 * `decodeStateDelta` does). `{}` for a completion without state; `undefined` for an event that is not a completion.
 * The values are not validated: check what you read (`executionErrorsFromStateDelta` does, for the records).
 *
 * @param event - Any run event; only a `runner.completion` gives a state.
 * @returns The decoded state, `{}`, or `undefined`.
 * @example
 * ```ts
 * for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'Order 42' })) {
 *   const state = completionState(event);
 *   if (state?.inventory_status === 'unknown') console.log('order 42 waits for a stock check');
 * }
 * ```
 */
export function completionState(event: RunEvent | undefined | null): Record<string, unknown> | undefined {
  if (!isRunnerCompletion(event)) return undefined;
  return decodeStateDelta(withoutMetadata(event.stateDelta));
}
