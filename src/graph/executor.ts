/**
 * The superstep executor (the graph's coordinator). Each step runs every triggered node concurrently on the same
 * state, reduces their updates in trigger order, then follows `Command.goto`, static and conditional edges. A node
 * failure that no callback recovered ends the run: the executor reduces what succeeded in that step plus the failing
 * nodes' fallback updates (the collector's fatal records), emits that fallback state, then a `graph.pregel.step`
 * error (tRPC's shape: not terminal itself; the runner's completion carries it). Normal completion emits the
 * `graph.execution` snapshot.
 */
import { AgentError } from '../errors/agent-error.js';
import { ErrorType } from '../errors/constants.js';
import { toResponseError } from '../errors/response-error.js';
import { WorkflowError } from '../errors/workflow-error.js';
import { isoTimestamp } from '../internal/clock.js';
import { messageOf } from '../internal/error-chain.js';
import { defineData } from '../internal/json.js';
import { ObjectType } from '../runner/constants.js';
import { createEvent, type RunEvent } from '../runner/event.js';
import { Command } from './command.js';
import { createExecutionError } from './execution-error.js';
import type { GraphOutcome, GraphParts } from './compiled-graph.js';
import {
  COMPLETION_METADATA_KEY,
  END,
  FALLBACK_STATE_EVENT_TYPE,
  GRAPH_PREGEL_AUTHOR,
  NODE_CUSTOM_METADATA_KEY,
  PREGEL_METADATA_KEY,
  Severity,
} from './constants.js';
import { failNodeUpdate, runNode, type NodeOutcome, type RunScope } from './node-runner.js';
import { encodeStateKeys, type StateDelta } from '../runner/state-delta.js';
import type { State } from './state-schema.js';

/** @internal */
export interface GraphRunSettings {
  signal?: AbortSignal | undefined;
  emit: (event: RunEvent) => void;
  invocationId: string;
  path: readonly string[];
  branch?: string | undefined;
  requestId?: string | undefined;
}

/** Listener failures kept per run (the count goes on). */
const MAX_LISTENER_ERRORS = 100;

/** The state update a node result carries, if any. */
function updateOf(result: State | Command | undefined): State | undefined {
  return Command.isInstance(result) ? result.update : result;
}

/** @internal One run of a compiled graph. */
export class GraphRun {
  private readonly scope: RunScope;
  private readonly listenerErrors: AgentError[] = [];
  private listenerErrorCount = 0;

  constructor(
    private readonly parts: Readonly<GraphParts>,
    private readonly settings: GraphRunSettings,
  ) {
    let idle: AbortSignal | undefined;
    this.scope = {
      parts,
      signal: settings.signal,
      // Without a caller's signal, nodes get one that never fires, made only when a node asks (an AbortController
      // costs more than a whole step of a small graph).
      nodeSignal: settings.signal ? () => settings.signal as AbortSignal : () => (idle ??= new AbortController().signal),
      invocationId: settings.invocationId,
      path: settings.path,
      branch: settings.branch,
      requestId: settings.requestId,
      // A throwing listener must not fail the run (agent listeners are guarded the same way): the run goes on and its
      // outcome lists the failures.
      emit: (event) => {
        try {
          settings.emit(event);
        } catch (error) {
          this.listenerFailed(error, event);
        }
      },
    };
  }

  async execute(input: State): Promise<GraphOutcome> {
    const { schema, stepLimit } = this.parts;
    let state: State = {};
    let pending = [...this.parts.entries];
    let step = 0;
    try {
      try {
        state = schema.initialState(input);
      } catch (error) {
        throw new WorkflowError(`the run's input could not be reduced into the state: ${messageOf(error)}`, { stepNumber: 0, cause: error });
      }
      for (; pending.length > 0; step++) {
        this.scope.signal?.throwIfAborted();
        if (step >= stepLimit) {
          return this.fail(state, [], step, new WorkflowError(`The graph did not finish within the step limit of ${stepLimit}; still pending: ${pending.join(', ')}`, { code: 'STEP_LIMIT', stepNumber: step }), step);
        }
        const snapshot = state;
        const outcomes = await Promise.all(pending.map((id) => runNode(this.scope, this.node(id), snapshot, step)));
        // One copy of the state per step (none when no node updates it), every update reduced into it in trigger
        // order: a step costs time linear in its updates, however many nodes ran (a 10,000-node fan-out copies the
        // state once, not 10,000 times).
        let next: State | undefined;
        const settled: NodeOutcome[] = [];
        for (const outcome of outcomes) {
          const update = outcome.ok ? updateOf(outcome.result) : undefined;
          if (!outcome.ok || update === undefined) {
            settled.push(outcome);
            continue;
          }
          next ??= { ...snapshot };
          const failure = this.reduce(next, update);
          settled.push(failure === undefined ? outcome : await this.reduceFailed(next, outcome as Extract<NodeOutcome, { ok: true }>, snapshot, step, failure));
        }
        state = next ?? snapshot;
        const failures = settled.filter((outcome): outcome is Extract<NodeOutcome, { ok: false }> => !outcome.ok);
        if (failures.length > 0) return this.fail(state, failures, step);
        pending = await this.route(settled as Array<Extract<NodeOutcome, { ok: true }>>, state, step);
      }
    } catch (error) {
      if (this.scope.signal?.aborted) return { status: 'aborted', reason: this.scope.signal.reason, state, steps: step, ...this.listenerReport() };
      return this.fail(state, [], step, error instanceof WorkflowError ? error : new WorkflowError(`execution failed at step ${step}: ${messageOf(error)}`, { stepNumber: step, cause: error }));
    }
    this.emitSnapshot(state, step);
    return { status: 'completed', state, steps: step, ...this.listenerReport() };
  }

