import { createNanoEvents, type Emitter } from 'nanoevents';
import type { ChatMessage } from '../chat/core/types.js';
import { ConfigError } from '../errors/config-error.js';
import { AGENT_BRAND, isAgent } from './agent-brand.js';
import { linkedController } from '../internal/delay.js';
import { createId } from '../internal/ids.js';
import { streamFromBatches } from '../internal/streams.js';
import { agentLoop, type LoopContext } from './agent-loop.js';
import { isTraced, runSpan, traceBatch } from './run-span.js';
import { runInputProblems, runOptionProblems, toRunInput } from './run-input.js';
import type { AgentEvents, AgentRunItem, AgentRunOptions, AgentRunStream, AgentSettings } from './types.js';

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
    const { controller, dispose } = linkedController(settings.signal);
    const runId = createId('run');
    const span = runSpan(this.settings, runId, settings);
    const { signal } = controller;
    let ended = false; // the last item (finish or terminal error) was delivered
    // Only a traced run looks at its batches on their way out; an untraced one is its loop and its stream, nothing between.
    const observe = isTraced(span) ? (batch: readonly AgentRunItem[]) => void (ended = traceBatch(span, batch) || ended) : undefined;
    const context: LoopContext = {
      settings: this.settings as AgentSettings,
      runId,
      emitter: this.emitter,
      queue: [],
      span,
      input,
      sessionId: settings.session,
      signal,
      output: settings.output,
      close: () => {
        if (!ended && observe) span.fail(signal.aborted ? signal.reason : new DOMException('The run was abandoned by its consumer', 'AbortError')); // stopped before its last item
        span.end();
        dispose();
      },
    };
    return streamFromBatches(agentLoop(context), (reason) => controller.abort(reason), observe);
  }
}

