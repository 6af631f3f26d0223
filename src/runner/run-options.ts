/** The options of one `Runner.run`, and their check: every problem at once, before the run starts. */
import type { ChatMessage } from '../chat/core/types.js';
import { ConfigError } from '../errors/config-error.js';
import { signalProblems } from '../internal/call-options.js';
import { isPlainObject, refusedValue } from '../internal/json.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import { resumeProblems, type RunnerResume } from './resume-run.js';

/** What one run is about. */
export interface RunnerRunOptions {
  userId: string;
  sessionId: string;
  /** The user's new message (none for a `resume`). */
  message?: string | ChatMessage | undefined;
  /**
   * Answers the stopped run `runId` (its interrupts' `runId`, which is its invocation id) with a decision per pending
   * interrupt, instead of starting a run: the agent's resume (a graph agent's `graph.resume`). The run's events carry
   * that invocation id. A refused resume is a terminal error event of type `resume` with its code
   * (`INTERRUPT_NOT_FOUND`, `RESUME_CONFLICT`…), changing nothing; an agent that cannot resume, `RESUME_UNSUPPORTED`.
   */
  resume?: RunnerResume | undefined;
  /** Cancels the run; the stream still ends with its `runner.completion`. */
  signal?: AbortSignal | undefined;
  /**
   * A graph agent's first state. Without it the graph starts from `{ user_input, messages }` built from the message
   * and the session's history — which a typed graph (`stateSchema(...)`) refuses unless its schema has those keys
   * (`STATE_INVALID`, saying to pass this). Ignored by LLM agents.
   * @example `runner.run({ userId: 'u1', sessionId: 's1', message: 'Ship order 42', state: { order_id: '42', log: [] } })`
   */
  state?: Record<string, unknown> | undefined;
  requestId?: string | undefined;
  /** The run's invocation id (its own events carry it; child agents' events carry theirs). @default a new `invocation-<uuid>` */
  invocationId?: string | undefined;
  /** A W3C `traceparent` the run's root span is a child of (e.g. an incoming request's), with `telemetry`. */
  traceparent?: string | undefined;
}

/**
 * The user's message of a run whose options hold up, or a `ConfigError` listing every problem: an unknown option name
 * (a mistyped `sesionId` would start a run on another conversation), a signal that is not an `AbortSignal`, a state
 * that is not an object, ids that are not strings, a resume that is not one.
 * @example `const message = checkRunOptions({ userId: 'u1', sessionId: 's1', message: 'Order 42' })`
 */
export function checkRunOptions(options: RunnerRunOptions): ChatMessage | undefined {
  if (!isPlainObject(options)) throw ConfigError.fromProblems('run options', [`options must be an object (got ${refusedValue(options)})`]);
  const problems = unknownOptionProblems(options, ['userId', 'sessionId', 'message', 'resume', 'signal', 'state', 'requestId', 'invocationId', 'traceparent'], { input: 'message', runId: 'invocationId' });
  if (typeof options.userId !== 'string' || options.userId === '') problems.push(`userId must be a non-empty string (got ${refusedValue(options.userId)})`);
  if (typeof options.sessionId !== 'string' || options.sessionId === '') problems.push(`sessionId must be a non-empty string (got ${refusedValue(options.sessionId)})`);
  const message: ChatMessage | undefined =
    typeof options.message === 'string' ? { role: 'user', content: options.message } : isPlainObject(options.message) ? { ...(options.message as ChatMessage) } : undefined;
  if (options.resume !== undefined) problems.push(...resumeProblems(options.resume, options.invocationId));
  if (options.resume !== undefined && options.message === undefined) {
    // a resume answers a stopped run: there is no new user message
  } else if (!message || (message.content !== null && typeof message.content !== 'string')) problems.push('message must be a string or a chat message');
  problems.push(...signalProblems(options.signal));
  if (options.state !== undefined && !isPlainObject(options.state)) problems.push(`state must be an object (got ${refusedValue(options.state)})`);
  for (const key of ['requestId', 'invocationId', 'traceparent'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'string') problems.push(`${key} must be a string (got ${refusedValue(options[key])})`);
  }
  if (problems.length > 0) throw ConfigError.fromProblems('run options', problems);
  return message;
}

/**
 * The key of `userId`'s conversation `sessionId` with the app `appName`, as the session store is asked for it: the
 * three joined by `/`, each with its `%` and `/` escaped (`%25`, `%2F`), so no two conversations share a key — joined
 * bare, user `acme/alice`'s session `c1` and user `acme`'s session `alice/c1` were one conversation, and a caller who
 * names its own session (an A2A `contextId`) could read another user's. Ids without either character are kept as
 * they are. It is also the `owner` of every run the Runner starts: resume a graph agent's run directly with
 * `graph.resume(invocationId, { checkpointer, decisions, owner: sessionKeyOf(appName, userId, sessionId) })`.
 * @example `sessionKeyOf('shop', 'acme/alice', 'c1') // 'shop/acme%2Falice/c1'`
 */
export function sessionKeyOf(appName: string, userId: string, sessionId: string): string {
  return [appName, userId, sessionId].map((part) => part.replace(/%/g, '%25').replace(/\//g, '%2F')).join('/');
}
