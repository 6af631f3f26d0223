/**
 * Graph checkpoints in a Durable Object's storage: one value per run (`checkpoint:<run id>`, split into parts when
 * large), replaced by every superstep's `put` in one atomic write — a compare-and-swap on the run's revision. Used by
 * `createA2ADurableObject` for the object's own task (its agent factory receives it), or on its own in any object.
 */
import { LIVENESS_SCOPE, storedRevision } from '../graph/checkpoints/checkpoint.js';
import type { Checkpointer, GraphCheckpoint } from '../graph/core/checkpointer.js';
import { CHECKPOINT_INVALID, CHILD_RUN_SEPARATOR } from '../graph/core/constants.js';
import { ConfigError } from '../errors/config-error.js';
import { boundOptionProblems } from '../internal/option-names.js';
import { WorkflowError } from '../errors/workflow-error.js';
import { bindingProblems, STORAGE_METHODS } from './binding-checks.js';
import { EndedRunsIndex, SWEEP_PER_WRITE } from './ended-runs.js';
import { DamagedValueError, deleteKeys, encodeEntries, getJSON, keysOf, keysOfAll, listedKeys, partKeys, putEntries } from './storage-codec.js';
import { storageKey } from './storage-keys.js';
import { serial } from './serial-writes.js';
import type { DurableObjectStorageLike } from './types.js';

const PREFIX = 'checkpoint:';
/** The index of the completed runs (`ended-runs.ts`), oldest first. */
const COMPLETED_PREFIX = 'checkpoint-completed:';

/** Options of {@link DurableObjectCheckpointer}. @example `new DurableObjectCheckpointer(state.storage, { maxRuns: 100 })` */
export interface DurableObjectCheckpointerOptions {
  /**
   * Completed runs kept (a subgraph's checkpoint is a run of its own); past it the oldest completed go, a few with
   * each write (16 at most), each with its subgraphs' checkpoints, whatever their status (as `delete` takes them). Runs not completed (running, stopped to ask, failed: still resumable) are never
   * deleted by the bound. @default 1000
   */
  maxRuns?: number | undefined;
}

/**
 * A graph `Checkpointer` over one Durable Object's storage. `put` is the contract's compare-and-swap: the object's
 * writes of checkpoints are applied one at a time (the stored revision read, compared and replaced with nothing in
 * between), and it resolves `false` when the stored revision is not `checkpoint.revision - 1`. It is `exclusive` — a
 * Durable Object has one live instance, so a run its last instance left (a restart, an eviction) is taken over at once,
 * while a run live in this instance never is. Bounded: at most `maxRuns` completed runs (1,000 unless set), the
 * oldest completed deleted first, 16 at most with each write, each with its subgraphs' checkpoints (a run not
 * completed is never deleted by the bound, but as a subgraph of one; a deleted one resumes as `CHECKPOINT_NOT_FOUND`).
 * Run ids are escaped into keys (`%`, `#` and lone UTF-16 surrogates, which the platform would hand back mangled), so
 * no run id reaches another's key or a part of one. A
 * damaged value — a parts header that is not an integer from 2 to 16,384 (the most a value is written in), a missing
 * part, text that is not JSON — makes `get` and `put` reject with a `WorkflowError` `CHECKPOINT_INVALID` naming the
 * key, before anything is built from the header (`delete` removes it); the graph checks every checkpoint it reads
 * back too, so a damaged value fails the resume with `CHECKPOINT_INVALID`, never a crash. A run id too long for a
 * storage key (over 1,900 bytes of UTF-8 once escaped, with its prefix) fails the save with `CHECKPOINT_FAILED`.
 * `storage` without `get`, `put`, `delete` and `list`, or a `maxRuns` that is not an integer > 0, is a `ConfigError`.
 *
 * @example
 * ```ts
 * export class Runs {
 *   constructor(private readonly state: DurableObjectState) {}
 *   async fetch() {
 *     const checkpointer = new DurableObjectCheckpointer(this.state.storage, { maxRuns: 100 });
 *     const outcome = await compiled.run({}, { checkpointer, runId: 'nightly' });
 *     return Response.json(outcome.status);
 *   }
 * }
 * ```
 */
export class DurableObjectCheckpointer implements Checkpointer {
  readonly exclusive = true;
  /** @internal Runs live in this instance of the object are those of its storage (every checkpointer over it). */
  declare readonly [LIVENESS_SCOPE]: object;

