/**
 * @internal The bound of a store of runs over one long-lived object: an index of the runs that ended, oldest first,
 * so a write can find the ones to delete (past a count, past a time) without reading every record. Each store keeps
 * its own index under its own prefix, changed in the same atomic write as the records it describes, inside the
 * object's `serial` queue:
 *   `<prefix>seq:<16 digits>` → the run's id as escaped in its record key, in the order the runs ended
 *   `<prefix>run:<id>`        → `{ seq, at }`: its entry, and when it ended (ms since the epoch)
 *   `<prefix>meta`            → `{ v: 1, next, count }`; missing or damaged, recounted from the `seq:` entries (and
 *                               written back with the write that recounted it)
 * A `seq:` entry counts only while its run's entry points back to it (`run:<id>.seq`): one left by a damaged or lost
 * entry is deleted when it is met, never taken for an ended run.
 */
import { isPlainObject } from '../internal/json.js';
import type { DurableObjectStorageLike } from './types.js';

/**
 * Runs deleted by one write at most: a write's own cost stays bounded; the next writes go on where it stopped.
 * @example `const due = await index.oldest(SWEEP_PER_WRITE, id)`
 */
export const SWEEP_PER_WRITE = 16;
/** Keys per `get` call (the platform's most). */
const KEYS_PER_GET = 128;
/** Keys listed per call while recounting a damaged index. */
const KEYS_PER_LIST = 1_024;

interface Meta {
  v: 1;
  next: number;
  count: number;
}

/** An ended run as the index has it. @example `const { id, at }: EndedRun = (await index.oldest(1, current))[0]` */
export interface EndedRun {
  /** The run's id as escaped in its record key. */
  id: string;
  /** When it ended (ms since the epoch). */
  at: number;
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/**
 * @internal One write's changes to an ended-runs index: `set` and `forget` runs, read `oldest`, then merge `put` and
 * `drop` into the write. Open it inside the object's `serial` queue, and write what it answers in the same write.
 * @example
 * ```ts
 * const index = await EndedRunsIndex.open(storage, 'checkpoint-ended:');
 * await index.set(id, completed ? Date.now() : undefined);
 * await Promise.all([putEntries(storage, { ...entries, ...index.put }), deleteKeys(storage, [...stale, ...index.drop])]);
 * ```
 */
export class EndedRunsIndex {
  private readonly entries: Record<string, unknown> = {};
  private readonly dropped: string[] = [];
  private readonly forgotten = new Set<string>();
  private changed = false;

  private constructor(
    private readonly storage: DurableObjectStorageLike,
    private readonly prefix: string,
    private meta: Meta,
  ) {}

  /** The index under `prefix` as stored (its counters recounted when they are missing or damaged). */
  static async open(storage: DurableObjectStorageLike, prefix: string): Promise<EndedRunsIndex> {
    const stored = await storage.get(`${prefix}meta`);
    if (isPlainObject(stored) && stored.v === 1 && isCount(stored.next) && isCount(stored.count)) return new EndedRunsIndex(storage, prefix, stored as unknown as Meta);
    let count = 0;
    let next = 0; // past the highest sequence number of a key (a key that is not one is skipped, never reused)
    let last: string | undefined;
    for (;;) {
      const keys = [...(await storage.list({ prefix: `${prefix}seq:`, limit: KEYS_PER_LIST, ...(last === undefined ? {} : { startAfter: last }) })).keys()];
      count += keys.length;
      for (const key of keys) {
        const digits = key.slice(`${prefix}seq:`.length);
        const seq = /^\d{1,16}$/.test(digits) ? Number(digits) : Number.NaN;
        if (isCount(seq) && seq + 1 > next) next = seq + 1;
      }
      if (keys.length < KEYS_PER_LIST) break;
      last = keys.at(-1);
    }
    const index = new EndedRunsIndex(storage, prefix, { v: 1, next, count });
    index.changed = true; // the recount is written back with this write: the next ones read it
    return index;
  }

