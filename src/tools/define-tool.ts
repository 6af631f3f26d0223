import { ConfigError } from '../errors/config-error.js';
import { hasMarker } from '../internal/brand.js';
import { messageOf } from '../internal/error-chain.js';
import { cloneJSONLike, isPlainObject, refusedValue } from '../internal/json.js';
import { retryOptionProblems, type RetryOptions } from '../internal/retry.js';
import type { CircuitBreaker } from '../resilience/circuit-breaker.js';
import { resilienceProblems } from '../resilience/guard.js';
import type { RetryBudget } from '../resilience/retry-budget.js';
import type { ToolLogger } from './tool-log.js';
import type { ToolErrorInput, ToolResult } from './tool-result.js';
import { isStandardSchema, type JSONSchema, type StandardSchemaV1 } from './standard-schema.js';
import { definitionProblems } from './model-facing-limits.js';
import { retryNameProblems, unknownOptionProblems } from '../internal/option-names.js';

const symbol = Symbol.for('faultline.tool.Tool');
/** The longest an approval may wait: a year. */
const MAX_APPROVAL_MS = 31_536_000_000;

/**
 * Tool names providers accept (OpenAI: 1–64 of letters, digits, `_` and `-`).
 * @example `TOOL_NAME_PATTERN.test('get_weather') // true`
 */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** What `execute` receives besides its arguments. */
export interface ToolContext {
  /** Aborts when the run is cancelled or the tool's timeout fires; pass it to `fetch`. */
  signal: AbortSignal;
  /** The model's tool-call id. */
  callId: string;
  /** 1 for the first attempt, 2 for the first retry… */
  attempt: number;
  toolName: string;
  /** Developer log (never shown to the model). */
  logger: ToolLogger;
}

/** What a `needsApproval` predicate receives besides the call's arguments. */
export interface ApprovalContext {
  /** The model's tool-call id. */
  callId: string;
  toolName: string;
}

/** What `formatError` receives about a crash. */
export interface ToolCrashContext {
  toolName: string;
  callId: string;
  attempt: number;
  arguments: unknown;
}

/** The definition passed to {@link defineTool}. */
export interface ToolDefinition<Schema extends StandardSchemaV1 = StandardSchemaV1, Output = unknown> {
  /** Name the model calls, 1–64 of `A–Z a–z 0–9 _ -`. */
  name: string;
  /** What the tool does and when to use it, for the model; at most `MODEL_FACING_LIMITS.maxDescriptionLength` (8192) characters. */
  description: string;
  /** Any Standard Schema (zod 4, valibot, arktype…) describing the arguments object. */
  parameters: Schema;
  /**
   * The JSON Schema sent to the model; by default derived through Standard JSON Schema (zod 4, arktype). At most
   * `MODEL_FACING_LIMITS.maxSchemaLength` (65536) characters of JSON and `maxSchemaDepth` (64) levels.
   */
  jsonSchema?: JSONSchema | undefined;
  /**
   * Does the work. Return data (sent as `ToolResult.success(data)`) or a `ToolResult`; throw a `ToolFailure`
   * (e.g. `DataNotFoundError`) for expected failures. Anything else thrown is a crash: the model sees a sanitized
   * `ToolInternalError` and the developer log gets the real error.
   */
  execute: (args: StandardSchemaV1.InferOutput<Schema>, context: ToolContext) => Output | ToolResult | Promise<Output | ToolResult>;
  /** Per-attempt time limit; `Infinity` disables it. @default 60000 */
  timeoutMs?: number | undefined;
  /** Retries of retryable failures (`RateLimitError`, `TimeoutError`, `NetworkError`, `APIFailure`). @default false (no retry: tools may have side effects) */
  retry?: RetryOptions | false | undefined;
  /** Turns a crash into what the model sees (default: a generic `ToolInternalError`). Never expose secrets here. */
  formatError?: ((error: unknown, context: ToolCrashContext) => ToolErrorInput | undefined) | undefined;
  /**
   * A circuit breaker shared with other tools and clients (`createCircuitBreaker`): this tool's circuit is its
   * `dependency` (default its name), opened by its retryable failures; while open, calls are not made and the model
   * gets a `ServiceUnavailableError` with a suggestion.
   */
  circuitBreaker?: CircuitBreaker | undefined;
  /** A retry budget shared with other tools and clients (`createRetryBudget`) bounding this tool's retries. */
  retryBudget?: RetryBudget | undefined;
  /** The circuit this tool's calls count against: tools calling the same API share it. @default the tool's name */
  dependency?: string | undefined;
  /**
   * A person must approve each call before it runs (`true`), or those calls for which the predicate says so (it gets
   * the validated arguments). A call that needs it stops the agent run: the run ends `interrupted` with the pending
   * approval, and `agent.resume(runId, decisions)` runs it (approved) or tells the model it was refused. A predicate
   * that throws or rejects counts as `true` — a call is never run unasked because a check failed — and the agent
   * reports it as a recoverable `error` item and event (`ToolError`, the predicate's error redacted as its cause).
   * Arguments that do not match the schema are not asked about: the model gets its `InputValidationError`, and the
   * agent's `repairArguments` is not used for such a tool.
   * @default false
   */
  needsApproval?: boolean | ((args: StandardSchemaV1.InferOutput<Schema>, context: ApprovalContext) => boolean | Promise<boolean>) | undefined;
  /** How long a person has to decide on a call of this tool, in ms (the interrupt's `expiresAt`). @default no expiry */
  approvalExpiresInMs?: number | undefined;
}

