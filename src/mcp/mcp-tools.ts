/**
 * @internal MCP tools as faultline tools: the name a model may call (MCP allows names providers refuse), the
 * description, the input JSON Schema as a validating Standard Schema, and an `execute` that calls the server and
 * answers exactly as a local tool would (see `mcp-results.ts`).
 */
import { ConfigError } from '../errors/config-error.js';
import { cutText } from '../internal/json-budget.js';
import { isPlainObject, truncate } from '../internal/json.js';
import { defineCheckedTool, type AnyTool } from '../tools/define-tool.js';
import { patternedJSONSchema } from '../tools/json-schema.js';
import { definitionProblems, MODEL_FACING_LIMITS } from '../tools/model-facing-limits.js';
import type { JSONSchema } from '../tools/standard-schema.js';
import { ToolInternalError } from '../tools/tool-internal-error.js';
import { mcpFailureToToolFailure, mcpResultToToolResult, type MCPCallSubject } from './mcp-results.js';
import type { MCPCallToolResult, MCPToolDescription } from './protocol.js';

/** Options of `client.tools()`. */
export interface MCPToolsOptions {
  /** Put before every name (`docs_` → `docs_search`), to keep two servers' tools apart. @default '' */
  prefix?: string | undefined;
  /** Which of the server's tools to offer (by their name on the server). @default all */
  include?: ((tool: MCPToolDescription) => boolean) | undefined;
  /** Each call's time limit (the tool's `timeoutMs`; `runTool` enforces it and the server is told to cancel). @default the client's `timeouts.requestMs` */
  timeoutMs?: number | undefined;
  /** Check arguments against the server's schema before calling. @default true */
  validate?: boolean | undefined;
  /**
   * Which calls a person must approve before they run (the tool's `needsApproval`): the server's names of the tools
   * that always need it, or a predicate over the server's tool name and the call's arguments. A predicate that throws
   * counts as "needs approval". @default none
   * @example `await client.tools({ needsApproval: ['delete_file', 'send_email'] })`
   */
  needsApproval?: readonly string[] | ((toolName: string, args: Record<string, unknown>) => boolean | Promise<boolean>) | undefined;
  /** How long a person has to decide on such a call, in ms. @default no expiry */
  approvalExpiresInMs?: number | undefined;
}

/** @internal What a tool needs of its client. */
export interface ToolHost {
  server(): string;
  secrets: readonly string[];
  requestMs: number;
  call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<MCPCallToolResult>;
  /** The names the server has now (cached listing; refreshed after a list change). */
  names(signal: AbortSignal): Promise<readonly string[]>;
}

/** A name the model may call: invalid characters become `_`, cut to 64, made unique with a numbered suffix. */
function callableName(name: string, prefix: string, taken: Set<string>): string {
  const base = `${prefix}${name}`.slice(0, 64).replace(/[^A-Za-z0-9_-]/g, '_') || 'tool';
  let candidate = base;
  for (let n = 2; taken.has(candidate); n++) candidate = `${base.slice(0, 64 - String(n).length - 1)}_${n}`;
  taken.add(candidate);
  return candidate;
}

/** The input schema as an object schema (a server may send none, or one without `type`). */
function inputSchemaOf(description: MCPToolDescription): JSONSchema {
  const schema = isPlainObject(description.inputSchema) ? { ...description.inputSchema } : {};
  delete schema.$schema;
  if (schema.type === undefined) schema.type = 'object';
  return schema as JSONSchema;
}

/**
 * The server's schema as we validate it: without `pattern` and `patternProperties` (with `additionalProperties`
 * beside them, which they widen). A regular expression a server sends can take minutes on a short string (`^a*a*a*a*$`)
 * and no time limit interrupts one; the server checks its own patterns anyway. The model still sees them.
 */
