/**
 * A checkpointed run's bookkeeping: the state and a failed step's succeeded nodes encoded into a `GraphCheckpoint`
 * and saved through the run's claim (`run-lease.ts`; a store that throws or a key that is not JSON →
 * `CHECKPOINT_FAILED`), and a checkpoint read back for a resume, checked and decoded against the graph
 * (→ `CHECKPOINT_INVALID`). Store calls give way to the run's signal.
 */
import { SerializeError } from '../../errors/serialize-error.js';
import { WorkflowError } from '../../errors/workflow-error.js';
import { isoTimestamp } from '../../internal/clock.js';
import { abortPromise } from '../../internal/delay.js';
import { messageOf } from '../../internal/error-chain.js';
import { defineData, isPlainObject, preview, truncate } from '../../internal/json.js';
import { STATE_NOT_SERIALIZABLE } from '../../runner/constants.js';
import { encodeStateKeys } from '../../runner/state-delta.js';
import { droppedValues } from '../../wire/safe-json.js';
import { parseGraphCheckpoint } from '../checkpoints/checkpoint.js';
import { RunLease, type Attempt, type LeaseSettings } from '../checkpoints/run-lease.js';
import { usesInterrupts } from '../checkpoints/interrupt-fields.js';
import type { CheckpointAnswer, CheckpointAnswers, Checkpointer, CheckpointNodeResult, CheckpointResume, GraphCheckpoint } from '../core/checkpointer.js';
import { Command } from '../core/command.js';
import { CHECKPOINT_FAILED, CHECKPOINT_INVALID, END, RUN_ID_TAKEN, RUN_TAKEN_OVER } from '../core/constants.js';
import type { GraphParts } from '../core/graph-description.js';
import { listProblems, MAX_PROBLEMS } from '../core/quote.js';
import type { State } from '../core/state-schema.js';
import type { Interrupt } from '../../interrupts/interrupt.js';
import type { StepAnswers } from './run-questions.js';
import type { ReplayedNode, SettledNode } from './superstep.js';

/** @internal A checkpoint read back, decoded for the executor. */
export interface LoadedCheckpoint {
  status: GraphCheckpoint['status'];
  step: number;
  state: State;
  pending: string[];
  /** The nodes of a failed step that are not run again, by their index in `pending` (empty otherwise). */
  replayed: Map<number, ReplayedNode>;
  /** The records of a failed step's nodes that failed, by index (see `PriorRecords`). */
  priors: Map<number, State[]>;
  /** What an interrupted checkpoint waits on (none otherwise). */
  interrupts: Interrupt[];
  /** The answers the step's nodes get, by node id (see `run-questions.ts`). */
  answers: StepAnswers | undefined;
  /** The checkpoint as read (what a claim writes back). */
  checkpoint: GraphCheckpoint;
}

/**
 * Each key's JSON text; a key whose value is `undefined` is left out of a state (`keepUndefined`: written as `null`,
 * for updates, where setting a key to `undefined` is a change). Throws what could not be encoded, key by key — and
 * what JSON would silently drop or empty at any depth (a Map, a Set, a function, a Symbol…: `droppedValues`), which
 * a resume would otherwise read back changed. A Date (or anything with a `toJSON`) is kept as what it says it is.
 */
