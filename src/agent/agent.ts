import { createNanoEvents, type Emitter } from 'nanoevents';
import type { ChatMessage } from '../chat/core/types.js';
import { ConfigError } from '../errors/config-error.js';
import { AGENT_BRAND, isAgent } from './agent-brand.js';
import { AbortSource } from '../internal/abort-source.js';
import { createId } from '../internal/ids.js';
import { keepRunSecrets, markResumedRun, streamFromBatches } from '../internal/streams.js';
import { agentLoop } from './agent-loop.js';
import { Waker } from './waker.js';
import type { LoopContext } from './loop-context.js';
import { runSpan, traceBatch } from './run-span.js';
import { runInputProblems, runOptionProblems, toRunInput } from './run-input.js';
import type { AgentEvents, AgentResumeOptions, AgentRunItem, AgentRunOptions, AgentRunStream, AgentSettings } from './types.js';
import type { ResumeDecision } from '../interrupts/interrupt.js';
import type { RunStateHandle } from './run-state.js';
import type { ApprovalMachinery, ResumeStart } from './loop-context.js';
import { notResumable } from './not-resumable.js';
import { redactText, redactValue } from '../internal/redact.js';
import type { SpanHandle } from '../telemetry/telemetry.js';
import type { StandardSchemaV1 } from '../tools/standard-schema.js';
import { NO_SPAN, traces } from '../telemetry/no-telemetry.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import { isPlainObject } from '../internal/json.js';

/** What one run needs; its id is made on first read (only events and spans use it: `crypto.randomUUID` per run was 1.6%). */
class RunContext implements LoopContext {
  readonly queue: AgentRunItem[] = [];
  readonly waker = new Waker();
  sessionId: string | undefined;
  readonly owner: string | undefined;
  readonly output: StandardSchemaV1 | undefined;
  span: SpanHandle = NO_SPAN;
  close: () => void = () => {};
  runState?: RunStateHandle;
  resume?: ResumeStart;
  private id: string | undefined;

  constructor(
    readonly settings: AgentSettings,
    readonly emitter: Emitter<AgentEvents>,
    public input: ChatMessage[],
    options: AgentRunOptions,
    readonly abort: AbortSource,
    id?: string,
  ) {
    this.sessionId = options.session;
    this.owner = options.owner;
    this.output = options.output;
    this.id = id;
  }

  get runId(): string {
    this.id ??= createId('run');
    return this.id;
  }
}

/**
 * An LLM agent: a chat client, instructions and tools, run by the function-invoking loop. Build it with
 * `AgentBuilder`.
 *
 * `run()` returns the item stream at once and throws only for invalid input or options (a `ConfigError`).
 * Everything else arrives as items of the stream: text, tool calls and results, recoverable errors (the stream goes
 * on), and at most one terminal error — a session that cannot be loaded and an aborted signal included — which is
 * the last item.
 *
 * @example
 * ```ts
 * for await (const item of agent.run('What is the weather in Paris?', { session: 'user-42' })) {
 *   if (item.type === 'text-delta') write(item.delta);
 *   if (item.type === 'tool-result' && !item.ok) console.warn(item.toolName, item.result.error);
 *   if (item.type === 'error') console.error(item.terminal ? 'run failed' : 'recovered', item.error);
 * }
 * ```
 */
export class Agent {
  /**
   * True for an `Agent` from any copy of the package (a brand, not `instanceof`: bundles and realms included).
   * @example `if (Agent.isInstance(value)) value.run('hi');`
   */
  static isInstance(value: unknown): value is Agent {
    return isAgent(value);
  }

  /** @internal The brand {@link Agent.isInstance} checks (declared, set in the constructor: see internal/brand.ts). */
  declare readonly [AGENT_BRAND]: true;

  private readonly emitter: Emitter<AgentEvents> = createNanoEvents<AgentEvents>();

  /** @internal Use `AgentBuilder`. */
  constructor(readonly settings: Readonly<AgentSettings>) {
    this[AGENT_BRAND] = true;
    keepRunSecrets(this, settings.secrets);
  }

