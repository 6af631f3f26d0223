/**
 * Typed graph state: `stateSchema()` builds a `StateSchema` typed whole — from a Standard Schema object (zod, valibot,
 * arktype…) or from `field<T>()` definitions — so nodes get a typed `state` and typed updates, with per-field
 * reducers. A schema from a Standard Schema also checks the state each run starts from (`STATE_INVALID`).
 */
import { ConfigError } from '../../errors/config-error.js';
import { WorkflowError } from '../../errors/workflow-error.js';
import { messageOf } from '../../internal/error-chain.js';
import { isPlainObject, preview, truncate } from '../../internal/json.js';
import { isStandardSchema, type StandardSchemaV1 } from '../../tools/standard-schema.js';
import { formatPath } from '../../tools/tool-arguments.js';
import { STATE_INVALID } from './constants.js';
import { StateSchema, type State, type StateField } from './state-schema.js';

/**
 * A field definition typed by its value `T` and its update `U` (by default also a `T`; the reducer combines them).
 *
 * @example
 * ```ts
 * const schema = stateSchema({
 *   messages: field<ChatMessage[]>({ reducer: reducers.append, default: () => [] }),
 *   status: field<'ok' | 'unknown'>({ default: () => 'unknown' }),
 *   seen: field<string[], string>({ reducer: (all, one) => [...(all ?? []), one], default: () => [] }),
 * });
 * ```
 */
export function field<T, U = T>(definition: StateField<T, U> = {}): StateField<T, U> {
  return { ...definition };
}

/** Field definitions by name (what `stateSchema(fields)` takes). */
export type FieldDefinitions = Record<string, StateField<any, any>>;

/** The update type a field definition declares: its reducer's update, or the field's own type. */
type UpdateOfField<F, T> = F extends StateField<any, infer V> ? (unknown extends V ? T : V) : T;

/** The state described by field definitions. */
export type StateOfFields<F extends FieldDefinitions> = { [K in keyof F]: F[K] extends StateField<infer T, any> ? T : unknown };

/** The updates of the state described by field definitions. */
export type UpdateOfFields<F extends FieldDefinitions> = { [K in keyof F]?: UpdateOfField<F[K], F[K] extends StateField<infer T, any> ? T : unknown> };

/** The state a Standard Schema object describes (its output type). */
export type StateOfSchema<Schema extends StandardSchemaV1> = StandardSchemaV1.InferOutput<Schema> extends State ? StandardSchemaV1.InferOutput<Schema> : never;

/** Reducers and defaults for some fields of a Standard-Schema state. */
export type FieldsFor<S> = { [K in keyof S]?: StateField<S[K], any> };

/** The updates of a Standard-Schema state with `fields`: each field's type, or its reducer's update type. */
export type UpdateOfSchema<S, F> = { [K in keyof S]?: K extends keyof F ? UpdateOfField<F[K], S[K]> : S[K] };

/**
 * A state schema typed whole. From a Standard Schema object: the state has the schema's output type, `fields` add
 * reducers and defaults to some of its keys, and each run first checks the state it starts from (defaults, then the
 * input reduced in) against the schema — a mismatch fails the run before any node with a `WorkflowError` of code
 * `STATE_INVALID` naming each issue; the schema's output (its defaults and coercions) is the run's first state.
 * From field definitions (`field<T>()`): the state has exactly those fields. Either way a `StateGraph` over it gives
 * nodes a typed `state`, checks their updates, and types node ids in edges, routers and `Command.goto`.
 *
 * @example
 * ```ts
 * const Order = z.object({ order_id: z.string(), status: z.optional(z.enum(['in_stock', 'unknown'])), log: z.array(z.string()) });
 * const schema = stateSchema(Order, { log: { reducer: reducers.append, default: () => [] } });
 * const graph = new StateGraph(schema).addNode('lookup', (state) => ({ status: 'in_stock', log: [`looked up ${state.order_id}`] }));
 * ```
 */
export function stateSchema<Schema extends StandardSchemaV1, const F extends FieldsFor<StateOfSchema<Schema>> = {}>(
  schema: Schema,
  fields?: F,
): StateSchema<StateOfSchema<Schema>, UpdateOfSchema<StateOfSchema<Schema>, F>>;
export function stateSchema<const F extends FieldDefinitions>(fields: F): StateSchema<StateOfFields<F>, UpdateOfFields<F>>;
export function stateSchema(source: unknown, fields?: unknown): StateSchema<any, any> {
  const standard = isStandardSchema(source);
  const definitions = standard ? (fields ?? {}) : source;
  const problems: string[] = [];
  if (!standard && fields !== undefined) problems.push('field definitions come alone: stateSchema(fields), or stateSchema(standardSchema, fields)');
  if (!isPlainObject(definitions)) {
    problems.push(standard ? 'the fields after a Standard Schema must be an object of field definitions' : 'stateSchema() needs a Standard Schema object (zod, valibot…) or an object of field<T>() definitions');
  } else {
    for (const [name, definition] of Object.entries(definitions)) problems.push(...fieldProblems(name, definition));
  }
  if (problems.length > 0) throw ConfigError.fromProblems('state schema', problems);
  let built: StateSchema<any, any> = new StateSchema(standard ? (source as StandardSchemaV1) : undefined);
  for (const [name, definition] of Object.entries(definitions as Record<string, StateField>)) built = built.addField(name, definition);
  return built;
}

/** @internal The problems of one field definition. */
export function fieldProblems(name: string, definition: unknown): string[] {
  const label = `field ${preview(name, 200)}`;
  if (!isPlainObject(definition)) return [`${label} must be an object {reducer?, default?} (field<T>() makes one)`];
  const problems: string[] = [];
  if (definition.reducer !== undefined && typeof definition.reducer !== 'function') problems.push(`${label} reducer must be a function (existing, update) => value`);
  if (definition.default !== undefined && typeof definition.default !== 'function') problems.push(`${label} default must be a function returning a fresh value (e.g. () => [])`);
  return problems;
}

/**
 * @internal The state a run starts from (`subject`: a fresh run's first state, or a resumed checkpoint's), checked by the schema's validator: the validator's output over `state`
 * (keys the validator does not know — an execution-error field — are kept), or a `STATE_INVALID` error naming each
 * issue (paths and messages only, never the values); `hint` says how to give the state where the caller did not.
 */
export async function checkInitialState(validator: StandardSchemaV1, state: State, subject = "the run's first state", step = 0, hint?: string): Promise<{ ok: true; state: State } | { ok: false; error: WorkflowError }> {
  let result: StandardSchemaV1.Result<unknown>;
  try {
    result = await validator['~standard'].validate(state);
  } catch (error) {
    return { ok: false, error: new WorkflowError(`the state schema could not check ${subject}: ${truncate(messageOf(error), 300)}`, { code: STATE_INVALID, stepNumber: step, cause: error }) };
  }
  if (result.issues) {
    const problems = result.issues.slice(0, 50).map((issue) => `${formatPath(issue.path)}: ${truncate(issue.message, 200)}`);
    const more = result.issues.length > problems.length ? ` (and ${result.issues.length - problems.length} more)` : '';
    return { ok: false, error: new WorkflowError(`${subject} does not match the state schema: ${problems.join('; ')}${more}${hint ? `. ${hint}` : ''}`, { code: STATE_INVALID, stepNumber: step, problems }) };
  }
  return { ok: true, state: isPlainObject(result.value) ? { ...state, ...result.value } : state };
}
