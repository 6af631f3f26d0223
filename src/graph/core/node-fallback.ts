import type { State } from './state-schema.js';

/**
 * What a node's recoverable failure turns into, in one line: its failure is still recorded, then `update` is applied
 * and the run goes to `goto` (checked at `compile()`). Used by an `ExecutionErrorCollector` whenever its policy
 * recovers the failure without a replacement of its own (the default policy: errors that are `recoverable()`).
 *
 * @example
 * ```ts
 * graph.addNode('lookup_inventory', lookupInventory, {
 *   fallback: { update: { inventory_status: 'unknown' }, goto: 'ask_customer' },
 * });
 * ```
 */
export interface NodeFallback<U = State> {
  /** The state update applied instead of the node's result (the failure's record is merged into it). */
  update?: U | undefined;
  /** The next node(s), or `END`. @default the node's own edges */
  goto?: string | readonly string[] | undefined;
}
