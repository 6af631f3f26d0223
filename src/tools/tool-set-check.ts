/**
 * @internal What `runTool` and `runToolCall` check of their first argument before anything runs: a plain JavaScript
 * caller can pass anything, and each wrong shape gets a `ConfigError` naming it instead of a `TypeError` from deep
 * inside the lookup.
 */
import { isTool } from './define-tool.js';

/** How a wrong value is named in a problem: its kind, never its content (it may hold secrets). */
export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Longest list of bad entries reported (a set may be large). */
const MAX_REPORTED = 5;

/** The problems of `tools` as a tool set: an iterable (not a string) of tools, or a Map of tools by name. */
export function toolSetProblems(tools: unknown): string[] {
  if (typeof tools !== 'object' || tools === null) return [`tools is ${kindOf(tools)}, not an array or Map of tools made by defineTool()`];
  const isMap = tools instanceof Map || (typeof (tools as Map<unknown, unknown>).get === 'function' && typeof (tools as Map<unknown, unknown>).entries === 'function');
  const entries: Array<[string, unknown]> = [];
  if (isMap) {
    for (const [key, tool] of (tools as Map<unknown, unknown>).entries()) entries.push([`tools.get(${typeof key === 'string' ? JSON.stringify(key.slice(0, 80)) : kindOf(key)})`, tool]);
  } else if (typeof (tools as Iterable<unknown>)[Symbol.iterator] === 'function') {
    let index = 0;
    for (const tool of tools as Iterable<unknown>) entries.push([`tools[${index++}]`, tool]);
  } else {
    return ['tools is an object, not an array or Map of tools made by defineTool() (to pass tools by name, use new Map(Object.entries(…)))'];
  }
  const bad = entries.filter(([, tool]) => !isTool(tool));
  const problems = bad.slice(0, MAX_REPORTED).map(([where, tool]) => `${where} is ${kindOf(tool)}, not a tool made by defineTool()`);
  if (bad.length > MAX_REPORTED) problems.push(`and ${bad.length - MAX_REPORTED} more entries are not tools`);
  return problems;
}
