import { messageOf, read } from '../internal/error-chain.js';
import { cloneJSONLike, defineData, isPlainObject, preview, truncate } from '../internal/json.js';
import type { AnyTool } from './define-tool.js';
import { InputValidationError } from './input-validation-error.js';
import { MODEL_FACING_LIMITS } from './model-facing-limits.js';
import { CUT_MARK } from '../internal/json-budget.js';
import type { JSONSchema, StandardSchemaV1 } from './standard-schema.js';

/** The default bound on raw argument text, in characters. */
export const DEFAULT_MAX_ARGUMENTS_LENGTH = 1_000_000;

/** One bad field, as the model is told about it. */
export interface ArgumentIssue {
  /** `city`, `items[0].name`, or `(root)`. */
  path: string;
  /** What the schema says is wrong. */
  message: string;
  /** What was expected, when the schema library says so. */
  expected?: string;
  /** What was sent, shortened; absent when the field is missing. */
  received?: string;
  /** True when the field was not sent at all. */
  missing?: true;
}

/** What a `repair` hook receives. */
export interface ArgumentRepairRequest {
  toolName: string;
  /** The arguments as the model sent them. */
  arguments: unknown;
  /** Why they were rejected. */
  failure: InputValidationError;
  jsonSchema: JSONSchema;
  /**
   * Aborts when the call ends before the repair does — the caller's abort, or the tool's `timeoutMs` (which the
   * repair counts against): pass it on to the model call or request the repair makes, so it stops too.
   */
  signal: AbortSignal;
}

/**
 * Gets one chance to fix rejected arguments (e.g. ask a small model, or apply a known quirk); return the new arguments
 * (JSON text or a value), or `undefined` to give up.
 *
 * @example
 * ```ts
 * const repair: ArgumentRepair = async ({ arguments: sent, failure, jsonSchema, signal }) => {
 *   const fixed = await small.complete({ messages: [{ role: 'user', content: `Fix ${JSON.stringify(sent)} for ${JSON.stringify(jsonSchema)}: ${failure.message}` }], signal });
 *   return typeof fixed.message.content === 'string' ? fixed.message.content : undefined; // its JSON text, or give up
 * };
 * ```
 */
export type ArgumentRepair = (request: ArgumentRepairRequest) => unknown | Promise<unknown>;

export type ArgumentsOutcome =
  | { ok: true; value: unknown; coerced: boolean; repaired: boolean }
  | { ok: false; failure: InputValidationError; crash?: unknown; repairFailure?: unknown };

interface ParseOptions {
  maxLength: number;
  repair?: ArgumentRepair | undefined;
  /** The call's abort: once it is aborted, the repair hook is not called and parsing rejects with its reason. */
  parent?: { readonly aborted: boolean; readonly reason?: unknown } | undefined;
  /** `work`, or a rejection with the call's end (its abort, its time limit): what async validation and repair race. */
  race?: (<V>(work: Promise<V>) => Promise<V>) | undefined;
  /** The signal the repair hook gets: aborts with the call's end (made when the hook is called). None: never aborts. */
  signal?: (() => AbortSignal) | undefined;
}

/**
 * Turns raw model arguments into validated input for `execute`: JSON parsing, a bound on size, safe coercion of
 * JSON-encoded strings (the whole object or a field sent as a JSON string), schema validation, and one optional
 * repair. Never throws for bad input: failures are `InputValidationError`s naming each bad field. Rejects only with
 * the call's end (`options.parent`'s abort, or what `options.race` rejects with: an abort, the time limit).
 */
export async function parseToolArguments(tool: AnyTool, raw: unknown, options: ParseOptions): Promise<ArgumentsOutcome> {
  const first = await attempt(tool, raw, options);
  if (first.ok || first.crash !== undefined || !options.repair) return first;
  const { repair, parent, race = (work) => work } = options;
  if (parent?.aborted) throw parent.reason; // an aborted call asks no one (a model, a service) to repair its arguments
  const signal = options.signal?.() ?? new AbortController().signal;
  const repairing = Promise.resolve()
    .then(() => repair({ toolName: tool.name, arguments: raw, failure: first.failure, jsonSchema: tool.jsonSchema, signal }))
    .then((value: unknown) => ({ value }), (error: unknown) => ({ error }));
  const repaired = await race(repairing); // the call's end rejects: past the hook's own failure
  if ('error' in repaired) return { ...first, repairFailure: repaired.error };
  const repairedRaw = repaired.value;
  if (repairedRaw === undefined) return first;
  const second = await attempt(tool, repairedRaw, options);
  return second.ok ? { ...second, repaired: true } : second;
}