  readonly maxRuns: number;

  constructor(
    private readonly storage: DurableObjectStorageLike,
    options: DurableObjectCheckpointerOptions = {},
  ) {
    const problems = [...bindingProblems(storage, 'storage', "a Durable Object's storage (state.storage)", STORAGE_METHODS), ...boundOptionProblems(options, ['maxRuns'])];
    if (problems.length > 0) throw ConfigError.fromProblems('DurableObjectCheckpointer', problems);
    this[LIVENESS_SCOPE] = storage;
    this.maxRuns = (options ?? {}).maxRuns ?? 1000;
  }

  /** The run's checkpoint; read in turn with the object's writes, so never half of one write and half of another. */
  async get(runId: string): Promise<GraphCheckpoint | undefined> {
    const key = keyOf(runId);
    return (await serial(this.storage, () => invalidIfDamaged(() => getJSON(this.storage, key)))) as GraphCheckpoint | undefined;
  }

  async put(checkpoint: GraphCheckpoint): Promise<boolean> {
    const key = keyOf(checkpoint?.runId);
    const entries = encodeEntries(key, checkpoint);
    const revision = checkpoint.revision;
    const head = entries[key];
    if (typeof head === 'object') entries[key] = { ...head, revision: revision ?? 0 }; // a parted value's revision, read without its parts
    return serial(this.storage, async () => {
      const stored = await this.storage.get(key);
      if (typeof revision === 'number' && revisionOf(stored) !== revision - 1) return false;
      const stale = (await invalidIfDamaged(async () => partKeys(key, stored))).filter((old) => !Object.hasOwn(entries, old));
      const id = key.slice(PREFIX.length);
      const index = await EndedRunsIndex.open(this.storage, COMPLETED_PREFIX);
      await index.set(id, checkpoint.status === 'completed' ? Date.now() : undefined);
      const over = await index.oldest(Math.min(index.count - this.maxRuns, SWEEP_PER_WRITE), id);
      // a pruned run goes as `delete` takes it: with its subgraphs' checkpoints (a child that failed under a parent
      // that completed is resumed by nothing) and their index entries
      const children = (await Promise.all(over.map((run) => listedKeys(this.storage, `${PREFIX}${run.id}${CHILD_RUN_SEPARATOR}`)))).flat().filter((child) => !Object.hasOwn(entries, child));
      await index.forget([...over.map((run) => run.id), ...children.filter((child) => !child.includes('#')).map((child) => child.slice(PREFIX.length))]);
      const pruned = [...new Set([...(await keysOfAll(this.storage, over.map((run) => `${PREFIX}${run.id}`))), ...children])];
      await Promise.all([putEntries(this.storage, { ...entries, ...index.put }), deleteKeys(this.storage, [...stale, ...pruned, ...index.drop])]);
      return true;
    });
  }

  /** Deletes the run's checkpoint and its subgraphs' (their keys listed, 128 a call: no other run's value is read). */
  async delete(runId: string): Promise<void> {
    const key = keyOf(runId);
    await serial(this.storage, async () => {
      const own = await keysOf(this.storage, key);
      const children = await listedKeys(this.storage, `${key}${CHILD_RUN_SEPARATOR}`);
      const index = await EndedRunsIndex.open(this.storage, COMPLETED_PREFIX);
      await index.forget([key, ...children.filter((each) => !each.includes('#'))].map((each) => each.slice(PREFIX.length)));
      await Promise.all([putEntries(this.storage, index.put), deleteKeys(this.storage, [...own, ...children, ...index.drop])]);
    });
  }
}

/** @internal The revision of what is stored under a checkpoint key: a whole value's own, or a parted value's header's. */
export function revisionOf(stored: unknown): number {
  if (typeof stored !== 'string') return storedRevision(stored);
  try {
    return storedRevision(JSON.parse(stored)); // one part: at most 32 Ki characters
  } catch {
    return 0;
  }
}

/** `work`'s result; a damaged stored value becomes the checkpointer's `CHECKPOINT_INVALID`. */
async function invalidIfDamaged<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof DamagedValueError)) throw error;
    throw new WorkflowError(`${error.message}; delete the run's checkpoint (checkpointer.delete) or resume from a valid one`, { code: CHECKPOINT_INVALID, cause: error });
  }
}

function keyOf(runId: unknown): string {
  return storageKey(PREFIX, runId, 'a checkpoint');
}