  /** Reduces `update` into the step's state; what its reducer threw, if it did (the state is then unchanged). */
  private reduce(next: State, update: State): { error: unknown } | undefined {
    try {
      this.parts.schema.reduceInto(next, update);
      return undefined;
    } catch (error) {
      return { error };
    }
  }

  /**
   * A node whose update could not be reduced fails like any node (its error event and `afterNode` callbacks, so the
   * collector records it); the records its update carried (a recovered failure's) are reduced on their own first, and
   * a recovery's own update is reduced in its place. Should that throw too, the node fails with it: the recovery's
   * records are kept and a fatal record of the final failure is added, so no failure goes unrecorded.
   */
  private async reduceFailed(next: State, outcome: Extract<NodeOutcome, { ok: true }>, snapshot: State, step: number, failure: { error: unknown }): Promise<NodeOutcome> {
    const { node } = outcome;
    this.reduceRecords(next, updateOf(outcome.result) ?? {});
    const error = new WorkflowError(`node ${node.id}'s update could not be reduced into the state: ${messageOf(failure.error)}`, { nodeId: node.id, stepNumber: step, cause: failure.error });
    const handled = await failNodeUpdate(this.scope, node, snapshot, step, error, outcome.attempts);
    const recovery = handled.ok ? updateOf(handled.result) : undefined;
    if (!handled.ok || recovery === undefined) return handled;
    const again = this.reduce(next, recovery);
    if (again === undefined) return handled;
    this.reduceRecords(next, recovery);
    const final = new WorkflowError(`node ${node.id}'s recovery update could not be reduced either: ${messageOf(again.error)}`, { nodeId: node.id, stepNumber: step, cause: again.error });
    const record = createExecutionError({ nodeId: node.id, nodeName: node.name, nodeType: node.type, stepNumber: step }, final, Severity.Fatal);
    const fatal = Object.fromEntries(this.parts.schema.executionErrorKeys.map((key) => [key, [record]]));
    return { ok: false, node, error: final, attempts: outcome.attempts, fallbackUpdates: [fatal] };
  }

  /** Reduces the execution-error records an update carries, alone (their reducer takes any record list). */
  private reduceRecords(state: State, update: State): void {
    for (const key of this.parts.schema.executionErrorKeys) {
      if (Object.hasOwn(update, key)) this.reduce(state, { [key]: update[key] });
    }
  }

  private node(id: string) {
    const node = this.parts.nodes.get(id);
    if (!node) throw new WorkflowError(`execution routed to unknown node ${JSON.stringify(id)}`, { nodeId: id });
    return node;
  }

  /** The next step's nodes, in order of first appearance; `END` dropped. */
  private async route(outcomes: ReadonlyArray<Extract<NodeOutcome, { ok: true }>>, state: State, step: number): Promise<string[]> {
    const { edgesFrom, branchesFrom } = this.parts;
    const next: string[] = [];
    const seen = new Set<string>();
    const add = (from: string, target: string) => {
      if (target === END || seen.has(target)) return;
      if (!this.parts.nodes.has(target)) throw new WorkflowError(`execution failed at step ${step}: node ${from} routed to unknown node ${JSON.stringify(target)}`, { nodeId: from, stepNumber: step });
      seen.add(target);
      next.push(target);
    };
    for (const outcome of outcomes) {
      const id = outcome.node.id;
      const result = outcome.result;
      if (Command.isInstance(result) && result.goto !== undefined) {
        for (const target of result.targets()) add(id, target);
        continue;
      }
      for (const to of edgesFrom.get(id) ?? []) add(id, to);
      for (const branch of branchesFrom.get(id) ?? []) {
        let choice: string | readonly string[];
        try {
          choice = await branch.router({ ...state });
        } catch (error) {
          throw new WorkflowError(`execution failed at step ${step}: the router after node ${id} failed: ${messageOf(error)}`, { nodeId: id, stepNumber: step, cause: error });
        }
        for (const key of typeof choice === 'string' ? [choice] : [...choice]) {
          const target = branch.pathMap ? (Object.hasOwn(branch.pathMap, key) ? branch.pathMap[key] : undefined) : key;
          if (target === undefined) throw new WorkflowError(`execution failed at step ${step}: the router after node ${id} chose ${JSON.stringify(key)}, which its path map does not contain`, { nodeId: id, stepNumber: step });
          add(id, target);
        }
      }
    }
    return next;
  }

