import type { ChatMessage, ToolCall } from '../../chat/core/types.js';
import type { StateDelta } from '../../runner/state-delta.js';
import type { State } from './state-schema.js';

/**
 * What a child agent or graph produced, as seen by the parent's output mapper (seed-systems §3.1). Normal completion
 * and fatal termination are kept apart: `finalState`/`rawStateDelta` only come from a child's `graph.execution`
 * snapshot; `fallbackState`/`fallbackStateDelta` only from a child that failed (its fallback state).
 *
 * @example
 * ```ts
 * graph.addAgentNode('child', childAgent, {
 *   outputMapper: (parent, result) => ({ ...collector.subgraphStateUpdate(result), child_status: result.fallbackState ? 'degraded' : 'ok' }),
 * });
 * ```
 */
export class SubgraphResult {
  /** The agent node that ran the child. */
  nodeId: string;
  /** The child's last assistant text. */
  lastResponse = '';
  lastMessage?: ChatMessage;
  toolCalls: ToolCall[] = [];
  finalState?: State;
  rawStateDelta?: StateDelta;
  fallbackState?: State;
  fallbackStateDelta?: StateDelta;
  /** The child's terminal error, if it failed. */
  error?: import('../../errors/response-error.js').ResponseError;

  constructor(nodeId: string) {
    this.nodeId = nodeId;
  }

  /** The final state when the child completed (even if empty), else the fallback state. */
  effectiveState(): State | undefined {
    if (this.finalState !== undefined || this.rawStateDelta !== undefined) return this.finalState;
    return this.fallbackState;
  }

  /** The raw final delta when the child completed, else the fallback delta. */
  effectiveStateDelta(): StateDelta | undefined {
    return this.rawStateDelta !== undefined ? this.rawStateDelta : this.fallbackStateDelta;
  }
}
