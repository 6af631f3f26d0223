import { isRecoverable } from '../../errors/recoverable.js';
import { cloneResponseError, isResponseError, type ResponseError } from '../../errors/response-error.js';
import { WorkflowError } from '../../errors/workflow-error.js';
import { messageOf } from '../../internal/error-chain.js';
import { cloneJSONLike, isPlainObject, truncate } from '../../internal/json.js';
import { redactText } from '../../internal/redact.js';
import { Command } from '../core/command.js';
import { EXECUTION_ERROR_EVENT_TYPE, Severity, STATE_KEY_EXECUTION_ERRORS } from '../core/constants.js';
import type { GraphExtension, GraphExtensionTarget } from '../core/graph-extension.js';
import { COLLECTOR_STATE_KEY, type NodeCallbacks } from '../core/node-callbacks.js';
import { EXECUTION, type NodeCallbackContext } from '../core/node-context.js';
import { StateSchema, type Reducer, type State, type StateField } from '../core/state-schema.js';
import type { SubgraphResult } from '../core/subgraph-result.js';
import { emitCustomStateDelta } from './emit-custom-state-delta.js';
import { createExecutionError, executionErrorReducer, executionErrorsFromStateDelta, type ExecutionError } from './execution-error.js';

/**
 * What a policy decides for a failed node: recover (record `recoverable`, continue, optionally with a replacement
 * result — a state update or a `Command`; without one, the node's declared `fallback`), or not (record `fatal`, the
 * run ends). `responseError` normalises the
 * record's error.
 */
export interface ExecutionErrorPolicy {
  recover: boolean;
  replacement?: State | Command | undefined;
  responseError?: ResponseError | undefined;
}

/** Decides recoverable vs fatal; receives the node's (possibly partial) result. */
export type ExecutionErrorPolicyFunction = (
  context: NodeCallbackContext | undefined,
  state: State,
  result: unknown,
  error: unknown,
) => ExecutionErrorPolicy | Promise<ExecutionErrorPolicy>;

/**
 * The default policy: recover exactly when the error is recoverable (`recoverable()` or `markRecoverable`).
 * @example `policy: async (...args) => ({ ...(await defaultExecutionErrorPolicy(...args)), replacement: { inventory_status: 'fallback' } })`
 */
export function defaultExecutionErrorPolicy(_context: NodeCallbackContext | undefined, _state: State, _result: unknown, error: unknown): ExecutionErrorPolicy {
  return { recover: isRecoverable(error) };
}

/** Options of {@link ExecutionErrorCollector}. */
export interface ExecutionErrorCollectorOptions<K extends string = string> {
  /** @default 'execution_errors' (an empty string keeps the default) */
  stateKey?: K | undefined;
  /** Custom event type of the fatal fallback emission. @default 'execution_error' */
  eventType?: string | undefined;
  /**
   * Replaces the default policy. A policy that throws (or returns no `{recover}`) costs no record: the failure is
   * recorded fatal, its message saying the policy threw, and the policy's error fails the node (the run's error).
   */
  policy?: ExecutionErrorPolicyFunction | undefined;
  /** Adds recoveries on top of the policy (never removes one): errors it accepts are recovered. */
  recoverable?: ((error: unknown) => boolean) | undefined;
}

/**
 * Collects node failures into graph state as serializable records (tRPC-Agent-Go's `ExecutionErrorCollector`):
 * recoverable ones and the run goes on; fatal ones are emitted as fallback state before the run ends, with every
 * earlier record kept (decisions.md point 6). Also maps child-graph records into the parent.
 *
 * @example
 * ```ts
 * const collector = new ExecutionErrorCollector();
 * const graph = new StateGraph(messagesStateSchema()).use(collector); // its state field and its callbacks, in one step
 * ```
 */
export class ExecutionErrorCollector<K extends string = typeof STATE_KEY_EXECUTION_ERRORS> implements GraphExtension<{ [P in K]: ExecutionError[] }> {
  readonly stateKey: K;
  readonly eventType: string;
  /** Type-level only: the record field this collector adds to a graph's state (see `StateGraph.use`). */
  declare readonly stateType?: { [P in K]: ExecutionError[] };
  private readonly policy: ExecutionErrorPolicyFunction;

  constructor(options: ExecutionErrorCollectorOptions<K> = {}) {
    this.stateKey = (options.stateKey || STATE_KEY_EXECUTION_ERRORS) as K;
    this.eventType = options.eventType || EXECUTION_ERROR_EVENT_TYPE;
    const base = options.policy ?? defaultExecutionErrorPolicy;
    const extra = options.recoverable;
    this.policy = extra
      ? async (context, state, result, error) => {
          const decided = await base(context, state, result, error);
          return decided.recover || !extra(error) ? decided : { ...decided, recover: true };
        }
      : base;
  }

  /** The state field holding the records: the record reducer, an empty list by default. */
  stateField(): StateField<ExecutionError[]> {
    return { reducer: executionErrorReducer as Reducer<ExecutionError[]>, default: () => [], executionErrors: true };
  }

  /** Registers the field on `schema` (a new schema when none is given) and returns the schema. */
  addField(schema?: StateSchema<any, any>): StateSchema {
    return (schema ?? new StateSchema()).addField(this.stateKey, this.stateField()) as unknown as StateSchema;
  }

