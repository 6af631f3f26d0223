/**
 * Graph checkpoints: what a checkpointed run saves after each superstep (plain JSON, so any storage can keep it), the
 * store it saves to, the check every checkpoint read back passes, and the bounded in-memory default.
 */
import { ConfigError } from '../errors/config-error.js';
import { WorkflowError } from '../errors/workflow-error.js';
import { messageOf } from '../internal/error-chain.js';
import { isPlainObject, positiveIntegerProblems } from '../internal/json.js';
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
   * not be reduced (that update's execution-error records, then the recovery's update).
   */
  updates: Array<Record<string, string | null>>;
  /** Its `Command.goto` targets, when it routed explicitly instead of by its edges (`[]`: nowhere). */
  goto?: string[];
}

/**
 * One run's checkpoint: plain JSON (it survives `JSON.stringify`/`JSON.parse` and `structuredClone`), replaced after
 * every superstep. `running`: steps before `step` are done, `pending` runs next. `failed`: step `step` failed; its
 * `pending` nodes run again except those in `succeeded`. `completed`: the run finished after `step` supersteps.
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
  /** The run it belongs to (a subgraph's: `<parent run id>/<agent node id>`). */
  runId: string;
  status: 'running' | 'failed' | 'completed';
  /** The superstep to run next (`failed`: the one that failed; `completed`: the number of supersteps run). */
  step: number;
  /**
   * The state, one JSON text per key, like a state delta (a key whose value is `undefined` is left out); every
   * execution-error record lives here. `failed`: the failed step's input state plus the failure's records.
   */
  state: Record<string, string>;
  /** The nodes due at `step`, in trigger order (`completed`: none). */
  pending: string[];
  /** `failed` only: the nodes of the failed step that succeeded. */
  succeeded?: CheckpointNodeResult[];
  /** When it was saved (ISO 8601). */
  updatedAt: string;
}

/**
 * Where a checkpointed graph run keeps its checkpoint: one per run id, replaced by every `put`. Implement it over any
 * storage (a Durable Object, KV, a database); `get` may return anything, since every checkpoint read back is checked.
 * @example `await compiled.run(input, { checkpointer: new InMemoryCheckpointer(), runId: 'order-42' })`
 */
export interface Checkpointer {
  /** The run's checkpoint, or `undefined` when there is none. */
  get(runId: string): Promise<GraphCheckpoint | undefined>;
  /** Saves the checkpoint of `checkpoint.runId`, replacing the one before. */
  put(checkpoint: GraphCheckpoint): Promise<void>;
  /** Forgets the run's checkpoint and those of its subgraphs (run ids starting with `${runId}/`). */
  delete(runId: string): Promise<void>;
}

/** @internal True for objects with the three methods of a {@link Checkpointer}. */
export function isCheckpointer(value: unknown): value is Checkpointer {
  if (typeof value !== 'object' || value === null) return false;
  const store = value as Partial<Record<keyof Checkpointer, unknown>>;
  return typeof store.get === 'function' && typeof store.put === 'function' && typeof store.delete === 'function';
}

const STATUSES = new Set(['running', 'failed', 'completed']);
const isIndex = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Problems of one encoded state or update: a plain object of JSON texts (`null` too when `nulls`). */
function textsProblems(value: unknown, where: string, nulls: boolean): string[] {
  if (!isPlainObject(value)) return [`${where} must be an object of JSON texts`];
  return Object.keys(value)
    .filter((key) => !(typeof value[key] === 'string' || (nulls && value[key] === null)))
    .map((key) => `${where} key ${JSON.stringify(key)} must be a JSON text${nulls ? ' or null' : ''}`);
}

