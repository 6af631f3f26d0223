/**
 * One call for the common case: `runAgent` (the collected result) and its streaming twin `streamAgent` (the item
 * stream). Both build an `Agent` with `AgentBuilder` and run it once — the same loop, items and errors as
 * `agent.run`, without keeping an agent around.
 */
import type { ChatClient } from '../chat/core/types.js';
import { ConfigError } from '../errors/config-error.js';
import { isPlainObject } from '../internal/json.js';
import type { ToolLogOption } from '../tools/tool-log-option.js';
import type { Agent } from './agent.js';
import { AgentBuilder, DEFAULT_MAX_ITERATIONS, DEFAULT_MAX_PARALLEL_TOOL_CALLS } from './agent-builder.js';
import { collectAgentRun, type AgentRunResult } from './collect-agent-run.js';
import { runAgentProblems, type RunAgentOptions } from './run-agent-options.js';
import type { SessionStore } from './session-store.js';
import type { AgentRunStream } from './types.js';
import { NO_TELEMETRY } from '../telemetry/no-telemetry.js';

/** Stands in for an invalid `model` while the builder checks the rest (never called: the run does not start). */
const NO_MODEL = { name: 'none', stream: String, complete: String } as unknown as ChatClient;

/**
 * Runs an agent once and streams its items — the same items as `agent.run` (text and reasoning deltas, tool calls and
 * results, usage, recoverable errors, then one `finish` or one terminal `error`, always last).
 *
 * Returns the stream at once, like `agent.run` and `Runner.run`. Throws one `ConfigError` listing every problem of
 * `options` (the model, `prompt` / `messages`, the tools, the limits, the store, the schema…); every other failure —
 * a session that cannot be loaded, an aborted `signal` (its reason) — is the stream's last item, a terminal `error`.
 *
 * @param options - `model`, `prompt` or `messages`, and optionally `instructions`, `tools`, `maxIterations`, `output`,
 *   `signal`, `session` + `sessionStore`, `toolLogger`, `secrets`, `name`, `telemetry`, `approvals` (`toolApprovals()`:
 *   required with a tool that has `needsApproval`).
 * @returns The run's item stream (a `ReadableStream`, also async-iterable).
 *
 * @example
 * ```ts
 * const stream = streamAgent({ model, instructions: 'Use the tools.', tools: [getWeather], prompt: 'Weather in Paris?' });
 * for await (const item of stream) {
 *   if (item.type === 'text-delta') write(item.delta);
 *   if (item.type === 'error' && item.terminal) console.error(item.error);
 * }
 * ```
 */
export function streamAgent<Output = unknown>(options: RunAgentOptions<Output>): AgentRunStream {
  const problems = runAgentProblems(options);
  let agent: Agent | undefined;
  if (isPlainObject(options)) {
    try {
      agent = configure(options).build();
    } catch (error) {
      if (!ConfigError.isInstance(error)) throw error;
      problems.push(...error.problems);
    }
  }
  if (agent === undefined || problems.length > 0) throw ConfigError.fromProblems('runAgent options', problems);
  return agent.run(options.prompt ?? options.messages, { session: options.session, signal: options.signal, output: options.output });
}

/**
 * Runs an agent once and returns the collected result (what `collectAgentRun` gives: `text`, `output` typed by the
 * `output` schema, `finishReason`, `iterations`, `usage`, `messages`, `toolResults`, recoverable `errors`), or rejects
 * with the terminal error (`ChatClientError`, `StreamError`, `OutputValidationError`, the abort reason…), whose
 * `partialRunOf(error)` gives what the run produced before it failed (the text that streamed, tool results) — the
 * Vercel AI SDK's `generateText`, on faultline's loop. Invalid options reject with one `ConfigError` listing every
 * problem.
 *
 * @param options - See {@link streamAgent}.
 * @returns The final result of the run.
 *
 * @example
 * ```ts
 * const Weather = z.object({ city: z.string(), celsius: z.number() });
 * const { text, output, toolResults } = await runAgent({
 *   model,
 *   instructions: 'Use the tools; read their errors and suggestions.',
 *   tools: [getWeather],
 *   prompt: 'Weather in Paris?',
 *   output: Weather, // output: { city: string; celsius: number } | undefined
 * });
 * ```
 */
export async function runAgent<Output = unknown>(options: RunAgentOptions<Output>): Promise<AgentRunResult<Output>> {
  return collectAgentRun<Output>(streamAgent(options));
}

function configure(options: RunAgentOptions<unknown>): AgentBuilder {
  const { model, secrets } = options;
  const builder = new AgentBuilder(options.name ?? 'agent')
    .chatClient(typeof model?.stream === 'function' && typeof model.complete === 'function' ? model : NO_MODEL)
    .instructions(options.instructions as string)
    .tools(options.tools ?? [])
    .maxIterations(options.maxIterations ?? DEFAULT_MAX_ITERATIONS)
    .maxParallelToolCalls(options.maxParallelToolCalls ?? DEFAULT_MAX_PARALLEL_TOOL_CALLS)
    .toolLogger(options.toolLogger as ToolLogOption)
    .secrets(Array.isArray(secrets) ? secrets : [])
    .sessionStore(options.sessionStore as SessionStore)
    .telemetry(options.telemetry ?? NO_TELEMETRY);
  if (options.approvals !== undefined) builder.approvals(options.approvals);
  return builder;
}