  /**
   * The callbacks alone (one `afterNode`). Prefer `graph.use(collector)`, which installs them together with the
   * state field; `compile()` reports callbacks whose field is missing.
   */
  nodeCallbacks(): NodeCallbacks {
    const afterNode: NonNullable<NodeCallbacks['afterNode']> = (context, state, result, error) => this.afterNode(context, state, result, error);
    Object.defineProperty(afterNode, COLLECTOR_STATE_KEY, { value: this.stateKey });
    return { afterNode };
  }

  /**
   * Wires the collector into a graph in one step — its state field (with the record reducer) and its callbacks —
   * which is what `graph.use(collector)` calls.
   * @example `new StateGraph(messagesStateSchema()).use(collector).addNode(…)`
   */
  install(graph: GraphExtensionTarget): void {
    this.addField(graph.schema);
    graph.withNodeCallbacks(this.nodeCallbacks());
  }

  /**
   * The after-node algorithm (seed-systems §1.7): no error → no override; otherwise ask the policy, build the
   * record; recover → return the replacement (or the node's own result) merged with the record; fatal → emit the
   * record as fallback state and return `undefined`, so the failure stands.
   */
  async afterNode(context: NodeCallbackContext | undefined, state: State, result: unknown, error: unknown): Promise<State | Command | undefined> {
    if (error === undefined || error === null) return undefined;
    let policy: ExecutionErrorPolicy;
    let policyError: WorkflowError | undefined;
    try {
      policy = await this.policy(context, state, result, error);
      if (!policy || typeof policy !== 'object') throw new TypeError(`the policy returned ${policy === null ? 'null' : typeof policy}, not {recover}`);
    } catch (thrown) {
      // A policy that throws must not cost the record: the node's failure is written as fatal, saying so, and the
      // policy's error then fails the node (the run's error carries it, with the node's failure in view).
      policy = { recover: false };
      policyError = new WorkflowError(`the execution-error policy threw: ${messageOf(thrown)}`, { nodeId: context?.nodeId, stepNumber: context?.stepNumber, cause: thrown });
    }
    const record = createExecutionError(context, error, policy.recover === true ? Severity.Recoverable : Severity.Fatal);
    if (isResponseError(policy.responseError)) record.error = cloneResponseError(policy.responseError);
    if (policyError) record.error.message = `${record.error.message} (${redactText(truncate(policyError.message, 1000))})`;
    const update: State = { [this.stateKey]: [record] };
    if (policy.recover === true) return mergeExecutionErrorReplacement(policy.replacement ?? fallbackCommand(context) ?? result, update);
    try {
      emitCustomStateDelta(context, update, { eventType: this.eventType, message: record.error.message, payload: record });
    } catch {
      // An emission failure must not mask the node's own failure (tRPC logs and ignores it).
    }
    if (policyError) throw policyError;
    return undefined;
  }

  /**
   * The parent-state update for a finished child graph (seed-systems §3.4): the records of the child's effective
   * state delta, each with the agent-node id prepended to its `path`; `undefined` when there are none or they cannot
   * be decoded.
   */
  subgraphStateUpdate(result: SubgraphResult): State | undefined {
    let records: ExecutionError[] | undefined;
    try {
      records = executionErrorsFromStateDelta(result.effectiveStateDelta(), this.stateKey);
    } catch {
      return undefined;
    }
    if (!records || records.length === 0) return undefined;
    const prefix = result.nodeId ? [result.nodeId] : [];
    return { [this.stateKey]: records.map((record) => ({ ...record, path: [...prefix, ...(record.path ?? [])] })) };
  }

  /** An output mapper for `addAgentNode` that hands the child's records to the parent. */
  subgraphOutputMapper(): (parent: State, result: SubgraphResult) => State | undefined {
    return (_parent, result) => this.subgraphStateUpdate(result);
  }
}

/**
 * The node's declared fallback as a `Command` — its update deep-copied (the declaration is reused by every run, and
 * state is shared with later nodes), its `goto` kept — if it declared one.
 */
function fallbackCommand(context: NodeCallbackContext | undefined): Command | undefined {
  const fallback = context?.[EXECUTION]?.fallback;
  if (!fallback) return undefined;
  return new Command({ update: cloneJSONLike(fallback.update ?? {}), goto: fallback.goto });
}

/**
 * Merges the record update into a recovered node's result (seed-systems §1.8): nothing → the update; a state → a
 * shallow copy with the key SET to the record; a `Command` → a copy with its update merged and `goto` kept. Any other
 * value is not a valid node result, so (unlike tRPC, which would keep it and lose the record) the update alone is
 * returned: a record is never lost.
 * @example `mergeExecutionErrorReplacement({ partial: true }, { execution_errors: [record] })`
 */
export function mergeExecutionErrorReplacement(replacement: unknown, update: State): State | Command {
  if (replacement === undefined || replacement === null) return update;
  if (Command.isInstance(replacement)) {
    return new Command({ update: { ...(replacement.update ?? {}), ...update }, goto: replacement.goto });
  }
  if (isPlainObject(replacement)) return { ...replacement, ...update };
  return update;
}
