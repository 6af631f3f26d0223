/**
 * @internal The one form the tool name of a model's call takes in every output: run items, events, logs, a
 * `ToolNotFound`'s text and context, the run's `toolName`. A name one of the tools has is the developer's own and
 * stays as it is (spans and the tool's own logs carry it too); any other name is what the model wrote — it may echo a
 * key from its context — so it is cut to {@link MAX_SHOWN_NAME} characters and redacted (configured secrets in every
 * form, credential-shaped text). The transcript sent back to the provider keeps the call as the provider made it:
 * its id and name are the provider's own, and a tool message must answer exactly that call.
 */
import { truncate } from '../internal/json.js';
import { redactText } from '../internal/redact.js';
import type { AnyTool } from './define-tool.js';

/** A set of tools by name. */
export type ToolSet = Iterable<AnyTool> | ReadonlyMap<string, AnyTool>;

/** Longest unknown name shown. */
const MAX_SHOWN_NAME = 80;

/**
 * `tools` walked once, for every later check, lookup and listing: a one-shot iterable (a generator, `map.values()`)
 * as an array of what it yields; an array or a Map (anything with `get`) as it is, and anything else as it is (the
 * check names it). Each entry point takes its tool set through this once.
 */
export function toolSetOnce<T>(tools: T): T | unknown[] {
  return tools && typeof tools === 'object' && !Array.isArray(tools) && !('get' in tools) && Symbol.iterator in tools ? Array.from(tools as Iterable<unknown>) : tools;
}

/** The tool of `tools` named `name`, if there is one. */
export function findTool(tools: ToolSet, name: string): AnyTool | undefined {
  if (isMap(tools)) return tools.get(name);
  for (const tool of tools) if (tool.name === name) return tool;
  return undefined;
}

/** Every tool name of `tools`. */
export function toolNames(tools: ToolSet): string[] {
  return isMap(tools) ? [...tools.keys()] : [...tools].map((tool) => tool.name);
}

/** `name` as every output shows it (see the module comment). */
export function shownToolName(tools: ToolSet, name: string, secrets: readonly string[] | undefined): string {
  return findTool(tools, name) !== undefined ? name : truncate(redactText(name, secrets ?? []), MAX_SHOWN_NAME);
}

function isMap(tools: ToolSet): tools is ReadonlyMap<string, AnyTool> {
  return typeof (tools as ReadonlyMap<string, AnyTool>).get === 'function' && typeof (tools as ReadonlyMap<string, AnyTool>).keys === 'function';
}