async function attempt(tool: AnyTool, raw: unknown, options: ParseOptions): Promise<ArgumentsOutcome> {
  const decoded = decode(tool, raw, options.maxLength);
  if (!decoded.ok) return decoded;
  let candidate = decoded.value;
  let coerced = false;
  if (typeof candidate === 'string') {
    const inner = parseJSONContainer(candidate);
    if (inner !== undefined) {
      candidate = inner;
      coerced = true;
    }
  }
  let validation = await validate(tool.parameters, candidate, options.race);
  if ('crash' in validation) return { ok: false, failure: invalid(tool, `Tool '${tool.name}' could not check its arguments: its schema failed.`, [], raw), crash: validation.crash };
  if (validation.issues && !decoded.empty) {
    const fixed = coerceFields(candidate, validation.issues);
    if (fixed !== undefined) {
      const retried = await validate(tool.parameters, fixed, options.race);
      if (!('crash' in retried) && !retried.issues) {
        candidate = fixed;
        validation = retried;
        coerced = true;
      }
    }
  }
  if ('crash' in validation) return { ok: false, failure: invalid(tool, `Tool '${tool.name}' could not check its arguments: its schema failed.`, [], raw), crash: validation.crash };
  if (validation.issues) {
    const issues = validation.issues.map((issue) => describeIssue(issue, candidate));
    const summary = decoded.empty
      ? `Tool '${tool.name}' was called without any arguments: ${issues.map(formatIssue).join('; ')}.`
      : `Tool '${tool.name}' was called with invalid arguments: ${issues.map(formatIssue).join('; ')}.`;
    return { ok: false, failure: invalid(tool, summary, issues, raw) };
  }
  return { ok: true, value: validation.value, coerced, repaired: false };
}

type Decoded = { ok: true; value: unknown; empty: boolean } | { ok: false; failure: InputValidationError };

function decode(tool: AnyTool, raw: unknown, maxLength: number): Decoded {
  if (raw === undefined || raw === null) return { ok: true, value: {}, empty: true };
  if (typeof raw !== 'string') return { ok: true, value: raw, empty: false };
  if (raw.length > maxLength) {
    return {
      ok: false,
      failure: invalid(tool, `Tool '${tool.name}' was called with arguments that are too large (${raw.length} characters; the limit is ${maxLength}).`, [], truncate(raw, 200)),
    };
  }
  if (raw.trim() === '') return { ok: true, value: {}, empty: true };
  try {
    return { ok: true, value: JSON.parse(raw), empty: false };
  } catch (error) {
    return {
      ok: false,
      failure: invalid(tool, `Tool '${tool.name}' was called with invalid JSON arguments: ${truncate(raw, 200)}. Parse error: ${messageOf(error)}.`, [], raw),
    };
  }
}

/** Parses a string only when it holds a JSON object or array. */
function parseJSONContainer(text: string): unknown {
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') && trimmed.endsWith('}')) && !(trimmed.startsWith('[') && trimmed.endsWith(']'))) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}

type Validation = { value?: unknown; issues?: ReadonlyArray<StandardSchemaV1.Issue> } | { crash: unknown };

/** The schema's verdict (its throw or rejection as a `crash`); an asynchronous one through `race`. */
async function validate(schema: StandardSchemaV1, value: unknown, race: ParseOptions['race']): Promise<Validation> {
  let pending: StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>;
  let deferred: boolean;
  try {
    pending = schema['~standard'].validate(value);
    deferred = typeof (pending as Partial<PromiseLike<unknown>> | null)?.then === 'function'; // an async schema: raced
  } catch (crash) {
    return { crash };
  }
  const verdict = Promise.resolve(pending)
    .then((result): Validation => (result.issues ? { issues: result.issues } : { value: result.value }))
    .then(undefined, (crash: unknown): Validation => ({ crash }));
  return race && deferred ? race(verdict) : verdict;
}

/** For issues at fields holding a JSON-encoded object/array/number/boolean string, a copy with those fields decoded. */
function coerceFields(value: unknown, issues: ReadonlyArray<StandardSchemaV1.Issue>): unknown {
  if (!isPlainObject(value) && !Array.isArray(value)) return undefined;
  const copy = cloneJSONLike(value);
  let changed = false;
  for (const issue of issues) {
    const keys = pathKeys(issue.path);
    if (keys.length === 0) continue;
    const parent = keys.slice(0, -1).reduce<unknown>((node, key) => (node === undefined ? undefined : ownValue(node, key)), copy);
    const last = keys[keys.length - 1] as string | number;
    const current = parent === undefined ? undefined : ownValue(parent, last);
    if (typeof current !== 'string') continue;
    const decoded = decodeScalarOrContainer(current);
    if (decoded === undefined) continue;
    if (Array.isArray(parent) && typeof last === 'number') parent[last] = decoded;
    else if (isPlainObject(parent)) defineData(parent, String(last), decoded);
    else continue;
    changed = true;
  }
  return changed ? copy : undefined;
}