  /** A safe description (no settings, no secrets). */
  toJSON(): { name: string; tools: string[]; model: string } {
    return { name: this.name, tools: this.settings.tools.map((tool) => tool.name), model: this.settings.chatClient.name };
  }

  /**
   * @internal `value` (JSON-like) without the agent's secrets: what wraps the agent (`toRunnableAgent`) cleans the
   * failures it sends on with the agent's own redaction, so a wrapper bundles none of its own.
   */
  withoutSecrets<T>(value: T): T {
    return this.settings.secrets.length === 0 ? value : (redactValue(value, this.settings.secrets) as T);
  }

  /** The agent's id (its name). */
  get name(): string {
    return this.settings.name;
  }

  /**
   * Observes runs: `model-request`, `model-response`, `tool-start`, `tool-end`, `tool-error`, `retry`, `error`.
   * Payloads are plain serializable objects without secrets. Returns the function that unbinds the listener.
   * @example `const off = agent.on('tool-error', (event) => metrics.count(event.toolName)); off();`
   */
  on<E extends keyof AgentEvents>(event: E, listener: AgentEvents[E]): () => void {
    return this.emitter.on(event, listener);
  }

  /**
   * Runs the agent on new input (a string is a user message) and returns its item stream at once — like
   * `Runner.run`, so both are iterated the same way: `for await (const item of agent.run('hi'))`.
   * @param messages - The new messages of this turn.
   * @param options - `session` (conversation id in the session store), `signal` and `output`.
   * @returns The stream of run items. Invalid input or options throw a `ConfigError` here; everything else — a
   *   session that cannot be loaded, an aborted signal, a request that can never be sent — is the stream's last item,
   *   a terminal `error`.
   */
  run(messages: readonly ChatMessage[] | string, options: AgentRunOptions = {}): AgentRunStream {
    const inputProblems = runInputProblems(messages);
    if (inputProblems.length > 0) throw ConfigError.fromProblems('run input', inputProblems);
    const input = toRunInput(messages);
    const settings = options ?? {};
    const optionProblems = [...runOptionProblems(settings), ...(isPlainObject(settings) ? unknownOptionProblems(settings, ['session', 'signal', 'output', 'parentSpan', 'owner']) : [])];
    if (optionProblems.length > 0) throw ConfigError.fromProblems('run options', optionProblems);
    return this.start(new RunContext(this.settings as AgentSettings, this.emitter, input, settings, new AbortSource(settings.signal)), settings);
  }

  /**
   * Goes on with a run that stopped to ask (its last item was `interrupted`): one decision per pending interrupt —
   * `{ id, approved: true }` runs the call (once, whatever the number of resumes), `{ id, approved: false, reason? }`
   * tells the model it was refused (`ToolApprovalDenied`, with the reason); an expired interrupt needs none (the model
   * is told `ToolApprovalExpired`). Then the loop goes on, in the run's session, and the stream ends like `run`'s.
   *
   * Returns the stream at once, like `run`. A resume that cannot be accepted changes nothing and is the stream's one
   * item, a terminal `error` carrying the `ResumeError` (`collectAgentRun` rejects with it): `INTERRUPT_NOT_FOUND`,
   * `INTERRUPT_EXPIRED`, `RESUME_INCOMPLETE`, `RESUME_PAYLOAD_INVALID`, `RUN_NOT_INTERRUPTED`, `RESUME_CONFLICT` (another,
   * different resume won), `APPROVAL_ARGUMENTS_CHANGED`. The same resume sent again gets the first one's last item,
   * marked `replay: true`. A `runId` that is not a string throws a `ConfigError` here. An agent built without
   * `toolApprovals()` never stops to ask, so it refuses every resume (`RUN_NOT_INTERRUPTED`).
   *
   * @example
   * ```ts
   * const first = await collectAgentRun(agent.run('Refund order 42'));
   * if (first.status === 'interrupted') {
   *   const decisions = first.interrupts.map((each) => ({ id: each.id, approved: true as const }));
   *   const done = await collectAgentRun(agent.resume(first.runId!, decisions));
   * }
   * ```
   */
  resume(runId: string, decisions: readonly ResumeDecision[], options: AgentResumeOptions = {}): AgentRunStream {
    if (typeof runId !== 'string' || runId === '' || runId.length > 200) throw ConfigError.fromProblems('resume', ['runId must be a non-empty string of at most 200 characters']);
    const settings: AgentResumeOptions = options ?? {};
    const optionProblems = [...runOptionProblems(settings), ...(isPlainObject(settings) ? unknownOptionProblems(settings, ['signal', 'output', 'parentSpan', 'owner']) : [])];
    if (optionProblems.length > 0) throw ConfigError.fromProblems('resume options', optionProblems);
    // The id is the caller's: its events and spans show it without the agent's secrets (ours, minted, hold none).
    const context = new RunContext(this.settings as AgentSettings, this.emitter, [], settings, new AbortSource(settings.signal), redactText(runId, this.settings.secrets));
    const approvals = this.settings.approvals as ApprovalMachinery | undefined;
    // An agent without approvals never stopped to ask: every resume of it is refused (RUN_NOT_INTERRUPTED), as typed as any other.
    let wrap: ((batches: AsyncGenerator<AgentRunItem[], void, undefined>) => AsyncGenerator<AgentRunItem[], void, undefined>) | undefined;
    if (approvals) {
      const start = approvals.resumeStart(runId, decisions);
      context.resume = start;
      wrap = (batches) => approvals.recordingOutcome(batches, context, start);
    } else {
      context.resume = notResumable(runId);
    }
    const stream = this.start(context, settings, wrap);
    markResumedRun(stream);
    return stream;
  }

