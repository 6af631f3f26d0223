/**
 * A compiled graph as an agent (`createGraphAgent` checks its options first; a subgraph node passes none): each
 * invocation one run of the graph, its events forwarded, checkpointed and traced as the invocation says.
 */
import type { ChatMessage } from '../../chat/core/types.js';
import { ErrorType } from '../../errors/constants.js';
import { toResponseError } from '../../errors/response-error.js';
import { AsyncQueue } from '../../internal/async-queue.js';
import { messageOf } from '../../internal/error-chain.js';
import { cancelledError, createErrorEvent, createEvent, type RunEvent } from '../../runner/event.js';
import { ResumeError } from '../../errors/resume-error.js';
import type { ResponseError } from '../../errors/response-error.js';
import { RESUME_ERROR_TYPE, RESUME_UNSUPPORTED } from '../../runner/resume-run.js';
import { encodeStateKeys } from '../../runner/state-delta.js';
import { sessionKeyOf } from '../../runner/run-options.js';
import type { Invocation, RunnableAgent } from '../../runner/runnable-agent.js';
import { isTelemetry } from '../../telemetry/no-telemetry.js';
import type { Telemetry } from '../../telemetry/telemetry.js';
import { parseTraceparent } from '../../telemetry/traceparent.js';
import { isCheckpointer } from '../checkpoints/checkpoint.js';
import { InterruptEventType } from '../core/constants.js';
import type { Checkpointer } from '../core/checkpointer.js';
import type { RunnableGraph } from '../core/runnable-graph.js';
import type { State } from '../core/state-schema.js';

/** Options of {@link createGraphAgent}. */
export interface GraphAgentOptions {
  /** Builds the graph's input from an invocation. @default the invocation's `state`, else `{user_input, messages}` */
  input?: ((invocation: Invocation) => State) | undefined;
  /**
   * Checkpoints each run under its invocation id; a run whose invocation id already has a checkpoint continues it
   * instead of starting anew — run the runner again with the same `invocationId` after a restart: a `running` or
   * `failed` one resumes, a `completed` one is replayed (its final state, no node run again: a process that died
   * right after the graph finished does not run it twice). Invocation ids are unique per run, so a new run never
   * meets an old checkpoint. As a parent graph's agent node, the parent's checkpointer is used instead.
   */
  checkpointer?: Checkpointer | undefined;
  /**
   * Where the graph's spans go (`openTelemetry(otel)`). @default the invocation's (a Runner's, an A2A handler's, a
   * parent graph's), else nothing recorded
   */
  telemetry?: Telemetry | undefined;
}

/** Said when a typed graph refuses the first state built from the message: how the Runner's caller gives its own. */
const RUNNER_STATE_HINT =
  "Under the Runner a graph's first state is { user_input, messages } built from the message unless given: pass it as runner.run({ userId, sessionId, message, state }) or build it with createGraphAgent(name, graph, { input: (invocation) => state })";

/** A refused resume as a `ResponseError` (type `resume`, its code), or undefined for any other error. */
function resumeResponseError(error: unknown): ResponseError | undefined {
  if (!ResumeError.isInstance(error)) return undefined;
  return { type: RESUME_ERROR_TYPE, code: error.code, message: error.message };
}

function defaultInput(invocation: Invocation): State {
  if (invocation.state) return invocation.state;
  const messages: ChatMessage[] = [...invocation.history, ...(invocation.message ? [invocation.message] : [])];
  return { user_input: invocation.message?.content ?? '', messages };
}

/** @internal The agent that runs `graph` under `name` (its options already checked). */
export function graphAsAgent<G extends RunnableGraph>(name: string, graph: G, options: GraphAgentOptions): RunnableAgent & { readonly graph: G } {
  return {
    name,
    graph,
    resumable: true,
    runEvents(invocation: Invocation): AsyncIterable<RunEvent> {
      const queue = new AsyncQueue<RunEvent>();
      const origin = { invocationId: invocation.invocationId, author: name, branch: invocation.branch, requestId: invocation.requestId };
      let input: State;
      try {
        input = (options.input ?? defaultInput)(invocation);
      } catch (error) {
        queue.push(createErrorEvent(origin, { type: ErrorType.RunError, message: `The graph input could not be built: ${messageOf(error)}` }));
        queue.close();
        return queue;
      }
      const inherited = invocation.checkpointer;
      if (inherited !== undefined && !isCheckpointer(inherited)) {
        queue.push(createErrorEvent(origin, { type: ErrorType.RunError, message: 'The invocation carries a checkpointer without get(), put() and delete()' }));
        queue.close();
        return queue;
      }
      // The run id is the invocation id. Its own checkpointer: resume an unfinished run. A parent's: resume any (the
      // parent re-runs this node only in a resumed step, and a child that completed then is replayed), as a child run:
      // the parent's claim on its own checkpoint is what keeps a second run out.
      const checkpointer = inherited ?? options.checkpointer;
      const mode = checkpointer === undefined ? 'run' : 'any';
      const runOptions = {
        signal: invocation.signal,
        checkpointer,
        invocationId: invocation.invocationId,
        path: invocation.path,
        branch: invocation.branch,
        requestId: invocation.requestId,
        onEvent: (event: RunEvent) => queue.push(event),
        telemetry: options.telemetry ?? (isTelemetry(invocation.telemetry) ? invocation.telemetry : undefined),
        parentSpan: parseTraceparent(invocation.traceparent),
        workflowName: name,
        // A top-level run belongs to the session it runs in: a run or resume of its id from any other session finds
        // no checkpoint of it. A child run is its parent's, under its parent's claim.
        ...(inherited === undefined ? { owner: sessionKeyOf(invocation.appName, invocation.userId, invocation.sessionId) } : {}),
      };
      // A resume answers the stopped run with its decisions (checked against its checkpoint before anything changes).
      const resume = invocation.resume;
      if (resume !== undefined && checkpointer === undefined) {
        queue.push(createErrorEvent(origin, { type: RESUME_ERROR_TYPE, code: RESUME_UNSUPPORTED, message: `The graph agent ${name} has no checkpointer, so it keeps no stopped runs to resume: give createGraphAgent a checkpointer` }));
        queue.close();
        return queue;
      }
      const started = resume ? graph.start({}, { ...runOptions, checkpointer: checkpointer as Checkpointer, runId: resume.runId, decisions: resume.decisions }, 'resume', inherited !== undefined) : graph.start(input, runOptions, mode, inherited !== undefined, options.input === undefined && !invocation.state ? RUNNER_STATE_HINT : undefined);
      started
        .then(
          (outcome) => {
            if (outcome.status === 'aborted') queue.push(createErrorEvent(origin, cancelledError(outcome.reason)));
            // Not an error: the run's end, the questions it waits on and its state (the runner's completion carries them).
            if (outcome.status === 'interrupted') {
              const response = { object: InterruptEventType.Interrupted, done: true, interrupts: outcome.interrupts };
              queue.push(createEvent(origin, { response, stateDelta: encodeStateKeys(outcome.state).delta }));
            }
            queue.close();
          },
          (error: unknown) => {
            // A refused resume keeps its code (a ResumeError's): the caller learns why, not only that it failed.
            queue.push(createErrorEvent(origin, resumeResponseError(error) ?? toResponseError(error, ErrorType.RunError) ?? { type: ErrorType.RunError, message: messageOf(error) }));
            queue.close();
          },
        );
      return queue;
    },
  };
}