function encodeTexts(values: State, keepUndefined: boolean): Record<string, string | null> {
  const { delta, failures } = encodeStateKeys(values);
  for (const key of Object.keys(delta)) {
    if (delta[key] === null) continue;
    const [dropped] = droppedValues(values[key], truncate(key, 200), 1, true); // the path starts at the key, as encodeStateKeys' does
    if (dropped === undefined) continue;
    const subject = `state key ${preview(key, 200)}`;
    const found = { code: 'not_json', path: dropped.path, message: `is ${dropped.kind}, which JSON cannot represent (it would be dropped, emptied or read back as null)` };
    failures.push(new SerializeError(`marshal state delta key ${preview(key, 200)}: ${truncate(found.path, 400)} ${found.message}`, { subject, issues: [found], code: STATE_NOT_SERIALIZABLE }));
  }
  if (failures.length > 0) {
    // `state key "total": total is a BigInt…` (the delta wording, "marshal state delta key", is not what failed here)
    const why = failures.slice(0, 10).map((failure) => `${failure.subject}: ${failure.issues[0] ? `${truncate(failure.issues[0].path, 400)} ${failure.issues[0].message}` : messageOf(failure.cause)}`);
    throw new Error(why.join('; '), { cause: failures[0] });
  }
  for (const key of Object.keys(delta)) {
    if (delta[key] !== null) continue;
    if (values[key] === null) defineData(delta, key, 'null');
    else if (!keepUndefined) delete delta[key];
  }
  return delta;
}

function decodeTexts(texts: Record<string, string | null>, where: string, problems: string[]): State {
  const values: State = {};
  for (const key of Object.keys(texts)) {
    const text = texts[key];
    try {
      defineData(values, key, text === null ? undefined : JSON.parse(text as string));
    } catch {
      problems.push(`${where} key ${preview(key, 200)} is not JSON text`);
    }
  }
  return values;
}

/** At most this many tries of a first write that lost a race (each after reading the checkpoint again). */
const CLAIM_TRIES = 3;

/** @internal What a checkpoint of a step that stopped to ask, or of a step its nodes were answered in, keeps. */
export interface StepQuestions {
  interrupts?: Interrupt[] | undefined;
  answers?: CheckpointAnswers[] | undefined;
}

/** @internal Saves and reads back the checkpoints of one run, through its claim. */
export class RunCheckpoints {
  readonly lease: RunLease;
  /** The last resume that decided interrupts of the run: every checkpoint it writes keeps it. */
  resumed: CheckpointResume | undefined;
  /** Who the run belongs to: a fresh run's caller, a resumed run's as its checkpoint says; every write keeps it. */
  private ownedBy: string | undefined;

  constructor(
    private readonly checkpointer: Checkpointer,
    readonly runId: string,
    private readonly signal: AbortSignal | undefined,
    lease: LeaseSettings,
    /** The graph's fingerprint, written into every checkpoint and checked in every one read back. */
    private readonly graph: string,
    /** The state's execution-error fields: what a failed node's fallback updates leave in its checkpoint. */
    private readonly recordKeys: readonly string[],
    /** Who this run or resume is for (its `owner` option): a checkpoint of another reads as none. */
    private readonly caller?: string | undefined,
  ) {
    this.ownedBy = caller;
    this.lease = new RunLease(checkpointer, runId, lease, (work) => this.wait(work));
  }

  /** How the run id is quoted in messages (bounded: it is the caller's). */
  private get quoted(): string {
    return preview(this.runId, 200);
  }

