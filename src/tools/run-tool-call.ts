import { closestMatch } from '../internal/closest.js';
import { createId } from '../internal/ids.js';
import { read } from '../internal/error-chain.js';
import { preview, safeString, truncate } from '../internal/json.js';
import type { AnyTool } from './define-tool.js';
import { runToolUnder, type RunToolOptions, type ToolRun } from './run-tool.js';
import type { AbortParent } from '../internal/abort-source.js';
import { ToolLogWriter } from './tool-log.js';
import { toolLogSink } from './tool-log-option.js';
import { ToolNotFound } from './tool-not-found.js';
import { ToolResult } from './tool-result.js';
import { finishToolRun } from './seal-tool-result.js';

/** A tool call as a model issues it. */
export interface ToolCallRequest {
  /** The call id to answer with. */
  id?: string | undefined;
  /** The tool the model asked for. */
  name: string;
  /** Raw JSON text (or an already-parsed value). */
  arguments?: unknown;
}

/** A set of tools by name. */
export type ToolSet = Iterable<AnyTool> | ReadonlyMap<string, AnyTool>;

/**
 * Runs a model's tool call against a set of tools. An unknown name gives a `ToolNotFound` result listing the available
 * tools and the closest match, so the model can correct itself; everything else is {@link runTool}.
 *
 * @example
 * ```ts
 * const run = await runToolCall([getWeather], { id: 'call_1', name: 'get_wether', arguments: '{}' });
 * run.result.error?.message; // "No tool named 'get_wether' is available. Did you mean 'get_weather'? Available tools: get_weather."
 * ```
 */
export async function runToolCall(tools: ToolSet, call: ToolCallRequest, options: RunToolOptions = {}): Promise<ToolRun> {
  return runToolCallUnder(tools, call, options, options?.signal);
}

/** @internal {@link runToolCall} cancelled by `parent` (a caller's signal, or the `AbortSource` of an agent run). */
export async function runToolCallUnder(tools: ToolSet, call: ToolCallRequest, options: RunToolOptions, parent: AbortParent | undefined): Promise<ToolRun> {
  const settings = options ?? {};
  const rawName = read(call, 'name');
  const rawId = read(call, 'id');
  const rawArguments = read(call, 'arguments');
  const name = typeof rawName === 'string' ? rawName : safeString(rawName);
  const callId = typeof rawId === 'string' && rawId !== '' ? rawId : (settings.callId ?? createId('call'));
  const tool = findTool(tools, name);
  if (tool) return runToolUnder(tool, rawArguments, settings, parent, callId);
  const available = toolNames(tools);
  const guess = closestMatch(name, available);
  const shownName = truncate(name, 80);
  const list = available.length > 0 ? `Available tools: ${available.join(', ')}.` : 'No tools are available.';
  const failure = new ToolNotFound(`No tool named '${shownName}' is available.${guess ? ` Did you mean '${guess}'?` : ''} ${list}`, {
    context: guess ? { requested: shownName, available, closest: guess } : { requested: shownName, available },
    suggestion: available.length > 0 ? `Call one of the available tools (${available.join(', ')}) instead.` : 'Answer without calling tools.',
  });
  const log = new ToolLogWriter(toolLogSink(settings.logger), shownName, callId, settings.secrets ?? []);
  log.write('warn', 'tool.not_found', failure.message, { data: { arguments: preview(rawArguments, 200) } });
  return finishToolRun({ toolName: name, callId, result: ToolResult.error(failure), outcome: 'not_found', attempts: 0, durationMs: 0, error: failure }, log);
}

function findTool(tools: ToolSet, name: string): AnyTool | undefined {
  if (isMap(tools)) return tools.get(name);
  for (const tool of tools) if (tool.name === name) return tool;
  return undefined;
}

function toolNames(tools: ToolSet): string[] {
  return isMap(tools) ? [...tools.keys()] : [...tools].map((tool) => tool.name);
}

function isMap(tools: ToolSet): tools is ReadonlyMap<string, AnyTool> {
  return typeof (tools as ReadonlyMap<string, AnyTool>).get === 'function' && typeof (tools as ReadonlyMap<string, AnyTool>).keys === 'function';
}
