import type { ChatClient, ToolChoice } from '../chat/core/types.js';
import { ConfigError } from '../errors/config-error.js';
import { isTool, type AnyTool } from '../tools/define-tool.js';
import type { ToolErrorFormat } from '../tools/serialize-tool-result.js';
import type { ArgumentRepair } from '../tools/tool-arguments.js';
import { toolLogOptionProblem, type ToolLogOption } from '../tools/tool-log-option.js';
import { Agent } from './agent.js';
import { InMemorySessionStore } from './in-memory-session-store.js';
import { sessionStoreProblems, toSessionStore, type LoadSaveSessionStore, type SessionStore } from './session-store.js';
import type { AgentSettings } from './types.js';
import { isToolApprovals, type ToolApprovals } from './approvals-brand.js';
import { NO_TELEMETRY, telemetryProblems } from '../telemetry/no-telemetry.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { refusedValue } from '../internal/json.js';
import { secretsProblem } from '../internal/secret-forms.js';

/**
 * Model calls per run when not set (RAF's `max_rounds`).
 * @example `new AgentBuilder('a').maxIterations(DEFAULT_MAX_ITERATIONS * 2)`
 */
export const DEFAULT_MAX_ITERATIONS = 10;

/**
 * Tools of one model turn running at once when not set (docs/bounds.md).
 * @example `new AgentBuilder('a').maxParallelToolCalls(DEFAULT_MAX_PARALLEL_TOOL_CALLS / 8)`
 */
export const DEFAULT_MAX_PARALLEL_TOOL_CALLS = 64;

/**
 * Builds an `Agent`. `build()` checks everything at once and throws one `ConfigError` listing every problem (a
 * missing chat client, duplicate tool names, invalid limits…).
 *
 * @example
 * ```ts
 * const agent = new AgentBuilder('weather-helper')
 *   .chatClient(createScriptedChatClient([{ text: 'Sunny.' }]))
 *   .instructions('Answer weather questions. Use the tools.')
 *   .tools([getWeather])
 *   .maxIterations(5)
 *   .build();
 * ```
 */
export class AgentBuilder {
  private client: ChatClient | undefined;
  private systemInstructions: string | undefined;
  private readonly toolList: AnyTool[] = [];
  private iterations: number = DEFAULT_MAX_ITERATIONS;
  private parallel: number = DEFAULT_MAX_PARALLEL_TOOL_CALLS;
  private choice: ToolChoice | undefined;
  private modelTemperature: number | undefined;
  private crashMode: 'result' | 'throw' = 'result';
  private errorFormat: ToolErrorFormat = 'structured';
  private logger: ToolLogOption | undefined;
  private readonly secretList: string[] = [];
  private secretsProblem: string | undefined;
  private repair: ArgumentRepair | undefined;
  private store: SessionStore | LoadSaveSessionStore | undefined;
  private tracing: Telemetry | undefined;
  private asking: ToolApprovals | undefined;

  /** @param name - The agent's id (used by `AgentRegistry`). */
  constructor(private readonly name: string) {}

  /** The model to call (required). */
  chatClient(client: ChatClient): this {
    this.client = client;
    return this;
  }

  /** The system message sent first on every model call. */
  instructions(text: string): this {
    this.systemInstructions = text;
    return this;
  }

  /** Adds tools (names must be unique). */
  tools(tools: readonly AnyTool[]): this {
    this.toolList.push(...(Array.isArray(tools) ? tools : [tools as unknown as AnyTool]));
    return this;
  }

  /** Model calls per run before finishing with `max_iterations`. @default 10 */
  maxIterations(count: number): this {
    this.iterations = count;
    return this;
  }

  /**
   * Tools of one model turn running at once; the other calls start in call order as earlier ones end, and every call
   * gets its result. `1` runs a turn's calls one after another (tools whose side effects must not overlap).
   * @default 64
   * @example `new AgentBuilder('bank').maxParallelToolCalls(1)`
   */
  maxParallelToolCalls(count: number): this {
    this.parallel = count;
    return this;
  }

  /** `auto` (default), `none`, `required` or a tool by name. */
  toolChoice(choice: ToolChoice): this {
    this.choice = choice;
    return this;
  }

  /** Sampling temperature passed to the model. */
  temperature(value: number): this {
    this.modelTemperature = value;
    return this;
  }

  /** `'result'` (default): a crashing tool gives the model a sanitized error; `'throw'`: the run fails with `ToolError`. */
  onToolCrash(mode: 'result' | 'throw'): this {
    this.crashMode = mode;
    return this;
  }

  /** `'structured'` (default) or RAF's `'flat'` error strings in tool messages. */
  toolErrorFormat(format: ToolErrorFormat): this {
    this.errorFormat = format;
    return this;
  }

  /**
   * Where tool developer-log records go: `false` (nothing at all), `console` (every record, on its level's method) or
   * a function (every record, redacted). Expected failures — error results, thrown `ToolFailure`s such as a mapped
   * HTTP 404, invalid arguments, unknown tools, timeouts — print nothing by default.
   * @default crashes only, one line each on `console.error` (`consoleToolLogSink`)
   * @example `new AgentBuilder('a').toolLogger((record) => logs.push(record))`
   */
  toolLogger(option: ToolLogOption): this {
    this.logger = option;
    return this;
  }

  /** Strings that must never appear in logs, events or errors (API keys of your tools). */
  secrets(values: readonly string[]): this {
    // A lone string would spread into one-character "secrets", all too short to look for: nothing would be redacted.
    const problem = secretsProblem(values);
    if (problem === undefined) this.secretList.push(...values);
    else this.secretsProblem = problem;
    return this;
  }