  /**
   * Saves the run's checkpoint; `settled` (a failed or interrupted step's nodes) gives the succeeded nodes' results,
   * `questions` what the step waits on and the answers its unfinished nodes keep.
   */
  async save(status: GraphCheckpoint['status'], step: number, state: State, pending: readonly string[], settled?: readonly SettledNode[], questions?: StepQuestions): Promise<void> {
    const failed = (why: string, cause: unknown) =>
      new WorkflowError(`the checkpoint of run ${this.quoted} at step ${step} could not be saved: ${why}`, { code: CHECKPOINT_FAILED, stepNumber: step, cause });
    const checkpoint: GraphCheckpoint = { version: 1, runId: this.runId, status, step, state: {}, pending: [...pending], updatedAt: isoTimestamp(), graph: this.graph };
    try {
      checkpoint.state = encodeTexts(state, false) as Record<string, string>;
    } catch (error) {
      throw failed(messageOf(error), error);
    }
    if (settled) {
      const succeeded: CheckpointNodeResult[] = [];
      const failures: CheckpointNodeResult[] = [];
      for (const [index, { outcome, applied }] of settled.entries()) {
        // A failed node keeps its records (those of earlier tries, then its fallback updates'), reduced again in its place.
        const updates = outcome.ok ? applied : [...applied, ...outcome.fallbackUpdates.map((update) => this.recordsOf(update))];
        const result: CheckpointNodeResult = { index, nodeId: outcome.node.id, updates: [] };
        try {
          result.updates = updates.map((update) => encodeTexts(update, true)).filter((update) => outcome.ok || Object.keys(update).length > 0);
        } catch (error) {
          throw failed(`the update of node ${preview(outcome.node.id, 200)}: ${messageOf(error)}`, error);
        }
        if (outcome.ok && Command.isInstance(outcome.result) && outcome.result.goto !== undefined) result.goto = outcome.result.targets();
        if (outcome.ok) succeeded.push(result);
        else if (result.updates.length > 0) failures.push(result);
      }
      checkpoint.succeeded = succeeded;
      if (failures.length > 0) checkpoint.failures = failures;
    }
    if (questions?.interrupts !== undefined) checkpoint.interrupts = questions.interrupts;
    if (questions?.answers !== undefined) checkpoint.answers = questions.answers;
    if (this.resumed !== undefined) checkpoint.resumed = this.resumed;
    if (this.ownedBy !== undefined) checkpoint.ownedBy = this.ownedBy;
    if (usesInterrupts(checkpoint as unknown as Record<string, unknown>)) checkpoint.version = 2;
    // A run holds its claim while it runs; its last write (completed, failed) lets it go.
    for (let tries = 1; ; tries++) {
      let written: boolean;
      try {
        written = await this.lease.write(checkpoint, status === 'running');
      } catch (error) {
        if (this.signal?.aborted || (WorkflowError.isInstance(error) && error.code === RUN_TAKEN_OVER)) throw error;
        throw failed(`the checkpointer's put() failed: ${messageOf(error)}`, error);
      }
      if (written) return;
      // Only a fresh run's first write can lose a race: the checkpoint is read again, and claimed if it is free.
      if (tries === CLAIM_TRIES) throw this.lease.conflict('run');
      const refusal = this.lease.admit(await this.read(), 'run');
      if (refusal) throw refusal;
    }
  }

  /**
   * The stored checkpoint, as the store returned it (`undefined`: none); throws `CHECKPOINT_FAILED`, or the store's
   * own `CHECKPOINT_INVALID` (a value it knows is damaged) as it is.
   */
  async read(): Promise<unknown> {
    try {
      return await this.wait(() => this.checkpointer.get(this.runId));
    } catch (error) {
      if (this.signal?.aborted || (WorkflowError.isInstance(error) && error.code === CHECKPOINT_INVALID)) throw error;
      throw new WorkflowError(`the checkpoint of run ${this.quoted} could not be read: the checkpointer's get() failed: ${messageOf(error)}`, { code: CHECKPOINT_FAILED, cause: error });
    }
  }

  /**
   * Whether `stored` is another owner's: it names an owner (`ownedBy`) that is not this caller's. Such a checkpoint
   * is never decoded, replayed or claimed: a resume finds none, a run under its id is refused.
   */
  isOthers(stored: unknown): boolean {
    const ownedBy = isPlainObject(stored) ? stored['ownedBy'] : undefined;
    return typeof ownedBy === 'string' && ownedBy !== this.caller; // one of another type is damaged: decoding says so
  }

  /** The refusal of a run under an id another owner's checkpoint holds. */
  idTaken(): WorkflowError {
    return new WorkflowError(`run ${this.quoted} belongs to another owner: this run ran nothing and read nothing of it; run under another id`, { code: RUN_ID_TAKEN, stepNumber: 0 });
  }

  /** Says whether this run may claim the stored checkpoint (see `RunLease.admit`). */
  admit(stored: unknown, attempt: Attempt): WorkflowError | undefined {
    return this.lease.admit(stored, attempt);
  }

