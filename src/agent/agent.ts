import { createNanoEvents, type Emitter } from 'nanoevents';
import { openChatBatches } from '../chat/core/chat-batches.js';
import type { ChatMessage } from '../chat/core/types.js';
import { ConfigError } from '../errors/config-error.js';
import { linkedController } from '../internal/delay.js';
import { createId } from '../internal/ids.js';
import { streamFromBatches } from '../internal/streams.js';
import { agentLoop, initialConversation, modelRequest, requestHooks } from './agent-loop.js';
import { runInputProblems, runOptionProblems, toRunInput } from './run-input.js';
import { loadSession } from './session-store.js';
import type { AgentEvents, AgentRunItem, AgentRunOptions, AgentRunStream, AgentSettings } from './types.js';

/**
 * An LLM agent: a chat client, instructions and tools, run by the function-invoking loop. Build it with
 * `AgentBuilder`.
 *
 * `run()` rejects only for stream-level failures — invalid input, a session that cannot be loaded, a first request
 * that can never be sent, an already-aborted signal. Everything after that arrives as items of the returned stream:
 * text, tool calls and results, recoverable errors (the stream goes on), and at most one terminal error, which is the
 * last item.
 *
 * @example
 * ```ts
 * const stream = await agent.run('What is the weather in Paris?', { session: 'user-42' });
 * for await (const item of stream) {
 *   if (item.type === 'text-delta') write(item.delta);
 *   if (item.type === 'tool-result' && !item.ok) console.warn(item.toolName, item.result.error);
 *   if (item.type === 'error') console.error(item.terminal ? 'run failed' : 'recovered', item.error);
 * }
 * ```
 */
export class Agent {
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
   * Runs the agent on new input (a string is a user message).
   * @param messages - The new messages of this turn.
   * @param options - `session` (conversation id in the session store) and `signal`.
   * @returns The stream of run items.
   */
  async run(messages: readonly ChatMessage[] | string, options: AgentRunOptions = {}): Promise<AgentRunStream> {
    const inputProblems = runInputProblems(messages);
    if (inputProblems.length > 0) throw ConfigError.fromProblems('run input', inputProblems);
    const input = toRunInput(messages);
    const settings = options ?? {};
    settings.signal?.throwIfAborted();
    const optionProblems = runOptionProblems(settings);
    if (optionProblems.length > 0) throw ConfigError.fromProblems('run options', optionProblems);
    const history = settings.session === undefined ? [] : await loadSession(this.settings.sessionStore, settings.session);
    settings.signal?.throwIfAborted();
    const { controller, dispose } = linkedController(settings.signal);
    const runId = createId('run');
    const queue: AgentRunItem[] = [];
    const context = { settings: this.settings as AgentSettings, runId, emitter: this.emitter };
    const request = modelRequest(this.settings as AgentSettings, initialConversation(this.settings as AgentSettings, history, input), controller.signal, requestHooks(context, queue, () => 1), settings.output);
    let firstCall;
    try {
      firstCall = openChatBatches(this.settings.chatClient, request);
    } catch (error) {
      dispose();
      throw error;
    }
    const loop = agentLoop({ ...context, history, input, sessionId: settings.session, signal: controller.signal, first: { request, call: firstCall }, queue, output: settings.output });
    async function* guarded(): AsyncGenerator<AgentRunItem[], void, undefined> {
      try {
        yield* loop;
      } finally {
        dispose();
      }
    }
    return streamFromBatches(guarded(), (reason) => controller.abort(reason));
  }
}