function withoutPatterns(schema: unknown, depth = 0): unknown {
  if (depth > 256 || schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map((item) => withoutPatterns(item, depth + 1));
  const copy: Record<string, unknown> = {};
  const record = schema as Record<string, unknown>;
  const widened = Object.hasOwn(record, 'patternProperties');
  for (const key of Object.keys(record)) {
    if (key === 'pattern' || key === 'patternProperties' || (widened && key === 'additionalProperties')) continue;
    Object.defineProperty(copy, key, { value: withoutPatterns(record[key], depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** @internal Faultline tools for `descriptions`. */
export function toFaultlineTools(host: ToolHost, descriptions: readonly MCPToolDescription[], options: MCPToolsOptions = {}): AnyTool[] {
  const taken = new Set<string>();
  const prefix = options.prefix ?? '';
  const approval = options.needsApproval;
  if (approval !== undefined && typeof approval !== 'function' && !(Array.isArray(approval) && approval.every((name) => typeof name === 'string'))) {
    throw ConfigError.fromProblems(`MCP tools of ${host.server()}`, ['needsApproval must be a list of tool names or a function']);
  }
  const tools: AnyTool[] = [];
  /** Server name → the name the model calls: a ToolNotFound lists what the model can call, and the server still has. */
  const callable = new Map<string, string>();
  const callableNow = async (signal: AbortSignal): Promise<readonly string[] | undefined> => {
    const names = await host.names(signal).catch(() => undefined); // a failed listing lists nothing
    return names === undefined ? undefined : [...callable].filter(([server]) => names.includes(server)).map(([, model]) => model);
  };
  for (const listed of descriptions) {
    if (options.include && !options.include(listed)) continue;
    const description = listed; // already clean: every message is cleaned of secrets where it is parsed
    const name = callableName(description.name, prefix, taken);
    callable.set(description.name, name);
    const shown = truncate(description.name, 200); // the server's name as messages quote it
    const schema = inputSchemaOf(description);
    // Sent to the model with every request: one too large is refused by name (leave it out with `include`), never cut
    // into a schema that says something else.
    const problems = definitionProblems('', schema);
    if (problems.length > 0) throw ConfigError.fromProblems(`MCP tool '${shown}' of ${host.server()}`, problems.map((problem) => `${problem}; leave the tool out with client.tools({ include })`));
    // No pattern compiler: the schema validated has none left (and the app bundles none).
    const parameters =
      schema.type === 'object'
        ? patternedJSONSchema(undefined, withoutPatterns(schema) as JSONSchema, { validate: options.validate ?? true })
        : patternedJSONSchema(undefined, { type: 'object' }, { validate: false });
    const text = typeof description.description === 'string' ? description.description : typeof description.title === 'string' ? description.title : '';
    // Everything defineTool checks holds here by construction but approvalExpiresInMs (the caller's, as given) and the
    // schema's type: defineCheckedTool makes the same tool without the other checks.
    tools.push(
      defineCheckedTool({
        name,
        description: cutText(text === '' ? `The MCP tool '${shown}'.` : text, MODEL_FACING_LIMITS.maxDescriptionLength - 64), // its cut marked
        parameters,
        jsonSchema: schema,
        timeoutMs: options.timeoutMs ?? host.requestMs,
        ...(approval === undefined ? {} : { needsApproval: typeof approval === 'function' ? (args: unknown) => approval(description.name, isPlainObject(args) ? args : {}) : approval.includes(description.name) }),
        ...(options.approvalExpiresInMs === undefined ? {} : { approvalExpiresInMs: options.approvalExpiresInMs }),
        execute: async (args, context) => {
          const subject: MCPCallSubject = { server: host.server(), tool: shown, callable: name };
          const input = isPlainObject(args) ? args : {};
          let result: MCPCallToolResult;
          try {
            result = await host.call(description.name, input, context.signal);
          } catch (error) {
            if (context.signal.aborted) throw error;
            throw mcpFailureToToolFailure(error, subject, await callableNow(context.signal));
          }
          const failed = result.isError === true;
          return mcpResultToToolResult(result, subject, host.secrets, failed ? await callableNow(context.signal) : undefined);
        },
        formatError: (error) =>
          new ToolInternalError(`The MCP server ${host.server()} failed while running '${shown}'${codeOf(error)}.`, {
            suggestion: 'Try again later, or continue without this tool.',
          }),
      }),
    );
  }
  return tools;
}

function codeOf(error: unknown): string {
  const rpcCode = isPlainObject(error) ? undefined : (error as { rpcCode?: unknown } | null)?.rpcCode;
  return typeof rpcCode === 'number' ? ` (JSON-RPC ${rpcCode})` : '';
}
