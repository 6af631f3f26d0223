/**
 * Graph checkpoints: what a checkpointed run saves after each superstep (plain JSON, so any storage can keep it), the
 * store contract it saves through (a compare-and-swap on the checkpoint's revision), and the check every checkpoint
 * read back passes.
 */
import { WorkflowError } from '../errors/workflow-error.js';
import { messageOf } from '../internal/error-chain.js';
import { isPlainObject, truncate } from '../internal/json.js';
import { listProblems, MAX_PROBLEMS, quote } from './quote.js';
import { CHECKPOINT_INVALID } from './constants.js';

/**
 * What one node of a failed superstep produced before the step failed, kept so the node is not run again: on resume
 * its updates are reduced in its place among the step's nodes and it routes as it did.
 */
export interface CheckpointNodeResult {
  /** Its position in the checkpoint's `pending` list (the trigger order the step reduces in). */
  index: number;
  /** The node id (`pending[index]`). */
  nodeId: string;
  /**
   * The updates reduced into the state for it, in order, each as one JSON text per key (`null`: the key was set to
   * `undefined`). None when it returned nothing; one as a rule; two for a node recovered after its own update could
   * not be reduced (that update's execution-error records, then the recovery's update). In `failures`: the records
   * of its failures so far, reduced in its place before its next outcome.
   */
  updates: Array<Record<string, string | null>>;
  /** Its `Command.goto` targets, when it routed explicitly instead of by its edges (`[]`: nowhere). */
  goto?: string[];
}

/**
 * One run's checkpoint: plain JSON (it survives `JSON.stringify`/`JSON.parse` and `structuredClone`), replaced after
 * every superstep. `running`: steps before `step` are done, `pending` runs next. `failed`: step `step` failed; its
 * `pending` nodes run again except those in `succeeded`. `completed`: the run finished after `step` supersteps.
 * `revision`, `owner` and `leaseUntil` are how runs take turns (see {@link Checkpointer}).
 *
 * @example
 * ```ts
 * const checkpoint = await checkpointer.get('order-42');
 * if (checkpoint?.status === 'failed') console.log(`step ${checkpoint.step} failed; ${checkpoint.pending.join(', ')} run again`);
 * ```
 */
export interface GraphCheckpoint {
  /** The format version; a reader refuses any other. */
  version: 1;
  /** The run it belongs to (a subgraph's: `<parent run id>␟<agent node id>`, see `CHILD_RUN_SEPARATOR`). */
  runId: string;
  status: 'running' | 'failed' | 'completed';
  /** The superstep to run next (`failed`: the one that failed; `completed`: the number of supersteps run). */
  step: number;
  /**
   * The state, one JSON text per key, like a state delta (a key whose value is `undefined` is left out); every
   * execution-error record lives here. `failed`: the failed step's input state (its failures' records are in
   * `failures`; a checkpoint written before those existed has them here).
   */
  state: Record<string, string>;
  /** The nodes due at `step`, in trigger order (`completed`: none). */
  pending: string[];
  /** `failed` only: the nodes of the failed step that succeeded. */
  succeeded?: CheckpointNodeResult[];
  /** `failed` only: the execution-error records of the failed step's nodes that failed, by their place (no `goto`). */
  failures?: CheckpointNodeResult[];
  /** When it was saved (ISO 8601). */
  updatedAt: string;
  /**
   * The write's number among the run's writes: 1 for the first, +1 for each one after (also across resumes). A
   * checkpoint without one was written before revisions existed and counts as 0.
   */
  revision?: number;
  /** The random id of the live run that holds the checkpoint; none once the run ended (or released it). */
  owner?: string;
  /** When the owner's claim lapses unless renewed (ISO 8601): another run may take the checkpoint over after it. */
  leaseUntil?: string;
  /**
   * The fingerprint of the graph that wrote it (its nodes, edges, routes and state fields): a graph with another
   * refuses it (`CHECKPOINT_INVALID`). None in a checkpoint written before fingerprints existed.
   */
  graph?: string;
}

