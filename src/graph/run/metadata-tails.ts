/**
 * The metadata tails of node events: the JSON text after `"stepNumber":n`, serialized once (two events per node and
 * step make this a hot path). Internal to the graph.
 */

/** @internal The JSON text after `"stepNumber":n` in node-event metadata: `,"phase":"start"}`. */
export function metadataTail(extra: Record<string, unknown>): string {
  const rest = JSON.stringify(extra);
  return rest === '{}' ? '}' : `,${rest.slice(1)}`;
}

// The tails every node step emits, written out as text (each is `metadataTail` of its object, which
// test/graph/metadata-tails.test.ts checks): module scope holds literals only, so a bundler drops what is unused.
/** @internal The metadata tail of a `graph.node.start` event: `metadataTail({ phase: 'start' })`. */
export const PHASE_START = ',"phase":"start"}';
/** @internal The metadata tail of a node's `graph.node.error` event: `metadataTail({ phase: 'error' })`. */
export const PHASE_ERROR = ',"phase":"error"}';
/** @internal The metadata tail of a node's `graph.node.complete` event: `metadataTail({ phase: 'complete' })`. */
export const PHASE_COMPLETE = ',"phase":"complete"}';
/** @internal `metadataTail({ phase: 'complete', recovered: true })`. */
export const PHASE_COMPLETE_RECOVERED = ',"phase":"complete","recovered":true}';
/** @internal `metadataTail({ phase: 'reduce' })`. */
export const PHASE_REDUCE = ',"phase":"reduce"}';
/** @internal `metadataTail({ phase: 'after_callback' })`. */
export const PHASE_AFTER_CALLBACK = ',"phase":"after_callback"}';
