/** The agent's events: emitted safely (a throwing listener never breaks a run) with errors as redacted JSON. */
import type { Emitter } from 'nanoevents';
import { AgentError } from '../errors/agent-error.js';
import { messageOf } from '../internal/error-chain.js';
import { describeError } from '../internal/error-json.js';
import { redactValue } from '../internal/redact.js';
import type { AgentEvents, AgentRunItem } from './types.js';

/** @internal An error as plain JSON for events, with the agent's secrets removed from every string. */
export function errorJSON(error: unknown, secrets: readonly string[]): Record<string, unknown> {
  const described = redactValue(describeError(error), secrets);
  return typeof described === 'object' && described !== null ? (described as Record<string, unknown>) : { message: String(described) };
}

/** @internal Emits an event; a throwing listener becomes a recoverable error item instead of breaking the run. */
export function safeEmit<E extends keyof AgentEvents>(context: { emitter: Emitter<AgentEvents> }, queue: AgentRunItem[], event: E, ...payload: Parameters<AgentEvents[E]>): void {
  try {
    context.emitter.emit(event, ...payload);
  } catch (error) {
    const iteration = (payload[0] as { iteration?: unknown } | undefined)?.iteration;
    if (event !== 'error') {
      queue.push({
        type: 'error',
        iteration: typeof iteration === 'number' ? iteration : 0,
        terminal: false,
        error: new AgentError(`An agent "${String(event)}" listener threw: ${messageOf(error)}`, { cause: error }),
      });
    }
  }
}
