/**
 * @internal The tools capability of the MCP handler: `tools/list` (descriptions built once, pages with an opaque
 * cursor) and `tools/call` (one `runTool` per call, whose `ToolRun` becomes an `MCPCallToolResult`: the faultline
 * tool result as `structuredContent`, its JSON text as the one text block a model reads, `isError` when it failed).
 */
import { createId } from '../internal/ids.js';
import { isPlainObject, truncate } from '../internal/json.js';
import { redactValue } from '../internal/redact.js';
import type { AnyTool } from '../tools/define-tool.js';
import { runTool, type ToolRun } from '../tools/run-tool.js';
import { serializeToolResult, toolRunContent } from '../tools/serialize-tool-result.js';
import type { ToolLogOption } from '../tools/tool-log-option.js';
import { ToolResult, type ToolResultJSON } from '../tools/tool-result.js';
import { MCPErrorCode, type MCPCallToolResult, type MCPToolDescription } from './protocol.js';
import type { RPCErrorObject } from './handler-wire.js';

/** @internal Tool names an unknown-tool error lists at most. */
export const MAX_LISTED_TOOL_NAMES = 100;

const CURSOR_PREFIX = 'faultline-tools:';

/** @internal What a tools method answers: a result, or a JSON-RPC error. */
export type ToolsOutcome<T> = { result: T } | { error: RPCErrorObject };

/** @internal A checked `tools/call`: the tool and its arguments. */
export interface ToolCallPlan {
  tool: AnyTool;
  arguments: Record<string, unknown>;
}

const invalid = (message: string, data?: unknown): { error: RPCErrorObject } => ({
  error: data === undefined ? { code: MCPErrorCode.InvalidParams, message } : { code: MCPErrorCode.InvalidParams, message, data },
});

/** @internal The tools of a handler, by name, with their descriptions. */
export class ToolCatalog {
  private readonly descriptions: readonly MCPToolDescription[];
  private readonly names: readonly string[];

  constructor(
    private readonly tools: ReadonlyMap<string, AnyTool>,
    private readonly pageSize: number,
  ) {
    this.descriptions = Object.freeze([...tools.values()].map(describeTool));
    this.names = Object.freeze([...tools.keys()].slice(0, MAX_LISTED_TOOL_NAMES));
  }

  /** `tools/list`: one page, from `params.cursor` when given. */
  list(params: Record<string, unknown> | undefined): ToolsOutcome<{ tools: MCPToolDescription[]; nextCursor?: string }> {
    let offset = 0;
    const cursor = params?.cursor;
    if (cursor !== undefined && cursor !== null) {
      const decoded = decodeCursor(cursor, this.descriptions.length);
      if (decoded === undefined) return invalid('Invalid params: the cursor is not one this server gave (pass the nextCursor of an earlier tools/list answer)');
      offset = decoded;
    }
    const end = offset + this.pageSize;
    const page = { tools: this.descriptions.slice(offset, end) };
    return { result: end < this.descriptions.length ? { ...page, nextCursor: encodeCursor(end) } : page };
  }

  /** `tools/call` params checked: a known tool name and an arguments object (`null` or missing: `{}`). */
  plan(params: Record<string, unknown> | undefined): ToolsOutcome<ToolCallPlan> {
    const name = params?.name;
    if (typeof name !== 'string') return invalid(`Invalid params: params.name must be a string (the tool to call); got ${name === undefined ? 'none' : typeof name}`);
    const tool = this.tools.get(name);
    if (!tool) return invalid(`Unknown tool: ${truncate(name, 100)}`, { available: [...this.names] });
    const args = params?.arguments ?? {};
    if (!isPlainObject(args)) return invalid(`Invalid params: params.arguments must be an object of named arguments (got ${Array.isArray(args) ? 'an array' : typeof args})`);
    return { result: { tool, arguments: args } };
  }
}

function describeTool(tool: AnyTool): MCPToolDescription {
  return { name: tool.name, description: tool.description, inputSchema: { ...tool.jsonSchema, type: 'object' } };
}

function encodeCursor(offset: number): string {
  return btoa(`${CURSOR_PREFIX}${offset}`);
}

function decodeCursor(cursor: unknown, count: number): number | undefined {
  if (typeof cursor !== 'string' || cursor.length > 64) return undefined;
  let text: string;
  try {
    text = atob(cursor);
  } catch {
    return undefined;
  }
  const match = /^faultline-tools:(\d{1,9})$/.exec(text);
  const offset = match ? Number(match[1]) : Number.NaN;
  return offset > 0 && offset < count ? offset : undefined;
}

/** @internal What `tools/call` needs besides the plan. */
export interface ToolCallSettings {
  signal: AbortSignal;
  secrets: readonly string[];
  logger: ToolLogOption | undefined;
}

/**
 * @internal Runs a planned call. Resolves with the MCP result (failures included: they are results with `isError`);
 * rejects only when `signal` aborted (with its reason).
 */
export async function callTool(plan: ToolCallPlan, settings: ToolCallSettings): Promise<MCPCallToolResult> {
  const run = await runTool(plan.tool, plan.arguments, {
    signal: settings.signal,
    secrets: settings.secrets,
    logger: settings.logger,
    callId: createId('mcp-call'),
  });
  return toCallToolResult(run, settings.secrets);
}

/**
 * @internal A run as MCP's tool result: `structuredContent` is the faultline tool result (`{ ok, data?, error? }`),
 * the text block its JSON. The error part is redacted (configured secrets, secret-named keys, credential-shaped
 * values); the whole answer loses the configured secrets again on its way out.
 */
export function toCallToolResult(run: ToolRun, secrets: readonly string[]): MCPCallToolResult {
  const json = run.result.toJSON();
  const structured: Record<string, unknown> = { ok: json.ok };
  if (json.data !== undefined) structured.data = json.data;
  let text = toolRunContent(run);
  if (json.error !== undefined) {
    structured.error = redactValue(json.error, secrets);
    text = serializeToolResult(ToolResult.fromJSON(structured as unknown as ToolResultJSON));
  }
  return { content: [{ type: 'text', text }], structuredContent: structured, isError: !json.ok };
}