/**
 * Where a checkpointed graph run keeps its checkpoint: one per run id. Implement it over any storage (a Durable
 * Object, KV, a database); `get` may return anything, since every checkpoint read back is checked.
 *
 * The contract that makes a run and every resume of it run each node once at a time (two concurrent resumes of one
 * failed run never both run its failed node):
 * - **Revisions.** Every checkpoint the graph writes carries `revision`: the stored one's + 1 (1 when there is none).
 *   A stored checkpoint without a `revision` (written before revisions existed) counts as 0, as does none.
 * - **`put` is a compare-and-swap.** It writes `checkpoint` only if the checkpoint it holds for `checkpoint.runId` has
 *   revision `checkpoint.revision - 1` — the compare and the write as ONE atomic step (a transaction, an
 *   `UPDATE … WHERE revision = ?` plus an insert that fails on an existing key, a Durable Object's serialized
 *   storage) — and otherwise writes nothing and resolves `false`. Any other value means written. A checkpoint without
 *   a `revision` (one you write by hand) may be written unconditionally.
 * - **Claims.** A run or resume reads the checkpoint and claims it before it runs a node: unless a live run holds it
 *   (`owner` set and `leaseUntil` not passed), it writes it back as the next revision with itself as `owner` and a
 *   lease of `leaseMs`. A `false` from that write means another run claimed it first: this one runs nothing and
 *   fails with `RESUME_IN_PROGRESS` (as it does when the checkpoint is held). A completed checkpoint is never
 *   claimed: a resume replays it.
 * - **Every later write of the run is conditional** on the revision it wrote last, so a run whose checkpoint was
 *   taken over stops at its next write (`RUN_TAKEN_OVER`). A live run renews its lease with each write and, during a
 *   long step, every third of `leaseMs`; its last write (`completed`, `failed`), or the release an aborted run makes,
 *   drops `owner`. A process that dies leaves its lease to lapse; `resume(runId, { takeOver: true })` takes it over
 *   at once (when you know that process is gone). A run still live in this process is never taken over.
 * - **`exclusive: true`** tells the graph that only this process (one JavaScript realm) ever writes the store — memory,
 *   a Durable Object's own storage: a claim whose owner is not live here is then dead, and is taken over at once.
 * - `delete(runId)` forgets the run's checkpoint and its subgraphs' (run ids starting with `runId +
 *   CHILD_RUN_SEPARATOR`), and no other.
 *
 * @example
 * ```ts
 * // Over a Map (the same compare in SQL: UPDATE checkpoints SET body = ?, revision = ? WHERE run_id = ? AND revision = ?)
 * const rows = new Map<string, GraphCheckpoint>();
 * const checkpointer: Checkpointer = {
 *   get: async (runId) => structuredClone(rows.get(runId)),
 *   put: async (checkpoint) => {
 *     if (checkpoint.revision !== undefined && (rows.get(checkpoint.runId)?.revision ?? 0) !== checkpoint.revision - 1) return false;
 *     rows.set(checkpoint.runId, structuredClone(checkpoint));
 *     return true;
 *   },
 *   delete: async (runId) => {
 *     for (const id of [...rows.keys()]) if (id === runId || id.startsWith(runId + CHILD_RUN_SEPARATOR)) rows.delete(id);
 *   },
 * };
 * await compiled.run(input, { checkpointer, runId: 'order-42' });
 * ```
 */
export interface Checkpointer {
  /** The run's checkpoint, or `undefined` when there is none. */
  get(runId: string): Promise<GraphCheckpoint | undefined>;
  /** Saves the checkpoint of `checkpoint.runId` if the stored one has revision `checkpoint.revision - 1`; else resolves `false`. */
  put(checkpoint: GraphCheckpoint): Promise<boolean | void>;
  /** Forgets the run's checkpoint and those of its subgraphs (run ids starting with `runId + CHILD_RUN_SEPARATOR`). */
  delete(runId: string): Promise<void>;
  /** Only this process writes the store (memory, a Durable Object's storage): a claim not live here is taken over at once. */
  readonly exclusive?: boolean | undefined;
}

/** @internal True for objects with the three methods of a {@link Checkpointer}. */
export function isCheckpointer(value: unknown): value is Checkpointer {
  if (typeof value !== 'object' || value === null) return false;
  const store = value as Partial<Record<keyof Checkpointer, unknown>>;
  return typeof store.get === 'function' && typeof store.put === 'function' && typeof store.delete === 'function';
}

/**
 * @internal Where an `exclusive` store may name the object whose lifetime its writers share (a Durable Object's
 * storage: one per instance of the object); the store itself by default. A run live in this process under another
 * scope is one of a dead instance's.
 */
export const LIVENESS_SCOPE = Symbol.for('faultline.graph.livenessScope');

/** @internal The revision of a stored checkpoint: its `revision`, 0 without a valid one (or without a checkpoint). */
export function storedRevision(value: unknown): number {
  const revision = isPlainObject(value) ? value.revision : undefined;
  return typeof revision === 'number' && Number.isInteger(revision) && revision >= 0 ? revision : 0;
}

