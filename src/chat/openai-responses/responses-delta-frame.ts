/**
 * @internal Which OpenAI Responses frames a learned template (`core/frame-template.ts`) may stand for: the delta
 * events, one per token. For such an event the decoder reads its `type`, `delta` and `output_index` (and, for
 * arguments, its `item_id`, which the template's fixed text keeps equal to the learned frame's: an `output_index`
 * never changes its item), so a template that fixes everything else reads what `JSON.parse` would.
 */
import { isJSONObject } from '../core/event-decoder.js';
import type { HotFrame } from '../core/frame-template.js';

/** The delta events a template may stand for: each reads only the event's `delta` and `output_index`. */
const DELTA_TYPES = new Set(['response.output_text.delta', 'response.refusal.delta', 'response.reasoning_summary_text.delta', 'response.reasoning_text.delta', 'response.function_call_arguments.delta']);

/**
 * What a delta template stands for: the event's type and its `output_index` as sent (an index, or none: a template is
 * learned only from a frame the full path decoded, which refuses any other value).
 */
export interface DeltaContext {
  type: string;
  outputIndex: unknown;
}

/**
 * A delta event a template may stand for: one of {@link DELTA_TYPES} with a string `delta`; its `sequence_number`
 * (never read) is the number hole.
 */
export function hotFrame(data: unknown): HotFrame<DeltaContext> | undefined {
  if (!isJSONObject(data) || typeof data.type !== 'string' || !DELTA_TYPES.has(data.type) || typeof data.delta !== 'string') return undefined;
  const numbered = typeof data.sequence_number === 'number';
  return {
    text: data.delta,
    textKey: '"delta":"',
    number: data.sequence_number,
    numberKey: numbered ? '"sequence_number":' : undefined,
    context: { type: data.type, outputIndex: data.output_index },
  };
}