  /** The entries to write (the counters included, while the index holds a run). */
  get put(): Record<string, unknown> {
    return this.changed && this.meta.count > 0 ? { ...this.entries, [`${this.prefix}meta`]: this.meta } : this.entries;
  }

  /** The keys to delete (the counters too once the index is empty: an object that ended every run keeps nothing). */
  get drop(): string[] {
    return this.changed && this.meta.count === 0 ? [...this.dropped, `${this.prefix}meta`] : this.dropped;
  }

  /** How many ended runs the index holds once this write is made. */
  get count(): number {
    return this.meta.count;
  }

  /** Records that run `id` ended at `at` (ms), or, `undefined`, that it has not ended: its earlier entry goes. */
  async set(id: string, at: number | undefined): Promise<void> {
    await this.forget([id]);
    this.forgotten.delete(id);
    if (at === undefined || !Number.isFinite(at)) return;
    const seq = this.meta.next;
    this.entries[this.seqKey(seq)] = id;
    this.entries[this.runKey(id)] = { seq, at };
    const replaced = this.dropped.indexOf(this.runKey(id));
    if (replaced !== -1) this.dropped.splice(replaced, 1); // rewritten in this write, not deleted
    this.meta = { v: 1, next: seq + 1, count: this.meta.count + 1 };
    this.changed = true;
  }

  /** Removes the entries of the runs `ids` (their records deleted); ids without one are skipped. */
  async forget(ids: readonly string[]): Promise<void> {
    const fresh = ids.filter((id) => !this.forgotten.has(id));
    if (fresh.length === 0) return;
    const found = new Map<string, unknown>();
    for (let at = 0; at < fresh.length; at += KEYS_PER_GET) for (const [key, value] of await this.storage.get(fresh.slice(at, at + KEYS_PER_GET).map((id) => this.runKey(id)))) found.set(key, value);
    for (const id of fresh) {
      this.forgotten.add(id);
      const entry = found.get(this.runKey(id));
      if (entry === undefined) continue;
      this.dropped.push(this.runKey(id));
      if (isPlainObject(entry) && isCount(entry.seq)) this.dropped.push(this.seqKey(entry.seq));
      this.meta = { v: 1, next: this.meta.next, count: Math.max(0, this.meta.count - 1) };
      this.changed = true;
    }
  }

  /**
   * The oldest ended runs, at most `limit`, but `except` and those this write removes. A `seq:` entry whose run's entry
   * does not point back to it (damaged, lost, or rewritten) is no ended run: it is deleted with this write instead.
   */
  async oldest(limit: number, except: string): Promise<EndedRun[]> {
    if (limit <= 0) return [];
    const dropped = new Set(this.dropped);
    const listed = [...(await this.storage.list({ prefix: `${this.prefix}seq:`, limit: limit + dropped.size + 1 }))].filter(([key]) => !dropped.has(key));
    const named = listed.filter(([, id]) => typeof id === 'string') as [string, string][];
    const entries = new Map<string, unknown>();
    for (let at = 0; at < named.length; at += KEYS_PER_GET) for (const [key, value] of await this.storage.get(named.slice(at, at + KEYS_PER_GET).map(([, id]) => this.runKey(id)))) entries.set(key, value);
    const found: EndedRun[] = [];
    for (const [key, id] of listed) {
      const entry = typeof id === 'string' ? (Object.hasOwn(this.entries, this.runKey(id)) ? this.entries[this.runKey(id)] : entries.get(this.runKey(id))) : undefined;
      if (!isPlainObject(entry) || !isCount(entry.seq) || this.seqKey(entry.seq) !== key) {
        if (!Object.hasOwn(this.entries, key)) this.dropped.push(key); // a stale `seq:` key: nothing ended under it
        continue;
      }
      if (id === except || this.forgotten.has(id as string) || found.length >= limit) continue;
      found.push({ id: id as string, at: Number.isFinite(entry.at) ? (entry.at as number) : 0 });
    }
    return found;
  }

  private seqKey(seq: number): string {
    return `${this.prefix}seq:${String(seq).padStart(16, '0')}`;
  }

  private runKey(id: string): string {
    return `${this.prefix}run:${id}`;
  }
}
