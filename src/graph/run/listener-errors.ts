/** @internal What a graph run's `onEvent` listener threw: a throwing listener never fails the run, its outcome lists it. */
import { AgentError } from '../../errors/agent-error.js';
import { messageOf } from '../../internal/error-chain.js';
import type { RunEvent } from '../../runner/event.js';

/** Listener failures kept per run (the count goes on). */
const MAX_LISTENER_ERRORS = 100;

/** @internal The listener failures of one run: the first 100 kept, the rest counted. */
export class ListenerErrors {
  private readonly errors: AgentError[] = [];
  private count = 0;

  add(error: unknown, event: RunEvent): void {
    this.count++;
    if (this.errors.length >= MAX_LISTENER_ERRORS) return;
    this.errors.push(new AgentError(`A graph onEvent listener threw on a ${event.response?.object ?? 'state'} event: ${messageOf(error)}`, { cause: error }));
  }

  /** The kept failures, and a last error counting those beyond. */
  report(): readonly AgentError[] {
    const errors = [...this.errors];
    if (this.count > errors.length) errors.push(new AgentError(`… and ${this.count - errors.length} more listener failures`));
    return errors;
  }
}
