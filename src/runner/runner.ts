import type { Agent } from '../agent/agent.js';
import { isAgent } from '../agent/agent-brand.js';
import { InMemorySessionStore } from '../agent/in-memory-session-store.js';
import { appendSession, loadSession, sessionStoreProblems, toSessionStore, type LoadSaveSessionStore, type SessionStore } from '../agent/session-store.js';
import type { ChatMessage } from '../chat/core/types.js';
import { ConfigError } from '../errors/config-error.js';
import { ErrorType } from '../errors/constants.js';
import { toResponseError, type ResponseError } from '../errors/response-error.js';
import { AbortRace, linkedController } from '../internal/delay.js';
import { messageOf } from '../internal/error-chain.js';
import { createId } from '../internal/ids.js';
import { isPlainObject } from '../internal/json.js';
import { inheritRunSecrets, keepRunSecrets, markResumedRun, runSecrets, streamFromBatches } from '../internal/streams.js';
import { CompletionTracker } from './completion-tracker.js';
import { ObjectType } from './constants.js';
import { cancelledError, createErrorEvent, createEvent, isRunnerCompletion, type EventOrigin, type RunEvent } from './event.js';
import { resumeUnsupported } from './resume-run.js';
import { checkRunOptions, sessionKeyOf, type RunnerRunOptions } from './run-options.js';
import type { Invocation, RunnableAgent } from './runnable-agent.js';
import { toRunnableAgent } from './to-runnable-agent.js';
import { closures, markPending, readSession } from './session-transcript.js';
import { GEN_AI_AGENT_NAME, GEN_AI_CONVERSATION_ID, GEN_AI_OPERATION_INVOKE_AGENT, GEN_AI_OPERATION_NAME } from '../telemetry/attribute-names.js';
import { agentSpanName } from '../telemetry/span-names.js';
import { NO_SPAN, telemetryProblems, traces } from '../telemetry/no-telemetry.js';
import type { SpanHandle, Telemetry } from '../telemetry/telemetry.js';
import { parseTraceparent } from '../telemetry/traceparent.js';
import { unknownOptionProblems } from '../internal/option-names.js';

/** Options of {@link Runner}. */
export interface RunnerOptions {
  /** The application name: author of the completion, part of session keys. */
  appName: string;
  /** The agent to run: a graph agent, an A2A agent, any `RunnableAgent`, or an LLM `Agent`. */
  agent: RunnableAgent | Agent;
  /**
   * Keeps each conversation (per app, user and session). A store with `append` keeps every turn of concurrent runs on
   * one session; a load/save store is wrapped with `lastWriterWinsSessionStore`.
   * @default a new `InMemorySessionStore` (bounded: 10,000 sessions, 16 MiB)
   */
  sessionStore?: SessionStore | LoadSaveSessionStore | undefined;
  /**
   * Where each run's root span goes (`openTelemetry(otel)`): `invoke_agent <appName>`, failed when the completion
   * carries an error; the agent's own spans (a graph agent's, an LLM agent's) are its children. @default nothing
   */
  telemetry?: Telemetry | undefined;
}

/** The events of one run, ending with exactly one `runner.completion`. */
export type RunEventStream = ReadableStream<RunEvent> & AsyncIterable<RunEvent>;

/**
 * Runs an agent and ends every run with exactly one `runner.completion` event — after success, failure or abort —
 * that carries the terminal error if no earlier event reported it as terminal, and the final graph state or, on a
 * failure, the fallback business state (seed-systems §2.3–2.4, decisions.md point 6).
 *
 * @example
 * ```ts
 * const runner = new Runner({ appName: 'shop', agent: createGraphAgent('inventory-agent', compiled) });
 * for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'Order 42' })) {
 *   if (isTerminalError(event)) console.error(event.response?.error);
 *   if (isRunnerCompletion(event)) console.table(executionErrorsFromStateDelta(event.stateDelta) ?? []);
 * }
 * ```
 */
