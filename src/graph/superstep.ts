/**
 * One superstep's reduction and routing: every node's update reduced, in trigger order, into one copy of the state
 * (a reducer that throws fails its node like any failure), then the next step's nodes from `Command.goto`, static
 * edges and routers. The executor coordinates; a checkpointed run records what each node had reduced (`applied`), so
 * a resumed step can reduce a node that already ran without running it again.
 */
import { WorkflowError } from '../errors/workflow-error.js';
import { messageOf } from '../internal/error-chain.js';
import { Command } from './command.js';
import { END, Severity } from './constants.js';
import { createExecutionError } from './execution-error.js';
import { failNodeUpdate, type NodeOutcome, type RunScope } from './node-runner.js';
import type { State } from './state-schema.js';

/** @internal A node that succeeded. */
export type SucceededNode = Extract<NodeOutcome, { ok: true }>;
/** @internal A node that failed. */
export type FailedNode = Extract<NodeOutcome, { ok: false }>;

/** @internal A node of a resumed step that already ran: its updates are reduced again, it is not run. */
export type ReplayedNode = SucceededNode & { replay: readonly State[] };

/** @internal A node after its step's reduction: how it ended, and the updates reduced into the state for it. */
export interface SettledNode {
  outcome: NodeOutcome;
  applied: readonly State[];
}

/** The state update a node result carries, if any. */
export function updateOf(result: State | Command | undefined): State | undefined {
  return Command.isInstance(result) ? result.update : result;
}

/** Reduces `update` into the step's state; what its reducer threw, if it did (the state is then unchanged). */
function reduce(scope: RunScope, next: State, update: State): { error: unknown } | undefined {
  try {
    scope.parts.schema.reduceInto(next, update);
    return undefined;
  } catch (error) {
    return { error };
  }
}

/** The execution-error records of an update, alone. */
function recordsOf(scope: RunScope, update: State): State {
  const records: State = {};
  for (const key of scope.parts.schema.executionErrorKeys) if (Object.hasOwn(update, key)) records[key] = update[key];
  return records;
}

/** @internal Reduces the execution-error records an update carries, alone (their reducer takes any record list). */
export function reduceRecords(scope: RunScope, state: State, update: State): void {
  for (const key of scope.parts.schema.executionErrorKeys) {
    if (Object.hasOwn(update, key)) reduce(scope, state, { [key]: update[key] });
  }
}

/**
 * @internal Reduces one fallback update (a node's `emitCustomStateDelta`, the collector's fatal record). Should a
 * business key's reducer throw, the update's execution-error records are reduced on their own: a record is never lost.
 */
export function reduceFallback(scope: RunScope, state: State, update: State): void {
  if (reduce(scope, state, update) !== undefined) reduceRecords(scope, state, update);
}

/**
 * @internal Reduces a step's outcomes into one copy of `snapshot` (none when no node updates it), in trigger order:
 * a step costs time linear in its updates, however many nodes ran (a 10,000-node fan-out copies the state once).
 */
export function reduceStep(scope: RunScope, snapshot: State, outcomes: ReadonlyArray<NodeOutcome | ReplayedNode>, step: number): ReducedStep | Promise<ReducedStep> {
  // Synchronous unless a reducer throws (then the failing node's callbacks run): a step costs no extra tick.
  return reduceFrom(scope, snapshot, outcomes, step, 0, undefined, []);
}

/** The step's state and its settled nodes. */
export interface ReducedStep {
  state: State;
  settled: SettledNode[];
}

function reduceFrom(scope: RunScope, snapshot: State, outcomes: ReadonlyArray<NodeOutcome | ReplayedNode>, step: number, start: number, from: State | undefined, settled: SettledNode[]): ReducedStep | Promise<ReducedStep> {
  let next = from;
  for (let at = start; at < outcomes.length; at++) {
    const outcome = outcomes[at] as NodeOutcome | ReplayedNode;
    const own = outcome.ok ? updateOf(outcome.result) : undefined;
    const updates: readonly State[] = 'replay' in outcome ? outcome.replay : own === undefined ? [] : [own];
    const last = updates[updates.length - 1];
    if (!outcome.ok || last === undefined) {
      settled.push({ outcome, applied: [] });
      continue;
    }
    next ??= { ...snapshot };
    for (let index = 0; index < updates.length - 1; index++) reduceRecords(scope, next, updates[index] as State);
    const failure = reduce(scope, next, last);
    if (failure === undefined) {
      settled.push({ outcome, applied: updates });
      continue;
    }
    const state = next;
    return reduceFailed(scope, state, outcome, last, snapshot, step, failure).then((handled) => {
      settled.push(handled);
      return reduceFrom(scope, snapshot, outcomes, step, at + 1, state, settled);
    });
  }
  return { state: next ?? snapshot, settled };
}

/**
 * A node whose update could not be reduced fails like any node (its error event and `afterNode` callbacks, so the
 * collector records it); the records its update carried (a recovered failure's) are reduced on their own first, and
 * a recovery's own update is reduced in its place. Should that throw too, the node fails with it: the recovery's
 * records are kept and a fatal record of the final failure is added, so no failure goes unrecorded.
 */
async function reduceFailed(scope: RunScope, next: State, outcome: SucceededNode, update: State, snapshot: State, step: number, failure: { error: unknown }): Promise<SettledNode> {
  const { node } = outcome;
  const records = recordsOf(scope, update);
  reduceRecords(scope, next, records);
  const error = new WorkflowError(`node ${node.id}'s update could not be reduced into the state: ${messageOf(failure.error)}`, { nodeId: node.id, stepNumber: step, cause: failure.error });
  const handled = await failNodeUpdate(scope, node, snapshot, step, error, outcome.attempts);
  const recovery = handled.ok ? updateOf(handled.result) : undefined;
  if (!handled.ok || recovery === undefined) return { outcome: handled, applied: [records, {}] };
  const again = reduce(scope, next, recovery);
  if (again === undefined) return { outcome: handled, applied: [records, recovery] };
  reduceRecords(scope, next, recovery);
  const final = new WorkflowError(`node ${node.id}'s recovery update could not be reduced either: ${messageOf(again.error)}`, { nodeId: node.id, stepNumber: step, cause: again.error });
  const record = createExecutionError({ nodeId: node.id, nodeName: node.name, nodeType: node.type, stepNumber: step }, final, Severity.Fatal);
  const fatal = Object.fromEntries(scope.parts.schema.executionErrorKeys.map((key) => [key, [record]]));
  return { outcome: { ok: false, node, error: final, attempts: outcome.attempts, fallbackUpdates: [fatal] }, applied: [] };
}

/** @internal The compiled node `id`. */
export function nodeOf(scope: RunScope, id: string) {
  const node = scope.parts.nodes.get(id);
  if (!node) throw new WorkflowError(`execution routed to unknown node ${JSON.stringify(id)}`, { nodeId: id });
  return node;
}

/** @internal The next step's nodes, in order of first appearance; `END` dropped. */
export async function route(scope: RunScope, outcomes: readonly SucceededNode[], state: State, step: number): Promise<string[]> {
  const { edgesFrom, branchesFrom, nodes } = scope.parts;
  const next: string[] = [];
  const seen = new Set<string>();
  const add = (from: string, target: string) => {
    if (target === END || seen.has(target)) return;
    if (!nodes.has(target)) throw new WorkflowError(`execution failed at step ${step}: node ${from} routed to unknown node ${JSON.stringify(target)}`, { nodeId: from, stepNumber: step });
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
