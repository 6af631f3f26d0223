/**
 * @internal Which OpenAI Responses frames a learned template (`core/frame-template.ts`) may stand for: the delta
 * events, one per token. For such an event the decoder reads its `type`, `delta`, `output_index` and `item_id`: the
 * template's context holds them, so every other value (`sequence_number`, `content_index`, `obfuscation`…) is one the
 * decoder never reads, and a template may take any value there.
 */
import { isJSONObject } from '../core/event-decoder.js';
import type { HotFrame } from '../core/frame-template.js';

/** The delta events a template may stand for: each reads only the event's `delta` and `output_index`. */
const DELTA_TYPES = new Set(['response.output_text.delta', 'response.refusal.delta', 'response.reasoning_summary_text.delta', 'response.reasoning_text.delta', 'response.function_call_arguments.delta']);

/**
 * What a delta template stands for: the event's type, its `output_index` and `item_id` as sent (an index, or none: a
 * template is learned only from a frame the full path decoded, which refuses any other value).
 */
export interface DeltaContext {
  type: string;
  outputIndex: unknown;
  itemId: unknown;
}

/** A delta event a template may stand for: one of {@link DELTA_TYPES} with a string `delta`. */
export function hotFrame(data: unknown): HotFrame<DeltaContext> | undefined {
  if (!isJSONObject(data) || typeof data.type !== 'string' || !DELTA_TYPES.has(data.type) || typeof data.delta !== 'string') return undefined;
  return { text: data.delta, textKey: 'delta', context: { type: data.type, outputIndex: data.output_index, itemId: data.item_id } };
}
