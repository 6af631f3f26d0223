import { hasMarker } from '../internal/brand.js';
import { messageText, optionsOf } from '../internal/json.js';
import { AgentError, type AgentErrorOptions } from './agent-error.js';

const symbol = Symbol.for('faultline.error.AgentNotFoundError');

/**
 * No agent is registered under the requested id (the seed's `AgentNotFound`). Names the id and every registered id.
 *
 * @example
 * ```ts
 * registry.get('planer'); // AgentNotFoundError: Agent not found: "planer". Registered agents: "planner", "writer".
 * ```
 */
export class AgentNotFoundError extends AgentError {
  declare private readonly [symbol]: true;
  override readonly name: string = 'AgentNotFoundError';
  override readonly kind = 'agent_not_found' as const;
  // The fields the constructor assigns are `declare`d: no class-field definition is emitted for them (smaller
  // bundles), and every instance still gets each as an own property, in this order.
  declare readonly agentId: string;
  declare readonly availableIds: readonly string[];

  /**
   * @param agentId - The id that was asked for.
   * @param availableIds - Every registered id (an options object in its place, from plain JS, is taken as `options`).
   */
  constructor(agentId: string, availableIds: readonly string[] = [], options: AgentErrorOptions = {}) {
    const ids = Array.isArray(availableIds) ? availableIds.map(messageText) : [];
    const settings = Array.isArray(availableIds) ? optionsOf<AgentErrorOptions>(options) : optionsOf<AgentErrorOptions>(availableIds);
    const id = messageText(agentId);
    const known = ids.length === 0 ? 'No agents are registered.' : `Registered agents: ${ids.map((each) => JSON.stringify(each)).join(', ')}.`;
    super(`Agent not found: ${JSON.stringify(id)}. ${known}`, settings);
    this[symbol] = true;
    this.agentId = id;
    this.availableIds = Object.freeze(ids);
  }

  /** @example `AgentNotFoundError.isInstance(error)` */
  static override isInstance(value: unknown): value is AgentNotFoundError {
    return hasMarker(value, symbol);
  }

  protected override details(): Record<string, unknown> {
    return { agentId: this.agentId, availableIds: [...this.availableIds] };
  }
}
