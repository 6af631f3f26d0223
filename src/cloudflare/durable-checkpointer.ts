/**
 * Graph checkpoints in a Durable Object's storage: one value per run (`checkpoint:<runId>`, split into parts when
 * large), replaced by every superstep's `put` in one atomic write. Used by `createA2ADurableObject` for the object's
 * own task (its agent factory receives it), or on its own in any object of yours.
 */
import type { Checkpointer, GraphCheckpoint } from '../graph/checkpoint.js';
import { deleteKeys, getJSON, MAX_KEY_BYTES, putJSON } from './storage-codec.js';
import type { DurableObjectStorageLike } from './types.js';

const PREFIX = 'checkpoint:';

/**
 * A graph `Checkpointer` over one Durable Object's storage. The graph checks every checkpoint it reads back, so a
 * damaged value fails the resume with `CHECKPOINT_INVALID`, never a crash; a run id too long for a storage key (over
 * 1,900 bytes of UTF-8 with its prefix) fails the save with `CHECKPOINT_FAILED`.
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
  constructor(private readonly storage: DurableObjectStorageLike) {}

  async get(runId: string): Promise<GraphCheckpoint | undefined> {
    return (await getJSON(this.storage, keyOf(runId))) as GraphCheckpoint | undefined;
  }

  async put(checkpoint: GraphCheckpoint): Promise<void> {
    await putJSON(this.storage, keyOf(checkpoint.runId), checkpoint);
  }

  async delete(runId: string): Promise<void> {
    const key = keyOf(runId);
    const stored = await this.storage.list({ prefix: key });
    await deleteKeys(this.storage, [...stored.keys()].filter((each) => each === key || each.startsWith(`${key}#`) || each.startsWith(`${key}/`)));
  }
}

function keyOf(runId: unknown): string {
  if (typeof runId !== 'string' || runId === '') throw new TypeError('a checkpoint needs a run id');
  const key = `${PREFIX}${runId}`;
  const bytes = new TextEncoder().encode(key).byteLength; // the platform counts a key's UTF-8 bytes
  if (bytes > MAX_KEY_BYTES) throw new TypeError(`the run id is too long for a Durable Object storage key (${bytes} bytes with its prefix; at most ${MAX_KEY_BYTES})`);
  return key;
}
