/**
 * What the model sees of an MCP tool call, in the same shape as a local tool's: a `tools/call` result (including
 * `isError: true`) becomes a `ToolResult`, and a failure of the call (a JSON-RPC error, an HTTP status, a limit) the
 * standard `ToolFailure` for it — or, for a server fault, an error `runTool` logs in full and shows the model as a
 * sanitized `ToolInternalError`.
 */
import { JSONRPCError } from '../errors/jsonrpc-error.js';
import { MCPError } from '../errors/mcp-error.js';
import { isPlainObject, truncate } from '../internal/json.js';
import { cutText, shrinkJSON } from '../internal/json-budget.js';
import { redactText, redactValue, removeSecrets } from '../internal/redact.js';
import { APIFailure } from '../tools/api-failure.js';
import { AuthenticationError } from '../tools/authentication-error.js';
import { InputValidationError } from '../tools/input-validation-error.js';
import { NetworkError } from '../tools/network-error.js';
import { PermissionError } from '../tools/permission-error.js';
import { RateLimitError } from '../tools/rate-limit-error.js';
import { TimeoutError } from '../tools/timeout-error.js';
import type { ToolErrorInfo, ToolFailure } from '../tools/tool-failure.js';
import { ToolNotFound } from '../tools/tool-not-found.js';
import { GENERIC_TOOL_ERROR_TYPE, ToolResult, type ToolResultJSON } from '../tools/tool-result.js';
import type { MCPCallToolResult, MCPContent } from './protocol.js';

/** Longest error message, suggestion and context (as JSON) taken from a server for the model. */
const MAX_ERROR_TEXT = 4_000;
const MAX_SUGGESTION_TEXT = 1_000;
const MAX_CONTEXT_LENGTH = 8_000;
/** Names listed in a `ToolNotFound` at most. */
const MAX_LISTED = 50;

/** Who was called, for messages. */
export interface MCPCallSubject {
  /** The server's label (its name from `initialize`, else its host). */
  server: string;
  /** The tool's name on the server. */
  tool: string;
  /** The name the model calls it by, when it differs (a prefix, characters a provider refuses). @default tool */
  callable?: string | undefined;
}

/** The text blocks of a result's `content`, joined. */
function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter((block): block is { type: 'text'; text: string } => isPlainObject(block) && block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('\n');
}

/** True for a faultline tool-result JSON (`{ok, data?, error?}`): what our server puts in `structuredContent`. */
function isToolResultJSON(value: unknown): value is ToolResultJSON {
  if (!isPlainObject(value) || typeof value.ok !== 'boolean') return false;
  const keys = Object.keys(value);
  if (keys.some((key) => key !== 'ok' && key !== 'data' && key !== 'error')) return false;
  return value.ok ? value.error === undefined || isPlainObject(value.error) : isPlainObject(value.error) && typeof value.error.message === 'string';
}

/**
 * A `tools/call` result as the model's `ToolResult`:
 * - `isError: true` → an error result: the structured error a server put in `structuredContent` — `{type, message,
 *   context?, suggestion?}` from any server (each field checked, bounded, redacted), or a faultline server's
 *   `{ok: false, error}` —, else `ToolExecutionFailed` with the text content as its message
 *   (`@modelcontextprotocol/sdk` servers report an unknown tool and invalid arguments this way: those become
 *   `ToolNotFound` and `InputValidationError`);
 * - success → `data`: a faultline server's data, else `structuredContent`, else the text content (one string), else
 *   the content blocks.
 * Configured secrets are removed from everything the server sent.
 *
 * @example
 * ```ts
 * const result = mcpResultToToolResult(await client.callTool('search', { q: 'x' }), { server: 'docs', tool: 'search' });
 * if (!result.ok) console.log(result.error?.type, result.error?.message);
 * ```
 */
