/**
 * The superstep executor (the graph's coordinator). Each step runs every triggered node concurrently on the same
 * state, reduces their updates in trigger order, then follows `Command.goto`, static and conditional edges. A node
 * failure that no callback recovered ends the run: the executor reduces what succeeded in that step plus the failing
 * nodes' fallback updates (the collector's fatal records), emits that fallback state, then a `graph.pregel.step`
 * error (tRPC's shape: not terminal itself; the runner's completion carries it). Normal completion emits the
 * `graph.execution` snapshot.
 */
import { ErrorType } from '../errors/constants.js';
import { toResponseError } from '../errors/response-error.js';
import { WorkflowError } from '../errors/workflow-error.js';
import { isoTimestamp } from '../internal/clock.js';
import { messageOf } from '../internal/error-chain.js';
import { defineData } from '../internal/json.js';
import { ObjectType } from '../runner/constants.js';
import { createEvent, type RunEvent } from '../runner/event.js';
import { Command } from './command.js';
import type { GraphOutcome, GraphParts } from './compiled-graph.js';
import {
  COMPLETION_METADATA_KEY,
  END,
  FALLBACK_STATE_EVENT_TYPE,
  GRAPH_PREGEL_AUTHOR,
  NODE_CUSTOM_METADATA_KEY,
  PREGEL_METADATA_KEY,
} from './constants.js';
import { runNode, type NodeOutcome, type RunScope } from './node-runner.js';
import { encodeStateDelta, type StateDelta } from './state-delta.js';
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

/** @internal One run of a compiled graph. */
export class GraphRun {
  private readonly scope: RunScope;

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
      emit: (event) => settings.emit(event),
    };
  }

  async execute(input: State): Promise<GraphOutcome> {
    const { schema, stepLimit } = this.parts;
    let state = schema.initialState(input);
    let pending = [...this.parts.entries];
    let step = 0;
    try {
      for (; pending.length > 0; step++) {
        this.scope.signal?.throwIfAborted();
        if (step >= stepLimit) {
          return this.fail(state, [], step, new WorkflowError(`The graph did not finish within the step limit of ${stepLimit}; still pending: ${pending.join(', ')}`, { code: 'STEP_LIMIT', stepNumber: step }), step);
        }
        const snapshot = state;
        const outcomes = await Promise.all(pending.map((id) => runNode(this.scope, this.node(id), snapshot, step)));
        const gotos = new Map<string, string[]>();
        for (const outcome of outcomes) {
          if (!outcome.ok) continue;
          const result = outcome.result;
          // (nothing to reduce, nothing to copy: a node that returns nothing leaves the state as it is)
          if (Command.isInstance(result)) {
            if (result.update !== undefined) state = schema.reduce(state, result.update);
            if (result.goto !== undefined) gotos.set(outcome.node.id, result.targets());
          } else if (result !== undefined) {
            state = schema.reduce(state, result);
          }
        }
        const failures = outcomes.filter((outcome): outcome is Extract<NodeOutcome, { ok: false }> => !outcome.ok);
        if (failures.length > 0) return this.fail(state, failures, step);
        pending = await this.route(outcomes, gotos, state, step);
      }
    } catch (error) {
      if (this.scope.signal?.aborted) return { status: 'aborted', reason: this.scope.signal.reason, state, steps: step };
      return this.fail(state, [], step, error instanceof WorkflowError ? error : new WorkflowError(`execution failed at step ${step}: ${messageOf(error)}`, { stepNumber: step, cause: error }));
    }
    this.emitSnapshot(state, step);
    return { status: 'completed', state, steps: step };
  }

  private node(id: string) {
    const node = this.parts.nodes.get(id);
    if (!node) throw new WorkflowError(`execution routed to unknown node ${JSON.stringify(id)}`, { nodeId: id });
    return node;
  }

  /** The next step's nodes, in order of first appearance; `END` dropped. */
  private async route(outcomes: readonly NodeOutcome[], gotos: ReadonlyMap<string, string[]>, state: State, step: number): Promise<string[]> {
    const { edgesFrom, branchesFrom } = this.parts;
    const next: string[] = [];
    const add = (from: string, target: string) => {
      if (target === END || next.includes(target)) return;
      if (!this.parts.nodes.has(target)) throw new WorkflowError(`execution failed at step ${step}: node ${from} routed to unknown node ${JSON.stringify(target)}`, { nodeId: from, stepNumber: step });
      next.push(target);
    };
    for (const outcome of outcomes) {
      const id = outcome.node.id;
      const explicit = gotos.get(id);
      if (explicit) {
        for (const target of explicit) add(id, target);
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
    let fallbackState = state;
    for (const failure of failures) for (const update of failure.fallbackUpdates) fallbackState = this.parts.schema.reduce(fallbackState, update);
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
    return { status: 'failed', error, fallbackState, steps: stepsRun };
  }

  private origin(author: string) {
    return { invocationId: this.settings.invocationId, author, branch: this.settings.branch, requestId: this.settings.requestId };
  }

  private emitFallback(state: State, step: number): void {
    let delta;
    try {
      delta = encodeStateDelta(state);
    } catch {
      return; // unserializable business state cannot travel; the error event still does
    }
    defineData(
      delta,
      NODE_CUSTOM_METADATA_KEY,
      JSON.stringify({ eventType: FALLBACK_STATE_EVENT_TYPE, category: 'custom', invocationId: this.settings.invocationId, stepNumber: step, timestamp: isoTimestamp() }),
    );
    this.scope.emit(createEvent(this.origin(GRAPH_PREGEL_AUTHOR), { response: { object: ObjectType.GraphNodeCustom, done: false }, stateDelta: delta }));
  }

  private emitSnapshot(state: State, steps: number): void {
    let delta: StateDelta = {};
    let encodeError: string | undefined;
    try {
      delta = encodeStateDelta(state);
    } catch (error) {
      encodeError = messageOf(error); // the snapshot still goes out, saying why it carries no state
    }
    defineData(delta, COMPLETION_METADATA_KEY, JSON.stringify(encodeError === undefined ? { steps, timestamp: isoTimestamp() } : { steps, timestamp: isoTimestamp(), error: encodeError }));
    const lastResponse = typeof state.last_response === 'string' ? state.last_response : undefined;
    const response = {
      object: ObjectType.GraphExecution,
      done: true,
      ...(lastResponse ? { choices: [{ index: 0, message: { role: 'assistant' as const, content: lastResponse } }] } : {}),
    };
    this.scope.emit(createEvent(this.origin(GRAPH_PREGEL_AUTHOR), { response, stateDelta: delta }));
  }
}
