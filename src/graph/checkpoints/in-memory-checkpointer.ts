/** The default graph checkpointer: bounded, in memory, a compare-and-swap on each run's revision. */
import { ConfigError } from '../../errors/config-error.js';
import { WorkflowError } from '../../errors/workflow-error.js';
import { messageOf } from '../../internal/error-chain.js';
import { truncate } from '../../internal/json.js';
import { boundOptionProblems } from '../../internal/option-names.js';
import type { Checkpointer, GraphCheckpoint } from '../core/checkpointer.js';
import { CHECKPOINT_INVALID, CHILD_RUN_SEPARATOR } from '../core/constants.js';

/** Options of {@link InMemoryCheckpointer}. */
export interface InMemoryCheckpointerOptions {
  /** Runs kept (a subgraph's checkpoint is a run of its own); past it the oldest written is forgotten. @default 1000 */
  maxRuns?: number | undefined;
  /** Size of everything kept, as the length of the checkpoints' JSON text; past it the oldest go. @default 16777216 (16 MiB) */
  maxBytes?: number | undefined;
}

/** One run kept: its checkpoint's JSON text and revision (read without parsing the text). */
interface Kept {
  text: string;
  revision: number;
}

/**
 * The default checkpointer: in memory, for one process (a test, a dev server, one Worker isolate), copies in and out
 * (checkpoints are kept as their JSON text). `put` is the compare-and-swap of the {@link Checkpointer} contract (it
 * resolves `false` when the stored revision is not `checkpoint.revision - 1`), and the store is `exclusive`: only this
 * process writes it, so a run it holds that is no longer live here is taken over at once. Bounded: at most `maxRuns`
 * runs and `maxBytes` of JSON, the least recently written forgotten first (a checkpoint is kept even when it alone is
 * over the size bound, so the newest one can always be read back); a forgotten run resumes as `CHECKPOINT_NOT_FOUND`,
 * and a live run whose checkpoint was forgotten stops at its next write (`RUN_TAKEN_OVER`).
 * @example `const outcome = await compiled.run(input, { checkpointer: new InMemoryCheckpointer({ maxRuns: 100 }), runId: 'order-42' })`
 */
export class InMemoryCheckpointer implements Checkpointer {
  private readonly runs = new Map<string, Kept>();
  private totalBytes = 0;
  readonly maxRuns: number;
  readonly maxBytes: number;
  readonly exclusive = true;

  constructor(options: InMemoryCheckpointerOptions = {}) {
    const problems = boundOptionProblems(options, ['maxRuns', 'maxBytes']);
    if (problems.length > 0) throw ConfigError.fromProblems('InMemoryCheckpointer options', problems);
    const settings: InMemoryCheckpointerOptions = options ?? {};
    this.maxRuns = settings.maxRuns ?? 1000;
    this.maxBytes = settings.maxBytes ?? 16 * 1024 * 1024;
  }

  async get(runId: string): Promise<GraphCheckpoint | undefined> {
    const kept = this.runs.get(runId);
    return kept === undefined ? undefined : (JSON.parse(kept.text) as GraphCheckpoint);
  }

  /**
   * Writes the checkpoint when the stored revision is `checkpoint.revision - 1` (none stored: 0), else resolves
   * `false`; one without a `revision` is written as it is. Rejects with a `WorkflowError` (`CHECKPOINT_INVALID`) for a
   * value without a run id or that is not JSON.
   */
  async put(checkpoint: GraphCheckpoint): Promise<boolean> {
    let text: string | undefined;
    try {
      text = typeof checkpoint?.runId === 'string' ? JSON.stringify(checkpoint) : undefined;
    } catch (error) {
      throw new WorkflowError(`The checkpoint cannot be kept: it is not JSON: ${truncate(messageOf(error), 200)}`, { code: CHECKPOINT_INVALID, cause: error });
    }
    if (text === undefined) throw new WorkflowError('The checkpoint cannot be kept: it has no runId', { code: CHECKPOINT_INVALID });
    const { runId, revision } = checkpoint;
    const conditional = typeof revision === 'number';
    if (conditional && (this.runs.get(runId)?.revision ?? 0) !== revision - 1) return false;
    this.forget(runId);
    this.runs.set(runId, { text, revision: conditional && Number.isInteger(revision) && revision > 0 ? revision : 0 });
    this.totalBytes += text.length;
    while (this.runs.size > this.maxRuns || (this.totalBytes > this.maxBytes && this.runs.size > 1)) this.forget(this.runs.keys().next().value as string);
    return true;
  }

  async delete(runId: string): Promise<void> {
    const children = `${runId}${CHILD_RUN_SEPARATOR}`;
    for (const id of [...this.runs.keys()]) if (id === runId || id.startsWith(children)) this.forget(id);
  }

  /** What the store holds now, against its bounds. */
  get size(): { runs: number; bytes: number } {
    return { runs: this.runs.size, bytes: this.totalBytes };
  }

  private forget(runId: string): void {
    const kept = this.runs.get(runId);
    if (kept === undefined) return;
    this.totalBytes -= kept.text.length;
    this.runs.delete(runId);
  }
}
