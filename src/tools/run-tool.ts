import { ConfigError } from '../errors/config-error.js';
import { ToolError } from '../errors/tool-error.js';
import { monotonic } from '../internal/clock.js';
import { messageOf } from '../internal/error-chain.js';
import { createId } from '../internal/ids.js';
import { quietCall } from '../internal/quiet-call.js';
import { AbortSource, type AbortParent } from '../internal/abort-source.js';
import { redactError, redactText } from '../internal/redact.js';
import { CircuitOpenError } from '../errors/circuit-open-error.js';
import { resolveRetryOptions, retry, type RetryOptions } from '../internal/retry.js';
import { resilienceGuard } from '../resilience/guard.js';
import { ServiceUnavailableError } from './service-unavailable-error.js';
import type { SpanHandle, Telemetry } from '../telemetry/telemetry.js';
import { endToolSpan, toolSpan, traceRetry } from './tool-span.js';
import { isTool, type AnyTool, type ToolContext } from './define-tool.js';
import { kindOf } from './tool-set-check.js';
import { ToolAttempt } from './tool-attempt.js';
import { DEFAULT_MAX_ARGUMENTS_LENGTH, parseToolArguments, type ArgumentRepair } from './tool-arguments.js';
import { TimeoutError } from './timeout-error.js';
import { ToolFailure, type ToolErrorInfo } from './tool-failure.js';
import { ToolInternalError } from './tool-internal-error.js';
import { ToolLogWriter } from './tool-log.js';
import { toolLogSink, type ToolLogOption } from './tool-log-option.js';
import { PARTIAL_FAILURE_TYPE, toErrorInfo, ToolResult, type ToolResultJSON } from './tool-result.js';
import { completeToolRun, finishToolRun } from './seal-tool-result.js';
import type { ToolRun } from './tool-run.js';
import { runToolOptionProblems } from './run-tool-options.js';

export type { ToolRun, ToolRunOutcome } from './tool-run.js';

/**
 * The per-attempt time limit when neither the tool nor the call sets one.
 * @example `runTool(tool, args, { timeoutMs: DEFAULT_TOOL_TIMEOUT_MS * 2 })`
 */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/** Options of {@link runTool}; every field is optional. */
export interface RunToolOptions {
  /** The model's tool-call id. @default a generated `call-<uuid>` */
  callId?: string | undefined;
  /** Cancels the call; the promise then rejects with `signal.reason` (never retried, never wrapped). */
  signal?: AbortSignal | undefined;
  /**
   * The developer log: `false` (nothing), `console` (every record, on its level's method) or a function (every
   * record). Expected failures print nothing by default; see {@link ToolLogOption}.
   * @default `consoleToolLogSink`: crashes only, one line each on `console.error`
   */
  logger?: ToolLogOption | undefined;
  /** Called before each retry wait; what it throws (or an `async` one rejects with) is dropped. */
  onRetry?: ((notice: ToolRetryNotice) => void) | undefined;
  /** One chance to fix rejected arguments; not called once the call is aborted, and raced against the abort and `timeoutMs`. */
  repair?: ArgumentRepair | undefined;
  /** `'result'`: a crash becomes a sanitized `ToolInternalError` result; `'throw'`: a `ToolError` rejects (RAF's mode). @default 'result' */
  onToolCrash?: 'result' | 'throw' | undefined;
  /** Overrides the tool's `timeoutMs`. */
  timeoutMs?: number | undefined;
  /** Overrides the tool's `retry`. */
  retry?: RetryOptions | false | undefined;
  /** Strings that must never reach a log record (API keys, passwords). */
  secrets?: readonly string[] | undefined;
  /** Bound on raw argument text. @default 1000000 */
  maxArgumentsLength?: number | undefined;
  /** Where the call's `execute_tool` span goes (`openTelemetry(otel)`). @default nothing recorded */
  telemetry?: Telemetry | undefined;
  /** The span the call's span is a child of (the agent passes its run's). */
  parentSpan?: SpanHandle | undefined;
}

