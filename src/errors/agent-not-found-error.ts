import { hasMarker } from '../internal/brand.js';
import { AgentError, type AgentErrorOptions } from './agent-error.js';

const marker = 'faultline.error.AgentNotFoundError';
const symbol = Symbol.for(marker);

/**
 * No agent is registered under the requested id (the seed's `AgentNotFound`). Names the id and every registered id.
 *
 * @example
 * ```ts
 * registry.get('planer'); // AgentNotFoundError: Agent not found: "planer". Registered agents: "planner", "writer".
 * ```
 */
export class AgentNotFoundError extends AgentError {
  private readonly [symbol] = true;
  override readonly name: string = 'AgentNotFoundError';
  override readonly kind = 'agent_not_found' as const;
  readonly agentId: string;
  readonly availableIds: readonly string[];

  constructor(agentId: string, availableIds: readonly string[] = [], options: AgentErrorOptions = {}) {
    const known =
      availableIds.length === 0 ? 'No agents are registered.' : `Registered agents: ${availableIds.map((id) => JSON.stringify(id)).join(', ')}.`;
    super(`Agent not found: ${JSON.stringify(agentId)}. ${known}`, options);
    this.agentId = agentId;
    this.availableIds = Object.freeze([...availableIds]);
  }

  /** @example `AgentNotFoundError.isInstance(error)` */
  static override isInstance(value: unknown): value is AgentNotFoundError {
    return hasMarker(value, marker);
  }

  protected override details(): Record<string, unknown> {
    return { agentId: this.agentId, availableIds: [...this.availableIds] };
  }
}