/** A validated, immutable tool, ready for `runTool` and the agent. */
export interface Tool<Schema extends StandardSchemaV1 = StandardSchemaV1, Output = unknown>
  extends Readonly<Omit<ToolDefinition<Schema, Output>, 'jsonSchema'>> {
  /** The JSON Schema of the arguments (no `$schema` key), as sent to the model. */
  readonly jsonSchema: JSONSchema;
}

/** A tool of any schema and output, for collections of tools. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any, any>;

/** The fields of a `ToolDefinition`: an unknown one is a problem (a mistyped `needsApproval` would run the tool unasked). */
const TOOL_KEYS = ['name', 'description', 'parameters', 'jsonSchema', 'execute', 'timeoutMs', 'retry', 'formatError', 'circuitBreaker', 'retryBudget', 'dependency', 'needsApproval', 'approvalExpiresInMs'];

/**
 * Defines a tool: validates the definition (every problem reported at once as a `ConfigError`) and derives the JSON
 * Schema of its parameters.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * const getWeather = defineTool({
 *   name: 'get_weather',
 *   description: 'Current weather for a city.',
 *   parameters: z.object({ city: z.string().min(1) }),
 *   timeoutMs: 5_000,
 *   execute: async ({ city }, { signal }) => {
 *     const response = await fetch(`https://api.example/weather?q=${encodeURIComponent(city)}`, { signal });
 *     if (!response.ok) throw await toolErrorFromResponse(response, { service: 'Weather API' });
 *     return response.json();
 *   },
 * });
 * ```
 */
export function defineTool<Schema extends StandardSchemaV1, Output>(definition: ToolDefinition<Schema, Output>): Tool<Schema, Output> {
  const problems: string[] = [];
  const record: Partial<ToolDefinition<Schema, Output>> = isPlainObject(definition) ? definition : {};
  if (!isPlainObject(definition)) problems.push('the definition must be an object');
  else problems.push(...unknownOptionProblems(definition, TOOL_KEYS));
  const name = record.name;
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    problems.push(`name must be 1–64 characters of A–Z, a–z, 0–9, "_" or "-" (got ${refusedValue(name)})`);
  }
  if (typeof record.description !== 'string') problems.push('description must be a string');
  if (typeof record.execute !== 'function') problems.push('execute must be a function');
  if (!isStandardSchema(record.parameters)) {
    problems.push('parameters must be a Standard Schema (a zod 4, valibot or arktype schema, for example)');
  }
  const timeoutMs = record.timeoutMs;
  if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || !(timeoutMs > 0))) {
    problems.push(`timeoutMs must be a number > 0 or Infinity (got ${refusedValue(timeoutMs)})`);
  }
  problems.push(...retryOptionProblems(record.retry, 'retry'), ...retryNameProblems(record.retry, 'retry'), ...resilienceProblems(record));
  if (record.dependency !== undefined && (typeof record.dependency !== 'string' || record.dependency === '')) problems.push('dependency must be a non-empty string');
  if (record.formatError !== undefined && typeof record.formatError !== 'function') problems.push('formatError must be a function');
  if (record.needsApproval !== undefined && typeof record.needsApproval !== 'boolean' && typeof record.needsApproval !== 'function') problems.push('needsApproval must be a boolean or a function');
  return finishTool(record, problems, () => (isStandardSchema(record.parameters) ? deriveJSONSchema(record.parameters, record.jsonSchema, problems) : undefined));
}

