// Test helper for the decoders' index properties (test/chat/*-indexes.property.test.ts): a valid event flow as a list of
// abstract events, each of one numbered part of the answer (a content block, a tool call, an output item), and the
// mutations the protocols' indexes can suffer — a start sent again, an index skipped, a delta or stop for an index that
// never started, two parts interleaved — applied by fixed rules to generated numbers, so a fast-check seed replays.
import fc from 'fast-check';

/** One event of a flow: the part it belongs to (`group`), the index it names, and whether it starts the part. */
export interface FlowEvent {
  /** Which part of the answer (block, call, item) the event belongs to; `undefined` for the message-level events. */
  group?: number | undefined;
  /** The index the event names on the wire (what the mutations change). */
  index?: number | undefined;
  /** True for the event that starts its part (`content_block_start`, a call's first fragment, `output_item.added`). */
  start?: boolean | undefined;
  /** The rest of the event, as the provider's writer reads it. */
  [field: string]: unknown;
}

export type Mutation =
  | { op: 'repeat-start'; pick: number; at: number }
  | { op: 'skip-index'; pick: number }
  | { op: 'foreign-index'; pick: number; at: number; offset: number }
  | { op: 'interleave'; pick: number; other: number; schedule: boolean[] };

export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('repeat-start' as const), pick: fc.nat(), at: fc.nat() }),
  fc.record({ op: fc.constant('skip-index' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('foreign-index' as const), pick: fc.nat(), at: fc.nat(), offset: fc.nat({ max: 3 }) }),
  fc.record({ op: fc.constant('interleave' as const), pick: fc.nat(), other: fc.nat(), schedule: fc.array(fc.boolean(), { maxLength: 30 }) }),
);

/** The largest index any event names, or -1. */
const maxIndex = (events: readonly FlowEvent[]): number => events.reduce((max, event) => Math.max(max, event.index ?? -1), -1);

/**
 * `events` after `mutation`. `foreign` turns a copied event of a part into one that names a never-started index (the
 * provider's writer decides what such a copy carries: a bare delta, a stop, a continuation fragment). The first and
 * last events (the message's opening and end) never move.
 */
export function mutate(events: readonly FlowEvent[], mutation: Mutation, foreign: (event: FlowEvent) => FlowEvent = (event) => event): FlowEvent[] {
  const list = events.map((event) => ({ ...event }));
  const grouped = list.map((event, position) => ({ event, position })).filter(({ event }) => event.group !== undefined);
  if (grouped.length === 0) return list;
  const inner = (at: number, from: number): number => Math.min(list.length - 1, Math.max(1, from + (at % Math.max(1, list.length - from))));
  switch (mutation.op) {
    case 'repeat-start': {
      const starts = grouped.filter(({ event }) => event.start === true);
      if (starts.length === 0) return list;
      const { event, position } = starts[mutation.pick % starts.length] as { event: FlowEvent; position: number };
      list.splice(inner(mutation.at, position + 1), 0, { ...event });
      return list;
    }
    case 'skip-index': {
      const from = mutation.pick % (maxIndex(list) + 1);
      for (const event of list) if (event.index !== undefined && event.index >= from) event.index++;
      return list;
    }
    case 'foreign-index': {
      const others = grouped.filter(({ event }) => event.start !== true);
      if (others.length === 0) return list;
      const { event, position } = others[mutation.pick % others.length] as { event: FlowEvent; position: number };
      const copy = foreign({ ...event, index: maxIndex(list) + 1 + mutation.offset });
      list.splice(inner(mutation.at, position), 0, copy);
      return list;
    }
    case 'interleave': {
      const groups = [...new Set(grouped.map(({ event }) => event.group as number))];
      if (groups.length < 2) return list;
      const first = groups[mutation.pick % groups.length] as number;
      const rest = groups.filter((group) => group !== first);
      const second = rest[mutation.other % rest.length] as number;
      const slots = list.flatMap((event, position) => (event.group === first || event.group === second ? [position] : []));
      const a = slots.map((slot) => list[slot] as FlowEvent).filter((event) => event.group === first);
      const b = slots.map((slot) => list[slot] as FlowEvent).filter((event) => event.group === second);
      const merged: FlowEvent[] = [];
      let step = 0;
      while (a.length > 0 || b.length > 0) {
        const takeA = b.length === 0 || (a.length > 0 && (mutation.schedule[step++] ?? true));
        merged.push((takeA ? a.shift() : b.shift()) as FlowEvent);
      }
      slots.forEach((slot, position) => (list[slot] = merged[position] as FlowEvent));
      return list;
    }
  }
}

/** Cut points as fractions of a body's length. */
export const cutsArbitrary = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 });

/** Byte offsets of `fractions` of `length`, sorted and distinct. */
export const offsetsOf = (fractions: readonly number[], length: number): number[] => [...new Set(fractions.map((fraction) => Math.floor(fraction * length)))].sort((a, b) => a - b);

/** Every frame written with a space after its opening brace, so that no frame matches a compact fast path or template. */
export const spaced = (sse: string): string => sse.replaceAll('data: {"', 'data: { "');

/** A call as a reference model or a decoder's `tool-call-end` chunks give it. */
export interface EndedCall {
  id: string;
  name: string;
  arguments: string;
}
