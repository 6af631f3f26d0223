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

/**
 * @internal Emits an event when someone listens; a throwing listener becomes a recoverable error item instead of
 * breaking the run. The payload is built only then: redacting arguments, results and errors for nobody is the
 * agent loop's largest avoidable cost, so every event of the agent goes through here.
 */
export function safeEmit<E extends keyof AgentEvents>(context: { emitter: Emitter<AgentEvents> }, queue: AgentRunItem[], event: E, payload: () => Parameters<AgentEvents[E]>[0]): void {
  const listeners = context.emitter.events[event];
  if (listeners === undefined || listeners.length === 0) return;
  const built = payload();
  try {
    (context.emitter.emit as (name: E, value: Parameters<AgentEvents[E]>[0]) => void)(event, built);
  } catch (error) {
    const iteration = (built as { iteration?: unknown }).iteration;
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
