/**
 * @internal The check `runTool` and `runToolCall` make of their options before a tool runs: every problem at once, so
 * a `timeoutMs` of `NaN` (no limit at all), a mistyped `onToolCrash` (crashes reported the default way) or an unknown
 * option is a `ConfigError`, not a run that quietly does something else. The agent and the graph's tools node check
 * their own options once, when they are built, and run tools past this check.
 */
import { callOptionsProblems } from '../internal/call-options.js';
import { isPlainObject, refusedValue } from '../internal/json.js';
import { retryNameProblems, unknownOptionProblems } from '../internal/option-names.js';
import { retryOptionProblems } from '../internal/retry.js';
import { telemetryProblems } from '../telemetry/no-telemetry.js';
import { toolLogOptionProblem } from './tool-log-option.js';
import { secretsProblem } from '../internal/secret-forms.js';

const RUN_TOOL_KEYS = ['callId', 'signal', 'logger', 'onRetry', 'repair', 'onToolCrash', 'timeoutMs', 'retry', 'secrets', 'maxArgumentsLength', 'telemetry', 'parentSpan'];

/**
 * Every problem of a `runTool`/`runToolCall` options object, as sentences (none when valid).
 * @example `const problems = runToolOptionProblems({ timeoutMs: Number.NaN }); // ['timeoutMs must be a number > 0 or Infinity (got NaN)']`
 */
export function runToolOptionProblems(options: unknown): string[] {
  const problems = callOptionsProblems(options);
  if (!isPlainObject(options) || problems.length > 0) return problems;
  problems.push(...unknownOptionProblems(options, RUN_TOOL_KEYS));
  const { callId, timeoutMs, maxArgumentsLength, onToolCrash, secrets, onRetry, repair } = options as Record<string, unknown>;
  if (callId !== undefined && typeof callId !== 'string') problems.push(`callId must be a string (got ${refusedValue(callId)})`);
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs > 0)) problems.push(`timeoutMs must be a number > 0 or Infinity (got ${refusedValue(timeoutMs)})`);
  if (maxArgumentsLength !== undefined && !(Number.isInteger(maxArgumentsLength) && (maxArgumentsLength as number) >= 1)) problems.push(`maxArgumentsLength must be an integer ≥ 1 (got ${refusedValue(maxArgumentsLength)})`);
  if (onToolCrash !== undefined && onToolCrash !== 'result' && onToolCrash !== 'throw') problems.push(`onToolCrash must be 'result' or 'throw' (got ${refusedValue(onToolCrash)})`);
  const secretsRefused = secretsProblem(secrets);
  if (secretsRefused) problems.push(secretsRefused);
  for (const [name, value] of [['onRetry', onRetry], ['repair', repair]] as const) if (value !== undefined && typeof value !== 'function') problems.push(`${name} must be a function`);
  const logger = toolLogOptionProblem(options.logger, 'logger');
  if (logger !== undefined) problems.push(logger);
  problems.push(...retryOptionProblems(options.retry, 'retry'), ...retryNameProblems(options.retry, 'retry'), ...telemetryProblems(options.telemetry));
  return problems;
}
