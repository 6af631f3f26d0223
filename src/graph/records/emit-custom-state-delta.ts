import { isoTimestamp } from '../../internal/clock.js';
import { defineData } from '../../internal/json.js';
import { ObjectType } from '../../runner/constants.js';
import { createEvent } from '../../runner/event.js';
import { encodeStateDelta } from '../../runner/state-delta.js';
import { GRAPH_NODE_AUTHOR, NODE_CUSTOM_METADATA_KEY, STATE_DELTA_EVENT_TYPE } from '../core/constants.js';
import { EXECUTION, type NodeCallbackContext } from '../core/node-context.js';
import type { State } from '../core/state-schema.js';

/** Options of {@link emitCustomStateDelta}. */
export interface CustomStateDeltaOptions {
  /** @default 'state_delta' (an empty string keeps the default) */
  eventType?: string | undefined;
  message?: string | undefined;
  /** Any JSON-serializable payload. */
  payload?: unknown;
}

/**
 * Emits one `graph.node.custom` event carrying `delta` as its state delta right away — e.g. business fallback state
 * on an error path, before the graph ends (seed-systems §1.13). The event's `_node_custom_metadata` holds
 * `{eventType, category: 'custom', nodeId, invocationId, timestamp, payload?, message?}`.
 *
 * If the emitting node's failure ends the run, the delta is also reduced into the fallback state the run hands to
 * `runner.completion` (decisions.md point 6); otherwise it only travels as the event.
 *
 * An empty delta, or a context without a running graph, is a no-op. A value that cannot be JSON throws a
 * `SerializeError` naming the key.
 *
 * @example
 * ```ts
 * graph.addNode('write', (state, context) => {
 *   emitCustomStateDelta(context, { order_status: 'pending_retry' }, { eventType: 'order_fallback', message: 'write failed' });
 *   throw new Error('database write failed');
 * });
 * ```
 */
export function emitCustomStateDelta(context: NodeCallbackContext | undefined, delta: State, options: CustomStateDeltaOptions = {}): void {
  if (!delta || Object.keys(delta).length === 0) return;
  const hooks = context?.[EXECUTION];
  if (!context || !hooks) return;
  const stateDelta = encodeStateDelta(delta);
  const metadata: Record<string, unknown> = {
    eventType: options.eventType || STATE_DELTA_EVENT_TYPE,
    category: 'custom',
    nodeId: context.nodeId,
    invocationId: context.invocationId,
    timestamp: isoTimestamp(),
  };
  if (options.payload !== undefined) metadata.payload = options.payload;
  if (options.message !== undefined) metadata.message = options.message;
  defineData(stateDelta, NODE_CUSTOM_METADATA_KEY, JSON.stringify(metadata));
  hooks.addFallbackUpdate(delta);
  hooks.emit(
    createEvent(
      { invocationId: context.invocationId, author: context.nodeId || GRAPH_NODE_AUTHOR, branch: hooks.branch, requestId: hooks.requestId },
      { response: { object: ObjectType.GraphNodeCustom, done: false }, stateDelta },
    ),
  );
}
