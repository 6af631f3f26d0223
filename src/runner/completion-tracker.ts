/**
 * The runner's completion bookkeeping (seed-systems §2.3–2.4): which error the final `runner.completion` reports
 * (exactly once: not if the last failing event was itself terminal), and which state it carries (the graph's final
 * snapshot, or on a failure the fallback business state with metadata keys dropped — never for `stop_agent_error`).
 */
import { ErrorType } from '../errors/constants.js';
import { cloneResponseError, type ResponseError } from '../errors/response-error.js';
import { createId } from '../internal/ids.js';
import { mergeStateDelta, withoutMetadata, type StateDelta } from './state-delta.js';
import { ObjectType } from './constants.js';
import { createEvent, isTerminalError, type EventChoice, type EventOrigin, type EventResponse, type RunEvent } from './event.js';

function hasAssistantContent(choices: readonly EventChoice[] | undefined): boolean {
  return (choices ?? []).some((choice) => choice.message?.role === 'assistant' && choice.message.content !== '');
}

/**
 * Tracks one run's events and builds its `runner.completion`. Only events of the root invocation count: a child
 * agent's snapshot is not the run's state, and a child's terminal error that its parent recovered from is not the
 * run's failure (the parent reports what it made of it).
 * @example
 * ```ts
 * const tracker = new CompletionTracker(invocationId);
 * for (const event of events) tracker.capture(event);
 * const completion = tracker.completion({ invocationId, author: 'app' });
 * ```
 */
export class CompletionTracker {
  private fallbackStateDelta: StateDelta = {};
  private finalStateDelta: StateDelta | undefined;
  private finalChoices: EventChoice[] | undefined;
  private fallbackChoices: EventChoice[] | undefined;
  private graphCompletionSeen = false;
  private interrupts: EventResponse['interrupts'];
  /** The error the last complete response carried (a later successful one clears it). */
  finalError: ResponseError | undefined;
  /** Whether that last response was itself terminal (then the completion does not repeat it). */
  sawTerminalError = false;

  constructor(private readonly rootInvocationId?: string) {}

  capture(event: RunEvent): void {
    const response = event.response;
    const own = this.rootInvocationId === undefined || event.invocationId === this.rootInvocationId;
    if (own && response?.interrupts !== undefined && response.done) {
      this.interrupts = response.interrupts; // an interrupted run: its state as it stopped, and what it waits on
      this.finalStateDelta = withoutMetadata(event.stateDelta);
      return;
    }
    if (own && response?.object === ObjectType.GraphExecution && response.done) {
      this.finalStateDelta = withoutMetadata(event.stateDelta);
      this.finalChoices = response.choices;
      this.graphCompletionSeen = true;
      return;
    }
    if (own) mergeStateDelta(this.fallbackStateDelta, event.stateDelta, true);
    if (!response || response.partial || !own) return;
    if (this.graphCompletionSeen && response.done && !response.object.startsWith('graph.')) {
      this.finalStateDelta = undefined;
      if (hasAssistantContent(response.choices)) this.graphCompletionSeen = false;
    }
    if (hasAssistantContent(response.choices)) this.fallbackChoices = response.choices;
    this.finalError = response.error ? cloneResponseError(response.error) : undefined;
    this.sawTerminalError = isTerminalError(event);
  }

  /** The one `runner.completion` event of the run. */
  completion(origin: EventOrigin): RunEvent {
    const response: RunEvent['response'] = {
      id: createId('runner-completion'),
      object: ObjectType.RunnerCompletion,
      created: Math.floor(Date.now() / 1000),
      done: true,
      partial: false,
    };
    if (this.finalError && !this.sawTerminalError) response.error = cloneResponseError(this.finalError);
    if (this.interrupts) response.interrupts = this.interrupts.map((each) => ({ ...each }));
    let stateDelta: StateDelta | undefined;
    if (this.finalStateDelta && Object.keys(this.finalStateDelta).length > 0) {
      stateDelta = { ...this.finalStateDelta };
      if (this.finalChoices) response.choices = this.finalChoices;
    } else if (this.finalError && this.finalError.type !== ErrorType.StopAgentError) {
      if (Object.keys(this.fallbackStateDelta).length > 0) stateDelta = { ...this.fallbackStateDelta };
    } else if (!this.finalError && this.fallbackChoices) {
      response.choices = this.fallbackChoices;
    }
    return createEvent(origin, stateDelta ? { response, stateDelta } : { response });
  }
}
