/**
 * @internal The record of one agent run that stopped to ask, as a run holds it: every write a compare-and-swap on the
 * revision it read or wrote last, and which runs are live in this process (a retried resume waits for a live one and
 * takes over a dead one).
 */
import { AgentError } from '../errors/agent-error.js';
import { isoTimestamp } from '../internal/clock.js';
import { isPlainObject } from '../internal/json.js';
import { RUN_STATE_SCOPE, type AgentRunState, type RunStateStore } from '../interrupts/run-state-store.js';
import { errorJSON } from './agent-events.js';
import type { AgentRunItem } from './types.js';

/** Resumes kept per run for replays. */
const MAX_RESUMES = 20;
/** Reads of a record before closing it gives up on a store that keeps changing under it. */
const MAX_WRITES = 50;

/** The record of one run, and the writes of the run that holds it. */
export class RunStateHandle {
  constructor(
    readonly store: RunStateStore,
    public record: AgentRunState,
  ) {}

  /** Writes the record changed by `change` as the next revision; false when another write came first. */
  async write(change: (record: AgentRunState) => void): Promise<boolean> {
    const next = structuredClone(this.record);
    change(next);
    next.revision = this.record.revision + 1;
    next.updatedAt = isoTimestamp();
    if (next.resumes.length > MAX_RESUMES) next.resumes.splice(0, next.resumes.length - MAX_RESUMES);
    if ((await this.store.put(next)) === false) return false;
    this.record = next;
    return true;
  }
}

/**
 * Closes `runId` when it still waits on a person, in one compare-and-swap: no interrupts left, ended, marked
 * superseded — so a resume that comes later (or loses the race) is refused and runs nothing. False when the run was
 * not waiting (a resume claimed it first, it ended, or the store never kept it).
 */
export async function supersedeRun(store: RunStateStore, agent: string, runId: string): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_WRITES; attempt++) {
    const record = runStateOf(await store.get(runId), agent);
    if (record?.status !== 'interrupted') return false;
    const at = isoTimestamp();
    const written = await new RunStateHandle(store, record).write((next) => {
      next.status = 'ended';
      next.interrupts = [];
      next.endedAt = at;
      next.supersededAt = at;
    });
    if (written) return true;
  }
  return false;
}

/** A record read back from a store, or undefined when it is not one this module wrote (or none). */
export function runStateOf(value: unknown, agent: string): AgentRunState | undefined {
  if (!isPlainObject(value) || value['version'] !== 1 || value['agent'] !== agent || !Number.isInteger(value['revision'])) return undefined;
  for (const key of ['input', 'added', 'interrupts', 'denied', 'resumes']) if (!Array.isArray(value[key])) return undefined;
  if (!isPlainObject(value['round']) || !isPlainObject(value['executions'])) return undefined;
  return value as unknown as AgentRunState;
}

/** The last item of a run as plain JSON (kept for replays): an error as its redacted description. */
export function outcomeOf(item: AgentRunItem, secrets: readonly string[]): Record<string, unknown> {
  if (item.type === 'error') return { type: 'error', iteration: item.iteration, terminal: true, error: errorJSON(item.error, secrets) };
  return JSON.parse(JSON.stringify(item)) as Record<string, unknown>;
}

/** A kept outcome as the last item of a replay (`replay: true`); an error comes back as an `AgentError`. */
export function replayOf(outcome: Record<string, unknown>): AgentRunItem {
  if (outcome['type'] === 'error') {
    const described = isPlainObject(outcome['error']) ? outcome['error'] : {};
    const error = new AgentError(typeof described['message'] === 'string' ? described['message'] : 'The resumed run failed', { code: typeof described['code'] === 'string' ? described['code'] : undefined });
    return { type: 'error', iteration: Number(outcome['iteration']) || 0, terminal: true, error, replay: true };
  }
  return { ...(outcome as AgentRunItem), replay: true } as AgentRunItem;
}

/** Runs live in this process, per store: a retried resume of one of them waits for it instead of taking it over. */
let live: WeakMap<object, Map<string, Promise<void>>> | undefined;

/** Marks `runId` live on `store` until the returned function is called. */
export function markLive(store: RunStateStore, runId: string): () => void {
  live ??= new WeakMap();
  const scope = store[RUN_STATE_SCOPE] ?? store;
  let runs = live.get(scope);
  if (runs === undefined) live.set(scope, (runs = new Map()));
  let release = (): void => {};
  const ended = new Promise<void>((resolve) => (release = resolve));
  runs.set(runId, ended);
  const held = runs;
  return () => {
    if (held.get(runId) === ended) held.delete(runId);
    release();
  };
}

/** The end of `runId`'s live run in this process, if one is live. */
export function liveRun(store: RunStateStore, runId: string): Promise<void> | undefined {
  return live?.get(store[RUN_STATE_SCOPE] ?? store)?.get(runId);
}