export function mcpResultToToolResult(result: MCPCallToolResult, subject: MCPCallSubject, secrets: readonly string[] = [], available?: readonly string[]): ToolResult {
  const clean = removeSecrets(result, secrets);
  const structured = clean.structuredContent;
  const text = textOf(clean.content);
  if (clean.isError === true) {
    const unexplained = `The MCP tool '${subject.tool}' failed without saying why.`;
    if (isToolResultJSON(structured) && !structured.ok) {
      // A faultline envelope is an error whatever its message: a blank one is defaulted, never a reason to pass the
      // server's error through unchecked.
      const info = structuredError(structured.error, secrets, text.trim() === '' ? unexplained : text);
      return structured.data === undefined ? ToolResult.error(info) : ToolResult.errorWithData(info, structured.data);
    }
    return ToolResult.error(
      structuredError(structured, secrets) ?? sdkFailure(text, subject, available) ?? { type: GENERIC_TOOL_ERROR_TYPE, message: text === '' ? unexplained : truncate(text, MAX_ERROR_TEXT) },
    );
  }
  // A faultline envelope is trusted only when it agrees with `isError`: a third-party tool's data may look like one.
  if (isToolResultJSON(structured) && structured.ok) return ToolResult.fromJSON(structured);
  if (isPlainObject(structured)) return ToolResult.success(structured);
  const blocks = Array.isArray(clean.content) ? (clean.content as MCPContent[]) : [];
  if (blocks.length > 0 && blocks.every((block) => isPlainObject(block) && block.type === 'text')) return ToolResult.success(text);
  return ToolResult.success(blocks);
}

/** A failure's `type` as a server may name it: a short identifier (`DataNotFoundError`, `quota.exceeded`). */
const ERROR_TYPE = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;

/**
 * The structured error any server may put in an `isError` result's `structuredContent` — `{type, message,
 * suggestion?, context?}`, the shape of a local tool's failure — taken when it has a non-blank `message` string, or
 * else `fallback` as its message when the caller knows it is an error (a faultline envelope); each other field only
 * when valid (a short identifier, a string, a plain JSON object), each — the message too — bounded and redacted
 * (configured secrets in every form, credential-shaped text, values under credential-named keys).
 */
function structuredError(value: unknown, secrets: readonly string[]): ToolErrorInfo | undefined;
function structuredError(value: unknown, secrets: readonly string[], fallback: string): ToolErrorInfo;
function structuredError(given: unknown, secrets: readonly string[], fallback?: string): ToolErrorInfo | undefined {
  const value = isPlainObject(given) ? given : {};
  const said = typeof value.message === 'string' && value.message.trim() !== '' ? value.message : fallback;
  if (said === undefined) return undefined;
  const { type, suggestion, context } = value;
  const info: ToolErrorInfo = {
    type: typeof type === 'string' && ERROR_TYPE.test(type) ? type : GENERIC_TOOL_ERROR_TYPE,
    message: cutText(redactText(said, secrets), MAX_ERROR_TEXT),
  };
  if (isPlainObject(context)) info.context = shrinkJSON(redactValue(context, secrets), MAX_CONTEXT_LENGTH) as Record<string, unknown>;
  if (typeof suggestion === 'string' && suggestion.trim() !== '') info.suggestion = cutText(redactText(suggestion, secrets), MAX_SUGGESTION_TEXT);
  return info;
}

/** The reference server's wording for an unknown tool and invalid arguments, reported as `isError` results. */
function sdkFailure(text: string, subject: MCPCallSubject, available: readonly string[] | undefined): ToolFailure | undefined {
  if (/^(MCP error -32602: )?Tool \S+ (not found|disabled)$/.test(text)) return notFound(subject, available);
  if (/^(MCP error -32602: )?Input validation error:/.test(text)) {
    return new InputValidationError(truncate(text.replace(/^MCP error -32602: /, ''), MAX_ERROR_TEXT), { context: { tool: subject.tool } });
  }
  return undefined;
}

function notFound(subject: MCPCallSubject, available: readonly string[] | undefined): ToolNotFound {
  const name = subject.callable ?? subject.tool;
  const listed = (available ?? []).filter((other) => other !== name).slice(0, MAX_LISTED);
  return new ToolNotFound(`The MCP server ${subject.server} has no tool '${name}' (any more).`, {
    context: { tool: name, available: listed },
    suggestion: listed.length > 0 ? 'Call one of the available tools instead.' : 'Continue without this tool.',
  });
}

