/**
 * Agent runs that stopped to ask, in a Durable Object's storage: one value per run (`run-state:<run id>`, split into
 * parts when large), replaced by each write in one atomic step — a compare-and-swap on the record's revision, applied
 * one at a time with the object's other such writes (graph checkpoints included).
 */
import { RUN_STATE_SCOPE, type AgentRunState, type RunStateStore } from '../interrupts/run-state-store.js';
import { isPlainObject } from '../internal/json.js';
import { boundOptionProblems } from '../internal/option-names.js';
import { ConfigError } from '../errors/config-error.js';
import { revisionOf } from './durable-checkpointer.js';
import { storageKey } from './storage-keys.js';
import { bindingProblems, STORAGE_METHODS } from './binding-checks.js';
import { serial } from './serial-writes.js';
import { EndedRunsIndex, SWEEP_PER_WRITE } from './ended-runs.js';
import { DamagedValueError, deleteKeys, encodeEntries, getJSON, keysOf, keysOfAll, occupiedKeys, putEntries } from './storage-codec.js';
import type { DurableObjectStorageLike } from './types.js';

const PREFIX = 'run-state:';
/** The index of the ended runs (`ended-runs.ts`), by when they ended. */
const ENDED_PREFIX = 'run-state-ended:';

/** Options of {@link DurableObjectRunStateStore}. */
export interface DurableObjectRunStateStoreOptions {
  /**
   * How long an ended run is kept for replays of its last resume, in ms; after it, the store's next writes delete it
   * (16 ended runs a write at most), or a read of it. @default 86400000 (1 day)
   */
  ttlMs?: number | undefined;
  /** The largest record kept, as the length of its JSON text; a larger one fails its write (a `TypeError`). @default 8388608 (8 MiB) */
  maxRecordBytes?: number | undefined;
}

/**
 * A {@link RunStateStore} over one Durable Object's storage, so a run that stopped to ask survives a restart and its
 * resume may arrive through any isolate: the object is the one place its record lives. `put` is the contract's
 * compare-and-swap (the stored revision read, compared and replaced with nothing in between; `false` when it is not
 * `record.revision - 1`), and the store is `exclusive` — a Durable Object has one live instance, so a resume its last
 * instance left half-done is taken over at once (its calls marked started never run again). Run ids are escaped into
 * keys like the checkpointer's; values are split into parts within the platform's limits (`storage-codec.ts`). An
 * ended run is kept `ttlMs`, then deleted by the store's next writes (16 ended runs a write at most) or a read of it. A
 * record that is not one this store wrote — text that is not JSON, a missing part, a parts header that is not an
 * integer from 2 to 16,384 (the most a value is written in) — reads as none (the resume is refused with
 * `RUN_NOT_INTERRUPTED`), with nothing built from the header; a write of the next revision replaces it, and `delete`
 * removes it, with the parts actually stored. `storage` without `get`, `put`, `delete` and `list` is a `ConfigError`.
 *
 * @example
 * ```ts
 * export class Refunds {
 *   constructor(private readonly state: DurableObjectState, private readonly env: Env) {}
 *   agent = new AgentBuilder('refunds').chatClient(model).tools([refund]).approvals(toolApprovals({ store: new DurableObjectRunStateStore(this.state.storage) })).build();
 * }
 * ```
 */
export class DurableObjectRunStateStore implements RunStateStore {
  readonly exclusive = true;
  /** @internal Runs live in this instance of the object are those of its storage (every store over it). */
  declare readonly [RUN_STATE_SCOPE]: object;
  readonly ttlMs: number;
  readonly maxRecordBytes: number;

  constructor(
    private readonly storage: DurableObjectStorageLike,
    options: DurableObjectRunStateStoreOptions = {},
  ) {
    const problems = [...bindingProblems(storage, 'storage', "a Durable Object's storage (state.storage)", STORAGE_METHODS), ...boundOptionProblems(options, ['ttlMs', 'maxRecordBytes'])];
    if (problems.length > 0) throw ConfigError.fromProblems('DurableObjectRunStateStore', problems);
    const settings: DurableObjectRunStateStoreOptions = options ?? {};
    this[RUN_STATE_SCOPE] = storage;
    this.ttlMs = settings.ttlMs ?? 86_400_000;
    this.maxRecordBytes = settings.maxRecordBytes ?? 8 * 1024 * 1024;
  }

  async get(runId: string): Promise<AgentRunState | undefined> {
    const key = keyOf(runId);
    let value: unknown;
    try {
      value = await serial(this.storage, () => getJSON(this.storage, key)); // in turn with writes: never a torn value
    } catch (error) {
      if (error instanceof DamagedValueError) return undefined; // a damaged value is no record
      throw error;
    }
    if (!isPlainObject(value)) return undefined;
    if (value['status'] === 'ended' && endedAtOf(value) + this.ttlMs <= Date.now()) {
      await this.delete(runId);
      return undefined;
    }
    return value as unknown as AgentRunState;
  }

  async put(record: AgentRunState): Promise<boolean> {
    const key = keyOf(record?.runId);
    const text = JSON.stringify(record);
    if (text.length > this.maxRecordBytes) throw new TypeError(`the run state of ${key} is ${text.length} characters of JSON; at most ${this.maxRecordBytes} are kept (maxRecordBytes)`);
    const entries = encodeEntries(key, record);
    const head = entries[key];
    if (typeof head === 'object') entries[key] = { ...head, revision: record.revision }; // a parted value's revision, read without its parts
    return serial(this.storage, async () => {
      const stored = await this.storage.get(key);
      if (revisionOf(stored) !== record.revision - 1) return false;
      const stale = (await occupiedKeys(this.storage, key, stored)).filter((old) => !Object.hasOwn(entries, old));
      const id = key.slice(PREFIX.length);
      const index = await EndedRunsIndex.open(this.storage, ENDED_PREFIX);
      await index.set(id, record.status === 'ended' ? endedAtOf(record) : undefined);
      // ended runs past ttlMs go with the store's writes, a few a write: none is kept for want of being read again
      const due = (await index.oldest(SWEEP_PER_WRITE, id)).filter((run) => run.at + this.ttlMs <= Date.now());
      await index.forget(due.map((run) => run.id));
      const swept = await keysOfAll(this.storage, due.map((run) => `${PREFIX}${run.id}`));
      await Promise.all([putEntries(this.storage, { ...entries, ...index.put }), deleteKeys(this.storage, [...stale, ...swept, ...index.drop])]);
      return true;
    });
  }

  async delete(runId: string): Promise<void> {
    const key = keyOf(runId);
    await serial(this.storage, async () => {
      const index = await EndedRunsIndex.open(this.storage, ENDED_PREFIX);
      await index.forget([key.slice(PREFIX.length)]);
      const keys = await keysOf(this.storage, key);
      await Promise.all([putEntries(this.storage, index.put), deleteKeys(this.storage, [...keys, ...index.drop])]);
    });
  }
}

/** When an ended record ended (ms since the epoch); `NaN` when its `endedAt` is not a time. */
function endedAtOf(record: { endedAt?: unknown }): number {
  return typeof record.endedAt === 'string' ? Date.parse(record.endedAt) : Number.NaN;
}

function keyOf(runId: unknown): string {
  return storageKey(PREFIX, runId, 'a run state');
}
