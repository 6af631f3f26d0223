import type { ChatMessage } from '../chat/core/types.js';
import { AgentNotFoundError } from '../errors/agent-not-found-error.js';
import { ConfigError } from '../errors/config-error.js';
import type { Agent } from './agent.js';
import type { AgentRunOptions, AgentRunStream } from './types.js';

/**
 * Agents by id. An unknown id is an `AgentNotFoundError` naming the id and every registered id.
 *
 * @example
 * ```ts
 * const registry = new AgentRegistry().register(planner).register(writer);
 * const stream = registry.run('planner', 'Plan my week');
 * ```
 */
export class AgentRegistry {
  private readonly agents = new Map<string, Agent>();

  /** Adds an agent under its name; a second agent with the same name is a `ConfigError`. */
  register(agent: Agent): this {
    if (!agent || typeof agent.run !== 'function' || typeof agent.name !== 'string') {
      throw ConfigError.fromProblems('agent registration', ['only agents built by AgentBuilder can be registered']);
    }
    if (this.agents.has(agent.name)) throw ConfigError.fromProblems('agent registration', [`an agent named ${JSON.stringify(agent.name)} is already registered`]);
    this.agents.set(agent.name, agent);
    return this;
  }

  /** The agent with this id, or an `AgentNotFoundError`. */
  get(id: string): Agent {
    const agent = this.agents.get(id);
    if (!agent) throw new AgentNotFoundError(String(id), this.ids);
    return agent;
  }

  /** Whether an agent is registered under `id`. */
  has(id: string): boolean {
    return this.agents.has(id);
  }

  /** The registered ids, in registration order. */
  get ids(): string[] {
    return [...this.agents.keys()];
  }

  /** Runs the agent registered under `id`: its item stream (throws `AgentNotFoundError` for an unknown id). */
  run(id: string, messages: readonly ChatMessage[] | string, options?: AgentRunOptions): AgentRunStream {
    return this.get(id).run(messages, options);
  }
}
