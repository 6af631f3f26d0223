/** The default store of agent runs that stopped to ask: bounded, in memory, a compare-and-swap on each revision. */
import { ConfigError } from '../errors/config-error.js';
import { boundOptionProblems } from '../internal/option-names.js';
import type { AgentRunState, RunStateStore } from './run-state-store.js';

/** Options of {@link InMemoryRunStateStore}. */
export interface InMemoryRunStateStoreOptions {
  /** Runs kept; past it the least recently written is forgotten. @default 1000 */
  maxRuns?: number | undefined;
  /** Size of everything kept, as the length of the records' JSON text; past it the oldest go. @default 16777216 (16 MiB) */
  maxBytes?: number | undefined;
  /** How long an ended run is kept for replays of its last resume, in ms. @default 3600000 (1 hour) */
  ttlMs?: number | undefined;
}

interface Kept {
  text: string;
  revision: number;
  /** When an ended run may be forgotten (ms since the epoch). */
  expires?: number;
}

/**
 * The default {@link RunStateStore}: in memory, for one process (a test, a dev server, one Worker isolate), copies in
 * and out (records are kept as their JSON text), `exclusive`. Bounded: at most `maxRuns` runs and `maxBytes` of JSON
 * (the least recently written forgotten first; the newest is always kept), and an ended run is forgotten `ttlMs` after
 * it ended. A forgotten run's resume is refused with `RUN_NOT_INTERRUPTED`; an approval waiting that long is lost, so
 * runs waiting on people for days need a durable store (`DurableObjectRunStateStore`, or your database).
 * @example `new AgentBuilder('refunds').chatClient(model).tools([refund]).approvals(toolApprovals({ store: new InMemoryRunStateStore({ maxRuns: 100 }) }))`
 */
export class InMemoryRunStateStore implements RunStateStore {
  private readonly runs = new Map<string, Kept>();
  private totalBytes = 0;
  readonly maxRuns: number;
  readonly maxBytes: number;
  readonly ttlMs: number;
  readonly exclusive = true;

  constructor(options: InMemoryRunStateStoreOptions = {}) {
    const problems = boundOptionProblems(options, ['maxRuns', 'maxBytes', 'ttlMs']);
    if (problems.length > 0) throw ConfigError.fromProblems('InMemoryRunStateStore options', problems);
    const settings: InMemoryRunStateStoreOptions = options ?? {};
    this.maxRuns = settings.maxRuns ?? 1000;
    this.maxBytes = settings.maxBytes ?? 16 * 1024 * 1024;
    this.ttlMs = settings.ttlMs ?? 3_600_000;
  }

  async get(runId: string): Promise<AgentRunState | undefined> {
    this.sweep();
    const kept = this.runs.get(runId);
    return kept === undefined ? undefined : (JSON.parse(kept.text) as AgentRunState);
  }

  /** Writes the record when the stored revision is `record.revision - 1` (none stored: 0), else resolves `false`. */
  async put(record: AgentRunState): Promise<boolean> {
    if (typeof record?.runId !== 'string' || !Number.isInteger(record.revision)) throw new TypeError('a run state needs a runId and an integer revision');
    const text = JSON.stringify(record);
    this.sweep();
    if ((this.runs.get(record.runId)?.revision ?? 0) !== record.revision - 1) return false;
    this.forget(record.runId);
    const kept: Kept = { text, revision: record.revision };
    if (record.status === 'ended') kept.expires = Date.now() + this.ttlMs;
    this.runs.set(record.runId, kept);
    this.totalBytes += text.length;
    while (this.runs.size > this.maxRuns || (this.totalBytes > this.maxBytes && this.runs.size > 1)) this.forget(this.runs.keys().next().value as string);
    return true;
  }

  async delete(runId: string): Promise<void> {
    this.forget(runId);
  }

  /** What the store holds now, against its bounds. */
  get size(): { runs: number; bytes: number } {
    return { runs: this.runs.size, bytes: this.totalBytes };
  }

  /** Forgets the ended runs whose TTL passed. */
  private sweep(): void {
    const time = Date.now();
    for (const [runId, kept] of this.runs) if (kept.expires !== undefined && kept.expires <= time) this.forget(runId);
  }

  private forget(runId: string): void {
    const kept = this.runs.get(runId);
    if (kept === undefined) return;
    this.totalBytes -= kept.text.length;
    this.runs.delete(runId);
  }
}
