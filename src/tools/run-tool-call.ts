import { ConfigError } from '../errors/config-error.js';
import { closestMatch } from '../internal/closest.js';
import { createId } from '../internal/ids.js';
import { read } from '../internal/error-chain.js';
import { preview, refusedValue, safeString } from '../internal/json.js';
import { runToolUnder, type RunToolOptions, type ToolRun } from './run-tool.js';
import type { AbortParent } from '../internal/abort-source.js';
import { ToolLogWriter } from './tool-log.js';
import { toolSetProblems } from './tool-set-check.js';
import { toolLogSink } from './tool-log-option.js';
import { ToolNotFound } from './tool-not-found.js';
import { ToolResult } from './tool-result.js';
import { finishToolRun } from './seal-tool-result.js';
import { findTool, shownToolName, toolNames, toolSetOnce, type ToolSet } from './tool-call-name.js';
import { runToolOptionProblems } from './run-tool-options.js';

/** A tool call as a model issues it. */
export interface ToolCallRequest {
  /** The call id to answer with. */
  id?: string | undefined;
  /** The tool the model asked for. */
  name: string;
  /** Raw JSON text (or an already-parsed value). */
  arguments?: unknown;
}

export type { ToolSet } from './tool-call-name.js';

/** Tool names a `ToolNotFound` lists at most (a server may offer thousands). */
const MAX_LISTED = 50;

/**
 * Runs a model's tool call against a set of tools. An unknown name gives a `ToolNotFound` result listing the available
 * tools (the first 50) and the closest match, so the model can correct itself — the unknown name itself cut to 80
 * characters and redacted, the same in the run, its content and its log; everything else is {@link runTool}. `tools`
 * that is not an iterable or Map of tools made by `defineTool` rejects with a `ConfigError` naming each bad entry.
 *
 * @example
 * ```ts
 * const run = await runToolCall([getWeather], { id: 'call_1', name: 'get_wether', arguments: '{}' });
 * run.result.error?.message; // "No tool named 'get_wether' is available. Did you mean 'get_weather'? Available tools: get_weather."
 * ```
 */
export async function runToolCall(tools: ToolSet, call: ToolCallRequest, options: RunToolOptions = {}): Promise<ToolRun> {
  const set = toolSetOnce(tools); // a generator is checked, searched and listed as one and the same set
  const problems = [...toolSetProblems(set), ...runToolOptionProblems(options)];
  if (call === null || typeof call !== 'object') problems.push(`the call must be an object { id, name, arguments } (got ${refusedValue(call)})`);
  if (problems.length > 0) throw ConfigError.fromProblems('runToolCall call', problems);
  return runToolCallUnder(set as ToolSet, call, options, options?.signal);
}

/** @internal {@link runToolCall} cancelled by `parent` (a caller's signal, or the `AbortSource` of an agent run). */
export async function runToolCallUnder(given: ToolSet, call: ToolCallRequest, options: RunToolOptions, parent: AbortParent | undefined): Promise<ToolRun> {
  const tools = toolSetOnce(given) as ToolSet; // searched, then shown and listed: one walk of a one-shot iterable
  const settings = options ?? {};
  const rawName = read(call, 'name');
  const rawId = read(call, 'id');
  const rawArguments = read(call, 'arguments');
  const name = typeof rawName === 'string' ? rawName : safeString(rawName);
  const callId = typeof rawId === 'string' && rawId !== '' ? rawId : (settings.callId ?? createId('call'));
  const tool = findTool(tools, name);
  if (tool) return runToolUnder(tool, rawArguments, settings, parent, callId);
  const shown = shownToolName(tools, name, settings.secrets); // the model's own words: bounded, redacted, everywhere
  const available = toolNames(tools);
  const guess = closestMatch(name, available);
  const listed = available.slice(0, MAX_LISTED);
  const names = `${listed.join(', ')}${available.length > MAX_LISTED ? ` and ${available.length - MAX_LISTED} more` : ''}`;
  const list = available.length > 0 ? `Available tools: ${names}.` : 'No tools are available.';
  const failure = new ToolNotFound(`No tool named '${shown}' is available.${guess ? ` Did you mean '${guess}'?` : ''} ${list}`, {
    context: guess ? { requested: shown, available: listed, closest: guess } : { requested: shown, available: listed },
    suggestion: available.length > 0 ? `Call one of the available tools (${names}) instead.` : 'Answer without calling tools.',
  });
  const log = new ToolLogWriter(toolLogSink(settings.logger), shown, callId, settings.secrets ?? []);
  log.write('warn', 'tool.not_found', failure.message, { data: { arguments: preview(rawArguments, 200) } });
  return finishToolRun({ toolName: shown, callId, result: ToolResult.error(failure), outcome: 'not_found', attempts: 0, durationMs: 0, error: failure }, log);
}