function succeededProblems(value: unknown, pending: unknown): string[] {
  if (!Array.isArray(value)) return ['succeeded must be a list'];
  const due = isStringList(pending) ? pending : [];
  const seen = new Set<number>();
  return value.flatMap((result: unknown, position) => {
    const where = `succeeded[${position}]`;
    if (!isPlainObject(result)) return [`${where} must be an object`];
    const problems: string[] = [];
    if (!isIndex(result.index) || result.index >= due.length || due[result.index] !== result.nodeId || seen.has(result.index)) {
      problems.push(`${where} must name a pending node by its index and id, once (got ${JSON.stringify(result.index)}, ${JSON.stringify(result.nodeId)})`);
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
  if (value.version !== 1) problems.push(`version must be 1 (got ${JSON.stringify(value.version) ?? 'nothing'})`);
  if (typeof value.runId !== 'string' || value.runId === '') problems.push('runId must be a non-empty string');
  else if (runId !== undefined && value.runId !== runId) problems.push(`runId is ${JSON.stringify(value.runId)}, not ${JSON.stringify(runId)}`);
  if (typeof value.status !== 'string' || !STATUSES.has(value.status)) problems.push(`status must be running, failed or completed (got ${JSON.stringify(value.status) ?? 'nothing'})`);
  if (!isIndex(value.step)) problems.push(`step must be an integer ≥ 0 (got ${JSON.stringify(value.step) ?? 'nothing'})`);
  problems.push(...textsProblems(value.state, 'state', false));
  if (!isStringList(value.pending)) problems.push('pending must be a list of node ids');
  if (value.succeeded !== undefined) problems.push(...succeededProblems(value.succeeded, value.pending));
  if (typeof value.updatedAt !== 'string') problems.push('updatedAt must be an ISO 8601 string');
  return problems;
}

/**
 * Checks a checkpoint read back from storage and returns a fresh copy of it; anything else — a wrong shape or
 * version, another run's checkpoint, a value that cannot even be read — throws a `WorkflowError` with code
 * `CHECKPOINT_INVALID` whose `problems` lists every problem found. (A resume also checks that each state text is
 * JSON and that the nodes exist in the graph.)
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
    problems = [`it cannot be read as JSON: ${messageOf(error)}`];
  }
  if (problems.length === 0) return copy as GraphCheckpoint;
  const subject = runId === undefined ? 'the checkpoint' : `the checkpoint of run ${JSON.stringify(runId)}`;
  throw new WorkflowError(`${subject} is not valid: ${problems.join('; ')}; delete it or resume from a valid one`, { code: CHECKPOINT_INVALID, problems });
}

/** Options of {@link InMemoryCheckpointer}. */
export interface InMemoryCheckpointerOptions {
  /** Runs kept (a subgraph's checkpoint is a run of its own); past it the oldest written is forgotten. @default 1000 */
  maxRuns?: number | undefined;
  /** Size of everything kept, as the length of the checkpoints' JSON text; past it the oldest go. @default 16777216 (16 MiB) */
  maxBytes?: number | undefined;
}

/**
 * The default checkpointer: in memory, for one process (a test, a dev server, one Worker isolate), copies in and out
 * (checkpoints are kept as their JSON text). Bounded: at most `maxRuns` runs and `maxBytes` of JSON, the least
 * recently written forgotten first (a checkpoint is kept even when it alone is over the size bound, so the newest one
 * can always be read back); a forgotten run resumes as `CHECKPOINT_NOT_FOUND`.
 * @example `const outcome = await compiled.run(input, { checkpointer: new InMemoryCheckpointer({ maxRuns: 100 }), runId: 'order-42' })`
 */
export class InMemoryCheckpointer implements Checkpointer {
  private readonly runs = new Map<string, string>();
  private totalBytes = 0;
  readonly maxRuns: number;
  readonly maxBytes: number;

  constructor(options: InMemoryCheckpointerOptions = {}) {
    const settings: InMemoryCheckpointerOptions = isPlainObject(options) ? options : {};
    const problems = positiveIntegerProblems(settings, ['maxRuns', 'maxBytes']);
    if (problems.length > 0) throw ConfigError.fromProblems('InMemoryCheckpointer options', problems);
    this.maxRuns = settings.maxRuns ?? 1000;
    this.maxBytes = settings.maxBytes ?? 16 * 1024 * 1024;
  }

  async get(runId: string): Promise<GraphCheckpoint | undefined> {
    const text = this.runs.get(runId);
    return text === undefined ? undefined : (JSON.parse(text) as GraphCheckpoint);
  }

  /** Rejects with a `WorkflowError` (`CHECKPOINT_INVALID`) for a value without a run id or that is not JSON. */
  async put(checkpoint: GraphCheckpoint): Promise<void> {
    let text: string | undefined;
    try {
      text = typeof checkpoint?.runId === 'string' ? JSON.stringify(checkpoint) : undefined;
    } catch (error) {
      throw new WorkflowError(`The checkpoint cannot be kept: it is not JSON: ${messageOf(error)}`, { code: CHECKPOINT_INVALID, cause: error });
    }
    if (text === undefined) throw new WorkflowError('The checkpoint cannot be kept: it has no runId', { code: CHECKPOINT_INVALID });
    this.forget(checkpoint.runId);
    this.runs.set(checkpoint.runId, text);
    this.totalBytes += text.length;
    while (this.runs.size > this.maxRuns || (this.totalBytes > this.maxBytes && this.runs.size > 1)) this.forget(this.runs.keys().next().value as string);
  }

  async delete(runId: string): Promise<void> {
    for (const id of [...this.runs.keys()]) if (id === runId || id.startsWith(`${runId}/`)) this.forget(id);
  }

  /** What the store holds now, against its bounds. */
  get size(): { runs: number; bytes: number } {
    return { runs: this.runs.size, bytes: this.totalBytes };
  }

  private forget(runId: string): void {
    const text = this.runs.get(runId);
    if (text === undefined) return;
    this.totalBytes -= text.length;
    this.runs.delete(runId);
  }
}
