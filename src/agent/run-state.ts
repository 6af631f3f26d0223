/**
 * @internal The record of one agent run that stopped to ask, as a run holds it: every write a compare-and-swap on the
 * revision it read or wrote last, and which runs are live in this process (a retried resume waits for a live one and
 * takes over a dead one).
 */
import { AgentError } from '../errors/agent-error.js';
import { isoTimestamp, isTimestamp } from '../internal/clock.js';
import { isPlainObject, preview } from '../internal/json.js';
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
 * not waiting (a resume claimed it first, it ended, or the store never kept it) or is not `owner`'s (a run kept with an
 * owner is closed only by that owner, as only that owner resumes it).
 */
export async function supersedeRun(store: RunStateStore, agent: string, runId: string, owner?: string): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_WRITES; attempt++) {
    const read = await store.get(runId);
    let record: AgentRunState | undefined;
    try {
      record = runStateOf(read, agent);
    } catch {
      return false; // a damaged record waits on nothing a new message could close: its resume is refused RUN_STATE_FAILED
    }
    if (record?.status !== 'interrupted' || (record.owner !== undefined && record.owner !== owner)) return false;
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

/**
 * A record read back from a store: undefined when it is none, or not this agent's (another format version, another
 * agent); an `AgentError` `RUN_STATE_FAILED` naming the first damaged field when it is this agent's but does not hold
 * what this module writes — a store may return anything (`RunStateStore`), and a resume reads every part of it.
 */
export function runStateOf(value: unknown, agent: string, shown = 'this run'): AgentRunState | undefined {
  if (!isPlainObject(value) || value['version'] !== 1 || value['agent'] !== agent) return undefined;
  const damaged = damagedField(value);
  if (damaged !== undefined) throw new AgentError(`The kept record of ${shown} of agent ${preview(agent, 80)} is damaged (${damaged}); nothing was run.`, { code: 'RUN_STATE_FAILED' });
  return value as unknown as AgentRunState;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isCount = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0;
const listOf = (value: unknown, each: (item: unknown) => boolean): boolean => Array.isArray(value) && value.every(each);
const recordOf = (value: unknown, each: (item: unknown) => boolean): boolean => isPlainObject(value) && Object.values(value).every(each);
const isMessage = (value: unknown): boolean => isPlainObject(value) && isString(value['role']);
const isCall = (value: unknown): boolean => isPlainObject(value) && isString(value['id']) && isString(value['name']) && isString(value['arguments']);
/** An agent run waits on approvals only: each names its tool call. */
const isInterrupt = (value: unknown): boolean => isPlainObject(value) && isString(value['id']) && value['kind'] === 'approval' && isString(value['toolCallId']) && (value['toolName'] === undefined || isString(value['toolName'])) && (value['expiresAt'] === undefined || isTimestamp(value['expiresAt']));
const isResume = (value: unknown): boolean => isPlainObject(value) && isString(value['key']) && listOf(value['interruptIds'], isString) && (value['outcome'] === undefined || isPlainObject(value['outcome']));

/** The first field of a record of this module's format that does not hold what it writes, if any. */
function damagedField(value: Record<string, unknown>): string | undefined {
  const round = value['round'];
  const checks: Array<[string, boolean]> = [
    ['revision', Number.isInteger(value['revision']) && (value['revision'] as number) >= 1],
    ['owner', value['owner'] === undefined || isString(value['owner'])],
    ['status', value['status'] === 'interrupted' || value['status'] === 'resuming' || value['status'] === 'ended'],
    ['input', listOf(value['input'], isMessage)],
    ['added', listOf(value['added'], isMessage)],
    ['iterations', isCount(value['iterations'])],
    ['usage', isPlainObject(value['usage'])],
    ['round', isPlainObject(round) && isCount(round['iteration']) && listOf(round['calls'], isCall) && recordOf(round['answered'], isString)],
    ['interrupts', listOf(value['interrupts'], isInterrupt)],
    ['executions', recordOf(value['executions'], (each) => isPlainObject(each) && (each['state'] === 'started' || (each['state'] === 'done' && isString(each['content']))))],
    ['denied', listOf(value['denied'], isString)],
    ['resumes', listOf(value['resumes'], isResume)],
  ];
  return checks.find(([, ok]) => !ok)?.[0];
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
