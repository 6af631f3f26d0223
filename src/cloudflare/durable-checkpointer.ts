/**
 * Graph checkpoints in a Durable Object's storage: one value per run (`checkpoint:<run id>`, split into parts when
 * large), replaced by every superstep's `put` in one atomic write — a compare-and-swap on the run's revision. Used by
 * `createA2ADurableObject` for the object's own task (its agent factory receives it), or on its own in any object.
 */
import { LIVENESS_SCOPE, storedRevision } from '../graph/checkpoints/checkpoint.js';
import type { Checkpointer, GraphCheckpoint } from '../graph/core/checkpointer.js';
import { CHECKPOINT_INVALID, CHILD_RUN_SEPARATOR } from '../graph/core/constants.js';
import { ConfigError } from '../errors/config-error.js';
import { WorkflowError } from '../errors/workflow-error.js';
import { bindingProblems, STORAGE_METHODS } from './binding-checks.js';
import { DamagedValueError, deleteKeys, encodeEntries, getJSON, MAX_KEY_BYTES, partKeys, putEntries } from './storage-codec.js';
import { serial } from './serial-writes.js';
import type { DurableObjectStorageLike } from './types.js';

const PREFIX = 'checkpoint:';


/**
 * A graph `Checkpointer` over one Durable Object's storage. `put` is the contract's compare-and-swap: the object's
 * writes of checkpoints are applied one at a time (the stored revision read, compared and replaced with nothing in
 * between), and it resolves `false` when the stored revision is not `checkpoint.revision - 1`. It is `exclusive` — a
 * Durable Object has one live instance, so a run its last instance left (a restart, an eviction) is taken over at once,
 * while a run live in this instance never is. Run ids are escaped into keys (`%` and `#`), so no run id reaches
 * another's key or a part of one. A damaged value — a parts header that is not an integer from 2 to 16,384 (the most
 * a value is written in), a missing part, text that is not JSON — makes `get` and `put` reject with a `WorkflowError`
 * `CHECKPOINT_INVALID` naming the key, before anything is built from the header (`delete` removes it); the graph
 * checks every checkpoint it reads back too, so a damaged value fails the resume with `CHECKPOINT_INVALID`, never a
 * crash. A run id too long for a storage key (over 1,900 bytes of UTF-8 once escaped, with its prefix) fails the save
 * with `CHECKPOINT_FAILED`. `storage` without `get`, `put`, `delete` and `list` is a `ConfigError`.
 *
 * @example
 * ```ts
 * export class Runs {
 *   constructor(private readonly state: DurableObjectState) {}
 *   async fetch() {
 *     const outcome = await compiled.run({}, { checkpointer: new DurableObjectCheckpointer(this.state.storage), runId: 'nightly' });
 *     return Response.json(outcome.status);
 *   }
 * }
 * ```
 */
export class DurableObjectCheckpointer implements Checkpointer {
  readonly exclusive = true;
  /** @internal Runs live in this instance of the object are those of its storage (every checkpointer over it). */
  declare readonly [LIVENESS_SCOPE]: object;

  constructor(private readonly storage: DurableObjectStorageLike) {
    const problems = bindingProblems(storage, 'storage', "a Durable Object's storage (state.storage)", STORAGE_METHODS);
    if (problems.length > 0) throw ConfigError.fromProblems('DurableObjectCheckpointer', problems);
    this[LIVENESS_SCOPE] = storage;
  }

  async get(runId: string): Promise<GraphCheckpoint | undefined> {
    return (await invalidIfDamaged(() => getJSON(this.storage, keyOf(runId)))) as GraphCheckpoint | undefined;
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
      await Promise.all([putEntries(this.storage, entries), deleteKeys(this.storage, stale)]);
      return true;
    });
  }

  async delete(runId: string): Promise<void> {
    const key = keyOf(runId);
    await serial(this.storage, async () => {
      const stored = await this.storage.list({ prefix: key });
      await deleteKeys(this.storage, [...stored.keys()].filter((each) => each === key || each.startsWith(`${key}#`) || each.startsWith(`${key}${CHILD_RUN_SEPARATOR}`)));
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

/** @internal `%` and `#` escaped: `#` starts a part key, so no run id may write one of another's parts. */
export function escapeRunId(runId: string): string {
  return runId.replace(/[%#]/g, (character) => (character === '%' ? '%25' : '%23'));
}

function keyOf(runId: unknown): string {
  return storageKey(PREFIX, runId, 'a checkpoint');
}

/** @internal The storage key of `runId`'s record under `prefix`, within the platform's key size (`what` names it). */
export function storageKey(prefix: string, runId: unknown, what: string): string {
  if (typeof runId !== 'string' || runId === '') throw new TypeError(`${what} needs a run id`);
  const key = `${prefix}${escapeRunId(runId)}`;
  const bytes = new TextEncoder().encode(key).byteLength; // the platform counts a key's UTF-8 bytes
  if (bytes > MAX_KEY_BYTES) throw new TypeError(`the run id is too long for a Durable Object storage key (${bytes} bytes with its prefix; at most ${MAX_KEY_BYTES})`);
  return key;
}