  /** Claims the checkpoint read for a resume; `false` when another run claimed it first. Throws `CHECKPOINT_FAILED`. */
  async claim(checkpoint: GraphCheckpoint): Promise<boolean> {
    try {
      return await this.lease.write(checkpoint, true);
    } catch (error) {
      if (this.signal?.aborted) throw error;
      throw new WorkflowError(`run ${this.quoted} could not be claimed for its resume: the checkpointer's put() failed: ${messageOf(error)}`, { code: CHECKPOINT_FAILED, cause: error });
    }
  }

  /** The run ended: its claim released (in the background after an abort). */
  end(aborted: boolean): Promise<void> {
    return this.lease.end(aborted);
  }

  /** A stored checkpoint decoded against the graph; throws `CHECKPOINT_INVALID`. */
  decode(value: unknown, parts: Readonly<GraphParts>): LoadedCheckpoint {
    const checkpoint = parseGraphCheckpoint(value, this.runId);
    const problems: string[] = [];
    if (checkpoint.graph !== undefined && checkpoint.graph !== this.graph) {
      problems.push(`it was written by another graph (fingerprint ${preview(checkpoint.graph, 40)}; this one's is ${this.graph}): its nodes, edges, routes or state fields differ — resume it with the graph that wrote it, or run anew`);
    }
    const state = decodeTexts(checkpoint.state, 'state', problems);
    for (const id of checkpoint.pending) if (!parts.nodes.has(id)) problems.push(`pending node ${preview(id, 200)} is not a node of this graph`);
    const replayed = new Map<number, ReplayedNode>();
    const open = checkpoint.status !== 'completed'; // a failed, interrupted or resumed step's nodes
    for (const result of open ? (checkpoint.succeeded ?? []) : []) {
      const node = parts.nodes.get(result.nodeId);
      const replay = result.updates.map((update, index) => decodeTexts(update, `succeeded node ${preview(result.nodeId, 200)} update ${index}`, problems));
      for (const target of result.goto ?? []) {
        if (target !== END && !parts.nodes.has(target)) problems.push(`succeeded node ${preview(result.nodeId, 200)} routes to ${preview(target, 200)}, which is not a node of this graph`);
      }
      const routing = result.goto === undefined ? undefined : new Command({ goto: result.goto });
      if (node) replayed.set(result.index, { ok: true, node, result: routing, recovered: false, attempts: 0, replay });
    }
    const priors = new Map<number, State[]>();
    for (const result of open ? (checkpoint.failures ?? []) : []) {
      priors.set(result.index, result.updates.map((update, index) => decodeTexts(update, `failed node ${preview(result.nodeId, 200)} records ${index}`, problems)));
    }
    if (problems.length > 0) {
      throw new WorkflowError(`the checkpoint of run ${this.quoted} does not fit this graph: ${listProblems(problems)}`, { code: CHECKPOINT_INVALID, problems: problems.slice(0, MAX_PROBLEMS) });
    }
    const answers = open && checkpoint.answers !== undefined ? new Map<string, CheckpointAnswer[]>(checkpoint.answers.map((each) => [each.nodeId, each.answers])) : undefined;
    this.resumed = checkpoint.resumed;
    this.ownedBy = checkpoint.ownedBy;
    return { status: checkpoint.status, step: checkpoint.step, state, pending: checkpoint.pending, replayed, priors, interrupts: checkpoint.interrupts ?? [], answers, checkpoint };
  }

  /** The execution-error records of an update, alone. */
  private recordsOf(update: State): State {
    const records: State = {};
    for (const key of this.recordKeys) if (Object.hasOwn(update, key)) defineData(records, key, update[key]);
    return records;
  }

  /** A store call that gives way to the run's signal (a hanging store does not hang an aborted run). */
  private async wait<T>(call: () => T | Promise<T>): Promise<T> {
    if (!this.signal) return await call();
    this.signal.throwIfAborted();
    const aborted = abortPromise(this.signal);
    try {
      return await Promise.race([call(), aborted.promise]);
    } finally {
      aborted.dispose();
    }
  }
}