  /** One chance to fix invalid tool arguments before the model is told. */
  repairArguments(repair: ArgumentRepair): this {
    this.repair = repair;
    return this;
  }

  /**
   * Where conversations are kept between runs. A store with `append` keeps every turn of concurrent runs on one
   * session; a load/save store is wrapped with `lastWriterWinsSessionStore` (the later of two overlapping runs wins).
   * @default a new `InMemorySessionStore` (bounded: 10,000 sessions, 16 MiB)
   */
  sessionStore(store: SessionStore | LoadSaveSessionStore): this {
    this.store = store;
    return this;
  }

  /**
   * Where the agent's spans go: one `invoke_agent` span per run, a `chat` span per model call (retries and fallbacks as
   * its events), an `execute_tool` span per tool call — OpenTelemetry GenAI conventions, every attribute redacted.
   * @default `NO_TELEMETRY` (nothing recorded)
   * @example `new AgentBuilder('support').telemetry(openTelemetry(otel, { secrets: [apiKey] }))`
   */
  telemetry(telemetry: Telemetry): this {
    this.tracing = telemetry;
    return this;
  }

  /**
   * Lets the agent ask a person before a call of a tool with `needsApproval` runs (`toolApprovals()`, which also says
   * where waiting runs are kept): the run then stops with an `interrupted` item, and `agent.resume` goes on. Required
   * when a tool needs approval; without it the agent asks nobody, and its bundle carries none of this.
   * @example `new AgentBuilder('refunds').chatClient(model).tools([refund]).approvals(toolApprovals({ store: new DurableObjectRunStateStore(state.storage) }))`
   */
  approvals(approvals: ToolApprovals): this {
    this.asking = approvals;
    return this;
  }

  /** Checks everything and returns the agent, or throws one `ConfigError` listing every problem. */
  build(): Agent {
    const problems: string[] = [];
    if (typeof this.name !== 'string' || this.name.trim() === '') problems.push('name must be a non-empty string');
    if (this.client === undefined) problems.push('chat client is required: call .chatClient(client)');
    else if (typeof this.client.stream !== 'function' || typeof this.client.complete !== 'function') problems.push('chat client must implement stream() and complete()');
    if (this.systemInstructions !== undefined && typeof this.systemInstructions !== 'string') problems.push('instructions must be a string');
    if (this.secretsProblem !== undefined) problems.push(this.secretsProblem);
    if (!Number.isInteger(this.iterations) || this.iterations < 1) problems.push(`maxIterations must be an integer ≥ 1 (got ${refusedValue(this.iterations)})`);
    if (!Number.isInteger(this.parallel) || this.parallel < 1) problems.push(`maxParallelToolCalls must be an integer ≥ 1 (got ${refusedValue(this.parallel)})`);
    const seen = new Map<string, number>();
    this.toolList.forEach((tool, index) => {
      if (!isTool(tool)) {
        problems.push(`tools[${index}] is not a tool made by defineTool()`);
        return;
      }
      seen.set(tool.name, (seen.get(tool.name) ?? 0) + 1);
    });
    for (const [name, count] of seen) if (count > 1) problems.push(`duplicate tool name "${name}" (${count} tools share it)`);
    if (this.crashMode !== 'result' && this.crashMode !== 'throw') problems.push(`onToolCrash must be 'result' or 'throw'`);
    if (this.errorFormat !== 'structured' && this.errorFormat !== 'flat') problems.push(`toolErrorFormat must be 'structured' or 'flat'`);
    if (this.store !== undefined) problems.push(...sessionStoreProblems(this.store, 'sessionStore'));
    const loggerProblem = toolLogOptionProblem(this.logger, 'toolLogger');
    if (loggerProblem !== undefined) problems.push(loggerProblem);
    problems.push(...telemetryProblems(this.tracing));
    if (this.asking !== undefined && !isToolApprovals(this.asking)) problems.push('approvals must come from toolApprovals()');
    const asking = this.toolList.filter((tool) => isTool(tool) && tool.needsApproval !== undefined && tool.needsApproval !== false).map((tool) => JSON.stringify(tool.name));
    if (this.asking === undefined) {
      if (asking.length > 0) problems.push(`${asking.length === 1 ? 'tool' : 'tools'} ${asking.slice(0, 5).join(', ')}${asking.length > 5 ? '…' : ''} ${asking.length === 1 ? 'needs' : 'need'} approval (needsApproval), but the agent asks nobody: add .approvals(toolApprovals()) — with runAgent, approvals: toolApprovals() — (import { toolApprovals } from 'faultline')`);
    }
    if (problems.length > 0) throw ConfigError.fromProblems(`agent ${JSON.stringify(this.name)}`, problems);
    const settings: AgentSettings = {
      name: this.name,
      chatClient: this.client as ChatClient,
      instructions: this.systemInstructions,
      tools: Object.freeze([...this.toolList]),
      maxIterations: this.iterations,
      maxParallelToolCalls: this.parallel,
      toolChoice: this.choice,
      temperature: this.modelTemperature,
      onToolCrash: this.crashMode,
      toolErrorFormat: this.errorFormat,
      toolLogger: this.logger,
      secrets: Object.freeze([...this.secretList]),
      repairArguments: this.repair,
      sessionStore: this.store === undefined ? new InMemorySessionStore() : toSessionStore(this.store),
      telemetry: this.tracing ?? NO_TELEMETRY,
      approvals: isToolApprovals(this.asking) ? this.asking : undefined,
      asks: asking.length > 0,
    };
    return new Agent(Object.freeze(settings));
  }
}
