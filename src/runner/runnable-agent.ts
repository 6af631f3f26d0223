import type { ChatMessage } from '../chat/core/types.js';
import type { RunEvent } from './event.js';
import type { RunnerResume } from './resume-run.js';
import type { Telemetry } from '../telemetry/telemetry.js';

/** One run of an agent under the runner (or as a graph agent node). */
export interface Invocation {
  invocationId: string;
  appName: string;
  userId: string;
  sessionId: string;
  /** The user's new message, when there is one. */
  message?: ChatMessage | undefined;
  /** The session's conversation before `message`. */
  history: readonly ChatMessage[];
  /** Initial state for graph agents (an agent node passes the parent's state here). */
  state?: Record<string, unknown> | undefined;
  /** Agent-node ids from the outermost graph down, when running as a subgraph. */
  path?: readonly string[] | undefined;
  signal: AbortSignal;
  /**
   * The checkpoint store of a checkpointed parent graph, handed down by its agent node (a graph `Checkpointer`; the
   * runner does not look inside it): a graph agent saves its run under `invocationId` there and resumes from it.
   */
  checkpointer?: unknown;
  branch?: string | undefined;
  requestId?: string | undefined;
  /** The caller's telemetry (a Runner's, an A2A handler's, a parent graph's), for agents without their own. */
  telemetry?: Telemetry | undefined;
  /** The W3C `traceparent` of the caller's span: an agent's spans are its children. */
  traceparent?: string | undefined;
  /**
   * Answer the stopped run `runId` (the invocation id is the same) with `decisions`, instead of starting a run: only
   * for an agent whose `resumable` is true.
   */
  resume?: RunnerResume | undefined;
}

/**
 * Anything the runner can run: an agent that turns an invocation into events. Graph agents, LLM agents (through
 * `toRunnableAgent`) and remote A2A agents implement it. Failures after the start must arrive as events (an `error`
 * event for a terminal one); an exception thrown by the iteration becomes a `run_error` event.
 *
 * @example
 * ```ts
 * const echo: RunnableAgent = {
 *   name: 'echo',
 *   async *runEvents(invocation) {
 *     yield createEvent({ invocationId: invocation.invocationId, author: 'echo' }, {
 *       response: { object: 'chat.completion', done: true, choices: [{ index: 0, message: { role: 'assistant', content: invocation.message?.content ?? '' } }] },
 *     });
 *   },
 * };
 * ```
 */
export interface RunnableAgent {
  readonly name: string;
  /** True when `runEvents` honours `invocation.resume`; a Runner refuses a resume for any other agent (`RESUME_UNSUPPORTED`). */
  readonly resumable?: boolean;
  runEvents(invocation: Invocation): AsyncIterable<RunEvent>;
  /**
   * Closes the stopped run `runId` without running what it waits on: the Runner calls it when a new message arrives
   * on a session whose last round still waits, so a later resume of that run is refused. `owner` is that session's
   * key (`sessionKeyOf`): a run kept for another owner is not closed. An LLM agent's is `agent.supersede`.
   */
  supersede?(runId: string, options?: { owner?: string }): Promise<unknown>;
}
