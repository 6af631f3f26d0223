/**
 * The caps of what a model receives about tools: every tool definition (`defineTool`'s and an MCP server's) and the
 * error part of every tool result. One table, read where each is enforced.
 */
import { nestingProblem } from '../wire/safe-json.js';

/**
 * Caps of what the model receives, in characters. A tool result's error (`{type, message, context?, suggestion?}`)
 * and the data of a failed result are cut where `runTool` seals them, every cut marked `[cut: …]` and the JSON still
 * valid; a `defineTool` definition over a cap is a `ConfigError`, an MCP tool's schema over one is refused by
 * `client.tools()` (a `ConfigError` naming the tool) and its description is cut, marked.
 * @example `MODEL_FACING_LIMITS.maxErrorLength // 16384`
 */
export const MODEL_FACING_LIMITS = /* @__PURE__ */ Object.freeze({
  /** The error part of a tool result as JSON text (an `InputValidationError` repeats the schema only when it fits). */
  maxErrorLength: 16_384,
  /** The data of a failed result (`ToolResult.errorWithData`) as JSON text; a success's data is the tool's own. */
  maxFailureDataLength: 16_384,
  /** A tool's description. */
  maxDescriptionLength: 8_192,
  /** A tool's parameters JSON Schema as JSON text. */
  maxSchemaLength: 65_536,
  /** Levels of nesting of a tool's parameters JSON Schema. */
  maxSchemaDepth: 64,
});

/** @internal What is over a cap in a tool definition's model-facing parts, as sentences (none when they fit). */
export function definitionProblems(description: string, schema: unknown): string[] {
  const problems: string[] = [];
  const { maxDescriptionLength, maxSchemaLength, maxSchemaDepth } = MODEL_FACING_LIMITS;
  const over = (what: string, size: string, limit: string) => problems.push(`${what} ${size}; the model gets at most ${limit}`);
  if (description.length > maxDescriptionLength) over('description is', `${description.length} characters`, `${maxDescriptionLength} (MODEL_FACING_LIMITS.maxDescriptionLength)`);
  let size: number;
  try {
    size = JSON.stringify(schema)?.length ?? 0;
  } catch (error) {
    // a cycle, a BigInt, a throwing toJSON, or nesting past the stack: the model could never be sent it
    problems.push(`the parameters JSON Schema is not JSON text (${error instanceof RangeError ? 'nested too deeply to write' : error instanceof Error ? error.name : 'it could not be written'})`);
    return problems;
  }
  if (size > maxSchemaLength) over('the parameters JSON Schema is', `${size} characters of JSON`, `${maxSchemaLength} (MODEL_FACING_LIMITS.maxSchemaLength)`);
  else if (nestingProblem(schema, 'schema', maxSchemaDepth)) over('the parameters JSON Schema nests deeper than', `${maxSchemaDepth} levels`, `${maxSchemaDepth} (MODEL_FACING_LIMITS.maxSchemaDepth)`);
  return problems;
}