/** Passed to `onRetry`. */
export interface ToolRetryNotice {
  toolName: string;
  callId: string;
  /** The attempt that failed. */
  attempt: number;
  delayMs: number;
  /** What failed, as the model would have seen it. */
  error: ToolErrorInfo;
  fromRetryAfter: boolean;
  /** A shared retry budget refused this retry: the failure is the call's result (`delayMs` is 0). */
  budgetExhausted?: boolean;
}

class Crash {
  constructor(readonly error: unknown) {}
}

/**
 * Runs one tool call — the single path the agent loop and graph tool nodes use. Never throws for bad input or tool
 * failures: the returned `result` is what the model sees. Only an abort (rejects with `signal.reason`) or
 * `onToolCrash: 'throw'` (rejects with `ToolError`) leave through the promise, and a `tool` that `defineTool` did not
 * make (rejects with `ConfigError`: the developer's mistake, not the model's).
 *
 * - invalid JSON, empty or schema-invalid arguments → `InputValidationError` naming each bad field, what was expected,
 *   what was sent, plus the expected schema (after safe coercion and one optional `repair`);
 * - a thrown `ToolFailure` → that structured error (retried if retryable and `retry` is configured);
 * - a crash → a sanitized `ToolInternalError`; the developer log gets the real error, stack, arguments (redacted),
 *   attempt and duration;
 * - a timeout → `TimeoutError`, even if the tool ignores its signal; an asynchronous schema or `repair` hook that takes
 *   longer than `timeoutMs` gives one too (outcome `'timeout'`), and an abort while either runs rejects at once.
 *
 * @example
 * ```ts
 * const run = await runTool(getWeather, '{"city": 42}', { callId: 'call_1' });
 * run.result.ok;                    // false
 * serializeToolResult(run.result);  // {"ok":false,"error":{"type":"InputValidationError","message":"Tool 'get_weather' was called with invalid arguments: city: …"}}
 * ```
 */
export async function runTool<T = unknown>(tool: AnyTool, rawArguments: unknown, options: RunToolOptions = {}): Promise<ToolRun<T>> {
  const problems = [...(isTool(tool) ? [] : [`the tool is ${kindOf(tool)}, not a tool made by defineTool()`]), ...runToolOptionProblems(options)];
  if (problems.length > 0) throw ConfigError.fromProblems('runTool call', problems);
  return runToolUnder<T>(tool, rawArguments, options, options?.signal);
}

/**
 * @internal {@link runTool} cancelled by `parent`: the caller's signal, or the `AbortSource` of the agent run the call
 * belongs to (watched without a listener; the time limit on the run's one timer). `givenCallId` replaces
 * `options.callId` (no copy of the options is made to change it).
 */
export async function runToolUnder<T = unknown>(tool: AnyTool, rawArguments: unknown, options: RunToolOptions, parent: AbortParent | undefined, givenCallId?: string): Promise<ToolRun<T>> {
  const settings = options ?? {};
  const wanted = givenCallId ?? settings.callId;
  const callId = typeof wanted === 'string' && wanted !== '' ? wanted : createId('call');
  const span = toolSpan(tool, callId, settings, rawArguments);
  try {
    const run = await runUntraced<T>(tool, rawArguments, settings, callId, span, parent);
    endToolSpan(span, run, settings.telemetry);
    return run;
  } catch (error) {
    span.fail(error); // an abort, or onToolCrash: 'throw'
    span.end();
    throw error;
  }
}

