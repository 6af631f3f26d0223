/** The options of `runAgent` / `streamAgent`, and their checks (every problem at once, with the agent's and the run's). */
import type { ChatClient, ChatMessage } from '../chat/core/types.js';
import { isPlainObject } from '../internal/json.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { StandardSchemaV1 } from '../tools/standard-schema.js';
import type { ToolLogOption } from '../tools/tool-log-option.js';
import { runInputProblems, runOptionProblems } from './run-input.js';
import type { LoadSaveSessionStore, SessionStore } from './session-store.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { ToolApprovals } from './approvals-brand.js';
import { unknownOptionProblems } from '../internal/option-names.js';
import { secretsProblem } from '../internal/secret-forms.js';

/** What `runAgent` and `streamAgent` take besides the turn's input (`prompt` or `messages`). */
export interface RunAgentSettings<Output = unknown> {
  /** The model to call: any `ChatClient` (`createOpenAICompatibleClient`, `createAnthropicClient`…). */
  model: ChatClient;
  /** The system message sent first on every model call. */
  instructions?: string | undefined;
  /** The tools the model may call (made by `defineTool`; names must be unique). @default [] */
  tools?: readonly AnyTool[] | undefined;
  /** Model calls before the run finishes with `max_iterations`. @default 10 */
  maxIterations?: number | undefined;
  /** Tools of one model turn running at once (`1`: one after another); the others start in call order. @default 64 */
  maxParallelToolCalls?: number | undefined;
  /**
   * A Standard Schema the final answer must match (zod, valibot, `jsonSchema()`…); it types `result.output`. A second
   * failing answer ends the run with an `OutputValidationError`.
   */
  output?: StandardSchemaV1<unknown, Output> | undefined;
  /** Cancels the run; `runAgent` then rejects with `signal.reason`. */
  signal?: AbortSignal | undefined;
  /** Keeps the conversation under this id in `sessionStore` (which is then required). */
  session?: string | undefined;
  /**
   * Where `session` is kept. Required with `session`: each call builds a new agent, so a default in-memory store would
   * forget the conversation when the call returns — create one `InMemorySessionStore` and pass it to every call.
   */
  sessionStore?: SessionStore | LoadSaveSessionStore | undefined;
  /** Tool developer log: `false`, `console` or a function. @default crashes only, one line on `console.error` */
  toolLogger?: ToolLogOption | undefined;
  /** Strings that must never appear in logs, events or errors (your tools' API keys). */
  secrets?: readonly string[] | undefined;
  /** The agent's name in events (`agent`). @default 'agent' */
  name?: string | undefined;
  /** Where the run's spans go (`openTelemetry(otel)`). @default nothing recorded */
  telemetry?: Telemetry | undefined;
  /**
   * Lets the run ask a person before a call of a tool with `needsApproval` (`toolApprovals({ store })`; required with
   * such a tool): the result is then `status: 'interrupted'`, and an `Agent` built with the same `name`, tools and
   * approvals resumes it (`agent.resume(runId, decisions)`).
   */
  approvals?: ToolApprovals | undefined;
}

/**
 * The options of `runAgent` / `streamAgent`: the settings, and the turn's input — `prompt` (one user message) or
 * `messages`, exactly one of them.
 * @example
 * ```ts
 * const options: RunAgentOptions = { model, prompt: 'Weather in Paris?', tools: [getWeather] };
 * ```
 */
export type RunAgentOptions<Output = unknown> = RunAgentSettings<Output> &
  ({ prompt: string; messages?: undefined } | { messages: readonly ChatMessage[]; prompt?: undefined });

const KNOWN = ['model', 'instructions', 'tools', 'maxIterations', 'maxParallelToolCalls', 'output', 'signal', 'session', 'sessionStore', 'toolLogger', 'secrets', 'name', 'prompt', 'messages', 'telemetry', 'approvals'];
/** The names other SDKs use for these options (AI SDK, OpenAI Agents), so a misplaced habit gets a pointer. */
const ALIASES: Readonly<Record<string, string>> = { maxSteps: 'maxIterations', system: 'instructions', abortSignal: 'signal', schema: 'output', outputType: 'output', input: 'prompt', logger: 'toolLogger', tracer: 'telemetry', runStateStore: 'approvals: toolApprovals({ store })' };

/** An option this function does not know is a problem, never silently ignored. */
function unknownOptions(options: Record<string, unknown>): string[] {
  return unknownOptionProblems(options, KNOWN, ALIASES);
}

/** @internal Every problem `runAgent` finds itself (the agent builder adds its own: tools, limits, the store). */
export function runAgentProblems(options: unknown): string[] {
  if (!isPlainObject(options)) return ['options must be an object'];
  const { model, prompt, messages, secrets } = options as Partial<RunAgentSettings> & { prompt?: unknown; messages?: unknown };
  const problems: string[] = [];
  if (typeof model?.stream !== 'function' || typeof model.complete !== 'function') problems.push('model must be a ChatClient');
  if ((prompt === undefined) === (messages === undefined)) problems.push('give either prompt or messages');
  else if (messages !== undefined) problems.push(...runInputProblems(messages));
  else if (typeof prompt !== 'string' || prompt.trim() === '') problems.push('prompt must be a non-empty string');
  if (options.session !== undefined && options.sessionStore === undefined) problems.push('session needs a sessionStore (kept across calls)');
  const secretsRefused = secretsProblem(secrets);
  if (secretsRefused) problems.push(secretsRefused);
  problems.push(...unknownOptions(options), ...runOptionProblems(options));
  return problems;
}
