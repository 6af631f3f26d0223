/**
 * What a checkpointed run saves after each superstep (plain JSON, so any storage can keep it) and the store contract
 * it saves through (a compare-and-swap on the checkpoint's revision). Types only: every room that hands a store on
 * (a node's context, a run's options) names it from here.
 */
import type { Interrupt } from '../../interrupts/interrupt.js';

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
 * One answer a node of step `step` gets from its `interrupt()` call: the value a resume gave (its JSON text), or the
 * time the question expired unanswered (`interrupt()` then throws `InterruptExpiredError` in the node).
 */
export type CheckpointAnswer = { id: string; value: string } | { id: string; expiredAt: string };

/** The answers one node of step `step` gets, in the order of its `interrupt()` calls (the n-th call, the n-th answer). */
export interface CheckpointAnswers {
  /** Its position in `pending`. */
  index: number;
  nodeId: string;
  answers: CheckpointAnswer[];
}

/** The last resume that decided interrupts of a run: the same decisions again replay it, others of those ids conflict. */
export interface CheckpointResume {
  /** A digest (SHA-256, hex) of the resume's decisions, sorted by id. */
  key: string;
  /** The interrupt ids it decided. */
  ids: string[];
}

/**
 * One run's checkpoint: plain JSON (it survives `JSON.stringify`/`JSON.parse` and `structuredClone`), replaced after
 * every superstep. `running`: steps before `step` are done, `pending` runs next (except those in `succeeded`, when a
 * resumed step's nodes finished before). `failed`: step `step` failed; its `pending` nodes run again except those in
 * `succeeded`. `interrupted`: nodes of step `step` stopped to ask (`interrupts`, one per node); a resume with an answer
 * for each runs the step again — those nodes from their start, with their `answers` — except the nodes in `succeeded`.
 * `completed`: the run finished after `step` supersteps. `revision`, `owner` and `leaseUntil` are how runs take turns
 * (see {@link Checkpointer}).
 *
 * @example
 * ```ts
 * const checkpoint = await checkpointer.get('order-42');
 * if (checkpoint?.status === 'failed') console.log(`step ${checkpoint.step} failed; ${checkpoint.pending.join(', ')} run again`);
 * ```
 */
export interface GraphCheckpoint {
  /**
   * The format version; a reader refuses any other. 2 when the checkpoint has anything of interrupts (the status
   * `interrupted`, `interrupts`, `answers`, `resumed`, or `succeeded` in a `running` one), so a reader that knows
   * nothing of them refuses it instead of running a node without its answer; 1 otherwise.
   */
  version: 1 | 2;
  /** The run it belongs to (a subgraph's: `<parent run id>␟<agent node id>`, see `CHILD_RUN_SEPARATOR`). */
  runId: string;
  status: 'running' | 'failed' | 'interrupted' | 'completed';
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
  /** `failed`, `interrupted` (and `running` once such a step resumes): the nodes of step `step` that succeeded. */
  succeeded?: CheckpointNodeResult[];
  /** Likewise: the execution-error records of the step's nodes that failed before, by their place (no `goto`). */
  failures?: CheckpointNodeResult[];
  /** `interrupted` only: what the run waits on, in the order of `pending` (one per node that asked). */
  interrupts?: Interrupt[];
  /** The answers nodes of step `step` get on their `interrupt()` calls (`interrupted`, and a resumed step's). */
  answers?: CheckpointAnswers[];
  /** The last resume that decided interrupts of this run (kept through the run's later checkpoints). */
  resumed?: CheckpointResume;
  /** When it was saved (ISO 8601). */
  updatedAt: string;
  /**
   * The write's number among the run's writes: 1 for the first, +1 for each one after (also across resumes). A
   * checkpoint without one was written before revisions existed and counts as 0.
   */
  revision?: number;
  /** The random id of the live run that holds the checkpoint; none once the run ended (or released it). */
  owner?: string;
  /** Who the run belongs to (its `owner` option): only a run or resume given the same reads this checkpoint. */
  ownedBy?: string;
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
 * Object, KV, a database); `get` may return anything, since every checkpoint read back is checked. A `get` that finds
 * a value it knows is damaged may reject with a `WorkflowError` `CHECKPOINT_INVALID`: the run fails with it as it is
 * (any other rejection of `get` fails it with `CHECKPOINT_FAILED`).
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
