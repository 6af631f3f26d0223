/**
 * What an agent run that stopped to ask keeps between the stop and its resume (plain JSON, so any storage can keep
 * it), and the store contract it is kept through: a compare-and-swap on the record's revision, like the graph
 * checkpointer's. Types only.
 */
import type { ChatMessage, ToolCall, Usage } from '../chat/core/types.js';
import type { Interrupt } from './interrupt.js';

/**
 * @internal Where a store's runs are live: every store over the same storage (a Durable Object's, one per instance of
 * the object) shares it, so a resume arriving through another store object of the same instance waits for the live
 * run instead of taking it over. The store itself by default.
 */
export const RUN_STATE_SCOPE = Symbol.for('faultline.agent.runStateScope');

/**
 * How far one approved call of a resumed run got: `started` is written (a compare-and-swap) before its tool runs,
 * `done` with the tool message after. A `started` mark without `done` means the process stopped in between: the call
 * may have run, and it is never run again. `outcome` is how the call ended (`success`, `crash`, `timeout`, `unknown`…),
 * for a resume that takes a dead one's run over and gives its answers again.
 */
export type RunCallExecution = { state: 'started' } | { state: 'done'; content: string; outcome?: string };

/** One resume that won, kept so the same resume sent again is answered with its outcome (a replay). */
export interface RunResumeRecord {
  /** `argumentsKey` of its decisions, sorted by id. */
  key: string;
  /** The interrupts it decided. */
  interruptIds: string[];
  /** How the run it continued ended (the last item, as plain JSON); none while it runs. */
  outcome?: Record<string, unknown>;
  /**
   * The calls it answered without running them, by id, with how: `denied` or `expired`. A resume that takes a dead
   * one's run over gives these answers again, with those of the calls it ran (`executions`).
   */
  calls?: Record<string, string>;
}

/**
 * One agent run that stopped to ask, as kept by a {@link RunStateStore}: plain JSON. `status` is `interrupted`
 * (waiting on `interrupts`), `resuming` (a resume won and runs it) or `ended` (the run finished or failed; kept for
 * replays until the store's TTL).
 *
 * @example
 * ```ts
 * const record = await store.get('run_1');
 * if (record?.status === 'interrupted') console.log(record.interrupts.map((each) => each.toolName));
 * ```
 */
export interface AgentRunState {
  /** The format version; a reader refuses any other. */
  version: 1;
  runId: string;
  /** The agent's name: another agent's resume of this run is refused. */
  agent: string;
  /** 1 for the first write, +1 for each one after; `put` is a compare-and-swap on it. */
  revision: number;
  status: 'interrupted' | 'resuming' | 'ended';
  /** The session the run continues (its turn is appended when the run ends, never half-way). */
  sessionId?: string;
  /** Who the run belongs to (`agent.run`'s `owner`): a resume naming another, or none, is refused. */
  owner?: string;
  /**
   * On a store that is not `exclusive`, while `resuming`: the resume that holds the run (an id of its own), until
   * `leaseUntil` (ISO 8601) unless renewed. The same resume arriving elsewhere meanwhile waits for its outcome; once
   * the lease lapses (its process died) it takes the run over.
   */
  holder?: string;
  leaseUntil?: string;
  /** The caller's messages of this turn. */
  input: ChatMessage[];
  /** What the run added so far: its assistant and tool messages, up to the round that stopped. */
  added: ChatMessage[];
  /** Model calls made so far. */
  iterations: number;
  usage: Usage;
  /** The round that stopped: its calls as the assistant message holds them, and the answers it already has. */
  round: { iteration: number; calls: ToolCall[]; answered: Record<string, string> };
  /** What the run waits on (none once a resume won). */
  interrupts: Interrupt[];
  /** Per approved call of a resume: `started` before it runs, `done` after. */
  executions: Record<string, RunCallExecution>;
  /** The calls a person refused in this run (`<tool name> <argumentsKey>`): the same call again is refused again. */
  denied: string[];
  /** The resumes that won, oldest first (at most 20 kept). */
  resumes: RunResumeRecord[];
  /** ISO 8601. */
  updatedAt: string;
  /** When the run ended (ISO 8601); the store may forget it after its TTL. */
  endedAt?: string;
  /**
   * When the user moved on instead of deciding (ISO 8601): a new message on the run's session answered its pending
   * calls as not run (`ToolApprovalSuperseded`), so a later resume is refused (`RUN_NOT_INTERRUPTED`).
   */
  supersededAt?: string;
}

/**
 * Where agent runs that stopped to ask are kept until they are resumed: one record per run id. Implement it over any
 * storage (a Durable Object, a database); `get` may return anything, since every record read back is checked.
 *
 * The contract that makes each approved call run once, whatever the number of resumes:
 * - **`put` is a compare-and-swap.** It writes `record` only if the record it holds for `record.runId` has revision
 *   `record.revision - 1` (none held counts as 0) — the compare and the write as ONE atomic step — and otherwise
 *   writes nothing and resolves `false`. Exactly `Checkpointer.put`'s rule.
 * - **`exclusive: true`** says only this process (one JavaScript realm) writes the store — memory, a Durable Object's
 *   own storage: a resume whose run is not live here is then dead, and a retried resume takes it over at once. On
 *   any other store a resume holds its run with a lease it renews (`holder`, `leaseUntil`): the same resume sent to
 *   another process waits for its outcome, and takes the run over only once the lease lapsed.
 * - `delete(runId)` forgets the run.
 *
 * @example
 * ```ts
 * const rows = new Map<string, AgentRunState>();
 * const store: RunStateStore = {
 *   get: async (runId) => structuredClone(rows.get(runId)),
 *   put: async (record) => {
 *     if ((rows.get(record.runId)?.revision ?? 0) !== record.revision - 1) return false;
 *     rows.set(record.runId, structuredClone(record));
 *     return true;
 *   },
 *   delete: async (runId) => void rows.delete(runId),
 * };
 * const agent = new AgentBuilder('refunds').chatClient(model).tools([refund]).approvals(toolApprovals({ store })).build();
 * ```
 */
export interface RunStateStore {
  /** The run's record, or `undefined` when there is none. */
  get(runId: string): Promise<AgentRunState | undefined>;
  /** Saves `record` if the stored one has revision `record.revision - 1`; else resolves `false`. */
  put(record: AgentRunState): Promise<boolean>;
  /** Forgets the run. */
  delete(runId: string): Promise<void>;
  /** Only this process writes the store: a resume not live here is taken over at once (no lease is kept). */
  readonly exclusive?: boolean | undefined;
  /** @internal See {@link RUN_STATE_SCOPE}. */
  readonly [RUN_STATE_SCOPE]?: object;
}
