import { createNanoEvents, type Emitter } from 'nanoevents';
import type { ChatMessage } from '../chat/core/types.js';
import { ConfigError } from '../errors/config-error.js';
import { AGENT_BRAND, isAgent } from './agent-brand.js';
import { AbortSource } from '../internal/abort-source.js';
import { createId } from '../internal/ids.js';
import { streamFromBatches } from '../internal/streams.js';
import { agentLoop } from './agent-loop.js';
import { Waker } from './waker.js';
import { keepRunSecrets } from './run-secrets.js';
import type { LoopContext } from './loop-context.js';
import { isTraced, runSpan, traceBatch } from './run-span.js';
import { runInputProblems, runOptionProblems, toRunInput } from './run-input.js';
import type { AgentEvents, AgentRunItem, AgentRunOptions, AgentRunStream, AgentSettings } from './types.js';
import type { SpanHandle } from '../telemetry/telemetry.js';
import type { StandardSchemaV1 } from '../tools/standard-schema.js';
import { NO_SPAN } from '../telemetry/no-telemetry.js';

/** What one run needs; its id is made on first read (only events and spans use it: `crypto.randomUUID` per run was 1.6%). */
class RunContext implements LoopContext {
  readonly queue: AgentRunItem[] = [];
  readonly waker = new Waker();
  readonly sessionId: string | undefined;
  readonly output: StandardSchemaV1 | undefined;
  span: SpanHandle = NO_SPAN;
  close: () => void = () => {};
  private id: string | undefined;

  constructor(
    readonly settings: AgentSettings,
    readonly emitter: Emitter<AgentEvents>,
    readonly input: ChatMessage[],
    options: AgentRunOptions,
    readonly abort: AbortSource,
  ) {
    this.sessionId = options.session;
    this.output = options.output;
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

  /** @internal The brand {@link Agent.isInstance} checks. */
  readonly [AGENT_BRAND] = true;

  private readonly emitter: Emitter<AgentEvents> = createNanoEvents<AgentEvents>();

  /** @internal Use `AgentBuilder`. */
  constructor(readonly settings: Readonly<AgentSettings>) {}

  /** A safe description (no settings, no secrets). */
  toJSON(): { name: string; tools: string[]; model: string } {
    return { name: this.name, tools: this.settings.tools.map((tool) => tool.name), model: this.settings.chatClient.name };
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
    const optionProblems = runOptionProblems(settings);
    if (optionProblems.length > 0) throw ConfigError.fromProblems('run options', optionProblems);
    // The run's abort: watched by its model calls and tools without listeners, a real signal only if one is read.
    const abort = new AbortSource(settings.signal);
    const context = new RunContext(this.settings as AgentSettings, this.emitter, input, settings, abort);
    const span = runSpan(this.settings, () => context.runId, settings);
    context.span = span;
    let ended = false; // the last item (finish or terminal error) was delivered
    // Only a traced run looks at its batches on their way out; an untraced one is its loop and its stream, nothing between.
    const observe = isTraced(span) ? (batch: readonly AgentRunItem[]) => void (ended = traceBatch(span, batch) || ended) : undefined;
    context.close = () => {
      if (!ended && observe) span.fail(abort.aborted ? abort.reason : new DOMException('The run was abandoned by its consumer', 'AbortError')); // stopped before its last item
      span.end();
      abort.dispose();
    };
    const stream = streamFromBatches(agentLoop(context), (reason) => abort.abort(reason), observe);
    keepRunSecrets(stream, this.settings.secrets);
    return stream;
  }
}