async function runUntraced<T>(tool: AnyTool, rawArguments: unknown, settings: RunToolOptions, callId: string, span: SpanHandle, parent: AbortParent | undefined): Promise<ToolRun<T>> {
  const started = monotonic();
  const secrets = settings.secrets ?? [];
  const log = new ToolLogWriter(toolLogSink(settings.logger), tool.name, callId, secrets);
  const finish = (run: Omit<ToolRun<T>, 'toolName' | 'callId' | 'durationMs' | 'content'>): ToolRun<T> => completeToolRun(run, tool.name, callId, monotonic() - started, log);

  const timeoutMs = settings.timeoutMs ?? tool.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  // The argument phase (an async schema, the repair hook) ends with the caller's abort and within timeoutMs too; its
  // scope is made at its first asynchronous step, so a synchronous schema costs no timer and no watch.
  let phase: ToolAttempt | undefined;
  const parsed = await parseToolArguments(tool, rawArguments, {
    maxLength: settings.maxArgumentsLength ?? DEFAULT_MAX_ARGUMENTS_LENGTH,
    repair: settings.repair,
    parent,
    race: (work) => Promise.race([work, (phase ??= new ToolAttempt(parent, timeoutMs, tool.name)).stopped]),
    signal: () => (phase ??= new ToolAttempt(parent, timeoutMs, tool.name)).signal,
  })
    .catch((ended: unknown) => {
      if (parent?.aborted || !phase?.timedOut) throw parent?.aborted ? parent.reason : ended; // an abort: its reason
    })
    .finally(() => phase?.dispose());
  if (!parsed) {
    log.write('warn', 'tool.timeout', `did not finish within ${timeoutMs} ms (checking its arguments)`, { arguments: rawArguments });
    const failure = new TimeoutError(`The tool '${tool.name}' did not finish within ${timeoutMs} ms.`, { context: { timeoutMs } });
    return finish({ result: ToolResult.error(failure) as ToolResult<T>, outcome: 'timeout', attempts: 0, error: failure });
  }
  if (!parsed.ok) {
    if (parsed.crash !== undefined) return crashed(parsed.crash, 0, rawArguments);
    log.write('warn', 'tool.invalid_arguments', parsed.failure.message, { arguments: rawArguments });
    if (parsed.repairFailure !== undefined) {
      log.write('error', 'tool.invalid_arguments', `the repair hook threw: ${messageOf(parsed.repairFailure)}`, { error: log.errorDetails(parsed.repairFailure) });
    }
    return finish({ result: ToolResult.error(parsed.failure) as ToolResult<T>, outcome: 'invalid_arguments', attempts: 0, error: parsed.failure });
  }
  if (parsed.repaired) log.write('info', 'tool.repaired_arguments', 'the repair hook fixed the arguments', { arguments: parsed.value });
  else if (parsed.coerced) log.write('debug', 'tool.coerced_arguments', 'JSON-encoded strings were decoded', { arguments: parsed.value });
  const args = parsed.value;
  const argumentFlags = { arguments: args, argumentsCoerced: parsed.coerced, argumentsRepaired: parsed.repaired };

  const retryOptions = resolveRetryOptions(settings.retry !== undefined ? settings.retry : (tool.retry ?? false));
  let attempts = 0;
  let timeoutFailure: TimeoutError | undefined;

  const executeOnce = async (attempt: number): Promise<ToolResult> => {
    if (parent?.aborted) throw parent.reason;
    attempts = attempt;
    const scope = new ToolAttempt(parent, timeoutMs, tool.name);
    const context: ToolContext = {
      get signal() {
        return scope.signal;
      },
      callId,
      attempt,
      toolName: tool.name,
      get logger() {
        return log.loggerFor(attempt);
      },
    };
    try {
      const execution = Promise.resolve().then(() => span.run(() => tool.execute(args, context)));
      execution.catch(() => {});
      const value = await Promise.race([execution, scope.stopped]);
      if (value instanceof ToolResult) return value;
      if (!ToolResult.isInstance(value)) return ToolResult.success(value);
      // Marked by another copy of the package (or by anyone: the mark is a global symbol): read once, here, where a
      // getter that throws is the tool's crash, and shaped again, so the model gets `{ok, data, error: {type, message}}`.
      const { ok, data, error } = value;
      return ToolResult.fromJSON({ ok, data, error } as ToolResultJSON);
    } catch (error) {
      if (parent?.aborted) throw parent.reason;
      if (scope.timedOut) {
        log.write('warn', 'tool.timeout', `did not finish within ${timeoutMs} ms`, { attempt, arguments: args });
        timeoutFailure = new TimeoutError(`The tool '${tool.name}' did not finish within ${timeoutMs} ms.`, { context: { timeoutMs }, cause: error });
        throw timeoutFailure;
      }
      if (ToolFailure.isInstance(error)) throw error;
      if (CircuitOpenError.isInstance(error)) throw ServiceUnavailableError.fromCircuitOpen(error, tool.name); // e.g. an MCP client's open circuit
      throw new Crash(error);
    } finally {
      scope.dispose();
    }
  };

  let result: ToolResult;
  try {
    result = await retry(executeOnce, {
      options: retryOptions,
      signal: parent instanceof AbortSource ? () => parent.signal : parent, // a run's signal is made only after a failure
      classify: (error) =>
        ToolFailure.isInstance(error) && error.retryable ? { retry: true, retryAfterMs: error.retryAfterMs } : { retry: false },
      onRetry: (notice) => {
        const info = toErrorInfo(notice.error as ToolFailure);
        traceRetry(span, notice, info.type);
        const what = notice.budgetExhausted ? 'not retrying: the retry budget is spent' : `retrying in ${notice.delayMs} ms`;
        log.write('info', 'tool.retry', `attempt ${notice.attempt} failed (${info.type}: ${info.message}); ${what}`, { attempt: notice.attempt });
        quietCall(settings.onRetry, {
          toolName: tool.name,
          callId,
          attempt: notice.attempt,
          delayMs: notice.delayMs,
          error: info,
          fromRetryAfter: notice.fromRetryAfter,
          ...(notice.budgetExhausted ? { budgetExhausted: true } : {}),
        });
      },
      guard: resilienceGuard(tool.dependency ?? tool.name, tool),
    });
  } catch (thrown) {
    if (thrown instanceof Crash) return crashed(thrown.error, attempts, args);
    // The tool's own circuit refused the call before it was made.
    const error = CircuitOpenError.isInstance(thrown) ? ServiceUnavailableError.fromCircuitOpen(thrown, tool.name) : thrown;
    if (!ToolFailure.isInstance(error)) throw error;
    log.write('warn', 'tool.failure', `${error.type}: ${error.message}`, {
      attempt: attempts,
      durationMs: monotonic() - started,
      arguments: args,
      error: log.errorDetails(error),
    });
    return finish({ result: ToolResult.error(error) as ToolResult<T>, outcome: error === timeoutFailure ? 'timeout' : 'failure', attempts, error, ...argumentFlags });
  }

  const outcome = result.ok ? (result.error?.type === PARTIAL_FAILURE_TYPE ? 'partial' : 'success') : 'error_result';
  return finish({ result: result as ToolResult<T>, outcome, attempts, ...argumentFlags });

  function crashed(error: unknown, attempt: number, input: unknown): ToolRun<T> {
    const durationMs = monotonic() - started;
    log.write('error', 'tool.crash', `crashed: ${messageOf(error)}`, { attempt, durationMs, arguments: input, error: log.errorDetails(error) });
    if (settings.onToolCrash === 'throw') {
      throw new ToolError(`Tool '${tool.name}' crashed: ${redactText(messageOf(error), secrets)}`, { cause: redactError(error, secrets), toolName: tool.name, callId });
    }
    const result = ToolResult.error(modelFacingCrash(error, attempt, input)) as ToolResult<T>;
    return finishToolRun({ toolName: tool.name, callId, durationMs, result, outcome: 'crash', attempts: attempt, error, arguments: input }, log);
  }

  function modelFacingCrash(error: unknown, attempt: number, input: unknown): ToolErrorInfo | ToolInternalError {
    const fallback = new ToolInternalError(`The tool '${tool.name}' failed with an unexpected internal error.`);
    if (!tool.formatError) return fallback;
    try {
      const formatted = tool.formatError(error, { toolName: tool.name, callId, attempt, arguments: input });
      return formatted === undefined ? fallback : toErrorInfo(formatted);
    } catch (formatError) {
      log.write('error', 'tool.crash', `formatError failed: ${messageOf(formatError)}`, { attempt, error: log.errorDetails(formatError) });
      return fallback;
    }
  }
}