  /** The fatal path: fallback state (everything reduced so far + the failing nodes' fallback updates), then the error. */
  private fail(state: State, failures: ReadonlyArray<Extract<NodeOutcome, { ok: false }>>, step: number, runError?: WorkflowError, stepsRun = step + 1): GraphOutcome {
    const fallbackState: State = { ...state };
    for (const failure of failures) for (const update of failure.fallbackUpdates) this.reduceFallback(fallbackState, update);
    let error = runError;
    if (!error) {
      const first = failures[0] as Extract<NodeOutcome, { ok: false }>;
      const others = failures.slice(1).map((failure) => failure.node.id);
      const attempts = first.attempts > 1 ? ` after ${first.attempts} attempts` : '';
      error = new WorkflowError(
        `execution failed at step ${step}: node ${first.node.id} execution failed${attempts}: ${messageOf(first.error)}${others.length > 0 ? ` (also failed in this step: ${others.join(', ')})` : ''}`,
        { nodeId: first.node.id, stepNumber: step, cause: first.error, fallbackState },
      );
    } else {
      error = new WorkflowError(error.message, { nodeId: error.nodeId, stepNumber: error.stepNumber, code: error.code, cause: error.cause, problems: error.problems, fallbackState });
    }
    this.emitFallback(fallbackState, step);
    const metadata = JSON.stringify({ stepNumber: -1, failedStep: step, timestamp: isoTimestamp() });
    this.scope.emit(
      createEvent(this.origin(GRAPH_PREGEL_AUTHOR), {
        response: { object: ObjectType.GraphPregelStep, done: false, error: toResponseError(error, ErrorType.FlowError) },
        stateDelta: { [PREGEL_METADATA_KEY]: metadata },
      }),
    );
    return { status: 'failed', error, fallbackState, steps: stepsRun, ...this.listenerReport() };
  }

  /**
   * Reduces one fallback update (a node's `emitCustomStateDelta`, the collector's fatal record). Should a business
   * key's reducer throw, the update's execution-error records are reduced on their own: a record is never lost.
   */
  private reduceFallback(state: State, update: State): void {
    if (this.reduce(state, update) !== undefined) this.reduceRecords(state, update);
  }

  /**
   * The state as a delta, key by key: each key that cannot be JSON is left out and reported as its own error event
   * (code `STATE_NOT_SERIALIZABLE`, naming the key and the path inside it), so the run does not look successful and
   * every other key — the collector's records always — still travels.
   */
  private encodeState(state: State): { delta: StateDelta; failed: string[] } {
    const { delta, failures } = encodeStateKeys(state);
    for (const failure of failures) {
      this.scope.emit(createEvent(this.origin(GRAPH_PREGEL_AUTHOR), { response: { object: ObjectType.GraphExecution, done: false, error: toResponseError(failure, ErrorType.FlowError) } }));
    }
    return { delta, failed: failures.map((failure) => failure.message) };
  }

  private listenerFailed(error: unknown, event: RunEvent): void {
    this.listenerErrorCount++;
    if (this.listenerErrors.length >= MAX_LISTENER_ERRORS) return;
    this.listenerErrors.push(new AgentError(`A graph onEvent listener threw on a ${event.response?.object ?? 'state'} event: ${messageOf(error)}`, { cause: error }));
  }

  /** The listener failures of the run, when there were any. */
  private listenerReport(): { listenerErrors?: readonly AgentError[] } {
    if (this.listenerErrorCount === 0) return {};
    const errors = [...this.listenerErrors];
    if (this.listenerErrorCount > errors.length) errors.push(new AgentError(`… and ${this.listenerErrorCount - errors.length} more listener failures`));
    return { listenerErrors: errors };
  }

  private origin(author: string) {
    return { invocationId: this.settings.invocationId, author, branch: this.settings.branch, requestId: this.settings.requestId };
  }

  private emitFallback(state: State, step: number): void {
    const { delta } = this.encodeState(state);
    defineData(
      delta,
      NODE_CUSTOM_METADATA_KEY,
      JSON.stringify({ eventType: FALLBACK_STATE_EVENT_TYPE, category: 'custom', invocationId: this.settings.invocationId, stepNumber: step, timestamp: isoTimestamp() }),
    );
    this.scope.emit(createEvent(this.origin(GRAPH_PREGEL_AUTHOR), { response: { object: ObjectType.GraphNodeCustom, done: false }, stateDelta: delta }));
  }

  private emitSnapshot(state: State, steps: number): void {
    const { delta, failed } = this.encodeState(state); // the snapshot goes out with every key that encodes
    defineData(delta, COMPLETION_METADATA_KEY, JSON.stringify(failed.length === 0 ? { steps, timestamp: isoTimestamp() } : { steps, timestamp: isoTimestamp(), error: failed.join('; ') }));
    const lastResponse = typeof state.last_response === 'string' ? state.last_response : undefined;
    const response = {
      object: ObjectType.GraphExecution,
      done: true,
      ...(lastResponse ? { choices: [{ index: 0, message: { role: 'assistant' as const, content: lastResponse } }] } : {}),
    };
    this.scope.emit(createEvent(this.origin(GRAPH_PREGEL_AUTHOR), { response, stateDelta: delta }));
  }
}
