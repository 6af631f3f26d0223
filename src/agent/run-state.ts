/**
 * @internal The record of one agent run that stopped to ask, as a run holds it: every write a compare-and-swap on the
 * revision it read or wrote last, and which runs are live in this process (a retried resume waits for a live one and
 * takes over a dead one).
 */
import { AgentError } from '../errors/agent-error.js';
import { isoTimestamp, isTimestamp } from '../internal/clock.js';
import { startTimer } from '../internal/delay.js';
import { randomUUID } from '../internal/ids.js';
import { isPlainObject, preview } from '../internal/json.js';
import { RUN_STATE_SCOPE, type AgentRunState, type RunStateStore } from '../interrupts/run-state-store.js';
import { errorJSON } from './agent-events.js';
import type { AgentRunItem } from './types.js';

/** Resumes kept per run for replays. */
const MAX_RESUMES = 20;
/** Reads of a record before closing it gives up on a store that keeps changing under it. */
const MAX_WRITES = 50;

/** How long a resume's hold on its run lasts without a renewal, by default (ms): the graph's lease. */
export const DEFAULT_RUN_LEASE_MS = 30_000;

/**
 * The record of one run, and the writes of the run that holds it, one at a time (a renewal and a run's write never
 * expect the same revision). On a store other processes write (not `exclusive`), a resume holds its run from its
 * claim until its outcome is recorded: each write carries `holder` and `leaseUntil` — a stop that asks again included
 * —, a timer renews them a third of a lease after the last write, and {@link letGo} (the outcome's write) or
 * {@link release} ends the hold; so the same resume arriving at another process waits for this one's outcome instead
 * of taking a live run over. A write the store refuses once the run was claimed means another process took it over:
 * `onLost` is told (the run stops: it is not this process's any more).
 */
export class RunStateHandle {
  // Fields `declare`d and set in the constructor: no class-field definitions to bundle.
  declare private queue: Promise<unknown>;
  declare private holder: string | undefined;
  declare private renewal: ReturnType<typeof setTimeout> | undefined;
  declare readonly store: RunStateStore;
  declare record: AgentRunState;
  declare private readonly leaseMs: number;
  /** Called once when a write is refused after the claim: another process took the run over. */
  declare onLost: (() => void) | undefined;
  declare private claimed: boolean;

  constructor(store: RunStateStore, record: AgentRunState, leaseMs = DEFAULT_RUN_LEASE_MS) {
    this.store = store;
    this.record = record;
    this.leaseMs = leaseMs;
    this.queue = Promise.resolve();
    this.claimed = false;
  }

  /** Writes the record changed by `change` as the next revision; false when another write came first. */
  write(change: (record: AgentRunState) => void): Promise<boolean> {
    const next = this.queue.then(
      () => this.put(change),
      () => this.put(change),
    );
    this.queue = next.catch(() => {});
    return next;
  }

  /** Holds the run from the next write on, on a store other processes write (an `exclusive` one knows who is live). */
  hold(): void {
    if (this.store.exclusive !== true) this.holder = randomUUID();
  }

  /** The next write ends the hold (it records the outcome): no more renewals after it. */
  letGo(): void {
    this.holder = undefined;
    clearTimeout(this.renewal);
  }

  /** The run is over here: no more renewals, and a hold still kept is let go (not waited for; a failure only lets it lapse). */
  release(): void {
    const held = this.holder !== undefined && this.record.holder === this.holder;
    this.letGo();
    this.onLost = undefined;
    if (held) this.write(() => {}).catch(() => {});
  }

  private async put(change: (record: AgentRunState) => void): Promise<boolean> {
    const next = structuredClone(this.record);
    change(next);
    next.revision = this.record.revision + 1;
    next.updatedAt = isoTimestamp();
    if (next.resumes.length > MAX_RESUMES) next.resumes.splice(0, next.resumes.length - MAX_RESUMES);
    delete next.holder;
    delete next.leaseUntil;
    if (this.holder !== undefined) {
      next.holder = this.holder;
      next.leaseUntil = isoTimestamp(Date.now() + this.leaseMs);
    }
    if ((await this.store.put(next)) === false) {
      const lost = this.claimed ? this.onLost : undefined;
      this.letGo(); // whatever this run held is not its any more
      this.onLost = undefined;
      lost?.();
      return false;
    }
    this.record = next;
    this.claimed = true;
    clearTimeout(this.renewal);
    if (next.holder !== undefined) this.renewal = startTimer(() => this.renew(), this.leaseMs / 3);
    return true;
  }

  private renew(): void {
    // A renewal that fails (the store did not answer) is tried again a third of a lease later; a refused one lets go.
    this.write(() => {}).catch(() => {
      if (this.holder !== undefined) this.renewal = startTimer(() => this.renew(), this.leaseMs / 3);
    });
  }
}

/**
 * How long (ms) another process's resume still holds `record` — `undefined` when none does: the store is `exclusive`
 * (liveness is known in this process), the record names no holder, or its lease lapsed (one that cannot be read counts
 * as lapsed).
 */
export function heldElsewhere(store: RunStateStore, record: AgentRunState): number | undefined {
  if (store.exclusive === true || record.holder === undefined) return undefined;
  const remaining = Date.parse(record.leaseUntil ?? '') - Date.now();
  return remaining > 0 ? remaining : undefined;
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
const isResume = (value: unknown): boolean =>
  isPlainObject(value) && isString(value['key']) && listOf(value['interruptIds'], isString) && (value['outcome'] === undefined || isPlainObject(value['outcome'])) && (value['calls'] === undefined || recordOf(value['calls'], isString));

/** The first field of a record of this module's format that does not hold what it writes, if any. */
function damagedField(value: Record<string, unknown>): string | undefined {
  const round = value['round'];
  const checks: Array<[string, boolean]> = [
    ['revision', Number.isInteger(value['revision']) && (value['revision'] as number) >= 1],
    ['owner', value['owner'] === undefined || isString(value['owner'])],
    ['holder', value['holder'] === undefined || isString(value['holder'])],
    ['leaseUntil', value['leaseUntil'] === undefined || isString(value['leaseUntil'])],
    ['status', value['status'] === 'interrupted' || value['status'] === 'resuming' || value['status'] === 'ended'],
    ['input', listOf(value['input'], isMessage)],
    ['added', listOf(value['added'], isMessage)],
    ['iterations', isCount(value['iterations'])],
    ['usage', isPlainObject(value['usage'])],
    ['round', isPlainObject(round) && isCount(round['iteration']) && listOf(round['calls'], isCall) && recordOf(round['answered'], isString)],
    ['interrupts', listOf(value['interrupts'], isInterrupt)],
    ['executions', recordOf(value['executions'], (each) => isPlainObject(each) && (each['state'] === 'started' || (each['state'] === 'done' && isString(each['content']) && (each['outcome'] === undefined || isString(each['outcome'])))))],
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