/**
 * @internal {@link defineTool} for a definition whose other fields hold up by construction — an MCP server's tool: a
 * valid name, a cut description, a Standard Schema, a `timeoutMs` the client checked, its JSON Schema given —: the
 * same tool, or the same `ConfigError` (`approvalExpiresInMs`, a schema not of an object), with none of the checks
 * that cannot fail there in the bundle.
 */
export function defineCheckedTool(definition: ToolDefinition & { jsonSchema: JSONSchema }): AnyTool {
  const problems: string[] = [];
  return finishTool(definition, problems, () => objectSchema(definition.jsonSchema, problems));
}

/**
 * The end of {@link defineTool}, after the checks in `problems`: `approvalExpiresInMs`, the JSON Schema (`derive`
 * adds its own problems) against the model-facing limits, then the tool, or every problem as a `ConfigError`.
 */
function finishTool(record: Partial<ToolDefinition>, problems: string[], derive: () => JSONSchema | undefined): AnyTool {
  const expiresIn = record.approvalExpiresInMs;
  if (expiresIn !== undefined && !(typeof expiresIn === 'number' && Number.isInteger(expiresIn) && expiresIn > 0 && expiresIn <= MAX_APPROVAL_MS)) problems.push(`approvalExpiresInMs must be an integer > 0 and at most a year (got ${refusedValue(expiresIn)})`);
  const jsonSchema = derive();
  if (jsonSchema !== undefined && typeof record.description === 'string') problems.push(...definitionProblems(record.description, jsonSchema));
  const name = record.name;
  const subject = typeof name === 'string' && name !== '' ? `tool ${JSON.stringify(name)}` : 'tool definition';
  if (problems.length > 0 || jsonSchema === undefined) throw ConfigError.fromProblems(subject, problems);
  const tool = { ...record, jsonSchema } as AnyTool;
  Object.defineProperty(tool, symbol, { value: true });
  return Object.freeze(tool);
}

/**
 * True for tools made by {@link defineTool} (from any copy of the package).
 * @example `isTool(candidate)`
 */
export function isTool(value: unknown): value is AnyTool {
  return hasMarker(value, symbol);
}

function deriveJSONSchema(parameters: StandardSchemaV1, explicit: unknown, problems: string[]): JSONSchema | undefined {
  let schema: unknown = explicit;
  if (schema === undefined) {
    const converter = parameters['~standard'].jsonSchema;
    if (!converter || typeof converter.input !== 'function') {
      problems.push(
        `parameters (${parameters['~standard'].vendor}) cannot produce a JSON Schema: pass jsonSchema explicitly (e.g. from @valibot/to-json-schema)`,
      );
      return undefined;
    }
    try {
      schema = converter.input({ target: 'draft-2020-12' });
    } catch (first) {
      try {
        schema = converter.input({ target: 'draft-07' });
      } catch {
        problems.push(`parameters cannot be expressed as JSON Schema: ${messageOf(first)}; pass jsonSchema explicitly`);
        return undefined;
      }
    }
  }
  if (!isPlainObject(schema)) {
    problems.push('jsonSchema must be a JSON Schema object');
    return undefined;
  }
  return objectSchema(schema, problems);
}

/** A copy of `schema` without `$schema`; a problem when it describes something else than an object. */
function objectSchema(schema: JSONSchema, problems: string[]): JSONSchema {
  let cycle = false;
  const { $schema: _ignored, ...rest } = cloneJSONLike(schema, () => (cycle = true));
  if (cycle) problems.push('jsonSchema contains a cycle: use "$ref" for recursion');
  if (rest.type !== undefined && rest.type !== 'object') {
    problems.push(`parameters must describe a JSON object of named arguments (its JSON Schema type is ${JSON.stringify(rest.type)})`);
  }
  return rest;
}