  /**
   * Closes a run that stopped to ask without running its pending calls — the user moved on (the Runner does this when
   * a new message arrives on a session whose last round still waits): a later `resume` of it is refused with
   * `RUN_NOT_INTERRUPTED`, and nothing runs. One compare-and-swap on the run's record, so of a resume and this, exactly
   * one wins. Resolves to false when the run was not waiting (already resumed, ended, or unknown) — always, for an agent
   * built without `toolApprovals()`. A run started with an `owner` is closed only by that owner (`options.owner`, as
   * its `resume` takes): for anyone else it is a run that is not there (false, nothing changed).
   * @example `if (await agent.supersede(first.runId!, { owner: 'user-42' })) console.log('the pending approvals are void');`
   */
  async supersede(runId: string, options: { owner?: string } = {}): Promise<boolean> {
    const problems = typeof runId !== 'string' || runId === '' || runId.length > 200 ? ['runId must be a non-empty string of at most 200 characters'] : [];
    if (!isPlainObject(options)) problems.push('options must be an object');
    else problems.push(...runOptionProblems({ owner: options.owner }));
    if (problems.length > 0) throw ConfigError.fromProblems('supersede', problems);
    const approvals = this.settings.approvals as ApprovalMachinery | undefined;
    return approvals ? approvals.supersede(this.settings.name, runId, options.owner) : false;
  }

  private start(context: RunContext, settings: AgentRunOptions, wrap?: (batches: AsyncGenerator<AgentRunItem[], void, undefined>) => AsyncGenerator<AgentRunItem[], void, undefined>): AgentRunStream {
    // The run's abort: watched by its model calls and tools without listeners, a real signal only if one is read.
    const abort = context.abort;
    const span = runSpan(this.settings, () => context.runId, settings);
    context.span = span;
    let ended = false; // the last item (finish or terminal error) was delivered
    // Only a traced run looks at its batches on their way out; an untraced one is its loop and its stream, nothing between.
    const observe = traces(span) ? (batch: readonly AgentRunItem[]) => void (ended = traceBatch(span, batch) || ended) : undefined;
    context.close = () => {
      if (!ended && observe) span.fail(abort.aborted ? abort.reason : new DOMException('The run was abandoned by its consumer', 'AbortError')); // stopped before its last item
      span.end();
      abort.dispose();
    };
    const stream = streamFromBatches(wrap ? wrap(agentLoop(context)) : agentLoop(context), (reason) => abort.abort(reason), observe);
    keepRunSecrets(stream, this.settings.secrets);
    return stream;
  }
}