const STATUSES = new Set(['running', 'failed', 'completed']);
const isIndex = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Problems of one encoded state or update: a plain object of JSON texts (`null` too when `nulls`). */
function textsProblems(value: unknown, where: string, nulls: boolean): string[] {
  if (!isPlainObject(value)) return [`${where} must be an object of JSON texts`];
  return Object.keys(value)
    .filter((key) => !(typeof value[key] === 'string' || (nulls && value[key] === null)))
    .map((key) => `${where} key ${quote(key)} must be a JSON text${nulls ? ' or null' : ''}`);
}

/** Problems of `succeeded` or `failures`: node results naming pending nodes, each index once across both lists. */
function resultsProblems(value: unknown, name: string, pending: unknown, seen: Set<number>): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return [`${name} must be a list`];
  const due = isStringList(pending) ? pending : [];
  return value.flatMap((result: unknown, position) => {
    const where = `${name}[${position}]`;
    if (!isPlainObject(result)) return [`${where} must be an object`];
    const problems: string[] = [];
    if (!isIndex(result.index) || result.index >= due.length || due[result.index] !== result.nodeId || seen.has(result.index)) {
      problems.push(`${where} must name a pending node by its index and id, once (got ${quote(result.index)}, ${quote(result.nodeId)})`);
    } else seen.add(result.index);
    if (!Array.isArray(result.updates)) problems.push(`${where}.updates must be a list`);
    else result.updates.forEach((update: unknown, index) => problems.push(...textsProblems(update, `${where}.updates[${index}]`, true)));
    if (result.goto !== undefined && !isStringList(result.goto)) problems.push(`${where}.goto must be a list of node ids`);
    return problems;
  });
}

function checkpointProblems(value: unknown, runId: string | undefined): string[] {
  if (!isPlainObject(value)) return ['a checkpoint must be an object'];
  const problems: string[] = [];
  if (value.version !== 1) problems.push(`version must be 1 (got ${quote(value.version)})`);
  if (typeof value.runId !== 'string' || value.runId === '') problems.push('runId must be a non-empty string');
  else if (runId !== undefined && value.runId !== runId) problems.push(`runId is ${quote(value.runId)}, not ${quote(runId)}`);
  if (typeof value.status !== 'string' || !STATUSES.has(value.status)) problems.push(`status must be running, failed or completed (got ${quote(value.status)})`);
  if (!isIndex(value.step)) problems.push(`step must be an integer ≥ 0 (got ${quote(value.step)})`);
  problems.push(...textsProblems(value.state, 'state', false));
  if (!isStringList(value.pending)) problems.push('pending must be a list of node ids');
  const seen = new Set<number>();
  problems.push(...resultsProblems(value.succeeded, 'succeeded', value.pending, seen), ...resultsProblems(value.failures, 'failures', value.pending, seen));
  if (typeof value.updatedAt !== 'string') problems.push('updatedAt must be an ISO 8601 string');
  if (value.revision !== undefined && !isIndex(value.revision)) problems.push(`revision must be an integer ≥ 0 (got ${quote(value.revision)})`);
  for (const key of ['owner', 'leaseUntil', 'graph'] as const) {
    if (value[key] !== undefined && typeof value[key] !== 'string') problems.push(`${key} must be a string (got ${quote(value[key])})`);
  }
  return problems;
}

/**
 * Checks a checkpoint read back from storage and returns a fresh copy of it; anything else — a wrong shape or
 * version, another run's checkpoint, a value that cannot even be read — throws a `WorkflowError` with code
 * `CHECKPOINT_INVALID` whose `problems` lists the problems found (up to 100; the message names the first 20, and
 * quotes what it read back in at most 200 characters each). (A resume also checks that each state text is JSON,
 * that the nodes exist in the graph and that the checkpoint is this graph's.)
 * @param value what the store returned
 * @param runId the run it was read for, when known
 * @example `const checkpoint = parseGraphCheckpoint(JSON.parse(await storage.get(key)), runId)`
 */
export function parseGraphCheckpoint(value: unknown, runId?: string): GraphCheckpoint {
  let problems: string[];
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(value) ?? 'null'); // read once, as data: a getter cannot change what was checked
    problems = checkpointProblems(copy, runId);
  } catch (error) {
    problems = [`it cannot be read as JSON: ${truncate(messageOf(error), 200)}`];
  }
  if (problems.length === 0) return copy as GraphCheckpoint;
  const subject = runId === undefined ? 'the checkpoint' : `the checkpoint of run ${quote(runId)}`;
  throw new WorkflowError(`${subject} is not valid: ${listProblems(problems)}; delete it or resume from a valid one`, { code: CHECKPOINT_INVALID, problems: problems.slice(0, MAX_PROBLEMS) });
}
