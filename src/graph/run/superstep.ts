/**
 * One superstep's reduction and routing: every node's update reduced, in trigger order, into one copy of the state
 * (a reducer that throws fails its node like any failure), then the next step's nodes from `Command.goto`, static
 * edges and routers. The executor coordinates; a checkpointed run records what each node had reduced (`applied`), so
 * a resumed step can reduce a node that already ran without running it again.
 */
import { WorkflowError } from '../../errors/workflow-error.js';
import { messageOf } from '../../internal/error-chain.js';
import { defineData, preview, truncate } from '../../internal/json.js';
import { createExecutionError } from '../records/execution-error.js';
import { Command } from '../core/command.js';
import { END, Severity } from '../core/constants.js';
import type { GraphBranch } from '../core/graph-description.js';
import type { State } from '../core/state-schema.js';
import { isNodeInterrupt } from './node-interrupt.js';
import { failNodeUpdate, type NodeOutcome } from './node-runner.js';
import type { RunScope } from './run-scope.js';

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

/**
 * @internal The failed nodes of a step, in trigger order (a node that stopped to ask is not one); `undefined` when
 * none failed (the common case allocates nothing).
 */
export function failuresOf(settled: readonly SettledNode[]): FailedNode[] | undefined {
  let failures: FailedNode[] | undefined;
  for (const { outcome } of settled) if (!outcome.ok && !isNodeInterrupt(outcome.error)) (failures ??= []).push(outcome);
  return failures;
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
 * @internal Reduces the business keys of a failed node's fallback update (a node's `emitCustomStateDelta`) into the
 * fallback state. Its execution-error records (the collector's fatal one among them) were reduced in the node's place
 * in its step already, so a business key's reducer that throws costs no record.
 */
export function reduceFallback(scope: RunScope, state: State, update: State): void {
  const recordKeys = scope.parts.schema.executionErrorKeys;
  let business: State | undefined;
  for (const key of Object.keys(update)) if (!recordKeys.includes(key)) defineData((business ??= {}), key, update[key]);
  if (business !== undefined) reduce(scope, state, business);
}

/** Whether an update carries execution-error records. */
function hasRecords(scope: RunScope, update: State): boolean {
  for (const key of scope.parts.schema.executionErrorKeys) if (Object.hasOwn(update, key)) return true;
  return false;
}

/**
 * @internal The records of a resumed step's nodes that failed in it before, by index (from the `failed` checkpoint):
 * reduced in the node's place, before its new outcome, so the run's records keep the order they had.
 */
export type PriorRecords = ReadonlyMap<number, readonly State[]>;

/**
 * A failed node's records (those of its fallback updates: the collector's fatal record) reduced in its place: the
 * records of a step are in trigger order, whether its nodes succeeded, recovered or failed.
 */
function placeFailure(scope: RunScope, snapshot: State, next: State | undefined, outcome: FailedNode): State | undefined {
  let state = next;
  for (const update of outcome.fallbackUpdates) {
    if (!hasRecords(scope, update)) continue;
    state ??= { ...snapshot };
    reduceRecords(scope, state, update);
  }
  return state;
}

/**
 * @internal Reduces a step's outcomes into one copy of `snapshot` (none when no node updates it), in trigger order:
 * a step costs time linear in its updates, however many nodes ran (a 10,000-node fan-out copies the state once).
 */
export function reduceStep(scope: RunScope, snapshot: State, outcomes: ReadonlyArray<NodeOutcome | ReplayedNode>, step: number, priors?: PriorRecords): ReducedStep | Promise<ReducedStep> {
  // Synchronous unless a reducer throws (then the failing node's callbacks run): a step costs no extra tick.
  return reduceFrom(scope, snapshot, outcomes, step, 0, undefined, [], priors);
}

/** The step's state and its settled nodes. */
export interface ReducedStep {
  state: State;
  settled: SettledNode[];
}

/** What a node that reduced nothing applied. */
const NOTHING: readonly State[] = /* @__PURE__ */ Object.freeze([]);

function reduceFrom(
  scope: RunScope,
  snapshot: State,
  outcomes: ReadonlyArray<NodeOutcome | ReplayedNode>,
  step: number,
  start: number,
  from: State | undefined,
  settled: SettledNode[],
  priors: PriorRecords | undefined,
): ReducedStep | Promise<ReducedStep> {
  let next = from;
  for (let at = start; at < outcomes.length; at++) {
    const outcome = outcomes[at] as NodeOutcome | ReplayedNode;
    const prior = priors?.get(at);
    if (prior !== undefined) {
      next ??= { ...snapshot };
      for (const update of prior) reduceRecords(scope, next, update);
    }
    if (!outcome.ok) {
      next = placeFailure(scope, snapshot, next, outcome);
      settled.push({ outcome, applied: prior ?? NOTHING });
      continue;
    }
    const replay = (outcome as Partial<ReplayedNode>).replay;
    const last = replay === undefined ? updateOf(outcome.result) : replay[replay.length - 1];
    if (last === undefined) {
      settled.push({ outcome, applied: prior ?? NOTHING });
      continue;
    }
    next ??= { ...snapshot };
    if (replay !== undefined) for (let index = 0; index < replay.length - 1; index++) reduceRecords(scope, next, replay[index] as State);
    const failure = reduce(scope, next, last);
    if (failure === undefined) {
      const applied = replay ?? [last];
      settled.push({ outcome, applied: prior === undefined ? applied : [...prior, ...applied] });
      continue;
    }
    const state = next;
    return reduceFailed(scope, state, outcome, last, snapshot, step, failure).then((handled) => {
      if (!handled.outcome.ok) placeFailure(scope, snapshot, state, handled.outcome);
      settled.push(prior === undefined ? handled : { outcome: handled.outcome, applied: [...prior, ...handled.applied] });
      return reduceFrom(scope, snapshot, outcomes, step, at + 1, state, settled, priors);
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
  const error = new WorkflowError(`the node's update could not be reduced into the state: ${messageOf(failure.error)}`, { nodeId: node.id, stepNumber: step, cause: failure.error });
  const handled = await failNodeUpdate(scope, node, snapshot, step, error, outcome.attempts);
  const recovery = handled.ok ? updateOf(handled.result) : undefined;
  if (!handled.ok || recovery === undefined) return { outcome: handled, applied: [records, {}] };
  const again = reduce(scope, next, recovery);
  if (again === undefined) return { outcome: handled, applied: [records, recovery] };
  reduceRecords(scope, next, recovery);
  const final = new WorkflowError(`the node's recovery update could not be reduced either: ${messageOf(again.error)}`, { nodeId: node.id, stepNumber: step, cause: again.error });
  const record = createExecutionError({ nodeId: node.id, nodeName: node.name, nodeType: node.type, stepNumber: step }, final, Severity.Fatal);
  const fatal = Object.fromEntries(scope.parts.schema.executionErrorKeys.map((key) => [key, [record]]));
  return { outcome: { ok: false, node, error: final, attempts: outcome.attempts, fallbackUpdates: [fatal] }, applied: [records, recordsOf(scope, recovery)] };
}

/** @internal The compiled node `id`. */
export function nodeOf(scope: RunScope, id: string) {
  const node = scope.parts.nodes.get(id);
  if (!node) throw new WorkflowError(`execution routed to unknown node ${preview(id, 200)}`, { nodeId: id });
  return node;
}

/**
 * @internal The next step's nodes, in order of first appearance; `END` dropped. Synchronous unless a router returns a
 * promise: a node alone in its step without conditional edges goes where its compiled `successors` say.
 */
export function route(scope: RunScope, settled: readonly SettledNode[], state: State, step: number): readonly string[] | Promise<readonly string[]> {
  if (settled.length === 1) {
    const { node, result } = settled[0]?.outcome as SucceededNode;
    if (node.successors !== undefined && !(Command.isInstance(result) && result.goto !== undefined)) return node.successors;
  }
  return routeFrom({ scope, settled, state, step, next: [], seen: undefined }, 0, 0);
}

/** Small steps look targets up in the list itself; a set is made once the list grows past this. */
const LINEAR_LOOKUP = 16;

/**
 * One step's routing, resumable after a router's promise. A plain object (its hidden class outlives every step; a
 * class instance's is dropped by a full GC with the optimized code that reads it).
 */
interface Routing {
  scope: RunScope;
  settled: readonly SettledNode[];
  state: State;
  step: number;
  next: string[];
  seen: Set<string> | undefined;
}

/** Routes from the `at`-th node on, starting with its `branchAt`-th conditional edge. */
function routeFrom(routing: Routing, at: number, branchAt: number): string[] | Promise<string[]> {
  const { edgesFrom, branchesFrom } = routing.scope.parts;
  const { settled, state } = routing;
  for (let index = at; index < settled.length; index++) {
    const { node, result } = (settled[index] as SettledNode).outcome as SucceededNode;
    const id = node.id;
    if (branchAt === 0) {
      if (Command.isInstance(result) && result.goto !== undefined) {
        for (const target of result.targets()) add(routing, id, target);
        continue;
      }
      for (const to of edgesFrom.get(id) ?? []) add(routing, id, to);
    }
    const branches = branchesFrom.get(id) ?? [];
    for (let branchIndex = branchAt; branchIndex < branches.length; branchIndex++) {
      const branch = branches[branchIndex] as GraphBranch;
      let choice: string | readonly string[] | PromiseLike<string | readonly string[]>;
      try {
        choice = branch.router({ ...state });
      } catch (error) {
        throw routerFailed(routing, id, error);
      }
      if (isThenable(choice)) {
        return Promise.resolve(choice).then(
          (chosen) => {
            choose(routing, id, branch, chosen);
            return routeFrom(routing, index, branchIndex + 1);
          },
          (error: unknown) => {
            throw routerFailed(routing, id, error);
          },
        );
      }
      choose(routing, id, branch, choice as string | readonly string[]);
    }
    branchAt = 0;
  }
  return routing.next;
}

function routerFailed(routing: Routing, id: string, error: unknown): WorkflowError {
  return new WorkflowError(`the router after node ${truncate(id, 200)} failed at step ${routing.step}: ${messageOf(error)}`, { nodeId: id, stepNumber: routing.step, cause: error });
}

function choose(routing: Routing, id: string, branch: GraphBranch, choice: string | readonly string[]): void {
  const named = typeof choice === 'string' || (Array.isArray(choice) && choice.every((key) => typeof key === 'string')); // app code: checked
  if (!named) throw new WorkflowError(`the router after node ${truncate(id, 200)} returned ${preview(choice, 200)} at step ${routing.step}: a router returns a node id, END, or a list of them`, { nodeId: id, stepNumber: routing.step });
  for (const key of typeof choice === 'string' ? [choice] : [...choice]) {
    const target = branch.pathMap ? (Object.hasOwn(branch.pathMap, key) ? branch.pathMap[key] : undefined) : key;
    if (target === undefined) throw new WorkflowError(`the router after node ${truncate(id, 200)} chose ${preview(key, 200)} at step ${routing.step}, which its path map does not contain`, { nodeId: id, stepNumber: routing.step });
    add(routing, id, target);
  }
}

function add(routing: Routing, from: string, target: string): void {
  if (target === END) return;
  const { next } = routing;
  if (routing.seen === undefined && next.length >= LINEAR_LOOKUP) routing.seen = new Set(next);
  if (routing.seen ? routing.seen.has(target) : next.includes(target)) return;
  if (!routing.scope.parts.nodes.has(target)) throw new WorkflowError(`node ${truncate(from, 200)} routed to unknown node ${preview(target, 200)} at step ${routing.step}`, { nodeId: from, stepNumber: routing.step });
  routing.seen?.add(target);
  next.push(target);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