export class Runner {
  readonly appName: string;
  private readonly agent: RunnableAgent;
  private readonly sessions: SessionStore;
  private readonly telemetry: Telemetry | undefined;

  constructor(options: RunnerOptions) {
    const problems: string[] = [];
    if (!isPlainObject(options)) throw ConfigError.fromProblems('runner options', ['options must be an object']);
    problems.push(...unknownOptionProblems(options, ['appName', 'agent', 'sessionStore', 'telemetry']));
    if (typeof options.appName !== 'string' || options.appName.trim() === '') problems.push('appName must be a non-empty string');
    const agent = isAgent(options.agent) ? toRunnableAgent(options.agent as Agent) : options.agent;
    if (!agent || typeof (agent as RunnableAgent).runEvents !== 'function') problems.push('agent must be an Agent or a RunnableAgent (with runEvents)');
    if (options.sessionStore !== undefined) problems.push(...sessionStoreProblems(options.sessionStore, 'sessionStore'));
    problems.push(...telemetryProblems(options.telemetry));
    if (problems.length > 0) throw ConfigError.fromProblems('runner options', problems);
    this.appName = options.appName;
    this.agent = agent as RunnableAgent;
    inheritRunSecrets(this, [agent]);
    this.sessions = options.sessionStore === undefined ? new InMemorySessionStore() : toSessionStore(options.sessionStore);
    this.telemetry = options.telemetry;
  }

