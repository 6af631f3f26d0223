/**
 * @internal What a Responses stream showed of its answer, and which items of the final event's `output` it never showed.
 * The final output is the whole answer (what `complete()` decodes); a server may stream only part of it as events (a
 * proxy that forwards only calls, a message given whole at the end), so an item the events never showed is decoded
 * from there — never dropped, never repeated.
 */
import { field } from '../core/event-decoder.js';
import { itemKind } from './responses-output.js';

/** An item the stream opened, at its `output_index`. */
export interface OpenItem {
  kind: 'message' | 'function_call' | 'reasoning' | 'skipped';
  /** Text or reasoning deltas of this item arrived (else its `done` item's text is used). */
  streamed: boolean;
  /** Its `output_item.done` came: a repeated one is ignored. */
  done: boolean;
  /** The item's `id`, when it came: later events for its `output_index` must be of the same item. */
  id: string | undefined;
  /** For a function_call: the call's ordinal, call id, name and arguments so far. */
  call?: { index: number; id: string; name: string; arguments: string; ended: boolean };
}

/** What the events showed: the items by `output_index`, and the ids and call ids they carried. */
export interface SeenItems {
  items: ReadonlyMap<number, OpenItem>;
  itemIds: ReadonlySet<string>;
  callIds: ReadonlySet<string>;
}

/**
 * The items of `output` the stream never showed, each with its place in `output`. An item is known by its `id`, a
 * call by its `call_id` (the one the agent runs it by); an item without either (no server known sends one) by the
 * item of its kind the events put at its place.
 */
export function unseenItems(output: readonly unknown[], seen: SeenItems): Array<{ at: number; item: unknown }> {
  const unseen: Array<{ at: number; item: unknown }> = [];
  output.forEach((item, at) => {
    const id = field(item, 'id');
    const callId = field(item, 'call_id');
    const known =
      (typeof id === 'string' && seen.itemIds.has(id)) ||
      (typeof callId === 'string' && seen.callIds.has(callId)) ||
      (typeof id !== 'string' && typeof callId !== 'string' && seen.items.get(at)?.kind === itemKind(field(item, 'type')));
    if (!known) unseen.push({ at, item });
  });
  return unseen;
}