/**
 * A failed `tools/call` (not a result) as what the model should see: JSON-RPC -32602 → `ToolNotFound` (an unknown
 * tool, listing `available` — the names the model can call — or else the server's `data.available`) or `InputValidationError` (naming the fields the server gave); HTTP 401 →
 * `AuthenticationError`, 403 → `PermissionError`, 429 → `RateLimitError`, other transient HTTP → `APIFailure`, no
 * answer → `NetworkError`, a limit → `TimeoutError`. Anything else — -32603 and other server errors, a broken
 * protocol, a closed client — is returned unchanged: `runTool` logs it in full and shows the model a sanitized
 * `ToolInternalError`.
 *
 * @example
 * ```ts
 * try { await client.callTool('search', {}); } catch (error) { throw mcpFailureToToolFailure(error, { server: 'docs', tool: 'search' }); }
 * ```
 */
export function mcpFailureToToolFailure(error: unknown, subject: MCPCallSubject, available?: readonly string[]): unknown {
  const context = { server: subject.server, tool: subject.tool };
  if (JSONRPCError.isInstance(error)) {
    if (error.rpcCode !== -32602) return error;
    const data = isPlainObject(error.data) ? error.data : {};
    if (Array.isArray(data.available) || /unknown tool|tool \S+ not found|no such tool/i.test(error.message)) {
      // `available`: what the model can call (and the server still has); else the server's own list
      return notFound(subject, available ?? (Array.isArray(data.available) ? data.available.filter((name): name is string => typeof name === 'string') : undefined));
    }
    const fields = fieldsOf(data);
    const said = error.message.replace(/^MCP server .*? answered tools\/call with (HTTP \d+ and )?error -32602: /, '');
    return new InputValidationError(`The MCP server ${subject.server} rejected the arguments of '${subject.tool}': ${truncate(said, MAX_ERROR_TEXT)}`, {
      context: fields.length > 0 ? { ...context, fields } : context,
      cause: error,
    });
  }
  if (!MCPError.isInstance(error)) return error;
  const options = { context: { ...context, ...(error.status === undefined ? {} : { status: error.status }) }, cause: error };
  if (error.reason === 'timeout') return new TimeoutError(`The MCP server ${subject.server} did not answer '${subject.tool}' in time.`, { ...options, retryable: true });
  if (error.reason === 'network') return new NetworkError(`The MCP server ${subject.server} could not be reached.`, options);
  if (error.reason !== 'http') return error;
  if (error.status === 401) return new AuthenticationError(`The MCP server ${subject.server} refused the credentials (401 Unauthorized).`, options);
  if (error.status === 403) return new PermissionError(`The MCP server ${subject.server} does not allow '${subject.tool}' with these credentials (403 Forbidden).`, options);
  if (error.status === 429) return new RateLimitError(`The MCP server ${subject.server} is rate limiting calls (429).`, { ...options, retryAfterMs: error.retryAfterMs });
  if (error.retryable) return new APIFailure(`The MCP server ${subject.server} failed (HTTP ${error.status}).`, { ...options, retryAfterMs: error.retryAfterMs });
  return error;
}

/** Field paths a server named in an invalid-params error's data (`issues[].path`, `fields`, `errors[].instancePath`). */
function fieldsOf(data: Record<string, unknown>): string[] {
  const found: string[] = [];
  const push = (value: unknown) => {
    if (typeof value === 'string' && value !== '') found.push(truncate(value, 200));
    else if (Array.isArray(value) && value.every((part) => typeof part === 'string' || typeof part === 'number')) found.push(truncate(value.join('.'), 200));
  };
  for (const key of ['issues', 'errors']) {
    const list = data[key];
    if (Array.isArray(list)) for (const item of list.slice(0, 50)) if (isPlainObject(item)) push(item.path ?? item.instancePath ?? item.field);
  }
  if (Array.isArray(data.fields)) for (const field of data.fields.slice(0, 50)) push(field);
  return [...new Set(found)];
}