  /** Starts a run. Invalid options throw a `ConfigError`; everything else arrives as events. */
  run(options: RunnerRunOptions): RunEventStream {
    const message = checkRunOptions(options);
    const { controller, dispose } = linkedController(options.signal);
    const span = traces(this.telemetry)
      ? this.telemetry.startSpan(agentSpanName(this.appName), {
          parent: parseTraceparent(options.traceparent),
          attributes: { [GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_INVOKE_AGENT, [GEN_AI_AGENT_NAME]: this.appName, [GEN_AI_CONVERSATION_ID]: options.sessionId },
        })
      : NO_SPAN;
    const generator = this.events(options, message, controller.signal, span);
    async function* guarded() {
      try {
        for await (const batch of generator) {
          for (const event of batch) if (isRunnerCompletion(event) && event.response.error) span.fail(event.response.error);
          yield batch;
        }
      } finally {
        span.end();
        dispose();
      }
    }
    const stream = streamFromBatches(guarded(), (reason) => controller.abort(reason));
    if (options.resume !== undefined) markResumedRun(stream);
    keepRunSecrets(stream, runSecrets(this));
    return stream;
  }

  private async *events(options: RunnerRunOptions, message: ChatMessage | undefined, signal: AbortSignal, span: SpanHandle): AsyncGenerator<RunEvent[], void, undefined> {
    const resume = options.resume;
    const invocationId = resume ? resume.runId : typeof options.invocationId === 'string' && options.invocationId !== '' ? options.invocationId : createId('invocation');
    const origin: EventOrigin = { invocationId, author: this.appName, requestId: options.requestId };
    const tracker = new CompletionTracker(invocationId);
    const sessionKey = sessionKeyOf(this.appName, options.userId, options.sessionId);
    const transcript: ChatMessage[] = [];
    const emit = (event: RunEvent): RunEvent[] => {
      tracker.capture(event);
      if (event.invocationId === invocationId) collectTranscript(event, transcript);
      return [event];
    };

    let stored: ChatMessage[];
    try {
      stored = await loadSession(this.sessions, options.sessionId, sessionKey);
    } catch (error) {
      yield emit(createErrorEvent(origin, runError(error)));
      yield [tracker.completion(origin)];
      return;
    }

    if (resume && this.agent.resumable !== true) {
      yield emit(createErrorEvent(origin, resumeUnsupported(this.agent.name, resume.runId)));
      yield [tracker.completion(origin)];
      return;
    }
    // A new message while a round still waits on a person: its calls are answered as not run and its run closed, so
    // the model gets a valid transcript and a late resume of that run is refused (a resume answers them itself).
    let session = readSession(stored);
    const closing = resume || session.pending.length === 0 ? [] : closures(session.pending);
    if (closing.length > 0) {
      for (const runId of new Set(session.pending.map((round) => round.runId))) {
        if (runId === undefined || this.agent.supersede === undefined) continue;
        try {
          await this.agent.supersede(runId, { owner: sessionKey });
        } catch (error) {
          yield emit(notice(origin, error)); // the calls are closed all the same; only a late resume is not refused
        }
      }
      session = readSession([...stored, ...closing]);
    }
    const history = session.transcript;
    const invocation: Invocation = { invocationId, appName: this.appName, userId: options.userId, sessionId: options.sessionId, message, history, state: options.state, signal, requestId: options.requestId, telemetry: this.telemetry, traceparent: span.traceparent() };
    if (resume) invocation.resume = { runId: resume.runId, decisions: [...resume.decisions] };
    const racer = new AbortRace(signal);
    let iterator: AsyncIterator<RunEvent> | undefined;
    let finished = false;
    try {
      iterator = this.agent.runEvents(invocation)[Symbol.asyncIterator]();
      for (;;) {
        const next = await racer.race(iterator.next());
        if (next.done) break;
        yield emit(next.value);
      }
      finished = true;
    } catch (error) {
      const failure = signal.aborted
        ? cancelledError(signal.reason)
        : runError(error);
      yield emit(createErrorEvent(origin, failure));
    } finally {
      racer.dispose();
      if (!finished) void iterator?.return?.()?.catch?.(() => {});
    }

    const failure = await appendSession(this.sessions, options.sessionId, [...closing, ...(message ? [message] : []), ...transcript], sessionKey); // this run's turn, atomically
    if (failure) {
      yield emit(notice(origin, failure));
    }
    yield [tracker.completion(origin)];
  }
}

/** A failure as the `ResponseError` of a run. */
function runError(error: unknown): ResponseError {
  return toResponseError(error, ErrorType.RunError) ?? { type: ErrorType.RunError, message: messageOf(error) };
}

/** A non-terminal error event: the run goes on. */
function notice(origin: EventOrigin, error: unknown): RunEvent {
  return createEvent(origin, { response: { object: ObjectType.ChatCompletion, done: false, error: runError(error) } });
}

/**
 * The complete assistant and tool messages of the root invocation, in order; a round that stopped to ask is marked
 * with its run. Tool answers arrive as their tools end;
 * each takes its call's place among the answers to its assistant message, so the session holds them in call order.
 */
function collectTranscript(event: RunEvent, transcript: ChatMessage[]): void {
  const response = event.response;
  if (response?.interrupts) markPending(transcript, response.interrupts); // its round stays open in the session until answered
  if (!response || response.partial || response.error || response.replay) return; // a replay's answer is in the session already
  if (response.object !== ObjectType.ChatCompletion && response.object !== ObjectType.ToolResponse) return;
  const message = response.choices?.[0]?.message;
  if (!message) return;
  const copy: ChatMessage = { role: message.role, content: message.content };
  if (message.toolCalls) copy.toolCalls = message.toolCalls;
  if (message.toolCallId) copy.toolCallId = message.toolCallId;
  let at = transcript.length;
  if (copy.role === 'tool') {
    let asked = transcript.length - 1;
    while (asked >= 0 && !transcript[asked]?.toolCalls) asked--;
    const calls = transcript[asked]?.toolCalls ?? [];
    const order = (id: string | undefined) => calls.findIndex((call) => call.id === id);
    const place = order(copy.toolCallId);
    while (place >= 0 && at > 0 && transcript[at - 1]?.role === 'tool' && order(transcript[at - 1]?.toolCallId) > place) at--;
  }
  transcript.splice(at, 0, copy);
}