function decodeScalarOrContainer(text: string): unknown {
  const container = parseJSONContainer(text);
  if (container !== undefined) return container;
  const trimmed = text.trim();
  if (trimmed === 'true') return true;
  if (trimmed === 'false') return false;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(trimmed)) return Number(trimmed);
  return undefined;
}

function ownValue(node: unknown, key: string | number): unknown {
  if (Array.isArray(node)) return typeof key === 'number' ? node[key] : undefined;
  if (isPlainObject(node) && Object.prototype.hasOwnProperty.call(node, key)) return node[String(key)];
  return undefined;
}

function pathKeys(path: StandardSchemaV1.Issue['path']): Array<string | number> {
  return (path ?? []).map((segment) => {
    const key = typeof segment === 'object' && segment !== null ? (segment as StandardSchemaV1.PathSegment).key : segment;
    return typeof key === 'number' ? key : String(key);
  });
}

/**
 * Renders a Standard Schema issue path for humans and models: `items[0].name`, `["odd key"]`, or `(root)`.
 * @example `formatPath(['items', 0, 'name']) // 'items[0].name'`
 */
export function formatPath(path: StandardSchemaV1.Issue['path']): string {
  const keys = pathKeys(path);
  if (keys.length === 0) return '(root)';
  return keys
    .map((key, index) => {
      if (typeof key === 'number') return `[${key}]`;
      if (/^[A-Za-z_$][\w$]*$/.test(key)) return index === 0 ? key : `.${key}`;
      return `[${JSON.stringify(key)}]`;
    })
    .join('');
}

function describeIssue(issue: StandardSchemaV1.Issue, value: unknown): ArgumentIssue {
  const keys = pathKeys(issue.path);
  let present = true;
  let node: unknown = value;
  for (const key of keys) {
    if ((Array.isArray(node) && typeof key === 'number' && key < node.length) || (isPlainObject(node) && Object.prototype.hasOwnProperty.call(node, key))) {
      node = ownValue(node, key);
    } else {
      present = false;
      break;
    }
  }
  const described: ArgumentIssue = {
    path: formatPath(issue.path),
    message: truncate(typeof issue.message === 'string' ? issue.message : 'invalid value', 300),
  };
  if (present) described.received = preview(node, 80);
  else described.missing = true;
  const expected = read(issue, 'expected');
  if (typeof expected === 'string' && expected !== '') described.expected = truncate(expected, 120);
  return described;
}

function formatIssue(issue: ArgumentIssue): string {
  return `${issue.path}: ${issue.message} (${issue.missing ? 'the field is missing' : `sent: ${issue.received}`})`;
}

function invalid(tool: AnyTool, message: string, issues: ArgumentIssue[], received: unknown): InputValidationError {
  const context: Record<string, unknown> = {};
  if (issues.length > 0) context.issues = issues;
  else context.received = typeof received === 'string' ? truncate(received, 500) : preview(received, 500);
  const schema = expectedSchemaOf(tool);
  context.expectedSchema = schema;
  const matching = typeof schema === 'string' ? "the tool's parameters schema" : 'expectedSchema';
  return new InputValidationError(truncate(message, 4000), {
    context,
    suggestion: `Call '${tool.name}' again with a JSON object that matches ${matching}${issues.length > 0 ? ', fixing the fields listed in issues' : ''}.`,
  });
}

/** Per tool: the schema an invalid call's error repeats, or the marked note that stands for one too large. */
let expectedSchemas: WeakMap<AnyTool, unknown> | undefined;

/**
 * The tool's schema when it fits in half an error's cap, else a note saying it was left out: the model has it in
 * the tool's definition, and repeating a large one would crowd out the issues (or pass the cap and be cut).
 */
function expectedSchemaOf(tool: AnyTool): unknown {
  expectedSchemas ??= new WeakMap();
  let shown = expectedSchemas.get(tool);
  if (shown === undefined) {
    const length = JSON.stringify(tool.jsonSchema)?.length ?? 0;
    shown = length <= MODEL_FACING_LIMITS.maxErrorLength / 2 ? tool.jsonSchema : `${CUT_MARK} the schema (${length} characters) is in the tool's definition]`;
    expectedSchemas.set(tool, shown);
  }
  return shown;
}
